package view

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/schema"
)

// ReviewRequest is the JSON body of POST /api/reviews. Null fields leave
// the episode's value as it is; at least one must be set.
type ReviewRequest struct {
	EpisodeID string  `json:"episode_id"`
	Category  *string `json:"category"` // one of the seven failure codes
	Pass      *bool   `json:"pass"`     // a human pass/fail judgment
	Note      *string `json:"note"`
}

// apiReview is POST /api/reviews: 403 without --review or without the
// CSRF token; 400 on a bad body; 404 for an episode the lake does not
// hold; else the review is committed and returned (201).
func (s *Server) apiReview(w http.ResponseWriter, r *http.Request) {
	if !s.opts.Review {
		httpError(w, http.StatusForbidden, errors.New("read-only: start trustlake view --review to record reviews"))
		return
	}
	if !s.csrfOK(r) {
		httpError(w, http.StatusForbidden, errors.New("missing or wrong X-CSRF-Token (GET /api/session gives it)"))
		return
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		httpError(w, http.StatusUnsupportedMediaType, fmt.Errorf("Content-Type %q: want application/json", ct))
		return
	}
	var req ReviewRequest
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		code := http.StatusBadRequest
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			code = http.StatusRequestEntityTooLarge
		}
		httpError(w, code, fmt.Errorf("review body: %w", err))
		return
	}
	row, err := s.Review(r.Context(), req)
	if err != nil {
		if errors.Is(err, errBadReview) {
			httpError(w, http.StatusBadRequest, err)
			return
		}
		s.fail(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	json.NewEncoder(w).Encode(reviewJSON(row))
}

// Review records one review action: it reads the episode's effective
// category and human pass/fail from the newest manifest (the previous
// values), then commits the row through the lake's atomic batch, waiting
// for the writer lock as long as the lake allows (a concurrent ingest or
// another reviewer's commit finishes first; nothing is lost).
func (s *Server) Review(ctx context.Context, req ReviewRequest) (schema.Review, error) {
	if req.Note != nil && strings.TrimSpace(*req.Note) == "" {
		req.Note = nil
	}
	row := schema.Review{EpisodeID: req.EpisodeID, ReviewID: newReviewID(), Reviewer: s.opts.Reviewer,
		At: time.Now().UTC().Truncate(time.Microsecond), Category: req.Category, Pass: req.Pass, Note: req.Note,
		Provenance: schema.Provenance{SrcFile: "trustlake view"}}
	if err := row.Validate(); err != nil {
		return row, fmt.Errorf("%w: %v", errBadReview, err)
	}
	s.reviewMu.Lock()
	defer s.reviewMu.Unlock()
	d, err := s.episode(ctx, req.EpisodeID)
	if err != nil {
		return row, err
	}
	row.PrevCategory, row.PrevPass = d.Effective.Category, d.Effective.HumanPass
	if err := commitReview(ctx, s.lk, row); err != nil {
		return row, fmt.Errorf("commit review: %w", err)
	}
	return row, nil
}

// commitReview writes row in one lake transaction.
func commitReview(ctx context.Context, dst *lake.Lake, row schema.Review) error {
	tx, err := dst.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	w, err := lake.NewWriter[schema.Review](tx, lake.Reviews, lake.WriterOptions{SizeHint: 1})
	if err != nil {
		return err
	}
	if _, err := w.Add(&row); err != nil {
		return err
	}
	if _, err := w.Close(); err != nil {
		return err
	}
	return tx.Commit()
}

// newReviewID is unique per action: the time and 8 random bytes.
func newReviewID() string {
	b := make([]byte, 8)
	rand.Read(b)
	return time.Now().UTC().Format("20060102T150405.000000Z") + "-" + hex.EncodeToString(b)
}

func reviewJSON(r schema.Review) ReviewRow {
	return ReviewRow{ReviewID: r.ReviewID, Reviewer: r.Reviewer, At: r.At.Format("2006-01-02T15:04:05.000000Z"),
		Category: r.Category, Pass: r.Pass, Note: r.Note, PrevCategory: r.PrevCategory, PrevPass: r.PrevPass}
}

// errBadReview is a review that fails validation (400).
var errBadReview = errors.New("bad review")
