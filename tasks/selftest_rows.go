package tasks

import (
	"time"

	"github.com/trustlake/trustlake/schema"
)

// SelfTestRows turns self-test results into rows of the selftests table,
// keyed by the verifier's sha256 (the one verify writes into gt.json);
// sandbox names the backend they ran in.
func SelfTestRows(lib *Library, res []FixtureResult, sandbox string) ([]schema.SelfTest, error) {
	sums := map[string]string{}
	now := time.Now().UTC()
	rows := make([]schema.SelfTest, 0, len(res))
	for _, x := range res {
		sum, ok := sums[x.TaskID]
		if !ok {
			t, err := lib.Task(x.TaskID)
			if err != nil {
				return nil, err
			}
			if sum, err = VerifierSHA256(t); err != nil {
				return nil, err
			}
			sums[x.TaskID] = sum
		}
		rows = append(rows, schema.SelfTest{
			TaskID: x.TaskID, VerifierSHA256: sum, Fixture: x.Fixture,
			WantPass: x.WantPass, WantCategory: nonEmpty(x.WantCategory),
			GotPass: x.GotPass, GotCategory: nonEmpty(x.GotCategory),
			Deterministic: x.Deterministic, OK: x.OK, Error: nonEmpty(x.Err),
			Sandbox: sandbox, RanAt: &now,
			Provenance: schema.Provenance{SrcFile: "tasks check " + lib.Dir},
		})
	}
	return rows, nil
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
