package view

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	"github.com/trustlake/trustlake/metrics"
	"github.com/trustlake/trustlake/queries"
)

// overviewKey names one computed overview: the manifest version and the
// options (the overview is computed once per version and options).
type overviewKey struct {
	version int64
	params  overviewParams
}

// overview returns metrics.Run's report for the options over the newest
// manifest, computed once per manifest version. A lake without verdicts or
// ground truth gives an empty report with the reason as its warning.
func (s *Server) overview(ctx context.Context, p overviewParams) (*metrics.Report, int64, error) {
	var (
		rep     *metrics.Report
		version int64
	)
	err := s.withSession(ctx, func(sess *queries.Session) error {
		version = s.version
		k := overviewKey{version, p}
		if r, ok := s.over[k]; ok {
			rep = r
			return nil
		}
		o := s.opts.Metrics
		o.GT, o.Source, o.UncertainPolicy = p.GT, p.Source, p.Uncertain
		r, err := metrics.Run(ctx, sess, o)
		if errors.Is(err, metrics.ErrNoVerdicts) || errors.Is(err, metrics.ErrNoGroundTruth) {
			r, err = metrics.Report{Rows: []metrics.Row{}, Warnings: []string{err.Error()}}, nil
		}
		if err != nil {
			return err
		}
		rep = &r
		s.over[k] = rep
		return nil
	})
	return rep, version, err
}

// apiOverview is GET /api/overview?gt=&source=&uncertain=: exactly the
// JSON of `trustlake metrics --json` with the same options.
func (s *Server) apiOverview(w http.ResponseWriter, r *http.Request) {
	p, err := parseOverview(r.URL.Query())
	if err != nil {
		httpError(w, http.StatusBadRequest, err)
		return
	}
	rep, version, err := s.overview(r.Context(), p)
	if err != nil {
		s.fail(w, err)
		return
	}
	w.Header().Set("X-Trustlake-Manifest-Version", strconv.FormatInt(version, 10))
	writeJSON(w, rep)
}

// episodePage is the JSON of GET /api/episodes.
type episodePage struct {
	Episodes []queries.ViewerEpisode `json:"episodes"`
	Next     *string                 `json:"next"` // cursor of the next page, null on the last
}

// episodes returns one page of the list and the cursor of the next.
func (s *Server) episodes(ctx context.Context, f queries.ViewerFilter) (episodePage, error) {
	var page episodePage
	limit := f.Limit
	whole, err := s.wholeList(ctx, f)
	if err != nil {
		return page, err
	}
	f.Limit = limit + 1
	if whole != nil {
		page.Episodes = cutPage(whole, f)
	} else if err := s.withSession(ctx, func(sess *queries.Session) (err error) {
		page.Episodes, err = sess.ViewerEpisodes(ctx, f)
		return err
	}); err != nil {
		return page, err
	}
	if len(page.Episodes) > limit {
		page.Episodes = page.Episodes[:limit]
		last := page.Episodes[limit-1]
		page.Next = new(encodeCursor(last.TaskID, last.EpisodeID))
	}
	return page, nil
}

// apiEpisodes is GET /api/episodes?<filters>&limit=N&cursor=C.
func (s *Server) apiEpisodes(w http.ResponseWriter, r *http.Request) {
	f, err := parseFilter(r.URL.Query(), s.opts.Metrics.Threshold)
	if err != nil {
		httpError(w, http.StatusBadRequest, err)
		return
	}
	page, err := s.episodes(r.Context(), f)
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, page)
}

// apiEpisode is GET /api/episodes/{id}.
func (s *Server) apiEpisode(w http.ResponseWriter, r *http.Request) {
	d, err := s.episode(r.Context(), r.PathValue("id"))
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, d)
}

// sessionInfo is the JSON of GET /api/session.
type sessionInfo struct {
	Review   bool   `json:"review"`
	Reviewer string `json:"reviewer"`
	CSRF     string `json:"csrf"`
}

func (s *Server) apiSession(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, s.session())
}

func (s *Server) session() sessionInfo {
	info := sessionInfo{Review: s.opts.Review, Reviewer: s.opts.Reviewer}
	if s.opts.Review {
		info.CSRF = s.csrf
	}
	return info
}

// errNotFound is an episode, pack or blob the lake does not record.
var errNotFound = errors.New("not found")

// fail answers an error: 404 for errNotFound, 500 otherwise (logged).
func (s *Server) fail(w http.ResponseWriter, err error) {
	if errors.Is(err, errNotFound) {
		httpError(w, http.StatusNotFound, err)
		return
	}
	s.log.Error("view", "err", err)
	httpError(w, http.StatusInternalServerError, err)
}

func httpError(w http.ResponseWriter, code int, err error) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(map[string]string{"error": err.Error()})
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}
