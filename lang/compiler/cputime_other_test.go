//go:build !unix

package compiler_test

import "time"

// cpuTime is not measured here: the cpu-ns/line metric reads 0.
func cpuTime() time.Duration { return 0 }
