package compiler_test

import (
	"bytes"
	"testing"

	"github.com/morrow-lang/morrow/bench"
	"github.com/morrow-lang/morrow/lang/codegen"
	"github.com/morrow-lang/morrow/lang/compiler"
	"github.com/morrow-lang/morrow/lang/parser"
	"github.com/morrow-lang/morrow/lang/source"
	"github.com/morrow-lang/morrow/lang/types"
	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/gotune"
)

// compileSource is the compile workload of `make bench` at its default
// size (bench.CompileSource: 9,355 lines just under the token limit).
func compileSource(b *testing.B) []byte {
	w, ok := bench.Lookup("compile")
	if !ok {
		b.Fatal("no compile workload")
	}
	return bench.CompileSource(w.Size)
}

// BenchmarkBuild measures what `make bench` calls compile: the whole
// pipeline (parse, check, warnings, codegen, verify) of the generated
// file, in lines per second. GC percent is 400 as in the binaries
// (runtime/gotune) unless GOGC is set.
func BenchmarkBuild(b *testing.B) {
	gotune.SetGC()
	src := compileSource(b)
	lines := bytes.Count(src, []byte("\n"))
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		u, err := compiler.Build("compile.mr", src)
		if err != nil || u.Program == nil {
			b.Fatalf("does not compile: %v %v", err, u.Diags)
		}
	}
	cpu := cpuTime() - cpu0
	b.ReportMetric(float64(lines)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(lines), "ns/line")
	// CPU time of the whole process (the garbage collector's workers
	// included) per line: steadier than wall time on a loaded machine.
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/float64(lines), "cpu-ns/line")
}

// BenchmarkStages times each stage of Build alone on the same file.
func BenchmarkStages(b *testing.B) {
	gotune.SetGC()
	src := compileSource(b)
	lines := bytes.Count(src, []byte("\n"))
	f := source.NewFile("compile.mr", src)
	file, pd := parser.Parse(f)
	if pd.HasErrors() {
		b.Fatal(pd.Err())
	}
	info, cd := types.Check(file)
	if cd.HasErrors() {
		b.Fatal(cd.Err())
	}
	prog, err := codegen.Compile(file, info)
	if err != nil {
		b.Fatal(err)
	}
	per := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(lines), "ns/line")
	}
	b.Run("parse", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			parser.Parse(source.NewFile("compile.mr", src))
		}
		per(b)
	})
	b.Run("check", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			info, _ := types.Check(file)
			types.Warnings(file, info)
		}
		per(b)
	})
	b.Run("codegen", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := codegen.Compile(file, info); err != nil {
				b.Fatal(err)
			}
		}
		per(b)
	})
	b.Run("verify", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := bytecode.Check(prog); err != nil {
				b.Fatal(err)
			}
		}
		per(b)
	})
}
