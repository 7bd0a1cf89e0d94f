package judge

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"math"
)

// RMHTTP scores with a reward model behind HTTP: it POSTs
// {"model", "instruction", "screenshots": [base64 PNG, ...], "actions": [...]}
// to the base URL and reads {"score": number, "model": "..."} back. The
// score is stored raw, never thresholded.
type RMHTTP struct{ HTTPOptions }

// Call implements Backend.
func (b *RMHTTP) Call(ctx context.Context, req *Request) (Reply, error) {
	var r struct {
		Score *float64 `json:"score"`
		Model string   `json:"model"`
	}
	data, err := b.exchange(ctx, req, func() ([]byte, error) {
		shots := make([]string, 0, len(req.Pack.Images))
		for _, im := range req.Pack.Images {
			shots = append(shots, base64.StdEncoding.EncodeToString(im.Data))
		}
		actions := make([]string, 0, len(req.Pack.Steps))
		for _, s := range req.Pack.Steps {
			actions = append(actions, s.Action)
		}
		return json.Marshal(map[string]any{"model": req.Model, "instruction": req.Pack.TaskText, "screenshots": shots, "actions": actions})
	}, b.BaseURL, &r, "reward model", map[string]string{"Authorization": bearer(b.APIKey)})
	if err != nil {
		return Reply{}, err
	}
	if r.Score == nil || math.IsNaN(*r.Score) || math.IsInf(*r.Score, 0) {
		return Reply{}, malformed("reward model", errors.New("no finite score"), data)
	}
	return Reply{Score: r.Score, Model: r.Model}, nil
}
