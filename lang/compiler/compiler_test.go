package compiler

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/source"
	"github.com/morrow-lang/morrow/lang/types"
	"github.com/morrow-lang/morrow/runtime/bytecode"
)

func TestCompileHello(t *testing.T) {
	p, ds, err := Compile("hello.mr", []byte("fn main():\n    println(\"hello\")\n"))
	if err != nil {
		t.Fatalf("internal error: %v", err)
	}
	if len(ds) != 0 {
		t.Fatalf("unexpected diagnostics: %v", ds.Err())
	}
	if p == nil {
		t.Fatal("no program")
	}
	if err := bytecode.Verify(p); err != nil {
		t.Fatalf("program does not verify: %v", err)
	}
}

func TestSyntaxErrorStopsBeforeCheck(t *testing.T) {
	called := false
	defer func(old func(*ast.File) (*types.Info, diag.List)) { checkFn = old }(checkFn)
	checkFn = func(f *ast.File) (*types.Info, diag.List) { called = true; return &types.Info{}, nil }
	u, err := Build("bad.mr", []byte("fn main(:\n    1\n"))
	if err != nil {
		t.Fatalf("internal error: %v", err)
	}
	if !u.Diags.HasErrors() || u.Program != nil {
		t.Fatalf("want errors and no program, got %d diagnostics, program %v", len(u.Diags), u.Program)
	}
	if called {
		t.Error("checker ran on a file with syntax errors")
	}
	for _, d := range u.Diags {
		if d.File == nil || d.File.Name != "bad.mr" {
			t.Errorf("diagnostic without the file name: %v", d)
		}
	}
}

func TestTypeErrorsAreSortedAndStop(t *testing.T) {
	defer func(old func(*ast.File) (*types.Info, diag.List)) { checkFn = old }(checkFn)
	checkFn = func(f *ast.File) (*types.Info, diag.List) {
		var l diag.List
		l.Add(f.Src, "E3001", source.Span{Start: 20, End: 21}, "second")
		l.Add(f.Src, "E3001", source.Span{Start: 3, End: 4}, "first")
		return &types.Info{}, l
	}
	ran := false
	defer func(old func(*ast.File, *types.Info) (*bytecode.Program, error)) { codegenFn = old }(codegenFn)
	codegenFn = func(*ast.File, *types.Info) (*bytecode.Program, error) { ran = true; return nil, nil }
	p, ds, err := Compile("t.mr", []byte("fn main():\n    println(1)\n"))
	if err != nil || p != nil || ran {
		t.Fatalf("want diagnostics only: p=%v err=%v codegen ran=%v", p, err, ran)
	}
	if len(ds) != 2 || ds[0].Message != "first" || ds[1].Message != "second" {
		t.Errorf("diagnostics not sorted: %v", ds)
	}
}

func TestPanicsBecomeInternalErrors(t *testing.T) {
	defer func(old func(*source.File) (*ast.File, diag.List)) { parseFn = old }(parseFn)
	parseFn = func(*source.File) (*ast.File, diag.List) { panic("boom") }
	_, ds, err := Compile("p.mr", []byte("x"))
	var ie *InternalError
	if !errors.As(err, &ie) || ie.Stage != StageParse || len(ie.Stack) == 0 {
		t.Fatalf("want InternalError from parse, got %v", err)
	}
	if !strings.Contains(err.Error(), "internal compiler error") || !strings.Contains(err.Error(), "boom") {
		t.Errorf("message: %v", err)
	}
	if len(ds) != 0 {
		t.Errorf("panic produced diagnostics: %v", ds)
	}
}

func TestMissingTreeIsInternal(t *testing.T) {
	defer func(old func(*source.File) (*ast.File, diag.List)) { parseFn = old }(parseFn)
	parseFn = func(*source.File) (*ast.File, diag.List) { return nil, nil }
	_, _, err := Compile("n.mr", nil)
	var ie *InternalError
	if !errors.As(err, &ie) || ie.Stage != StageParse {
		t.Fatalf("want parse InternalError, got %v", err)
	}
}

