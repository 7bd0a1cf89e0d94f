package view

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/trustlake/trustlake/queries"
)

// Caps of one episode read: a hostile episode renders, cut, with a notice.
const (
	maxText    = 64 << 10 // bytes of any one text (final message, observation, diagnostics, reply)
	maxActions = 1000     // actions listed
	maxImages  = 100      // screenshots shown per pack, and of the actions
)

// EpisodeDetail is the JSON of GET /api/episodes/{id}: every row the lake
// holds about one episode, the packs its judges saw, and what was cut.
type EpisodeDetail struct {
	EpisodeID       string          `json:"episode_id"`
	ManifestVersion int64           `json:"manifest_version"`
	Episode         *EpisodeRow     `json:"episode"`     // null when the lake has no episode row
	Instruction     *string         `json:"instruction"` // the task text judges saw (a pack's), else meta.json's instruction
	Effective       Effective       `json:"effective"`
	GroundTruth     []GTRow         `json:"ground_truth"` // verifier rows and human judgments
	Labels          []LabelRow      `json:"labels"`       // ingested category labels
	Reviews         []ReviewRow     `json:"reviews"`      // the review history, oldest first
	Judges          []JudgeRuns     `json:"judges"`       // per judge × condition: majority and runs
	Evidence        []EvidencePack  `json:"evidence"`     // per condition: the pack as the judges saw it
	Actions         []ActionRow     `json:"actions"`      // first maxActions steps
	NActions        int64           `json:"n_actions"`
	Trust           json.RawMessage `json:"trust"` // Trust Layer rows of results naming this episode
	Notices         []string        `json:"notices"`
	dir             string          // the episode folder (screenshots), never sent
}

// episodeDB is the episodes row as read, with its folder.
type episodeDB struct {
	EpisodeRow
	Dir string `json:"dir"`
}

// EpisodeRow is the episodes row (texts cut to maxText; *_bytes the full length).
type EpisodeRow struct {
	EpisodeID         string  `json:"episode_id"`
	TaskID            string  `json:"task_id"`
	Source            string  `json:"source"`
	Agent             string  `json:"agent"`
	AgentVersion      *string `json:"agent_version"`
	AgentSeed         *int64  `json:"agent_seed"`
	NSteps            *int64  `json:"n_steps"`
	FinalMessage      *string `json:"final_message"`
	FinalMessageBytes *int64  `json:"final_message_bytes"`
	SandboxImage      *string `json:"sandbox_image"`
	CreatedAt         *string `json:"created_at"`
	ParentEpisodeID   *string `json:"parent_episode_id"`
	Perturbation      *string `json:"perturbation"`
	FinalStateSHA256  *string `json:"final_state_sha256"`
	NScreens          int64   `json:"n_screens"`
	Extra             string  `json:"extra"`
}

// Effective are the values the metrics use for this episode.
type Effective struct {
	Category     *string `json:"category"`      // review > label > verifier
	CategoryFrom *string `json:"category_from"` // review, label or verifier
	VerifierPass *bool   `json:"verifier_pass"`
	HumanPass    *bool   `json:"human_pass"` // latest review's pass, else the annotators' majority
	NAnnotators  int64   `json:"n_annotators"`
	NeedsReview  bool    `json:"needs_review"`
}

// GTRow is one ground-truth row with its verifier's self-tests.
type GTRow struct {
	VerifierSHA256 string        `json:"verifier_sha256"`
	Pass           bool          `json:"pass"`
	Score          *float64      `json:"score"`
	Category       *string       `json:"category"`
	CategoryRaw    *string       `json:"category_raw"`
	Diagnostics    string        `json:"diagnostics"` // JSON text
	Gates          string        `json:"gates"`       // JSON text
	Deterministic  *bool         `json:"deterministic"`
	Source         string        `json:"source"` // verifier or human
	Annotator      *string       `json:"annotator"`
	SelfTest       string        `json:"self_test"` // passed, failed or untested (verifier rows)
	SelfTests      []SelfTestRow `json:"self_tests"`
	GateList       []gateView    `json:"-"`
}

type gateView struct {
	ID     string `json:"id"`
	Type   string `json:"type"`
	Passed bool   `json:"passed"`
}

