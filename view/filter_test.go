package view

import (
	"net/url"
	"testing"

	"github.com/trustlake/trustlake/queries"
)

func TestParseFilter(t *testing.T) {
	f, err := parseFilter(url.Values{"judge": {"j@x"}, "condition": {"E2+claim"}, "outcome": {"fp"}, "vs": {"a@b@E1-final"},
		"reviewed": {"no"}, "limit": {"7"}, "cursor": {encodeCursor("t1", "e1")}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.Vs != "jc" || f.VsJudge != "a@b" || f.VsCondition != "E1-final" || f.Reviewed == nil || *f.Reviewed ||
		f.Limit != 7 || !f.HasCursor || f.AfterTask != "t1" || f.AfterID != "e1" || f.GT != queries.GTVerifier {
		t.Errorf("parsed %+v", f)
	}
	for _, bad := range []url.Values{
		{"judge": {"j"}},    // condition missing
		{"outcome": {"fp"}}, // no judge
		{"judge": {"j"}, "condition": {"c"}, "outcome": {"<x>"}},
		{"vs": {"human"}}, // no judge
		{"vs": {"nope"}},
		{"gt": {"oracle"}},
		{"uncertain": {"maybe"}},
		{"hardness": {"soft"}},
		{"reviewed": {"1"}},
		{"limit": {"0"}}, {"limit": {"501"}},
		{"cursor": {"!!"}},
	} {
		if _, err := parseFilter(bad, nil); err == nil {
			t.Errorf("%v: accepted", bad)
		}
	}
}

func TestCutPage(t *testing.T) {
	rows := []queries.ViewerEpisode{{TaskID: "a", EpisodeID: "1"}, {TaskID: "a", EpisodeID: "2"}, {TaskID: "b", EpisodeID: "0"}, {TaskID: "c", EpisodeID: "9"}}
	ids := func(rs []queries.ViewerEpisode) string {
		s := ""
		for _, r := range rs {
			s += r.TaskID + r.EpisodeID + " "
		}
		return s
	}
	for _, c := range []struct {
		f    queries.ViewerFilter
		want string
	}{
		{queries.ViewerFilter{Limit: 2}, "a1 a2 "},
		{queries.ViewerFilter{Limit: 2, HasCursor: true, AfterTask: "a", AfterID: "2"}, "b0 c9 "},
		{queries.ViewerFilter{Limit: 9, HasCursor: true, AfterTask: "a", AfterID: "15"}, "a2 b0 c9 "},
		{queries.ViewerFilter{Limit: 2, HasCursor: true, AfterTask: "c", AfterID: "9"}, ""},
		{queries.ViewerFilter{Limit: 2, HasCursor: true, Before: true, AfterTask: "c", AfterID: "9"}, "b0 a2 "},
		{queries.ViewerFilter{Limit: 2, HasCursor: true, Before: true, AfterTask: "a", AfterID: "1"}, ""},
	} {
		if got := ids(cutPage(rows, c.f)); got != c.want {
			t.Errorf("%+v: %q, want %q", c.f, got, c.want)
		}
	}
}

func TestHostAllowed(t *testing.T) {
	s := &Server{opts: Options{Hosts: []string{"10.0.0.5:8080"}}}
	for host, want := range map[string]bool{
		"127.0.0.1:5000": true, "localhost:1": true, "LOCALHOST": true, "[::1]:80": true,
		"10.0.0.5:8080": true, "10.0.0.5": false, "evil.example": false, "127.0.0.1.evil.example:80": false, "": false,
	} {
		if got := s.hostAllowed(host); got != want {
			t.Errorf("hostAllowed(%q) = %v, want %v", host, got, want)
		}
	}
	if !s.originAllowed("http://localhost:9") || s.originAllowed("http://evil.example") || s.originAllowed("null") {
		t.Error("originAllowed")
	}
}
