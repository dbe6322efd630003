package core

import (
	"strings"
	"unicode/utf8"

	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/native"
	"github.com/morrow-lang/morrow/runtime/value"
)

// Strings are UTF-8; every length and position below counts bytes.

func str(v value.Value) string { return v.AsString() }

func strList(items []string) value.Value {
	out := make([]value.Value, len(items))
	for i, s := range items {
		out[i] = value.String(s)
	}
	return value.NewList(out)
}

// isBoundary reports whether byte index i of s (0 <= i <= len(s)) is the
// start of a character or the end of the string.
func isBoundary(s string, i int) bool {
	return i == 0 || i == len(s) || utf8.RuneStart(s[i])
}

// Slice is String.slice: byte indices, end exclusive, clamped (a start
// below 0 becomes 0, an end below the start becomes the start, then both
// are capped at the length), fault 6 when a clamped endpoint falls inside
// a multi-byte character.
func Slice(s string, start, end int64) (string, *fault.Fault) {
	if start < 0 {
		start = 0
	}
	if end < start {
		end = start
	}
	n := int64(len(s))
	start, end = min(start, n), min(end, n)
	if !isBoundary(s, int(start)) || !isBoundary(s, int(end)) {
		return "", fault.New(fault.SliceUTF8)
	}
	return s[start:end], nil
}

// Split is String.split(text, sep): an ordinary split keeping empty pieces
// for a non-empty separator; one string per Unicode scalar for an empty
// one (fault 7 if the text is not valid UTF-8).
// The result has at most 2^24 elements (fault 15 beyond, like every list
// a native builds).
func Split(s, sep string) (value.Value, *fault.Fault) {
	if sep != "" {
		if strings.Count(s, sep)+1 > listLimit {
			return value.Unit, fault.New(fault.ListSize)
		}
		return strList(strings.Split(s, sep)), nil
	}
	if !utf8.ValidString(s) {
		return value.Unit, fault.New(fault.SplitUTF8)
	}
	n := utf8.RuneCountInString(s)
	if n > listLimit {
		return value.Unit, fault.New(fault.ListSize)
	}
	out := make([]value.Value, 0, n)
	for i := 0; i < len(s); {
		_, size := utf8.DecodeRuneInString(s[i:])
		out = append(out, value.String(s[i:i+size]))
		i += size
	}
	return value.NewList(out), nil
}

// Repeat is String.repeat: "" for a count of 0 or less or an empty string,
// fault 5 when count × length exceeds 16 MiB.
func Repeat(s string, count int64) (string, *fault.Fault) {
	if count <= 0 || s == "" {
		return "", nil
	}
	if count > int64(MaxStringBytes/len(s)) {
		return "", fault.New(fault.StringSize)
	}
	return strings.Repeat(s, int(count)), nil
}

// Replace is String.replace(text, old, new): every non-overlapping match,
// left to right; an empty old returns the text unchanged; fault 5 when the
// result would exceed 16 MiB (this project's decision, docs/stdlib.md).
func Replace(s, old, new string) (string, *fault.Fault) {
	if old == "" {
		return s, nil
	}
	if len(new) > len(old) {
		n := strings.Count(s, old)
		if int64(len(s))+int64(n)*int64(len(new)-len(old)) > MaxStringBytes {
			return "", fault.New(fault.StringSize)
		}
	}
	return strings.ReplaceAll(s, old, new), nil
}

// isTrimSpace is the set String.trim strips: space, tab, CR and LF only.
func isTrimSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func trimStart(s string) string {
	i := 0
	for i < len(s) && isTrimSpace(s[i]) {
		i++
	}
	return s[i:]
}

func trimEnd(s string) string {
	j := len(s)
	for j > 0 && isTrimSpace(s[j-1]) {
		j--
	}
	return s[:j]
}

// mapASCII applies f to every byte of s, which changes only ASCII letters.
func mapASCII(s string, f func(byte) byte) string {
	b := []byte(s)
	for i, c := range b {
		b[i] = f(c)
	}
	return string(b)
}

func upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c - 'A' + 'a'
	}
	return c
}

// Lines is String.lines: the text split at "\n", with one trailing "\r"
// removed from each line; a final line terminator does not start another
// line, so "" and "\n" give [] and [""] respectively.
func Lines(s string) []string {
	var out []string
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		var line string
		if i < 0 {
			line, s = s, ""
		} else {
			line, s = s[:i], s[i+1:]
		}
		out = append(out, strings.TrimSuffix(line, "\r"))
	}
	return out
}