func TestCodegenAndVerifyFailuresAreInternal(t *testing.T) {
	defer func(old func(*ast.File) (*types.Info, diag.List)) { checkFn = old }(checkFn)
	checkFn = func(*ast.File) (*types.Info, diag.List) { return &types.Info{}, nil }
	defer func(old func(*source.File) (*ast.File, diag.List)) { parseFn = old }(parseFn)
	parseFn = func(f *source.File) (*ast.File, diag.List) { return &ast.File{Src: f}, nil }
	defer func(old func(*ast.File, *types.Info) (*bytecode.Program, error)) { codegenFn = old }(codegenFn)
	codegenFn = func(*ast.File, *types.Info) (*bytecode.Program, error) { return nil, errors.New("cannot lower") }
	_, _, err := Compile("c.mr", nil)
	var ie *InternalError
	if !errors.As(err, &ie) || ie.Stage != StageCodegen {
		t.Fatalf("want codegen InternalError, got %v", err)
	}
	codegenFn = func(*ast.File, *types.Info) (*bytecode.Program, error) { return &bytecode.Program{}, nil }
	defer func(old func(*bytecode.Program) (*bytecode.Verified, error)) { verifyFn = old }(verifyFn)
	verifyFn = func(*bytecode.Program) (*bytecode.Verified, error) { return nil, errors.New("bad stack") }
	p, _, err := Compile("c.mr", nil)
	if !errors.As(err, &ie) || ie.Stage != StageVerify || p != nil {
		t.Fatalf("want verify InternalError and no program, got %v, %v", p, err)
	}
}

func TestNotSource(t *testing.T) {
	hello := []byte("fn main():\n    println(\"hi\")\n")
	p, _, err := Compile("hello.mr", hello)
	if err != nil || p == nil {
		t.Fatal(err)
	}
	mrb := bytecode.Encode(p)
	long := append(bytes.Repeat([]byte("# 日本語\n"), 1000), 0)
	for _, tc := range []struct {
		name string
		src  []byte
		want string
	}{
		{"source", hello, ""},
		{"empty", nil, ""},
		{"one NUL in a string", []byte("fn main():\n    println(\"a\x00b\")\n"), ""},
		{"a few controls", []byte("fn main():\x01\x02\x03\n"), ""},
		{"NUL after 8 KiB of multibyte text", long, ""},
		{"bytecode", mrb, notSourceBytecode},
		{"ELF", []byte("\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00"), notSourceBinary},
		{"control and invalid UTF-8", []byte("ab\x00\xff"), notSourceBinary},
	} {
		if got := NotSource(tc.src); got != tc.want {
			t.Errorf("%s: NotSource = %q, want %q", tc.name, got, tc.want)
		}
	}
	ds, err := Check("x.mrb", mrb)
	if err != nil || len(ds) != 1 || ds[0].Code != ErrNotSource || ds[0].Message != "x.mrb is "+notSourceBytecode ||
		!strings.Contains(ds[0].Hint, "morrow run x.mrb") {
		t.Errorf("Check of bytecode: %v %v", ds, err)
	}
}

// TestWarningsOnlyWithoutErrors: a file with an error gets no warnings; a
// clean one gets its warnings, which do not stop the build.
func TestWarningsOnlyWithoutErrors(t *testing.T) {
	warn := "fn main():\n    let unused = 1\n    println(2)\n"
	u, err := Build("w.mr", []byte(warn))
	if err != nil || u.Program == nil || len(u.Diags) != 1 || u.Diags[0].Code != types.WarnUnusedLet || u.Diags[0].Severity != diag.Warning {
		t.Fatalf("warnings of a clean file: %v %v", u.Diags, err)
	}
	withErr := warn + "    println(nope)\n"
	ds, err := Check("e.mr", []byte(withErr))
	if err != nil || len(ds) != 1 || ds[0].Code != types.ErrUnknownName {
		t.Errorf("a file with an error must report only errors: %v %v", ds, err)
	}
}
