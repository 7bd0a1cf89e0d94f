package sim

import (
	"math"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/trustlake/trustlake/schema"
)

// verdictWriter turns episodes into verdict JSONL rows. One per worker;
// not safe for concurrent use.
type verdictWriter struct {
	p      *plan
	pcg    *rand.PCG
	r      *rand.Rand
	heads  [][][]byte // [judge][condition] `,"judge":…,"condition":…,"run":`
	models [][]byte   // [judge] `,"model":…,"called_at":`
	file   [][]int    // [judge][condition] index of the destination buffer
}

// calledAtOffset is how long after BaseTime the first judge call happens.
const calledAtOffset = 24 * time.Hour

func newVerdictWriter(p *plan, file [][]int) *verdictWriter {
	pcg := rand.NewPCG(0, 0)
	w := &verdictWriter{p: p, pcg: pcg, r: rand.New(pcg), file: file}
	for _, j := range p.opts.Judges {
		var hs [][]byte
		for _, c := range j.Conditions {
			h := appendField(appendField(nil, "judge", j.Name), "condition", c)
			h = appendKey(h, "run")
			hs = append(hs, h)
		}
		w.heads = append(w.heads, hs)
		w.models = append(w.models, appendKey(appendField(nil, "model", j.Model), "called_at"))
	}
	return w
}

// run is the outcome of one judge call.
type run struct {
	verdict    string  // "" means JSON null (reward-model score-only row)
	score      float64 // NaN means null
	confidence float64 // NaN means null
}

// append appends the verdict rows of episode ei to bufs, judge by judge,
// condition by condition, run by run.
func (w *verdictWriter) append(bufs [][]byte, ei int) {
	p := w.p
	o := p.opts
	e := &p.episodes[ei]
	cls := classOf(e)
	claim := 0
	if e.claim {
		claim = 1
	}
	row := ei * p.rowsPer
	m := o.Model
	for j, jd := range o.Judges {
		w.pcg.Seed(mix(o.Seed), streamKey(streamVerdict, uint64(e.task), uint64(e.agent), uint64(e.k), nameID(jd.Name)))
		shared := math.Sqrt(m.TaskCorr)*p.taskEffect[j][e.task] + math.Sqrt(m.EpisodeCorr)*w.r.NormFloat64()
		for ci := range jd.Conditions {
			theta := p.theta[j][ci][cls][claim]
			eps := w.r.NormFloat64()
			f := w.file[j][ci]
			for k := 1; k <= o.Runs; k++ {
				var out run
				if jd.Kind == KindRewardModel {
					out = w.rmRun(jd, theta, shared, eps)
				} else {
					out = w.vlmRun(jd, theta, shared, eps)
				}
				at := o.BaseTime.Add(calledAtOffset + time.Duration(row)*time.Second)
				bufs[f] = w.appendRow(bufs[f], e.id, j, ci, k, out, at)
				row++
			}
		}
	}
}

// vlmRun draws one run of a VLM judge: the modal decision is fixed by the
// latent (shared + eps) against theta; each run may be a parse_error, an
// uncertain answer, or the modal decision flipped with FlipProb.
func (w *verdictWriter) vlmRun(jd Judge, theta, shared, eps float64) run {
	m := w.p.opts.Model
	uPE, uUnc, uFlip, uConf := w.r.Float64(), w.r.Float64(), w.r.Float64(), w.r.Float64()
	switch {
	case uPE < jd.ParseErrorRate:
		return run{verdict: schema.VerdictParseError, score: math.NaN(), confidence: math.NaN()}
	case uUnc < jd.UncertainRate/(1-jd.ParseErrorRate):
		return run{verdict: schema.VerdictUncertain, score: math.NaN(), confidence: 0.2 + 0.3*uConf}
	}
	latent := shared + math.Sqrt(1-m.TaskCorr-m.EpisodeCorr)*eps
	accept := latent < theta
	if uFlip < jd.FlipProb {
		accept = !accept
	}
	conf := 0.5 + math.Abs(phi(theta-latent)-0.5)
	if math.IsNaN(conf) {
		conf = 1
	}
	v := schema.VerdictFailure
	if accept {
		v = schema.VerdictSuccess
	}
	return run{verdict: v, score: math.NaN(), confidence: conf}
}

// rmRun draws one run of a reward model: score = Φ(theta − latent), where
// a RunScoreSD share of the latent is redrawn per run. score ≥ 0.5 exactly
// when a VLM with the same rates would accept.
func (w *verdictWriter) rmRun(jd Judge, theta, shared, eps float64) run {
	m := w.p.opts.Model
	uPE, eta := w.r.Float64(), w.r.NormFloat64()
	if uPE < jd.ParseErrorRate {
		return run{verdict: schema.VerdictParseError, score: math.NaN(), confidence: math.NaN()}
	}
	s := jd.RunScoreSD
	latent := shared + math.Sqrt(1-m.TaskCorr-m.EpisodeCorr-s*s)*eps + s*eta
	score := phi(theta - latent)
	if math.IsNaN(score) {
		score = 0.5
	}
	return run{score: scoreRound(score), confidence: math.NaN()}
}

// scoreRound rounds a score to 4 decimals without crossing 0.5, so that
// score ≥ 0.5 keeps its meaning after rounding.
func scoreRound(x float64) float64 {
	r := math.Round(x*1e4) / 1e4
	if x < 0.5 && r >= 0.5 {
		r = 0.4999
	}
	return r
}

// appendRow appends one verdict JSONL line.
func (w *verdictWriter) appendRow(b []byte, id string, j, ci, k int, out run, at time.Time) []byte {
	b = append(b, `{"episode_id":`...)
	b = appendString(b, id)
	b = append(b, w.heads[j][ci]...)
	b = strconv.AppendInt(b, int64(k), 10)
	b = append(b, `,"verdict":`...)
	b = appendStringOrNull(b, out.verdict)
	b = append(b, `,"score":`...)
	b = appendNullable(b, out.score, 4)
	b = append(b, `,"confidence":`...)
	b = appendNullable(b, out.confidence, 2)
	b = append(b, w.models[j]...)
	b = appendTime(b, at)
	return append(b, '}', '\n')
}

func appendNullable(b []byte, x float64, digits int) []byte {
	if math.IsNaN(x) {
		return append(b, "null"...)
	}
	return appendRounded(b, x, digits)
}
