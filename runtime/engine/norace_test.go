//go:build !race

package engine_test

// raceEnabled says that the tests run under the race detector.
const raceEnabled = false
