// Package compiler is the driver that every front end calls: morrowc,
// morrow run FILE.mr, the fixture harness and the editor server.
//
// One source file goes through the stages in order:
//
//	parser.Parse   -> *ast.File + syntax diagnostics   (stop if any error)
//	types.Check    -> *types.Info + type diagnostics   (stop if any error)
//	types.Warnings -> warnings of a file without errors (never stop)
//	codegen.Compile-> *bytecode.Program                (never user errors)
//	bytecode.Check -> *bytecode.Verified               (never user errors)
//
// User mistakes come back as a sorted diag.List. Anything else (codegen
// failing, the verifier rejecting generated code, a stage panicking) is a
// compiler bug and comes back as an *InternalError, so callers can tell the
// two apart: user errors exit 1 with diagnostics, internal errors say
// "internal compiler error" and never masquerade as a user's fault. A
// panic inside a stage is recovered here, so no input can crash a caller.
package compiler

import (
	"bytes"
	"fmt"
	"runtime/debug"
	"unicode/utf8"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/codegen"
	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/modules"
	"github.com/morrow-lang/morrow/lang/parser"
	"github.com/morrow-lang/morrow/lang/source"
	"github.com/morrow-lang/morrow/lang/types"
	"github.com/morrow-lang/morrow/runtime/bytecode"
)

// Unit is everything the driver learned about one file. Fields after the
// stage that stopped the pipeline are nil.
type Unit struct {
	// File is the entry file.
	File *source.File
	// Modules is the loaded program (every module and the joined tree);
	// nil when the input is not source text.
	Modules *modules.Program
	AST     *ast.File
	Info    *types.Info
	Diags   diag.List // sorted by position; errors stop the pipeline
	Program *bytecode.Program
	// Verified is Program's proof of verification, for running it
	// without verifying it again (engine.RunVerified).
	Verified *bytecode.Verified
}

// Stage names a pipeline stage, for internal errors.
type Stage int

// The pipeline stages in order.
const (
	StageParse Stage = iota
	StageCheck
	StageCodegen
	StageVerify
)

var stageNames = [...]string{StageParse: "parse", StageCheck: "check", StageCodegen: "codegen", StageVerify: "verify"}

func (s Stage) String() string {
	if s >= 0 && int(s) < len(stageNames) {
		return stageNames[s]
	}
	return fmt.Sprintf("Stage(%d)", int(s))
}

// InternalError is a compiler bug: a stage failed or panicked on input
// that earlier stages accepted.
type InternalError struct {
	Stage Stage
	File  string
	Err   error
	Stack []byte // set when the stage panicked
}

func (e *InternalError) Error() string {
	return fmt.Sprintf("internal compiler error (%s) in %s: %v", e.Stage, e.File, e.Err)
}

func (e *InternalError) Unwrap() error { return e.Err }

// The stage entry points, as variables so tests can inject failures.
var (
	parseFn   = parser.Parse
	checkFn   = types.Check
	codegenFn = codegen.Compile
	verifyFn  = bytecode.Check
)

// ErrNotSource is reported instead of parsing a file that is not source
// text at all; the tools also use it for a file they cannot read, so that
// `morrowc check --format json` reports read errors in its document.
var ErrNotSource = diag.Register("E0023", "a file cannot be read, or holds bytecode or binary data instead of Morrow source")

// binarySample is how much of a file NotSource inspects, and
// maxControlBytes how many control bytes that sample may hold before the
// file counts as binary.
const (
	binarySample    = 8 << 10
	maxControlBytes = 3
)

// The reasons NotSource gives.
const (
	notSourceBytecode = "a Morrow bytecode file (.mrb), not source"
	notSourceBinary   = "a binary file, not Morrow source"
)

// NotSource says why src is not Morrow source text, or returns "" when it
// may be. A file that starts with the bytecode magic number is "a Morrow
// bytecode file (.mrb), not source". A file whose first 8 KiB hold more
// than three control bytes (other than tab, line feed, carriage return
// and form feed), or any control byte together with invalid UTF-8, is "a
// binary file, not Morrow source". A text file with a stray control
// character is still source: the lexer reports that character (E0001,
// E0012) instead of one diagnostic per byte of mojibake.
func NotSource(src []byte) string {
	if bytes.HasPrefix(src, []byte(bytecode.Magic)) {
		return notSourceBytecode
	}
	sample := src[:min(len(src), binarySample)]
	controls := 0
	for _, c := range sample {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' || c == 0x7f {
			controls++
		}
	}
	if controls > maxControlBytes || controls > 0 && !utf8.Valid(trimPartialRune(sample, len(src))) {
		return notSourceBinary
	}
	return ""
}

// trimPartialRune drops an incomplete UTF-8 sequence that the sample cut
// off at its end (when the file is longer than the sample).
func trimPartialRune(sample []byte, total int) []byte {
	if total == len(sample) {
		return sample
	}
	for i := len(sample) - 1; i >= 0 && i >= len(sample)-utf8.UTFMax; i-- {
		if utf8.RuneStart(sample[i]) {
			if !utf8.FullRune(sample[i:]) {
				return sample[:i]
			}
			break
		}
	}
	return sample
}

