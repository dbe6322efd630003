package main

// Profiling flags of `morrow run` (docs/performance.md, "Profiling your
// program"): --cpuprofile FILE writes a CPU profile of the run and
// --memprofile FILE a heap profile taken when the run has finished, both
// in the pprof format of the Go runtime (runtime/pprof), to be read with
// `go tool pprof`. They cover the run, not the compilation of a source
// file. The profiles show the runtime's Go functions (the interpreter,
// mailboxes, the scheduler, the garbage collector), which is where a
// Morrow program's time and memory go.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
)

// profileFlags are the destinations of the profiles ("" for none).
type profileFlags struct {
	cpu, mem string
}

// stringFlags is the part of the command's flag set register needs.
type stringFlags interface {
	StringVar(p *string, name, value, usage string)
}

func (p *profileFlags) register(fl stringFlags) {
	fl.StringVar(&p.cpu, "cpuprofile", "", "write a CPU profile of the run to FILE (pprof format)")
	fl.StringVar(&p.mem, "memprofile", "", "write a heap profile to FILE when the run ends (pprof format)")
}

// start creates the profile files and starts the CPU profile. finish
// stops it and writes the heap profile; it reports the first error.
// Nothing is started when start fails.
func (p *profileFlags) start() (finish func() error, err error) {
	var cpu, mem *os.File
	closeAll := func() {
		for _, f := range []*os.File{cpu, mem} {
			if f != nil {
				f.Close()
			}
		}
	}
	if p.cpu != "" {
		if cpu, err = os.Create(p.cpu); err != nil {
			return nil, fmt.Errorf("cannot create CPU profile %s: %s", p.cpu, pathErr(err))
		}
	}
	if p.mem != "" {
		if mem, err = os.Create(p.mem); err != nil {
			closeAll()
			return nil, fmt.Errorf("cannot create memory profile %s: %s", p.mem, pathErr(err))
		}
	}
	// pprof ignores the errors of its writes to the CPU profile: the
	// sticky writer keeps the first, reported when the profile closes.
	cpuw := &stickyWriter{w: cpu}
	if cpu != nil {
		if err := pprof.StartCPUProfile(cpuw); err != nil {
			closeAll()
			return nil, fmt.Errorf("cannot start the CPU profile: %v", err)
		}
	}
	return func() error {
		var errs []error
		if cpu != nil {
			pprof.StopCPUProfile()
			errs = append(errs, closeErr(cpu, cpuw.err(), p.cpu))
		}
		if mem != nil {
			runtime.GC() // the in-use figures are those of the last collection
			errs = append(errs, closeErr(mem, pprof.Lookup("heap").WriteTo(mem, 0), p.mem))
		}
		return errors.Join(errs...)
	}, nil
}

// closeErr closes a profile file and reports a failure to write or close it.
func closeErr(f io.Closer, werr error, path string) error {
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return fmt.Errorf("cannot write profile %s: %s", path, pathErr(werr))
	}
	return nil
}