// SelfTestRow is one fixture run of a verifier (tasks check --record).
type SelfTestRow struct {
	VerifierSHA256 string  `json:"verifier_sha256"`
	Fixture        string  `json:"fixture"`
	WantPass       bool    `json:"want_pass"`
	WantCategory   *string `json:"want_category"`
	GotPass        bool    `json:"got_pass"`
	GotCategory    *string `json:"got_category"`
	Deterministic  bool    `json:"deterministic"`
	OK             bool    `json:"ok"`
	Error          *string `json:"error"`
	Sandbox        string  `json:"sandbox"`
	RanAt          *string `json:"ran_at"`
}

// LabelRow is an ingested category label.
type LabelRow struct {
	Category    *string `json:"category"`
	CategoryRaw string  `json:"category_raw"`
	Annotator   *string `json:"annotator"`
	Note        *string `json:"note"`
}

// ReviewRow is one review action.
type ReviewRow struct {
	ReviewID     string  `json:"review_id"`
	Reviewer     string  `json:"reviewer"`
	At           string  `json:"reviewed_at"`
	Category     *string `json:"category"`
	Pass         *bool   `json:"pass"`
	Note         *string `json:"note"`
	PrevCategory *string `json:"prev_category"`
	PrevPass     *bool   `json:"prev_pass"`
}

// JudgeRuns is one judge × condition on the episode.
type JudgeRuns struct {
	Judge      string       `json:"judge"`
	Condition  string       `json:"condition"`
	Majority   string       `json:"majority"` // success, failure or uncertain (metrics' rule)
	NRuns      int64        `json:"n_runs"`
	NParse     int64        `json:"n_parse"`
	NSuccess   int64        `json:"n_success"`
	NFailure   int64        `json:"n_failure"`
	NUncertain int64        `json:"n_uncertain"`
	NUnscored  int64        `json:"n_unscored"`
	Runs       []VerdictRow `json:"runs"`
}

// VerdictRow is one judge call; Reason is the judge's stated reason (the
// reply's evidence text, or the raw reply of a parse error).
type VerdictRow struct {
	Judge        string   `json:"judge"`
	Condition    string   `json:"condition"`
	Run          int64    `json:"run"`
	Verdict      *string  `json:"verdict"`
	Score        *float64 `json:"score"`
	Confidence   *float64 `json:"confidence"`
	Model        *string  `json:"model"`
	CalledAt     *string  `json:"called_at"`
	PackSHA256   *string  `json:"pack_sha256"`
	PromptSHA256 *string  `json:"prompt_sha256"`
	LatencyMS    *int64   `json:"latency_ms"`
	Raw          *string  `json:"raw"`
	Extra        string   `json:"extra"`
	Reason       *string  `json:"reason"`
}

// ActionRow is one step; ScreenURL serves its screenshot by hash.
type ActionRow struct {
	Step         int64   `json:"step"`
	Action       *string `json:"action"`
	Role         *string `json:"role"`
	Text         *string `json:"text"`
	Keys         *string `json:"keys"`
	Screen       *string `json:"screen"`
	ScreenSHA256 *string `json:"screen_sha256"`
	ToolName     *string `json:"tool_name"`
	Arguments    *string `json:"arguments"`
	Observation  *string `json:"observation"`
	ScreenURL    *string `json:"screen_url"`
}

