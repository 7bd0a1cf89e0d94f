package ingest

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// WriteSummary prints what an ingest did for people: per table the rows
// added, unchanged and replaced, the categories that need review, warnings.
func WriteSummary(w io.Writer, st Stats) {
	for _, t := range slices.Sorted(maps.Keys(st.Tables)) {
		s := st.Tables[t]
		line := fmt.Sprintf("%s: %d new, %d unchanged", t, s.Added, s.Unchanged)
		if s.Replaced > 0 {
			line += fmt.Sprintf(", %d replaced", s.Replaced)
		}
		fmt.Fprintln(w, line)
	}
	if len(st.Tables) == 0 {
		fmt.Fprintln(w, "nothing to ingest")
	}
	if st.NeedsReview > 0 {
		ies := "ies"
		if st.NeedsReview == 1 {
			ies = "y"
		}
		fmt.Fprintf(w, "needs review: %d categor%s outside the seven codes kept raw (see view categories)\n", st.NeedsReview, ies)
	}
	for _, warn := range st.Warnings {
		fmt.Fprintf(w, "warning: %s\n", strings.TrimSpace(warn))
	}
}
