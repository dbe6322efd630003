package load

import (
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/internal/testrun"
	"github.com/morrow-lang/morrow/runtime/bytecode"
)

const src = "fn add(a: Int, b: Int) -> Int: a + b\n\nfn main() -> Int:\n    println(\"sum {add(a: 1, b: 2)}\")\n    let xs = [1, 2, 3]\n    List.len(xs)\n"

func image(t *testing.T) []byte {
	t.Helper()
	return bytecode.Encode(testrun.Compile(t, "p.mr", src))
}

func TestLoadsItsOwnEncoding(t *testing.T) {
	p, err := Bytecode("p.mrb", image(t))
	if err != nil || p == nil {
		t.Fatalf("Bytecode: %v", err)
	}
}

// TestHostileImages flips every byte and truncates at every length: the
// loader must either accept the image (a flip may land in a constant) or
// refuse it with a one-line error, and the decoder must never panic.
func TestHostileImages(t *testing.T) {
	img := image(t)
	check := func(what string, data []byte) {
		_, err := Bytecode("x.mrb", data)
		if err == nil {
			return
		}
		msg := err.Error()
		if strings.ContainsAny(msg, "\r\n") {
			t.Errorf("%s: multi-line error %q", what, msg)
		}
		if !strings.HasPrefix(msg, "cannot load x.mrb: ") {
			t.Errorf("%s: error %q lacks the path", what, msg)
		}
		if strings.Contains(msg, "decoder panic") {
			t.Errorf("%s: bytecode.Decode panicked: %s", what, msg)
		}
	}
	for n := 0; n < len(img); n++ {
		if _, err := Bytecode("x.mrb", img[:n]); err == nil {
			t.Errorf("truncated image of %d/%d bytes was accepted", n, len(img))
		}
		check("truncated", img[:n])
	}
	for i := range img {
		for _, mask := range []byte{0x01, 0x80, 0xff} {
			data := append([]byte(nil), img...)
			data[i] ^= mask
			check("flipped", data)
		}
	}
}
