package queries

import (
	"slices"
	"testing"
)

// TestRunScoresOrder adds scores to many episodes in turn, some with more
// than three (moved out of their chunk) and across chunk boundaries, and
// checks each episode gets back its own in the order added.
func TestRunScoresOrder(t *testing.T) {
	var s runScores
	eps := make([]episodeRuns, scoreChunk/3+5)
	want := make([][]runScore, len(eps))
	for round := range 7 {
		for i := range eps {
			if round >= 1+i%7 {
				continue
			}
			sc := runScore{float64(i) + float64(round)/10, int64(round + 1)}
			if !s.add(&eps[i], sc.score, sc.run) {
				t.Fatal("add: out of references")
			}
			want[i] = append(want[i], sc)
		}
	}
	for i := range eps {
		if got := s.of(&eps[i]); !slices.Equal(got, want[i]) {
			t.Fatalf("episode %d: got %v, want %v", i, got, want[i])
		}
	}
	if got := s.of(&episodeRuns{}); got != nil {
		t.Fatalf("no scores: got %v", got)
	}
}
