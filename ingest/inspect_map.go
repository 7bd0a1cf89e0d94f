package ingest

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/trustlake/trustlake/schema"
)

// InspectOptions configure the Inspect AI adapter. Zero values mean the
// defaults.
type InspectOptions struct {
	// Benchmark names the benchmark; "" means the task name. Each scorer's
	// results go to benchmark "<Benchmark>:<scorer>".
	Benchmark string
	// Agent names the agent; "" means the evaluated model.
	Agent string
	// GroundTruth names the scorer whose values are ground truth; "" means
	// the log's only scorer that is not a judge (none when there are
	// several), "none" means no ground truth.
	GroundTruth string
	// Judges names scorers that are model judges besides model_graded_*.
	Judges []string
}

// Verdict conditions of model-graded scorers: model_graded_qa and
// model_graded_fact show the grader the question and the final answer
// (E1-final), or the whole conversation with include_history (E3-full).
// Other judge scorers get conditionInspect: what they saw is unknown.
const conditionInspect = "inspect"

// inspectRun maps the samples of one log to rows.
type inspectRun struct {
	file      string
	h         *inspectHeader
	evalID    string
	benchmark string
	agent     string
	reducer   string
	scorers   []inspectScorer
	judges    map[string]bool
	others    []string // scorers that are not judges
	gt        string   // ground-truth scorer, "" for none
	gtSHA     string
	decided   bool
	opts      InspectOptions
	skipped   map[string]int // scorer → results not recorded (value outside [0, 1] or not a scalar)
}

func newInspectRun(file string, h *inspectHeader, opts InspectOptions) *inspectRun {
	return &inspectRun{file: file, h: h, evalID: h.Eval.evalID(), opts: opts, skipped: map[string]int{},
		benchmark: cmp.Or(opts.Benchmark, h.Eval.Task), agent: cmp.Or(opts.Agent, h.Eval.Model),
		reducer: cmp.Or(strings.Join(h.Eval.Config.EpochsReducer, ","), "mean")} // inspect-ai's default reducer
}

// decide classifies the scorers (from the header, or from the first
// sample's scores when the header lists none) into judges, the ground
// truth and the rest.
func (r *inspectRun) decide(sampleScores []string) error {
	r.decided = true
	r.scorers = r.h.Eval.Scorers
	if len(r.scorers) == 0 {
		for _, n := range sampleScores {
			r.scorers = append(r.scorers, inspectScorer{Name: n})
		}
	}
	r.judges = map[string]bool{}
	var names []string
	for _, s := range r.scorers {
		names = append(names, s.Name)
		if strings.HasPrefix(s.Name, "model_graded") || slices.Contains(r.opts.Judges, s.Name) {
			r.judges[s.Name] = true
		} else {
			r.others = append(r.others, s.Name)
		}
	}
	switch gt := r.opts.GroundTruth; {
	case gt == "none":
	case gt != "":
		if !slices.Contains(names, gt) {
			return &schema.RecordError{File: r.file, Field: "eval.scorers", Err: schema.Reason(schema.ErrMissing,
				"ground-truth scorer %q is not a scorer of this log (%s)", gt, strings.Join(names, ", "))}
		}
		r.gt = gt
	case len(r.others) == 1:
		r.gt = r.others[0]
	}
	if r.gt != "" {
		r.judges[r.gt] = false
		r.gtSHA = scorerSHA(r.scorer(r.gt))
	}
	return nil
}

func (r *inspectRun) scorer(name string) inspectScorer {
	for _, s := range r.scorers {
		if s.Name == name {
			return s
		}
	}
	return inspectScorer{Name: name}
}

// scorerSHA identifies a scorer as a verifier: sha256 of its name and its
// options (JSON with sorted keys).
func scorerSHA(s inspectScorer) string {
	opts, _ := json.Marshal(s.Options) // map keys sorted
	sum := sha256.Sum256([]byte("inspect-scorer\x00" + s.Name + "\x00" + string(opts)))
	return hex.EncodeToString(sum[:])
}

