// Package sim generates simulated evaluation data — seed-format episode
// folders with ground truth, and judge verdict JSONL — from a documented
// parametric model, for tests, benchmarks, the demo and power planning.
//
// Everything it writes says it is simulated: agent, judge and model names
// start with "sim:", episode ids with "sim-", task ids with "sim-task-",
// and gt.json diagnostics carry "simulated": true. The same Options give
// byte-identical output: every random draw comes from a PCG stream derived
// from (seed, purpose, task, agent, episode[, judge]), never from shared
// state, so the number of workers does not matter.
//
// # The model
//
// Tasks. Task t has a difficulty d_t ~ Normal(0, TaskDifficultySD²) on
// the logit scale.
//
// Episodes. Each (task, agent) cell holds EpisodesPerTask episodes (or, with
// VerdictRows = N, ceil(N / rows per episode) episodes in all, spread as
// evenly as possible over the cells, earlier cells taking the remainder).
// Each episode's source is drawn with the relative shares ShareNatural,
// ShareWeakened, SharePerturbed.
//
//   - natural: GT passes with probability logistic(skill_a − d_t).
//   - weakened: the same with skill_a − WeakenedPenalty (meta.json agent
//     version "sim-1-weakened").
//   - perturbed: a replay of a passing natural episode of the same task
//     (same agent when one exists) with one injected defect: skip-save or
//     cancel-dialog (→ F-UNCOMMITTED), shift-target-row or
//     write-sibling-dir (→ F-WRONGTARGET). The verifier is "re-run": the
//     episode still passes with PerturbedPassProb. It keeps its parent's
//     final message and step count, and names parent_episode_id and
//     perturbation. Without a passing natural episode in the task it stays
//     natural.
//
// A GT failure of a natural or weakened episode gets one category drawn by
// Categories[c].Weight. Its final message claims success with probability
// Categories[c].ClaimProb (1 for F-CLAIM); a passing episode claims with
// PassClaimProb. The steps are drawn in [MinSteps, MaxSteps] (F-CLAIM: 1–3,
// "Done!" after two clicks). gt.json score is 1 for a pass, 0.5 for
// F-PARTIAL, else 0; the failed gate is persisted (F-UNCOMMITTED),
// no-side-effects (F-SIDEEFFECT) or goal (the rest).
//
// Judges. Judge j accepts an episode of GT class k (pass, or failure
// category c) under condition e through a liability-threshold (probit)
// model. The threshold is
//
//	θ = Φ⁻¹(r) + ConditionShift[e]·[c is a hard negative]
//	           + ClaimShift_j·[e = E2+claim, GT failed, message claims success]
//
// with r = TPR_j for a pass and FPR_j[c] for a failure (rates are stated
// for E2-lastk). Defaults: ConditionShift E1-final +0.3 (more lenient on
// hard negatives with only the final screenshot), E2-lastk and E2+claim 0,
// E3-full −0.3. The latent is
//
//	L = √TaskCorr·Z[task, j] + √EpisodeCorr·Z[episode, j] + √(1−TaskCorr−EpisodeCorr)·ε[episode, j, e]
//
// with independent standard normals, so the marginal acceptance rate over
// tasks is exactly Φ(θ) (= r when no shift applies) while outcomes cluster
// by task (TaskCorr) and pair across conditions of one episode
// (EpisodeCorr). The modal decision is accept ⇔ L < θ.
//
// VLM runs (KindVLM). Each of Runs runs is, in order: parse_error with
// probability ParseErrorRate (score and confidence null); else uncertain
// so that its overall rate is UncertainRate (confidence in [0.2, 0.5));
// else the modal decision, flipped with FlipProb, as "success" or
// "failure" with confidence 0.5 + |Φ(θ−L) − 0.5|. So one run says success
// with probability (1 − ParseErrorRate − UncertainRate)·(a(1−FlipProb) +
// (1−a)·FlipProb), a = Φ(θ).
//
// Reward-model runs (KindRewardModel) are score-only: "verdict": null,
// "score": Φ(θ − L_run) rounded to 4 decimals (never rounded up across
// 0.5), "confidence": null, where L_run redraws a RunScoreSD share of the
// latent per run (variance kept at 1). Hence score ≥ 0.5 has exactly the
// acceptance rate Φ(θ) of the VLM model, and lower or higher thresholds
// trace a smooth ROC. A reward-model parse error is a row with
// "verdict": "parse_error" and "score": null.
//
// Default judges: sim:vlm-a (TPR 0.92; FPR F-ABORT 0.03, F-WRONGAPP 0.08,
// F-PARTIAL 0.35, F-UNCOMMITTED 0.55, F-WRONGTARGET 0.45, F-SIDEEFFECT
// 0.30, F-CLAIM 0.10; claim shift 0.5; flip 0.05; uncertain 0.03; parse
// error 0.01), sim:vlm-b (TPR 0.88; FPR 0.05, 0.12, 0.30, 0.45, 0.40,
// 0.35, 0.15; claim shift 0.8; flip 0.08) and the reward model sim:rm-1
// (TPR 0.85; FPR 0.05, 0.10, 0.40, 0.60, 0.50, 0.35, 0.20; claim shift
// 0.3; parse error 0.005; run score SD 0.15). Every judge runs every
// condition by default (3 judges × 4 conditions × 3 runs = 36 rows per
// episode).
//
// # Output
//
//	DIR/episodes/<episode_id>/meta.json      seed §4.1, one line
//	DIR/episodes/<episode_id>/actions.jsonl  {"step","action","text"?,"keys"?,"screen"?}
//	DIR/episodes/<episode_id>/screens/NNN.png with Options.Screens only (8×8 PNG)
//	DIR/episodes/<episode_id>/gt.json        {"episode_id","pass","score","category","diagnostics","verifier_sha256","gates","deterministic"}
//	DIR/verdicts/<judge>__<condition>.jsonl  see VerdictFileName; or DIR/verdicts/verdicts.jsonl
//
// Without Options.Screens, actions name no screen, so no reference dangles.
// A verdict line has the keys episode_id, judge, condition, run, verdict,
// score, confidence, model, called_at in that order; called_at counts one
// second per row from BaseTime + 24 h, created_at one minute per episode
// from BaseTime.
package sim
