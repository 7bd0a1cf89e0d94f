package view

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"
	"sort"

	"github.com/trustlake/trustlake/queries"
)

// A list (the episodes of one filter) is read whole once per manifest
// version when it has at most Options.MaxCachedList rows; its pages and an
// episode's previous/next links are then cut from it without a query.
// Longer lists page through SQL (keyset cursor).
const (
	DefaultMaxCachedList = 50_000
	listsCached          = 8
)

// wholeList returns the filter's whole list over the newest manifest, or
// nil when it is longer than Options.MaxCachedList. Lists are cached by
// their filter without its cursor and page size.
func (s *Server) wholeList(ctx context.Context, f queries.ViewerFilter) (out []queries.ViewerEpisode, err error) {
	f.AfterTask, f.AfterID, f.HasCursor, f.Before, f.Limit = "", "", false, false, 0
	b, _ := json.Marshal(f)
	key := string(b)
	maxCachedList := cmp.Or(s.opts.MaxCachedList, DefaultMaxCachedList)
	f.Limit = maxCachedList + 1
	err = s.withSession(ctx, func(sess *queries.Session) (err error) {
		var ok bool
		if out, ok = s.lists.vals[key]; ok {
			return nil
		}
		if out, err = sess.ViewerEpisodes(ctx, f); err != nil {
			return err
		}
		if len(out) > maxCachedList {
			out = nil
		}
		s.lists.put(key, out, listsCached)
		return nil
	})
	return out, err
}

// cutPage cuts the page of f from a whole list: the rows after the cursor
// (or, with f.Before, before it, nearest first), at most f.Limit of them.
func cutPage(rows []queries.ViewerEpisode, f queries.ViewerFilter) []queries.ViewerEpisode {
	at := func(i int) int { // the first row at or after the cursor
		return cmp.Or(cmp.Compare(rows[i].TaskID, f.AfterTask), cmp.Compare(rows[i].EpisodeID, f.AfterID))
	}
	if f.Before {
		i := sort.Search(len(rows), func(i int) bool { return at(i) >= 0 })
		page := slices.Clone(rows[max(0, i-f.Limit):i])
		slices.Reverse(page)
		return page
	}
	start := 0
	if f.HasCursor {
		start = sort.Search(len(rows), func(i int) bool { return at(i) > 0 })
	}
	return rows[start:min(len(rows), start+f.Limit)]
}