// inspectRows is what one sample × epoch becomes.
type inspectRows struct {
	ep       schema.Episode
	acts     []schema.Action
	results  []schema.Result
	verdicts []schema.Verdict
	truths   []schema.GroundTruth
}

// rows maps one sample. Rules (README "Inspect AI logs"):
//   - the sample × epoch is an episode; its messages are actions;
//   - every scorer with a scalar value in [0, 1] gives a result (trial =
//     epoch) in benchmark "<benchmark>:<scorer>";
//   - a judge scorer gives a verdict; the ground-truth scorer a ground_truth
//     row (pass = value 1);
//   - a sample with an error is an infrastructure failure: each scorer's
//     result has score 0 and infra_error set, no verdict, no ground truth;
//     a sample that hit a limit is an attempt, scored as recorded.
func (r *inspectRun) rows(s *inspectSample, where string, line int64) (*inspectRows, []fieldErr) {
	if !r.decided {
		if err := r.decide(s.ScoreOrder); err != nil {
			return nil, []fieldErr{{"", err}}
		}
	}
	var errs []fieldErr
	prov := schema.Provenance{SrcFile: where, SrcLine: line}
	epID := fmt.Sprintf("%s/%s/%d", r.evalID, s.ID, s.Epoch)
	out := &inspectRows{}
	acts, final, aerrs := r.actions(s, epID, prov)
	errs = append(errs, aerrs...)
	input, err := s.inputText()
	if err != nil {
		errs = append(errs, fieldErr{"input", err})
	}
	for _, name := range s.ScoreOrder {
		if r.judges[name] {
			continue // an unreadable judge score is a parse_error verdict
		}
		if err := checkScoreValue(s.Scores[name].Value); err != nil {
			errs = append(errs, fieldErr{"scores." + name + ".value", err})
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	out.acts = acts
	n := int64(len(s.Messages))
	extra := map[string]any{"inspect_eval_id": r.evalID, "inspect_run_id": r.h.Eval.RunID, "epoch": s.Epoch}
	if len(r.h.Eval.Packages) > 0 {
		extra["inspect_packages"] = r.h.Eval.Packages
	}
	if a := nullToNil(r.h.Eval.TaskArgs); a != nil && string(a) != "{}" {
		extra["task_args"] = a
	}
	for k, v := range s.Extra {
		extra[k] = v
	}
	if s.Target != nil {
		extra["target"] = s.Target
	}
	if s.Limit != nil {
		extra["limit"] = s.Limit
	}
	if s.Error != nil {
		extra["error"] = *s.Error
	}
	out.ep = schema.Episode{
		EpisodeID: epID, TaskID: s.ID, Source: schema.SourceNatural, Agent: r.agent,
		NSteps: &n, FinalMessage: final, CreatedAt: parseInspectTime(s.StartedAt),
		Dir: r.file, Extra: marshalExtra(extra), Provenance: prov,
	}
	for _, sc := range r.scorers {
		r.score(out, s, sc.Name, epID, input, prov)
	}
	return out, nil
}

// score maps one scorer's score of a sample.
func (r *inspectRun) score(out *inspectRows, s *inspectSample, name, epID string, input *string, prov schema.Provenance) {
	sc, scored := s.Scores[name]
	value, scalar := 0.0, false
	if scored {
		value, scalar = scoreFloat(sc.Value)
	}
	extra := map[string]any{"scorer": name, "reducer": r.reducer}
	if scored {
		extra["value"] = sc.Value
		if sc.Answer != nil {
			extra["answer"] = *sc.Answer
		}
		if sc.Explanation != nil {
			extra["explanation"] = *sc.Explanation
		}
	}
	exJSON := marshalExtra(extra) // results: the score without its metadata
	if s.Error == nil && r.judges[name] && scored {
		for k, v := range sc.Metadata {
			extra[k] = v // the verdict keeps the grader's exchange (metadata.grading)
		}
		out.verdicts = append(out.verdicts, r.verdict(s, sc, name, epID, value, scalar, marshalExtra(extra), prov))
	}
	if s.Error == nil && name == r.gt && scored && scalar {
		v := value
		diag, _ := json.Marshal(map[string]any{"scorer": name, "value": sc.Value, "answer": sc.Answer, "explanation": sc.Explanation})
		out.truths = append(out.truths, schema.GroundTruth{
			EpisodeID: epID, VerifierSHA256: r.gtSHA, Pass: value >= 1-1e-9, Score: &v,
			Diagnostics: string(diag), Gates: "[]", Provenance: prov,
		})
	}
	switch {
	case s.Error != nil:
		value, scalar = 0, true
	case !scored || !scalar || value < 0 || value > 1:
		r.skipped[name]++
		return
	}
	grader, _ := json.Marshal(map[string]any{"kind": "inspect", "scorer": name, "reducer": r.reducer, "target": s.Target})
	id := epID
	out.results = append(out.results, schema.Result{
		ResultID: epID + "/" + name, Benchmark: r.benchmark + ":" + name, TaskID: s.ID, Agent: r.agent,
		Trial: s.Epoch, RecordedScore: value, RecordedPass: value >= 1-1e-9, EpisodeID: &id,
		Instruction: input, Grader: string(grader), Infra: s.Error, // final message: the episode's
		Extra: exJSON, Provenance: prov,
	})
}

// verdict maps a judge's score: C success; I, P and N failure (P keeps
// score 0.5); booleans and yes/no strings likewise; a number is a
// score-only verdict (thresholded at analysis time, like a reward model);
// a null value or an unreadable string is a parse_error.
func (r *inspectRun) verdict(s *inspectSample, sc inspectScore, name, epID string, value float64, scalar bool, extra string, prov schema.Provenance) schema.Verdict {
	model := cmp.Or(graderModel(sc), r.h.Eval.ModelRoles["grader"].Model, r.h.Eval.Model)
	cond := conditionInspect
	if strings.HasPrefix(name, "model_graded") {
		cond = schema.ConditionFinal
		var hist any
		if h, ok := r.scorer(name).Options["include_history"]; ok && json.Unmarshal(h, &hist) == nil && hist != false && hist != nil {
			cond = schema.ConditionFull
		}
	}
	v := schema.Verdict{EpisodeID: epID, Judge: name + ":" + model, Condition: cond, Run: 1, Model: &model, Extra: extra, Provenance: prov}
	var verdict string
	var x any
	_ = json.Unmarshal(sc.Value, &x)
	switch t := x.(type) {
	case float64:
		v.Score = &t
		return v
	case bool:
		verdict = map[bool]string{true: schema.VerdictSuccess, false: schema.VerdictFailure}[t]
	case string:
		switch {
		case t == "C" || strings.EqualFold(t, "yes") || strings.EqualFold(t, "true"):
			verdict = schema.VerdictSuccess
		case t == "I" || t == "P" || t == "N" || strings.EqualFold(t, "no") || strings.EqualFold(t, "false"):
			verdict = schema.VerdictFailure
		default:
			if f, err := strconv.ParseFloat(t, 64); err == nil && scalar {
				v.Score = &f
				return v
			}
			verdict = schema.VerdictParseError
		}
	default:
		verdict = schema.VerdictParseError
	}
	v.Verdict = &verdict
	if scalar {
		f := value
		v.Score = &f
	}
	return v
}

// graderModel is the model of the grader's reply in a model-graded
// score's metadata.grading, or "".
func graderModel(sc inspectScore) string {
	var grading []struct {
		Role  string `json:"role"`
		Model string `json:"model"`
	}
	if json.Unmarshal(sc.Metadata["grading"], &grading) != nil {
		return ""
	}
	for _, m := range grading {
		if m.Role == "assistant" && m.Model != "" {
			return m.Model
		}
	}
	return ""
}

func parseInspectTime(s *string) *time.Time {
	if s == nil {
		return nil
	}
	t, err := time.Parse(time.RFC3339Nano, *s)
	if err != nil {
		return nil
	}
	t = t.UTC()
	return &t
}

func marshalExtra(m map[string]any) string {
	b, err := json.Marshal(m)
	if err != nil {
		return "{}"
	}
	return string(b)
}