// IsDecimal is String.is_decimal: a non-empty string of ASCII digits only.
func IsDecimal(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func init() {
	S, I, L := value.KString, value.KInt, value.KList
	register(
		fn("String.len", kinds(S), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			return ok(value.Int(int64(len(str(a[0])))))
		}),
		fn("String.concat", kinds(S, S), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			x, y := str(a[0]), str(a[1])
			if len(x)+len(y) > MaxStringBytes {
				return value.Unit, fault.New(fault.StringSize)
			}
			return ok(value.String(x + y))
		}),
		fn("String.eq", kinds(S, S), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			return ok(value.Bool(str(a[0]) == str(a[1])))
		}),
		fn("String.compare", kinds(S, S), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			return ok(value.Int(int64(strings.Compare(str(a[0]), str(a[1])))))
		}),
		fn("String.repeat", kinds(S, I), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			s, f := Repeat(str(a[0]), a[1].AsInt())
			return value.String(s), f
		}),
		fn("String.slice", kinds(S, I, I), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			s, f := Slice(str(a[0]), a[1].AsInt(), a[2].AsInt())
			return value.String(s), f
		}),
		fn("String.split", kinds(S, S), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			return Split(str(a[0]), str(a[1]))
		}),
		fn("String.join", kinds(L, S), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			parts, sep := listItems(a[0]), str(a[1])
			ss := make([]string, len(parts))
			size := int64(len(sep)) * int64(max(len(parts)-1, 0))
			for i, p := range parts {
				if p.Kind() != value.KString {
					return value.Unit, fault.Internalf("String.join element: expected String, found %s", p.Kind())
				}
				ss[i] = str(p)
				size += int64(len(ss[i]))
			}
			if size > MaxStringBytes {
				return value.Unit, fault.New(fault.StringSize)
			}
			return ok(value.String(strings.Join(ss, sep)))
		}),
		fn("String.contains", kinds(S, S), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			return ok(value.Bool(strings.Contains(str(a[0]), str(a[1]))))
		}),
		fn("String.starts_with", kinds(S, S), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			return ok(value.Bool(strings.HasPrefix(str(a[0]), str(a[1]))))
		}),
		fn("String.ends_with", kinds(S, S), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			return ok(value.Bool(strings.HasSuffix(str(a[0]), str(a[1]))))
		}),
		fn("String.trim", kinds(S), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			return ok(value.String(trimEnd(trimStart(str(a[0])))))
		}),
		fn("String.trim_start", kinds(S), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			return ok(value.String(trimStart(str(a[0]))))
		}),
		fn("String.trim_end", kinds(S), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			return ok(value.String(trimEnd(str(a[0]))))
		}),
		fn("String.to_upper", kinds(S), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			return ok(value.String(mapASCII(str(a[0]), upper)))
		}),
		fn("String.to_lower", kinds(S), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			return ok(value.String(mapASCII(str(a[0]), lower)))
		}),
		fn("String.replace", kinds(S, S, S), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			s, f := Replace(str(a[0]), str(a[1]), str(a[2]))
			return value.String(s), f
		}),
		fn("String.quote", kinds(S), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			if quotedLen(str(a[0])) > MaxStringBytes {
				return value.Unit, fault.New(fault.StringSize)
			}
			return ok(value.String(Quote(str(a[0]))))
		}),
		fn("String.is_empty", kinds(S), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			return ok(value.Bool(str(a[0]) == ""))
		}),
		fn("String.index_of", kinds(S, S), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			i := strings.Index(str(a[0]), str(a[1]))
			if i < 0 {
				return ok(value.None())
			}
			return ok(value.Some(value.Int(int64(i))))
		}),
		fn("String.char_at", kinds(S, I), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			s, i := str(a[0]), a[1].AsInt()
			if i < 0 || i >= int64(len(s)) {
				return ok(value.None())
			}
			return ok(value.Some(value.Int(int64(s[i]))))
		}),
		fn("String.lines", kinds(S), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			return ok(strList(Lines(str(a[0]))))
		}),
		fn("String.is_decimal", kinds(S), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			return ok(value.Bool(IsDecimal(str(a[0]))))
		}),
	)
}
