package report

import (
	"net/url"
	"strings"
)

// viewLink returns the `trustlake view` URL of the episodes behind a count
// of the report (judge × condition, an outcome, a stratum), or "" without a
// viewer URL (Document.ViewURL). The list uses the report's source and
// uncertain policy, so its length is the count.
func viewLink(d *Document, judge, condition, outcome, by, value string) string {
	if d.ViewURL == "" {
		return ""
	}
	q := url.Values{"judge": {judge}, "condition": {condition}}
	if outcome != "" {
		q.Set("outcome", outcome)
	}
	source := "natural"
	if s, ok := d.Provenance.Params["source"].(string); ok && s != "" {
		source = s
	}
	if p, ok := d.Provenance.Params["uncertain_policy"].(string); ok && p != "" {
		q.Set("uncertain", p)
	}
	switch by {
	case ByHardness:
		q.Set("hardness", value)
	case ByCategory:
		if strings.HasPrefix(value, "(") {
			return "" // (pass) and (none) are not one category
		}
		q.Set("category", value)
	case BySource:
		source = value
	}
	q.Set("source", source)
	return strings.TrimSuffix(d.ViewURL, "/") + "/episodes?" + q.Encode()
}
