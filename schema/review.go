package schema

import (
	"strings"
	"time"
)

// MaxReviewNote caps a review's note (bytes).
const MaxReviewNote = 4096

// Review is one human review action on an episode, made in `trustlake view
// --review`: a failure category, a pass/fail judgment, a note, or any of
// them. Every action is kept (table reviews, natural key (episode_id,
// review_id)); the effective value of each field is the latest action that
// sets it. Prev* hold the effective values the reviewer saw before the
// action, so the history reads as "from → to".
type Review struct {
	EpisodeID    string    `parquet:"episode_id" lake:"key"`
	ReviewID     string    `parquet:"review_id" lake:"key"` // unique per action: time and random bits
	Reviewer     string    `parquet:"reviewer,dict"`
	At           time.Time `parquet:"reviewed_at,timestamp(microsecond)"`
	Category     *string   `parquet:"category,optional,dict"` // one of Categories; null leaves it as it was
	Pass         *bool     `parquet:"pass,optional"`          // a human pass/fail judgment; null leaves it
	Note         *string   `parquet:"note,optional"`
	PrevCategory *string   `parquet:"prev_category,optional,dict"`
	PrevPass     *bool     `parquet:"prev_pass,optional"`
	Provenance
}

// Validate checks a review row; it returns a *FieldError or nil.
func (r *Review) Validate() error {
	var cat, empty, note, who, at *FieldError
	if r.Category != nil {
		cat = checkOneOf("category", *r.Category, Categories)
	}
	if r.Category == nil && r.Pass == nil && (r.Note == nil || strings.TrimSpace(*r.Note) == "") {
		empty = fieldErr("review", ErrMissing, "set a category, pass or a note")
	}
	if r.Note != nil && len(*r.Note) > MaxReviewNote {
		note = fieldErr("note", ErrValue, "%d bytes, at most %d", len(*r.Note), MaxReviewNote)
	}
	if strings.TrimSpace(r.Reviewer) == "" {
		who = fieldErr("reviewer", ErrMissing, "")
	}
	if r.At.IsZero() {
		at = fieldErr("reviewed_at", ErrMissing, "")
	}
	return collect(checkID("episode_id", r.EpisodeID), checkID("review_id", r.ReviewID), cat, empty, note, who, at)
}
