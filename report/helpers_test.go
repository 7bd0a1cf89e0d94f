package report

import "time"

func mkEst(v float64, lo, hi float64, k, n int) Estimate {
	return Estimate{Value: Num(v), Wilson: Interval{Num(lo), Num(hi)}, Boot: NoInterval(), K: k, N: n}
}

// sampleDocument is a small report with every section.
func sampleDocument() *Document {
	d := &Document{Format: FormatVersion, Title: "sample <report> & co",
		Provenance: Provenance{Version: "test", Lake: "lake", ManifestVersion: 3, ManifestSHA256: "abc",
			GeneratedAt: time.Date(2026, 12, 1, 2, 0, 0, 0, time.UTC), Seed: 1, Params: map[string]any{"source": "natural"}},
		Summary: Summary{Line: "No baseline given: changes are not computed."},
		Judges: []JudgeRow{
			{Judge: "j1", Condition: "E2-lastk", NEpisodes: 60, NPos: 20, NNeg: 40, TP: 18, FP: 10, TN: 30, FN: 2,
				FPR: mkEst(0.25, 0.14, 0.40, 10, 40), FDR: mkEst(10.0/28, 0.2, 0.5, 10, 28), TPR: mkEst(0.9, 0.7, 0.97, 18, 20),
				Inflation:       Estimate{Value: Num(8.0 / 60), Wilson: NoInterval(), Boot: NoInterval()},
				Kappa:           Estimate{Value: 0.5, Wilson: NoInterval(), Boot: NoInterval()},
				SelfConsistency: mkEst(0.9, 0.8, 0.95, 54, 60), UncertainRate: mkEst(0, 0, 0.06, 0, 60), ParseErrorRate: mkEst(0, 0, 0.02, 0, 180)},
			{Judge: "j2", Condition: "E2-lastk", NEpisodes: 60, NPos: 20, NNeg: 40, TP: 17, FP: 4, TN: 36, FN: 3,
				FPR: mkEst(0.1, 0.04, 0.23, 4, 40), FDR: mkEst(4.0/21, 0.07, 0.4, 4, 21), TPR: mkEst(0.85, 0.64, 0.95, 17, 20),
				Inflation:       Estimate{Value: Num(1.0 / 60), Wilson: NoInterval(), Boot: NoInterval()},
				Kappa:           Estimate{Value: 0.7, Wilson: NoInterval(), Boot: NoInterval()},
				SelfConsistency: mkEst(0.95, 0.86, 0.98, 57, 60), UncertainRate: mkEst(0, 0, 0.06, 0, 60), ParseErrorRate: mkEst(0, 0, 0.02, 0, 180)},
		},
		Strata: []StratumRow{
			{Judge: "j1", Condition: "E2-lastk", By: ByHardness, Value: "hard", NNeg: 20, FP: 6, FPR: mkEst(0.3, 0.14, 0.52, 6, 20)},
			{Judge: "j1", Condition: "E2-lastk", By: ByCategory, Value: "F-UNCOMMITTED", NNeg: 10, FP: 4, FPR: mkEst(0.4, 0.17, 0.69, 4, 10)},
			{Judge: "j1", Condition: "E2-lastk", By: BySource, Value: "perturbed", NNeg: 10, FP: 5, FPR: mkEst(0.5, 0.24, 0.76, 5, 10)},
		},
		ClaimSway: []Sway{{Judge: "j1", Claim: "E2+claim", Base: "E2-lastk", NPairs: 40, B: 6, C: 1, McNemarP: 0.125,
			FPRClaim: mkEst(0.375, 0.24, 0.53, 15, 40), FPRBase: mkEst(0.25, 0.14, 0.4, 10, 40), Sway: Estimate{Value: 0.125, Wilson: NoInterval(), Boot: Interval{0.02, 0.25}}}},
		RewardModels: []RewardModel{{Judge: "rm", Condition: "E1-final", TargetFPR: 0.05, Threshold: 0.8, Folds: 5, NPos: 20, NNeg: 40,
			HeldOutFPR: mkEst(0.05, 0.01, 0.16, 2, 40), HeldOutTPR: mkEst(0.6, 0.39, 0.78, 12, 20),
			AUC: Estimate{Value: 0.8, Wilson: NoInterval(), Boot: Interval{0.7, 0.9}},
			ROC: []ROCPoint{{0, 0}, {0.05, 0.6}, {0.5, 0.9}, {1, 1}}}},
		Trust: &Trust{D2Policy: "lenient", Repeats: 5,
			Funnel: []Stage{{"recorded passes", 84}, {"D1", 84}, {"+ D2", 84}, {"+ D3", 84}, {"trusted", 40}},
			Agents: []TrustAgent{{Benchmark: "b", Agent: "a", Results: 200, RecordedPasses: 84, RemovedD4: 44, Trusted: 40,
				TrustedRate: mkEst(40.0/84, 0.373, 0.582, 40, 84), D4: D4{Stable: 40, Varied: 44, VariedRate: 0.52, Sigma2Between: 0.1, Sigma2Within: 0.15, Rho: 0.4}}},
		},
		Health: Health{Lake: LakeHealth{Files: 3, Rows: map[string]int64{"verdicts": 10}, Problems: []Problem{}},
			Verifiers: VerifierHealth{Verifiers: 2, Tested: 2}, NeedsReview: []ReviewCount{{Raw: "F-WEIRD", Episodes: 2}}},
		Checklists: []Checklist{{Judge: "j1", Condition: "E2-lastk", Pass: false, Failed: 1,
			Items: []ChecklistItem{{ID: "fpr_bound", Title: "FPR upper bound", Status: "fail", Figure: "0.40 > 0.05"}}}},
		Gates: []GateResult{}, Warnings: []string{"a warning"},
	}
	lam := Num(0.8)
	d.CorrectedRates = &CorrectedRates{GT: "verifier", Prediction: "the majority verdict", Assumption: "a random subset", MixAlarmP: 0.01,
		Rows: []RateRow{{Agent: "(all)", Judge: "j<b>|x", Condition: "E2-lastk", NLabelled: 30, NUnlabelled: 90, NTasks: 40,
			JudgeOnly:       RateEstimate{Value: 0.6, CI: Interval{0.55, 0.65}, Boot: Interval{0.54, 0.66}},
			GTOnly:          RateEstimate{Value: 0.4, CI: Interval{0.22, 0.58}, Boot: Interval{0.21, 0.59}},
			PPI:             RateEstimate{Value: 0.42, CI: Interval{0.3, 0.54}, Boot: NoInterval()},
			PPITuned:        RateEstimate{Value: 0.43, CI: Interval{0.32, 0.54}, Boot: Interval{0.31, 0.55}, Lambda: &lam},
			EffectiveLabels: 41.6, TaskMix: MixTest{TV: 0.1, ChiSquare: 30, DF: 39, P: 0.8}}},
		ByAgent: []RateRow{}, Warnings: []string{"j<b>|x@E2-lastk (all): labelled and unlabelled episodes differ in task mix"}}
	d.Trust.Agents[0].D4.Tasks, d.Trust.Agents[0].D4.VariedRateBoot = 50, Interval{0.38, 0.66}
	d.Trust.Agents[0].D4.PassHatK, d.Trust.Agents[0].D4.PassHatKBoot = []Num{0.7, 0.55}, []Interval{{0.6, 0.8}, NoInterval()}
	d.Trust.Agents[0].D4.PassK, d.Trust.Agents[0].D4.PassKTasks = 2, 48
	d.Trust.Total = d.Trust.Agents[0]
	d.Trust.Total.Benchmark, d.Trust.Total.Agent = "all", "all"
	return d
}
