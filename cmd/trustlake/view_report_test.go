package main

import (
	"html"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestReportViewURL runs report --view-url against a running viewer: every
// FP count of report.html links to a list of exactly that many episodes,
// and without the flag report.html has no link to a viewer.
func TestReportViewURL(t *testing.T) {
	lakeDir, _ := buildViewLake(t)
	v := startView(t, lakeDir)
	out := filepath.Join(t.TempDir(), "report")
	mustRun(t, "--lake", lakeDir, "report", "--out", out, "--view-url", v.url)
	b, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	links := regexp.MustCompile(`<a href="([^"]*/episodes\?[^"]*)">(\d+)( FP)?</a>`).FindAllStringSubmatch(string(b), -1)
	fps := 0
	for _, l := range links {
		u, err := url.Parse(html.UnescapeString(l[1]))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(l[1], v.url) {
			t.Errorf("link %s is not under %s", l[1], v.url)
		}
		q := u.Query()
		if q.Get("outcome") != "fp" {
			continue
		}
		fps++
		want, _ := strconv.Atoi(l[2])
		q.Set("limit", "500")
		if got := countPages(t, v, q); got != want {
			t.Errorf("%s: %d episodes, the report says %d", u.RawQuery, got, want)
		}
	}
	if fps < 8 {
		t.Errorf("%d FP links in report.html, want the 8 judge × conditions and their strata", fps)
	}
	plain := filepath.Join(t.TempDir(), "plain")
	mustRun(t, "--lake", lakeDir, "report", "--out", plain)
	b, err = os.ReadFile(filepath.Join(plain, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "/episodes?") {
		t.Error("report.html without --view-url links to a viewer")
	}
}