// guard runs one stage and turns a panic into an InternalError.
func guard(stage Stage, file string, fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &InternalError{Stage: stage, File: file, Err: fmt.Errorf("panic: %v", r), Stack: debug.Stack()}
		}
	}()
	if e := fn(); e != nil {
		return &InternalError{Stage: stage, File: file, Err: e}
	}
	return nil
}

// Analyze parses and checks a program given by its entry file, following
// its imports from disk (lang/modules). It stops after loading when the
// parser or the module loader reported errors (a partial tree would only
// produce follow-on noise). The error result is non-nil only for an
// InternalError.
func Analyze(name string, src []byte) (*Unit, error) {
	return AnalyzeWith(name, src, modules.Options{})
}

// AnalyzeWith is Analyze with loader options: unsaved buffers that take
// precedence over the disk (the editor server), or a project root and
// library mode (`morrowc check DIR`).
func AnalyzeWith(name string, src []byte, opts modules.Options) (*Unit, error) {
	u := &Unit{File: source.NewFile(name, src)}
	if why := NotSource(src); why != "" {
		d := u.Diags.Add(u.File, ErrNotSource, source.Span{}, "%s is %s", name, why)
		if why == notSourceBytecode {
			d.Hint = "run it with `morrow run " + name + "`, or list it with `morrowc disasm " + name + "`"
		}
		return u, nil
	}
	if src == nil {
		src = []byte{}
	}
	var perr error
	opts.Parse = func(f *source.File) (a *ast.File, dl diag.List) {
		e := guard(StageParse, f.Name, func() error {
			a, dl = parseFn(f)
			return nil
		})
		if e != nil && perr == nil {
			perr = e
		}
		if a == nil && e == nil {
			perr = &InternalError{Stage: StageParse, File: f.Name, Err: fmt.Errorf("parser returned no tree and no error")}
		}
		if a == nil {
			a = &ast.File{Src: f}
		}
		return a, dl
	}
	prog, err := modules.Load(name, src, opts)
	if err != nil {
		return u, &InternalError{Stage: StageParse, File: name, Err: err}
	}
	u.Modules = prog
	u.File = prog.Entry.File
	if perr != nil {
		u.Diags = prog.MapDiags(prog.Diags)
		return u, perr
	}
	warns := prog.Resolve()
	if prog.Diags.HasErrors() {
		u.Diags = prog.MapDiags(prog.Diags)
		return u, nil
	}
	u.AST = prog.AST
	var cd diag.List
	err = guard(StageCheck, name, func() error {
		u.Info, cd = checkFn(u.AST)
		if !cd.HasErrors() {
			// Warnings only for a program without errors (types.Warnings).
			cd = append(cd, types.Warnings(u.AST, u.Info)...)
		}
		return nil
	})
	all := append(prog.Diags, cd...)
	if !all.HasErrors() {
		all = append(all, warns...)
	}
	if opts.Library {
		all = dropNoMain(all)
	}
	u.Diags = prog.MapDiags(all)
	return u, err
}

// dropNoMain removes the "no main" error of a module checked on its own:
// only a program's entry needs main.
func dropNoMain(l diag.List) diag.List {
	out := l[:0]
	for _, d := range l {
		if d.Code != types.ErrNoMain {
			out = append(out, d)
		}
	}
	return out
}

// Build runs the whole pipeline on one file. When the file has errors,
// u.Diags holds them and u.Program is nil; err is reserved for
// InternalError.
func Build(name string, src []byte) (*Unit, error) {
	u, err := Analyze(name, src)
	if err != nil || u.Diags.HasErrors() {
		return u, err
	}
	if testsOnly(u) {
		return u, nil // tests.go
	}
	return u, generate(u, name)
}

// generate runs code generation and verification on a checked unit
// without errors, filling u.Program and u.Verified; on an internal error
// it leaves both nil.
func generate(u *Unit, name string) error {
	if u.Info == nil {
		return &InternalError{Stage: StageCheck, File: name, Err: fmt.Errorf("checker returned no Info")}
	}
	err := guard(StageCodegen, name, func() error {
		p, e := codegenFn(u.AST, u.Info)
		if e == nil && p == nil {
			e = fmt.Errorf("codegen returned no program")
		}
		u.Program = p
		return e
	})
	if err != nil {
		u.Program = nil
		return err
	}
	err = guard(StageVerify, name, func() (e error) {
		u.Verified, e = verifyFn(u.Program)
		return e
	})
	if err != nil {
		u.Program, u.Verified = nil, nil
	}
	return err
}

// Check parses and type-checks one file and returns its diagnostics.
func Check(name string, src []byte) (diag.List, error) {
	u, err := Analyze(name, src)
	return u.Diags, err
}

// Compile turns one file into a verified program. A nil program with a
// nil error means the diagnostics contain errors.
func Compile(name string, src []byte) (*bytecode.Program, diag.List, error) {
	u, err := Build(name, src)
	return u.Program, u.Diags, err
}
