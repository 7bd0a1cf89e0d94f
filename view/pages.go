package view

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"sync"

	"github.com/trustlake/trustlake/metrics"
	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/schema"
)

// pageNames are the HTML pages, each templates/NAME.html with layout.html.
var pageNames = []string{"overview", "episodes", "episode", "review", "error"}

var pages = sync.OnceValue(func() map[string]*template.Template {
	out := map[string]*template.Template{}
	for _, n := range pageNames {
		out[n] = template.Must(template.New(n).Funcs(funcs).ParseFS(files, "templates/layout.html", "templates/"+n+".html"))
	}
	return out
})

var funcs = template.FuncMap{
	"num": func(x float64) string {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return "–"
		}
		return strconv.FormatFloat(x, 'f', 3, 64)
	},
	"interval": func(iv [2]float64) string {
		if math.IsNaN(iv[0]) || math.IsNaN(iv[1]) {
			return ""
		}
		return fmt.Sprintf("%.3f–%.3f", iv[0], iv[1])
	},
	"passText": func(b *bool) string {
		switch {
		case b == nil:
			return "–"
		case *b:
			return "pass"
		}
		return "fail"
	},
	"str": func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	},
	"int": func(p *int64) int64 {
		if p == nil {
			return 0
		}
		return *p
	},
	"prob": func(p *float64) string {
		if p == nil {
			return "–"
		}
		return strconv.FormatFloat(*p, 'f', 2, 64)
	},
	"categories": func() []string { return schema.Categories },
	"list":       func(v ...string) []string { return v },
	"list2":      func(a, b *JudgeRuns) []*JudgeRuns { return []*JudgeRuns{a, b} },
	"pretty": func(raw json.RawMessage) string {
		var b bytes.Buffer
		if json.Indent(&b, raw, "", "  ") != nil {
			return string(raw)
		}
		return b.String()
	},
	"add": func(a, b int) int { return a + b },
}

// page is what every template gets.
type page struct {
	Title   string
	Session sessionInfo
	Version int64
	Data    any
}

