// Package bytecode defines Morrow's compiled program format.
// PLACEHOLDER: replaced by the bytecode implementation.
package bytecode

import (
	"errors"
	"io"
)

// Program is a compiled, verified Morrow program.
type Program struct{}

// Encode serialises a program to the .mrb format.
func Encode(p *Program) []byte { return nil }

// Decode reads a .mrb file; it never panics on hostile input.
func Decode(b []byte) (*Program, error) { return nil, errors.New("not implemented") }

// Verify checks a program's structural invariants.
func Verify(p *Program) error { return errors.New("not implemented") }

// Disassemble writes a human-readable listing; src (may be nil) supplies
// source lines by line number.
func Disassemble(w io.Writer, p *Program, src func(line int) string) error {
	return errors.New("not implemented")
}
