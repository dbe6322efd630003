package format

import "testing"

// layoutCases pin down the canonical layout: each input formats to want.
var layoutCases = []struct {
	name, in, want string
}{
	{"spacing", "fn  f( a:Int,b :Int )->Int :a+b*2\n", "fn f(a: Int, b: Int) -> Int: a + b * 2\n"},
}

func TestLayout(t *testing.T) {
	for _, c := range layoutCases {
		t.Run(c.name, func(t *testing.T) {
			out, dl, err := Format([]byte(c.in), c.name+".mr")
			if dl.HasErrors() || err != nil {
				t.Fatalf("diagnostics %v, error %v", dl, err)
			}
			if string(out) != c.want {
				t.Errorf("got:\n%s\nwant:\n%s", out, c.want)
			}
		})
	}
}