// render writes one page; a template error is a 500 with nothing written.
func (s *Server) render(w http.ResponseWriter, code int, name, title string, data any) {
	var b bytes.Buffer
	p := page{Title: title, Session: s.session(), Version: s.currentVersion(), Data: data}
	if err := pages()[name].ExecuteTemplate(&b, "layout", p); err != nil {
		s.fail(w, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	w.Write(b.Bytes())
}

func (s *Server) currentVersion() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.version
}

// pageError renders an error page: 400 for bad parameters, 404, else 500.
func (s *Server) pageError(w http.ResponseWriter, code int, err error) {
	if errors.Is(err, errNotFound) {
		code = http.StatusNotFound
	}
	if code >= 500 {
		s.log.Error("view", "err", err)
	}
	s.render(w, code, "error", "error", err.Error())
}

// overviewRow is one judge × condition line of the overview with the
// links of its counts.
type overviewRow struct {
	metrics.Row
	Links map[string]string // fp, tn, tp, fn, uncertain, parse_error, all -> /episodes?...
}

type overviewData struct {
	Params   overviewParams
	Rows     []overviewRow
	Warnings []string
	Report   *metrics.Report
}

func (s *Server) pageOverview(w http.ResponseWriter, r *http.Request) {
	p, err := parseOverview(r.URL.Query())
	if err != nil {
		s.pageError(w, http.StatusBadRequest, err)
		return
	}
	rep, _, err := s.overview(r.Context(), p)
	if err != nil {
		s.pageError(w, http.StatusInternalServerError, err)
		return
	}
	d := overviewData{Params: p, Warnings: rep.Warnings, Report: rep}
	for _, row := range rep.Rows {
		if len(row.Stratum) > 0 {
			continue
		}
		links := map[string]string{}
		for _, o := range append([]string{""}, outcomeValues...) {
			q := url.Values{"judge": {row.Judge}, "condition": {row.Condition}, "gt": {p.GT}, "source": {p.Source}, "uncertain": {p.Uncertain}}
			if o != "" {
				q.Set("outcome", o)
			}
			links[cmp.Or(o, "all")] = "/episodes?" + q.Encode()
		}
		d.Rows = append(d.Rows, overviewRow{Row: row, Links: links})
	}
	s.render(w, http.StatusOK, "overview", "overview", d)
}

type episodesData struct {
	Query    url.Values // the list's filters
	Filter   queries.ViewerFilter
	Page     episodePage
	NextURL  string
	ListArgs string // the filters as a query string, carried to each episode
}

func (s *Server) pageEpisodes(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f, err := parseFilter(q, s.opts.Metrics.Threshold)
	if err != nil {
		s.pageError(w, http.StatusBadRequest, err)
		return
	}
	pg, err := s.episodes(r.Context(), f)
	if err != nil {
		s.pageError(w, http.StatusInternalServerError, err)
		return
	}
	lq := listQuery(q)
	d := episodesData{Query: lq, Filter: f, Page: pg, ListArgs: lq.Encode()}
	if pg.Next != nil {
		nq := listQuery(q)
		nq.Set("cursor", *pg.Next)
		if l := q.Get("limit"); l != "" {
			nq.Set("limit", l)
		}
		d.NextURL = "/episodes?" + nq.Encode()
	}
	s.render(w, http.StatusOK, "episodes", "episodes", d)
}

type episodeData struct {
	D          *EpisodeDetail
	ListArgs   string
	Prev, Next string // episode URLs within the list, "" at an end
	A, B       *JudgeRuns
	SideBySide bool
}

func (s *Server) pageEpisode(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	d, err := s.episode(r.Context(), r.PathValue("id"))
	if err != nil {
		s.pageError(w, http.StatusInternalServerError, err)
		return
	}
	data := episodeData{D: d}
	lq := listQuery(q)
	if len(lq) > 0 {
		data.ListArgs = lq.Encode()
		if f, err := parseFilter(lq, s.opts.Metrics.Threshold); err == nil {
			task := ""
			if d.Episode != nil {
				task = d.Episode.TaskID
			}
			if step := q.Get("step"); step == "prev" || step == "next" {
				s.stepTo(w, r, f, task, d.EpisodeID, data.ListArgs, step == "prev")
				return
			}
			data.Prev, data.Next = s.neighbours(r, f, task, d.EpisodeID, data.ListArgs)
		}
	}
	data.A, data.B = pick(d.Judges, q.Get("a")), pick(d.Judges, q.Get("b"))
	data.SideBySide = data.A != nil && data.B != nil
	s.render(w, http.StatusOK, "episode", d.EpisodeID, data)
}

// neighbours returns the links to the episodes before and after (task, id)
// in the list f. A list short enough to be held (wholeList) gives the
// episodes' own URLs; a longer one gives step links (?step=prev|next) that
// look the neighbour up only when followed, so that the page costs what
// its episode costs, not what its list does.
func (s *Server) neighbours(r *http.Request, f queries.ViewerFilter, task, id, args string) (prev, next string) {
	whole, err := s.wholeList(r.Context(), f)
	if err != nil {
		return "", ""
	}
	self := "/episodes/" + url.PathEscape(id) + "?" + args
	if whole == nil {
		return self + "&step=prev", self + "&step=next"
	}
	link := func(before bool) string {
		f.AfterTask, f.AfterID, f.HasCursor, f.Before, f.Limit = task, id, true, before, 1
		if pg := cutPage(whole, f); len(pg) > 0 {
			return "/episodes/" + url.PathEscape(pg[0].EpisodeID) + "?" + args
		}
		return ""
	}
	return link(true), link(false)
}

// stepTo redirects to the episode before (or after) (task, id) in the list
// f: the step links of a long list.
func (s *Server) stepTo(w http.ResponseWriter, r *http.Request, f queries.ViewerFilter, task, id, args string, before bool) {
	f.AfterTask, f.AfterID, f.HasCursor, f.Before, f.Limit = task, id, true, before, 1
	pg, err := s.episodes(r.Context(), f)
	if err != nil {
		s.pageError(w, http.StatusInternalServerError, err)
		return
	}
	if len(pg.Episodes) == 0 {
		s.pageError(w, http.StatusNotFound, fmt.Errorf("no episode %s %s in this list", map[bool]string{true: "before", false: "after"}[before], id))
		return
	}
	http.Redirect(w, r, "/episodes/"+url.PathEscape(pg.Episodes[0].EpisodeID)+"?"+args, http.StatusSeeOther)
}

// pick finds JUDGE@CONDITION among an episode's judges.
func pick(js []JudgeRuns, jc string) *JudgeRuns {
	for i := range js {
		if js[i].Judge+"@"+js[i].Condition == jc {
			return &js[i]
		}
	}
	return nil
}

type reviewData struct {
	Query url.Values
	Page  episodePage
	Next  *EpisodeDetail // the first episode of the queue, shown in full
}

// reviewQueue is the default queue: unreviewed hard negatives that some
// judge accepted, by task.
var reviewQueue = url.Values{"reviewed": {"no"}, "hardness": {"hard"}, "accepted": {"any"}}

func (s *Server) pageReview(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if len(listQuery(q)) == 0 {
		q = reviewQueue
	}
	f, err := parseFilter(q, s.opts.Metrics.Threshold)
	if err != nil {
		s.pageError(w, http.StatusBadRequest, err)
		return
	}
	f.Limit = 20
	pg, err := s.episodes(r.Context(), f)
	if err != nil {
		s.pageError(w, http.StatusInternalServerError, err)
		return
	}
	d := reviewData{Query: listQuery(q), Page: pg}
	if len(pg.Episodes) > 0 {
		if d.Next, err = s.episode(r.Context(), pg.Episodes[0].EpisodeID); err != nil {
			s.pageError(w, http.StatusInternalServerError, err)
			return
		}
	}
	s.render(w, http.StatusOK, "review", "review queue", d)
}
