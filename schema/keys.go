package schema

import (
	"hash/maphash"
	"math"
	"strconv"
	"time"
)

// A hasher builds a 64-bit content hash of a row's fields with
// hash/maphash. Fields are length-prefixed so that ("ab","c") and ("a","bc")
// differ, and nil is distinct from every value. Hashes are stable within one
// process only: the lake recomputes them for rows it reads, never stores them.
type hasher struct{ h maphash.Hash }

// Two fixed-per-process seeds: contentSeed for content hashes, keySeeds for
// the 128-bit natural-key hashes used by dedupe maps.
var (
	contentSeed = maphash.MakeSeed()
	keySeeds    = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}
)

// keyHasher builds the 128-bit hash of a natural key.
type keyHasher struct{ a, b maphash.Hash }

func (k *keyHasher) str(s string) {
	var n [8]byte
	for i := range n {
		n[i] = byte(uint64(len(s)) >> (8 * i))
	}
	k.a.Write(n[:])
	k.a.WriteString(s)
	k.b.Write(n[:])
	k.b.WriteString(s)
}

func (k *keyHasher) i64(v int64) { k.str(strconv.FormatInt(v, 10)) }

func (k *keyHasher) sum() [2]uint64 { return [2]uint64{k.a.Sum64(), k.b.Sum64()} }

func newKeyHasher() keyHasher {
	var k keyHasher
	k.a.SetSeed(keySeeds[0])
	k.b.SetSeed(keySeeds[1])
	return k
}

func (h *hasher) sum() uint64 { return h.h.Sum64() }

func (h *hasher) byte(b byte) { h.h.WriteByte(b) }

func (h *hasher) str(s string) {
	h.u64(uint64(len(s)))
	h.h.WriteString(s)
}

func (h *hasher) u64(v uint64) {
	var b [8]byte
	for i := range b {
		b[i] = byte(v >> (8 * i))
	}
	h.h.Write(b[:])
}

func (h *hasher) i64(v int64)   { h.u64(uint64(v)) }
func (h *hasher) f64(v float64) { h.u64(math.Float64bits(v)) }
func (h *hasher) boolean(v bool) {
	if v {
		h.byte(1)
	} else {
		h.byte(0)
	}
}

func (h *hasher) nilOr(ok bool) bool {
	if !ok {
		h.byte(0)
		return false
	}
	h.byte(1)
	return true
}

func (h *hasher) pstr(p *string) {
	if h.nilOr(p != nil) {
		h.str(*p)
	}
}
func (h *hasher) pi64(p *int64) {
	if h.nilOr(p != nil) {
		h.i64(*p)
	}
}
func (h *hasher) pf64(p *float64) {
	if h.nilOr(p != nil) {
		h.f64(*p)
	}
}
func (h *hasher) pbool(p *bool) {
	if h.nilOr(p != nil) {
		h.boolean(*p)
	}
}
func (h *hasher) ptime(p *time.Time) {
	if h.nilOr(p != nil) {
		h.i64(p.UnixMicro())
	}
}

// Where returns the source file and line of the row.
func (p Provenance) Where() (string, int64) { return p.SrcFile, p.SrcLine }

// Origin is "file:line" of the row, for messages that name both sides of a conflict.
func (p Provenance) Origin() string {
	if p.SrcLine <= 0 {
		return p.SrcFile
	}
	return p.SrcFile + ":" + strconv.FormatInt(p.SrcLine, 10)
}

// Key returns the natural key (episode_id).
func (e *Episode) Key() string { return e.EpisodeID }

// Partition returns the hive partition values (agent).
func (e *Episode) Partition() []string { return []string{e.Agent} }

// SetPartition sets the partition fields from the hive path.
func (e *Episode) SetPartition(v []string) { e.Agent = v[0] }

// Hash returns a content hash over every stored field except provenance
// and the folder it was read from (so a lake can be fed from another place).
func (e *Episode) Hash() uint64 {
	var h hasher
	h.h.SetSeed(contentSeed)
	h.str(e.EpisodeID)
	h.str(e.TaskID)
	h.str(e.Source)
	h.str(e.Agent)
	h.pstr(e.AgentVersion)
	h.pi64(e.AgentSeed)
	h.pi64(e.NSteps)
	h.pstr(e.FinalMessage)
	h.pstr(e.SandboxImage)
	h.ptime(e.CreatedAt)
	h.pstr(e.ParentEpisodeID)
	h.pstr(e.Perturbation)
	h.pstr(e.FinalStatePath)
	h.pstr(e.FinalStateSHA256)
	h.i64(e.NScreens)
	h.str(e.Extra)
	return h.sum()
}

// Key returns the natural key (episode_id, step).
func (a *Action) Key() string { return a.EpisodeID + "\x00" + strconv.FormatInt(a.Step, 10) }

// Partition returns the hive partition values (agent).
func (a *Action) Partition() []string { return []string{a.Agent} }

// SetPartition sets the partition fields from the hive path.
func (a *Action) SetPartition(v []string) { a.Agent = v[0] }

// Hash returns a content hash over every stored field except provenance.
func (a *Action) Hash() uint64 {
	var h hasher
	h.h.SetSeed(contentSeed)
	h.str(a.EpisodeID)
	h.str(a.Agent)
	h.i64(a.Step)
	h.pstr(a.Action)
	h.pstr(a.Role)
	h.pstr(a.Text)
	h.pstr(a.Keys)
	h.pstr(a.Screen)
	h.pstr(a.ScreenSHA256)
	h.pstr(a.ToolName)
	h.pstr(a.Arguments)
	h.pstr(a.Observation)
	h.str(a.Extra)
	return h.sum()
}

