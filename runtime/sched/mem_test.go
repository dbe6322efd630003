package sched_test

import (
	"bytes"
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/runtime/sched"
	"github.com/morrow-lang/morrow/runtime/vm"
)

// TestIdleProcessMemory measures the heap cost of a process parked in
// receive (docs/reference/runtime.md#execution-model aims for well under 1 KiB).
func TestIdleProcessMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("measures memory; slow under -short")
	}
	img := load(t, `
fn parked():
    receive:
        () -> ()

fn park(n: Int):
    if n > 0:
        let r: Result(Pid(()), Process.Error) = Process.spawn(parked)
        match r:
            Ok(_) -> park(n - 1)
            Err(_) -> println("spawn failed")

fn main():
    park(1000)
`)
	var out bytes.Buffer
	rt := sched.New(img, sched.NewOutput(&out), sched.Config{Schedulers: 1})
	st, err := vm.NewState(img, img.Prog.Entry, nil)
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan sched.Result)
	go func() { done <- rt.Run(ctx, st) }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		live, _ := rt.Inv.Live()
		if live == 1000 && rt.Idle() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes did not park (live %d)", live)
		}
		time.Sleep(time.Millisecond)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	per := (int64(after.HeapAlloc) - int64(before.HeapAlloc)) / 1000
	t.Logf("heap per parked process: %d bytes", per)
	if per > 1024 {
		t.Errorf("a parked process costs %d bytes", per)
	}
	cancel()
	<-done
}
