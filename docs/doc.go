// Package docs holds the user documentation (the *.md files here and the
// repository's README.md) and the tests that keep it true. It has no
// library code.
//
// docblocks_test.go runs every example that claims an output: a fenced
// ```morrow block followed (after prose at most) by a fenced ```output
// block is compiled and run, and its stdout must equal the output block;
// the other block kinds of the convention (```diagnostics, ```console
// with `$ morrowc …`/`$ morrow …` commands) are run through the real
// tools in-process. setup_test.go checks .ci/ensure-erlang, the script
// behind the README's `make test`, on fake PATHs.
package docs