// episode reads one episode (O(episode): every part filters on its id).
func (s *Server) episode(ctx context.Context, id string) (*EpisodeDetail, error) {
	var (
		p       queries.ViewerEpisodeParts
		version int64
	)
	err := s.withSession(ctx, func(sess *queries.Session) (err error) {
		version = s.version
		p, err = sess.ViewerEpisode(ctx, id, maxText, maxActions, s.opts.Metrics.Threshold)
		return err
	})
	if err != nil {
		return nil, err
	}
	d := &EpisodeDetail{EpisodeID: id, ManifestVersion: version, NActions: p.NActions, Trust: p.Trust, Notices: []string{}}
	var (
		eps    []episodeDB
		cats   []Effective // the categories part (category, category_from, verifier_pass, needs_review)
		humans []Effective // the human part (human_pass, n_annotators)
		tests  []SelfTestRow
		runs   []VerdictRow
		evs    []evidenceRow
	)
	for _, part := range []struct {
		raw json.RawMessage
		dst any
	}{{p.Episode, &eps}, {p.Categories, &cats}, {p.Human, &humans}, {p.GroundTruth, &d.GroundTruth}, {p.SelfTests, &tests},
		{p.Labels, &d.Labels}, {p.Reviews, &d.Reviews}, {p.Majorities, &d.Judges}, {p.Verdicts, &runs},
		{p.Evidence, &evs}, {p.Actions, &d.Actions}} {
		if err := json.Unmarshal(part.raw, part.dst); err != nil {
			return nil, fmt.Errorf("decode episode %s: %w", id, err)
		}
	}
	if len(eps) == 0 && len(d.GroundTruth) == 0 && len(runs) == 0 && len(d.Reviews) == 0 && len(d.Labels) == 0 {
		return nil, fmt.Errorf("episode %q: %w", id, errNotFound)
	}
	if len(eps) > 0 {
		d.Episode, d.dir = &eps[0].EpisodeRow, eps[0].Dir
		if e := d.Episode; e.FinalMessageBytes != nil && *e.FinalMessageBytes > maxText {
			d.Notices = append(d.Notices, fmt.Sprintf("final message cut to %d of %d bytes", maxText, *e.FinalMessageBytes))
		}
	}
	if len(cats) > 0 {
		d.Effective = cats[0]
	}
	if len(humans) > 0 {
		d.Effective.HumanPass, d.Effective.NAnnotators = humans[0].HumanPass, humans[0].NAnnotators
	}
	fillSelfTests(d.GroundTruth, tests)
	fillRuns(d.Judges, runs)
	if d.NActions > int64(len(d.Actions)) {
		d.Notices = append(d.Notices, fmt.Sprintf("showing the first %d of %d actions", len(d.Actions), d.NActions))
	}
	s.fillScreens(d)
	s.fillEvidence(d, evs)
	if d.Instruction == nil && d.Episode != nil {
		var extra struct {
			Instruction *string `json:"instruction"`
		}
		if json.Unmarshal([]byte(d.Episode.Extra), &extra) == nil {
			d.Instruction = extra.Instruction
		}
	}
	d.GroundTruth, d.Labels, d.Reviews = nonNil(d.GroundTruth), nonNil(d.Labels), nonNil(d.Reviews)
	d.Judges, d.Actions = nonNil(d.Judges), nonNil(d.Actions)
	return d, nil
}

// nonNil returns s, or an empty slice (JSON []) for nil.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// fillSelfTests gives each verifier row its self-tests and their status:
// passed (every fixture ok), failed (some not), untested (none recorded).
func fillSelfTests(gts []GTRow, tests []SelfTestRow) {
	for i := range gts {
		g := &gts[i]
		json.Unmarshal([]byte(g.Gates), &g.GateList)
		if g.Source != "verifier" {
			continue
		}
		g.SelfTest, g.SelfTests = "untested", []SelfTestRow{}
		for _, t := range tests {
			if t.VerifierSHA256 != g.VerifierSHA256 {
				continue
			}
			g.SelfTests = append(g.SelfTests, t)
			if g.SelfTest != "failed" {
				g.SelfTest = "passed"
			}
			if !t.OK {
				g.SelfTest = "failed"
			}
		}
	}
}

// fillRuns puts each verdict row under its judge × condition, with the
// judge's stated reason: the reply's evidence (or reason, rationale,
// explanation) field, else the raw reply of a parse error.
func fillRuns(judges []JudgeRuns, runs []VerdictRow) {
	at := map[[2]string]int{}
	for i, j := range judges {
		at[[2]string{j.Judge, j.Condition}] = i
		judges[i].Runs = []VerdictRow{}
	}
	for _, r := range runs {
		var extra map[string]any
		json.Unmarshal([]byte(r.Extra), &extra)
		for _, k := range []string{"evidence", "reason", "rationale", "explanation"} {
			if v, ok := extra[k].(string); ok && v != "" {
				r.Reason = &v
				break
			}
		}
		if r.Reason == nil && r.Raw != nil {
			r.Reason = r.Raw
		}
		if i, ok := at[[2]string{r.Judge, r.Condition}]; ok {
			judges[i].Runs = append(judges[i].Runs, r)
		}
	}
}

// fillScreens gives each action's screenshot its blob URL (the first
// maxImages of them) and records the hashes for /blobs.
func (s *Server) fillScreens(d *EpisodeDetail) {
	if d.Episode == nil {
		return
	}
	shown := 0
	for i := range d.Actions {
		a := &d.Actions[i]
		if a.ScreenSHA256 == nil || a.Screen == nil || !isSHA256(*a.ScreenSHA256) {
			continue
		}
		if shown == maxImages {
			d.Notices = append(d.Notices, fmt.Sprintf("showing the first %d screenshots of the actions", maxImages))
			return
		}
		shown++
		a.ScreenURL = new("/blobs/" + *a.ScreenSHA256)
		s.remember(*a.ScreenSHA256, blobRef{kind: "screen", dir: d.dir, path: *a.Screen})
	}
}
