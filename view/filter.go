package view

import (
	"cmp"
	"encoding/base64"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/trustlake/trustlake/metrics"
	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/schema"
)

// Page sizes of the episode list.
const (
	defaultLimit = 50
	maxLimit     = 500
)

// Values of the list's enumerated parameters.
var (
	gtValues        = []string{queries.GTVerifier, queries.GTHuman, queries.GTAny}
	uncertainValues = []string{metrics.UncertainFailure, metrics.UncertainSuccess, metrics.UncertainExclude}
	outcomeValues   = []string{"fp", "fn", "tp", "tn", "uncertain", "parse_error"}
	hardnessValues  = []string{schema.HardnessHard, schema.HardnessObvious, schema.HardnessClaim}
)

// overviewParams are the overview's options: the reference, the headline
// source and the uncertain policy, as `metrics --gt --source
// --uncertain-policy` take them.
type overviewParams struct {
	GT, Source, Uncertain string
}

func parseOverview(q url.Values) (overviewParams, error) {
	p := overviewParams{GT: cmp.Or(q.Get("gt"), queries.GTVerifier),
		Source:    cmp.Or(q.Get("source"), schema.SourceNatural),
		Uncertain: cmp.Or(q.Get("uncertain"), metrics.UncertainFailure)}
	if err := oneOf("gt", p.GT, gtValues); err != nil {
		return p, err
	}
	return p, oneOf("uncertain", p.Uncertain, uncertainValues)
}

func oneOf(name, v string, set []string) error {
	if !slices.Contains(set, v) {
		return fmt.Errorf("%s=%q: want one of %s", name, v, strings.Join(set, ", "))
	}
	return nil
}

// parseFilter reads the list's filters from a query string (the same for
// /episodes, /api/episodes and an episode's prev/next links).
func parseFilter(q url.Values, threshold *float64) (queries.ViewerFilter, error) {
	op, err := parseOverview(q)
	if err != nil {
		return queries.ViewerFilter{}, err
	}
	f := queries.ViewerFilter{GT: op.GT, UncertainPolicy: op.Uncertain, Threshold: threshold,
		Judge: q.Get("judge"), Condition: q.Get("condition"), Outcome: q.Get("outcome"), Category: q.Get("category"),
		Source: q.Get("source"), Hardness: q.Get("hardness"), Task: q.Get("task"), Agent: q.Get("agent"), Limit: defaultLimit}
	if (f.Judge == "") != (f.Condition == "") {
		return f, fmt.Errorf("judge and condition go together (judge=%q condition=%q)", f.Judge, f.Condition)
	}
	if f.Outcome != "" {
		if err := oneOf("outcome", f.Outcome, outcomeValues); err != nil {
			return f, err
		}
		if f.Judge == "" {
			return f, fmt.Errorf("outcome=%s needs judge and condition", f.Outcome)
		}
	}
	if f.Hardness != "" {
		if err := oneOf("hardness", f.Hardness, hardnessValues); err != nil {
			return f, err
		}
	}
	switch r := q.Get("reviewed"); r {
	case "":
	case "yes", "no":
		b := r == "yes"
		f.Reviewed = &b
	default:
		return f, fmt.Errorf("reviewed=%q: want yes or no", r)
	}
	switch vs := q.Get("vs"); vs {
	case "":
	case "human", "verifier-human":
		f.Vs = vs
	default:
		i := strings.LastIndex(vs, "@")
		if i <= 0 || i == len(vs)-1 {
			return f, fmt.Errorf("vs=%q: want JUDGE@CONDITION, human or verifier-human", vs)
		}
		f.Vs, f.VsJudge, f.VsCondition = "jc", vs[:i], vs[i+1:]
	}
	if (f.Vs == "jc" || f.Vs == "human") && f.Judge == "" {
		return f, fmt.Errorf("vs=%s needs judge and condition", q.Get("vs"))
	}
	f.AcceptedByAny = q.Get("accepted") == "any"
	if l := q.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > maxLimit {
			return f, fmt.Errorf("limit=%q: want 1 to %d", l, maxLimit)
		}
		f.Limit = n
	}
	if c := q.Get("cursor"); c != "" {
		task, id, err := decodeCursor(c)
		if err != nil {
			return f, err
		}
		f.AfterTask, f.AfterID, f.HasCursor = task, id, true
	}
	return f, nil
}

// encodeCursor makes the opaque cursor after a row: its task and episode.
func encodeCursor(task, id string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(task + "\x00" + id))
}

func decodeCursor(c string) (task, id string, err error) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	task, id, ok := strings.Cut(string(b), "\x00")
	if err != nil || !ok {
		return "", "", fmt.Errorf("cursor=%q: not a cursor of this list", c)
	}
	return task, id, nil
}

// listKeys are the query parameters of a list, in a stable order: what an
// episode page carries to find its previous and next episode.
var listKeys = []string{"gt", "uncertain", "judge", "condition", "outcome", "category", "source", "hardness", "task", "agent", "reviewed", "vs", "accepted"}

// listQuery keeps only the list's filter parameters of q (no cursor, no
// limit).
func listQuery(q url.Values) url.Values {
	out := url.Values{}
	for _, k := range listKeys {
		if v := q.Get(k); v != "" {
			out.Set(k, v)
		}
	}
	return out
}
