package sim

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
)

// Stream kinds: every random quantity comes from a PCG stream derived from
// (seed, kind, ids...), so output never depends on goroutine scheduling.
// Streams are keyed by task, agent, episode number and judge name, so
// adding a judge leaves the other judges' verdicts unchanged, and adding
// episodes leaves the existing episodes' own draws unchanged (a perturbed
// episode's choice of parent and the timestamps may still move).
const (
	streamTask      uint64 = iota + 1 // (task): difficulty
	streamTaskJudge                   // (task, judge): judge's task effect
	streamEpisode                     // (task, agent, k): source, GT, category, claim
	streamPerturb                     // (task, agent, k): parent choice, perturbation
	streamActions                     // (task, agent, k): actions.jsonl content, agent seed
	streamMessage                     // (task, agent, k): final message wording
	streamVerdict                     // (task, agent, k, judge): verdict runs
)

// mix is the splitmix64 finaliser.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// streamKey folds kind and ids into one 64-bit stream selector.
func streamKey(kind uint64, ids ...uint64) uint64 {
	h := mix(kind)
	for _, id := range ids {
		h = mix(h ^ id)
	}
	return h
}

// newRand returns the PCG stream for (seed, kind, ids...).
func newRand(seed, kind uint64, ids ...uint64) *rand.Rand {
	return rand.New(rand.NewPCG(mix(seed), streamKey(kind, ids...)))
}

// nameID is a stable 64-bit id for a name (judge streams are keyed by name
// so that adding a judge leaves the others' verdicts unchanged).
func nameID(name string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return h.Sum64()
}

// phi is the standard normal CDF.
func phi(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// probit is the standard normal quantile; probit(0) = -Inf, probit(1) = +Inf.
func probit(p float64) float64 { return math.Sqrt2 * math.Erfinv(2*p-1) }

// logistic is 1/(1+e^-x).
func logistic(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// intBetween draws uniformly from [lo, hi].
func intBetween(r *rand.Rand, lo, hi int) int { return lo + r.IntN(hi-lo+1) }
