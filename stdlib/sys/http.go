package sys

import (
	"context"
	"io"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/native"
	"github.com/morrow-lang/morrow/runtime/value"
)

// Limits of the http client (docs/io.md).
const (
	HTTPTimeout  = 30 * time.Second
	MaxBodyBytes = 16 << 20
	httpErr      = 3
)

// client follows no redirects: a 3xx answer is a non-2xx status, Err(3).
var client = &http.Client{
	Timeout: HTTPTimeout,
	CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	},
	Transport: &http.Transport{Proxy: http.ProxyFromEnvironment, MaxIdleConnsPerHost: 4,
		IdleConnTimeout: 30 * time.Second},
}

// fetch does one request: Ok of a 2xx body of valid UTF-8 up to
// MaxBodyBytes, Err(3) for everything else.
func fetch(ctx context.Context, method, url, body string) value.Value {
	var rd io.Reader
	if method == http.MethodPost {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil || (req.URL.Scheme != "http" && req.URL.Scheme != "https") {
		return errInt(httpErr)
	}
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "text/plain; charset=utf-8")
	}
	resp, err := client.Do(req)
	if err != nil {
		return errInt(httpErr)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // keep the connection reusable
		return errInt(httpErr)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, MaxBodyBytes+1))
	if err != nil || len(b) > MaxBodyBytes || !utf8.Valid(b) {
		return errInt(httpErr)
	}
	return value.Ok(value.String(string(b)))
}

func init() {
	reg("http.get", []value.Kind{kS}, func(h native.Host, a []value.Value) (value.Value, *fault.Fault) {
		if v, f, open := h.Resume(); open {
			return v, f
		}
		url := a[0].AsString()
		return h.Await(false, func(ctx context.Context) value.Value { return fetch(ctx, http.MethodGet, url, "") })
	})
	reg("http.post", []value.Kind{kS, kS}, func(h native.Host, a []value.Value) (value.Value, *fault.Fault) {
		if v, f, open := h.Resume(); open {
			return v, f
		}
		url, body := a[0].AsString(), a[1].AsString()
		return h.Await(false, func(ctx context.Context) value.Value { return fetch(ctx, http.MethodPost, url, body) })
	})
}
