package view

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"sync"

	"github.com/trustlake/trustlake/judge"
	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/metrics"
	"github.com/trustlake/trustlake/queries"
)

// Options configure a Server. Zero values mean the defaults.
type Options struct {
	Review   bool   // accept POST /api/reviews; without it the server is read-only
	Reviewer string // who reviews (recorded on every review)
	// Hosts are the Host header values answered besides the loopback
	// names (localhost, 127.0.0.1, [::1], with any port): the --addr given.
	Hosts   []string
	Threads int // DuckDB threads; 0 means DuckDB's default
	// MaxCachedList is the longest list held in memory per manifest version
	// (0: DefaultMaxCachedList); longer lists page through SQL.
	MaxCachedList int
	// Metrics are the options of the overview's metrics run besides gt,
	// source and uncertain (taken from the request); zero values mean
	// metrics' defaults.
	Metrics metrics.Options
	Logger  *slog.Logger // nil discards
}

// Server serves the viewer over one lake. It is safe for concurrent use:
// queries run one at a time on the session of the newest manifest version.
type Server struct {
	lk    *lake.Lake
	store *judge.Store
	opts  Options
	csrf  string
	log   *slog.Logger

	mu      sync.Mutex // guards sess and the caches
	sess    *queries.Session
	version int64
	digest  string
	over    map[overviewKey]*metrics.Report
	blobs   map[string]blobRef // hashes seen in episode reads
	packs   fifo[*judge.Pack]
	lists   fifo[[]queries.ViewerEpisode] // whole lists of this manifest version, (lists.go)

	reviewMu sync.Mutex // one review at a time from this process
}

// New returns a server over src. src must be writable (lake.Open) when
// opts.Review is set.
func New(src *lake.Lake, opts Options) (*Server, error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Review && opts.Reviewer == "" {
		return nil, fmt.Errorf("view: --review needs a reviewer name (--reviewer or $USER)")
	}
	tok := make([]byte, 32)
	if _, err := rand.Read(tok); err != nil {
		return nil, fmt.Errorf("make csrf token: %w", err)
	}
	return &Server{lk: src, store: judge.NewStore(src), opts: opts, csrf: hex.EncodeToString(tok), log: opts.Logger,
		over: map[overviewKey]*metrics.Report{}, blobs: map[string]blobRef{}}, nil
}

// Close ends the server's query session.
func (s *Server) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sess != nil {
		err := s.sess.Close()
		s.sess = nil
		return err
	}
	return nil
}

// withSession runs fn on the session of the lake's newest committed
// manifest, opening a new one when a writer committed since the last
// request (a nightly ingest shows without a restart).
func (s *Server) withSession(ctx context.Context, fn func(*queries.Session) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.refresh(ctx); err != nil {
		return err
	}
	return fn(s.sess)
}

// refresh reopens the session when the manifest changed; s.mu is held.
func (s *Server) refresh(ctx context.Context) error {
	version, digest, err := s.lk.ManifestDigest()
	if err != nil {
		version, digest = 0, ""
	}
	if s.sess != nil && digest == s.digest {
		return nil
	}
	sess, err := queries.Open(ctx, s.lk, queries.Options{Threads: s.opts.Threads, Logger: s.log})
	if err != nil {
		return fmt.Errorf("open the lake: %w", err)
	}
	if s.sess != nil {
		s.sess.Close()
	}
	s.sess, s.version, s.digest = sess, version, digest
	clear(s.over)
	s.lists = fifo[[]queries.ViewerEpisode]{}
	return nil
}

// Handler returns the HTTP handler of every page and API route, wrapped in
// the security checks (security.go).
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.pageOverview)
	mux.HandleFunc("GET /episodes", s.pageEpisodes)
	mux.HandleFunc("GET /episodes/{id...}", s.pageEpisode)
	mux.HandleFunc("GET /review", s.pageReview)
	mux.HandleFunc("GET /api/overview", s.apiOverview)
	mux.HandleFunc("GET /api/episodes", s.apiEpisodes)
	mux.HandleFunc("GET /api/episodes/{id...}", s.apiEpisode)
	mux.HandleFunc("GET /api/packs/{sha}", s.apiPack)
	mux.HandleFunc("GET /api/session", s.apiSession)
	mux.HandleFunc("POST /api/reviews", s.apiReview)
	mux.HandleFunc("GET /blobs/{sha}", s.blob)
	mux.Handle("GET /assets/", http.StripPrefix("/assets/", assetHandler()))
	return s.guard(mux)
}
