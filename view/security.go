package view

import (
	"crypto/subtle"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// maxBody caps a request body (a review is a few hundred bytes).
const maxBody = 64 << 10

// contentPolicy allows only the server's own scripts, styles and images:
// an injected inline script or handler never runs, even if escaping failed.
const contentPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
	"form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

// loopbackNames are the host names answered whatever --addr says.
var loopbackNames = []string{"localhost", "127.0.0.1", "::1"}

// guard wraps every route: the Host check (no DNS rebinding), the Origin
// check of unsafe methods, the body cap and the security headers. It never
// sets a CORS header.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", contentPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-store")
		if !s.hostAllowed(r.Host) {
			http.Error(w, "forbidden host "+r.Host+": trustlake view answers only loopback names and its --addr", http.StatusForbidden)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			if o := r.Header.Get("Origin"); o != "" && !s.originAllowed(o) {
				http.Error(w, "forbidden origin", http.StatusForbidden)
				return
			}
			if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
				http.Error(w, "forbidden cross-site request", http.StatusForbidden)
				return
			}
			r.Body = http.MaxBytesReader(w, r.Body, maxBody)
		}
		next.ServeHTTP(w, r)
	})
}

// hostAllowed reports whether a Host header names a loopback name (any
// port) or one of Options.Hosts.
func (s *Server) hostAllowed(host string) bool {
	name := host
	if h, _, err := net.SplitHostPort(host); err == nil {
		name = h
	}
	name = strings.TrimSuffix(strings.TrimPrefix(name, "["), "]")
	return slices.ContainsFunc(loopbackNames, func(n string) bool { return strings.EqualFold(name, n) }) ||
		slices.ContainsFunc(s.opts.Hosts, func(a string) bool { return strings.EqualFold(host, a) || strings.EqualFold(name, a) })
}

func (s *Server) originAllowed(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	return s.hostAllowed(u.Host)
}

// csrfOK reports whether the request carries the process's CSRF token.
func (s *Server) csrfOK(r *http.Request) bool {
	got := r.Header.Get("X-CSRF-Token")
	return got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(s.csrf)) == 1
}