// Key returns the natural key (episode_id, verifier_sha256).
func (g *GroundTruth) Key() string {
	k := g.EpisodeID + "\x00" + g.VerifierSHA256
	if g.Annotator != nil {
		k += "\x00" + *g.Annotator
	}
	return k
}

// Partition returns no values: ground_truth is not partitioned.
func (g *GroundTruth) Partition() []string { return nil }

// SetPartition does nothing: ground_truth is not partitioned.
func (g *GroundTruth) SetPartition([]string) {}

// Hash returns a content hash over every stored field except provenance.
func (g *GroundTruth) Hash() uint64 {
	var h hasher
	h.h.SetSeed(contentSeed)
	h.str(g.EpisodeID)
	h.str(g.VerifierSHA256)
	h.boolean(g.Pass)
	h.pf64(g.Score)
	h.pstr(g.Category)
	h.pstr(g.CategoryRaw)
	h.str(g.Diagnostics)
	h.str(g.Gates)
	h.pbool(g.Deterministic)
	h.str(g.source())
	h.pstr(g.Annotator)
	return h.sum()
}

// Key returns the natural key (episode_id).
func (l *Label) Key() string { return l.EpisodeID }

// Partition returns no values: labels are not partitioned.
func (l *Label) Partition() []string { return nil }

// SetPartition does nothing: labels are not partitioned.
func (l *Label) SetPartition([]string) {}

// Hash returns a content hash over every stored field except provenance.
func (l *Label) Hash() uint64 {
	var h hasher
	h.h.SetSeed(contentSeed)
	h.str(l.EpisodeID)
	h.pstr(l.Category)
	h.str(l.CategoryRaw)
	h.pstr(l.Annotator)
	h.pstr(l.Note)
	return h.sum()
}

// Key returns the natural key (episode_id, judge, condition, run).
func (v *Verdict) Key() string {
	return v.EpisodeID + "\x00" + v.Judge + "\x00" + v.Condition + "\x00" + strconv.FormatInt(v.Run, 10)
}

// Partition returns the hive partition values (judge, condition).
func (v *Verdict) Partition() []string { return []string{v.Judge, v.Condition} }

// SetPartition sets the partition fields from the hive path.
func (v *Verdict) SetPartition(p []string) { v.Judge, v.Condition = p[0], p[1] }

// Hash returns a content hash over every stored field except provenance.
func (v *Verdict) Hash() uint64 {
	var h hasher
	h.h.SetSeed(contentSeed)
	h.str(v.EpisodeID)
	h.str(v.Judge)
	h.str(v.Condition)
	h.i64(v.Run)
	h.pstr(v.Verdict)
	h.pf64(v.Score)
	h.pf64(v.Confidence)
	h.pstr(v.Model)
	h.ptime(v.CalledAt)
	h.str(v.Extra)
	return h.sum()
}

// Key returns the natural key (result_id).
func (r *Result) Key() string { return r.ResultID }

// Partition returns the hive partition values (benchmark).
func (r *Result) Partition() []string { return []string{r.Benchmark} }

// SetPartition sets the partition fields from the hive path.
func (r *Result) SetPartition(p []string) { r.Benchmark = p[0] }

// Hash returns a content hash over every stored field except provenance.
func (r *Result) Hash() uint64 {
	var h hasher
	h.h.SetSeed(contentSeed)
	h.str(r.ResultID)
	h.str(r.Benchmark)
	h.str(r.TaskID)
	h.str(r.Agent)
	h.i64(r.Trial)
	h.f64(r.RecordedScore)
	h.boolean(r.RecordedPass)
	h.pstr(r.EpisodeID)
	h.pstr(r.FinalMessage)
	h.pstr(r.Instruction)
	h.str(r.Grader)
	h.pstr(r.Infra)
	h.str(r.Extra)
	return h.sum()
}

// KeyHash returns a 128-bit hash of the natural key (stable within one process).
func (e *Episode) KeyHash() [2]uint64 {
	k := newKeyHasher()
	k.str(e.EpisodeID)
	return k.sum()
}

// KeyHash returns a 128-bit hash of the natural key (stable within one process).
func (a *Action) KeyHash() [2]uint64 {
	k := newKeyHasher()
	k.str(a.EpisodeID)
	k.i64(a.Step)
	return k.sum()
}

// KeyHash returns a 128-bit hash of the natural key (stable within one process).
func (g *GroundTruth) KeyHash() [2]uint64 {
	k := newKeyHasher()
	k.str(g.EpisodeID)
	k.str(g.VerifierSHA256)
	if g.Annotator != nil {
		k.str(*g.Annotator)
	}
	return k.sum()
}

// source is Source with "" (rows written before the column existed) read
// as GTVerifier, so those rows keep their content hash.
func (g *GroundTruth) source() string {
	if g.Source == "" {
		return GTVerifier
	}
	return g.Source
}

// KeyHash returns a 128-bit hash of the natural key (stable within one process).
func (l *Label) KeyHash() [2]uint64 {
	k := newKeyHasher()
	k.str(l.EpisodeID)
	return k.sum()
}

// KeyHash returns a 128-bit hash of the natural key (stable within one process).
func (v *Verdict) KeyHash() [2]uint64 {
	k := newKeyHasher()
	k.str(v.EpisodeID)
	k.str(v.Judge)
	k.str(v.Condition)
	k.i64(v.Run)
	return k.sum()
}

// KeyHash returns a 128-bit hash of the natural key (stable within one process).
func (r *Result) KeyHash() [2]uint64 {
	k := newKeyHasher()
	k.str(r.ResultID)
	return k.sum()
}
