package lake_test

import (
	"fmt"
	"time"

	"github.com/trustlake/trustlake/schema"
)

// oldLayoutRows are the rows of testdata/oldlake, a lake written before the
// key index existed (manifest entries without "keys"). Two verdict batches
// and a --replace left two files in one partition and a tombstone.
func oldLayoutVerdicts() (first, second []schema.Verdict) {
	at := time.Date(2026, 10, 10, 10, 2, 11, 0, time.UTC)
	for i := 0; i < 40; i++ {
		v := schema.Verdict{EpisodeID: fmt.Sprintf("ep_%03d", i%20), Judge: []string{"sim:vlm-a", "rm/b c"}[i%2], Condition: []string{"E1-final", "E2+claim"}[(i/2)%2],
			Run: int64(1 + i/20), Extra: "{}", CalledAt: &at,
			Provenance: schema.Provenance{SrcFile: "old.jsonl", SrcLine: int64(i + 1)}}
		if i%2 == 0 {
			s := []string{"success", "failure"}[(i/3)%2]
			v.Verdict = &s
		} else {
			f := float64(i) / 40
			v.Score = &f
		}
		if i < 30 {
			first = append(first, v)
		} else {
			v.SrcFile, v.SrcLine = "old2.jsonl", int64(i-29)
			second = append(second, v)
		}
	}
	return first, second
}

func oldLayoutOthers() ([]schema.Episode, []schema.Label, []schema.GroundTruth) {
	var eps []schema.Episode
	var labels []schema.Label
	var gts []schema.GroundTruth
	for i := 0; i < 20; i++ {
		id := fmt.Sprintf("ep_%03d", i)
		eps = append(eps, schema.Episode{EpisodeID: id, TaskID: fmt.Sprintf("t%d", i/4), Source: "natural", Agent: []string{"a", "b/c"}[i%2],
			Dir: "eps/" + id, Extra: "{}", Provenance: schema.Provenance{SrcFile: "eps/" + id + "/meta.json"}})
		gts = append(gts, schema.GroundTruth{EpisodeID: id, VerifierSHA256: "abc", Pass: i%3 == 0, Diagnostics: "null", Gates: "[]",
			Provenance: schema.Provenance{SrcFile: "eps/" + id + "/gt.json"}})
		if i%5 == 0 {
			c := "F-PARTIAL"
			labels = append(labels, schema.Label{EpisodeID: id, Category: &c, CategoryRaw: c, Provenance: schema.Provenance{SrcFile: "l.csv", SrcLine: int64(i/5 + 2)}})
		}
	}
	return eps, labels, gts
}
