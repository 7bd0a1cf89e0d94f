package queries

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
)

// ViewerFilter selects the episodes of one page of `trustlake view`'s list
// (sql/viewer_episodes.sql). Empty strings and nil pointers are unused.
type ViewerFilter struct {
	GT              string   // GTVerifier (default), GTHuman or GTAny
	UncertainPolicy string   // how a majority uncertain counts for outcome: failure (default), success, exclude
	Threshold       *float64 // score-only judges: score >= threshold is success
	Judge           string   // with Condition: the judge whose runs each row shows
	Condition       string
	Outcome         string // fp, fn, tp, tn, uncertain, parse_error (needs Judge)
	Category        string // effective category
	Source          string
	Hardness        string // hard, obvious, claim
	Task            string
	Agent           string
	Reviewed        *bool // has a review (table reviews)
	// Vs is "jc" (acceptance of Judge@Condition differs from
	// VsJudge@VsCondition's), "human" (Judge's acceptance differs from the
	// human reference) or "verifier-human" (the verifier and the human
	// reference differ).
	Vs                   string
	VsJudge, VsCondition string
	AcceptedByAny        bool   // some judge × condition's majority is success
	AfterTask, AfterID   string // keyset cursor: the previous page's last row
	HasCursor            bool
	Before               bool // the rows before the cursor, nearest first
	Limit                int
}

// ViewerEpisode is one row of the episode list.
type ViewerEpisode struct {
	EpisodeID    string  `json:"episode_id"`
	TaskID       string  `json:"task_id"`
	Agent        *string `json:"agent"`
	Source       *string `json:"source"`
	VerifierPass *bool   `json:"verifier_pass"` // the verifier's verdict
	HumanPass    *bool   `json:"human_pass"`    // the human reference (review, else annotators' majority)
	GTPass       *bool   `json:"gt_pass"`       // the reference chosen by gt
	Category     *string `json:"category"`      // effective: review > label > verifier
	CategoryFrom *string `json:"category_from"` // review, label or verifier
	Hardness     *string `json:"hardness"`
	Reviewed     bool    `json:"reviewed"`
	// The chosen judge's runs on this episode (null without a judge).
	Runs        *int64  `json:"runs"`
	ParseErrors *int64  `json:"parse_errors"`
	Success     *int64  `json:"success"`
	Failure     *int64  `json:"failure"`
	Uncertain   *int64  `json:"uncertain"`
	Majority    *string `json:"majority"`    // success, failure or uncertain
	VsMajority  *string `json:"vs_majority"` // the vs judge's majority (vs=JUDGE@CONDITION)
}

func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// ViewerEpisodes returns one page of the episode list, ordered by task and
// episode.
func (s *Session) ViewerEpisodes(ctx context.Context, f ViewerFilter) ([]ViewerEpisode, error) {
	gt := gtOrDefault(f.GT)
	if err := s.defineMetricEpisodes(ctx, f.Threshold, gt); err != nil {
		return nil, err
	}
	var acceptedAny, afterTask, afterID any
	if f.AcceptedByAny {
		acceptedAny = true
	}
	if f.HasCursor {
		afterTask, afterID = f.AfterTask, f.AfterID
	}
	judge, cond := nullString(f.Judge), nullString(f.Condition)
	if judge == nil || cond == nil {
		judge, cond = nil, nil
	}
	out, err := collect(ctx, s, "query viewer episodes", "viewer episode", func(e *ViewerEpisode) []any {
		return []any{&e.EpisodeID, &e.TaskID, orNil(&e.Agent), orNil(&e.Source), orNil(&e.VerifierPass),
			orNil(&e.HumanPass), orNil(&e.GTPass), orNil(&e.Category), orNil(&e.CategoryFrom), orNil(&e.Hardness),
			&e.Reviewed, orNil(&e.Runs), orNil(&e.ParseErrors), orNil(&e.Success), orNil(&e.Failure), orNil(&e.Uncertain),
			orNil(&e.Majority), orNil(&e.VsMajority)}
	}, sqlFile("viewer_episodes"), nullable(f.Threshold), gt, judge, cond,
		nullString(f.Outcome), nullString(f.UncertainPolicy), nullString(f.Category), nullString(f.Source),
		nullString(f.Hardness), nullString(f.Task), nullString(f.Agent), nullable(f.Reviewed), nullString(f.Vs),
		nullString(f.VsJudge), nullString(f.VsCondition), acceptedAny, afterTask, afterID, f.Limit, f.Before)
	if err == nil && out == nil {
		out = []ViewerEpisode{} // never nil: a nil list is one too long to hold (view)
	}
	return out, err
}

// ViewerEpisodeParts is everything the lake holds about one episode, each
// part the JSON array of its rows as sql/viewer_episode.sql selects them
// (null when the part has no row).
type ViewerEpisodeParts struct {
	Episode, Actions, GroundTruth, SelfTests, Labels, Reviews, Verdicts, Evidence, Trust, Majorities json.RawMessage
	Categories, Human                                                                                json.RawMessage
	NActions                                                                                         int64
}

// ViewerEpisode reads one episode's rows from every table, texts cut to
// maxText bytes and actions to the first maxActions steps.
func (s *Session) ViewerEpisode(ctx context.Context, id string, maxText, maxActions int, threshold *float64) (ViewerEpisodeParts, error) {
	var (
		p     ViewerEpisodeParts
		parts [12]sql.NullString
	)
	if err := s.defineMetricEpisodes(ctx, threshold, GTVerifier); err != nil {
		return p, err
	}
	row := s.conn.QueryRowContext(ctx, sqlFile("viewer_episode"), id, maxText, maxActions, nullable(threshold))
	if err := row.Scan(&parts[0], &p.NActions, &parts[1], &parts[2], &parts[3], &parts[4], &parts[5], &parts[6], &parts[7], &parts[8], &parts[9], &parts[10], &parts[11]); err != nil {
		return p, fmt.Errorf("query viewer episode %s: %w", id, err)
	}
	dst := []*json.RawMessage{&p.Episode, &p.Actions, &p.GroundTruth, &p.SelfTests, &p.Labels, &p.Reviews, &p.Verdicts, &p.Evidence, &p.Trust, &p.Majorities, &p.Categories, &p.Human}
	for i, v := range parts {
		if v.Valid {
			*dst[i] = json.RawMessage(v.String)
		} else {
			*dst[i] = json.RawMessage("[]")
		}
	}
	return p, nil
}

// ViewerBlobRef says where the lake records a content hash: Kind "pack"
// with Ref the pack's sha256, or Kind "screen" with Ref the episode folder
// and Path the screenshot's path in it.
type ViewerBlobRef struct {
	Kind, Ref, Path string
}

// ViewerBlob returns the places the lake records sha (none when it does
// not).
func (s *Session) ViewerBlob(ctx context.Context, sha string) ([]ViewerBlobRef, error) {
	return collect(ctx, s, "query blob "+sha, "blob "+sha,
		func(r *ViewerBlobRef) []any { return []any{&r.Kind, &r.Ref, nullTo(&r.Path, nil)} }, sqlFile("viewer_blob"), sha)
}
