package ingest

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/schema"
)

// RecordSource yields generic records (column name → value), e.g. the rows
// of a DuckDB query; it returns ok=false at the end.
type RecordSource func() (rec map[string]any, ok bool, err error)

// Records ingests generic records into table, validating each exactly like
// the table's native format: every record is encoded as a JSON object with
// the table's field names and goes through the same decoder. src names the
// input in messages; record numbers stand in for lines.
func Records(ctx context.Context, dst *lake.Lake, table, src string, next RecordSource, opts Options) (Stats, error) {
	if _, err := lake.LookupTable(table); err != nil {
		return Stats{}, err
	}
	return inBatch(ctx, dst, opts, func(b *batch) error {
		b.stats.Inputs++
		var fields []field
		for n := int64(1); ; n++ {
			rec, ok, err := next()
			if err != nil {
				return err
			}
			if !ok {
				if n == 1 {
					b.reject(src, 0, schema.Reason(schema.ErrMissing, "the query returned no rows"))
				}
				return nil
			}
			if n%65536 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			line, err := json.Marshal(jsonable(rec))
			if err != nil {
				b.reject(src, n, &schema.FieldError{Field: "record", Err: schema.Reason(schema.ErrType, "%v", err)})
				continue
			}
			if err := b.record(table, src, n, line, &fields); err != nil {
				return err
			}
		}
	})
}

// jsonable turns driver values into JSON-encodable ones (NaN and ±Inf
// become the strings the decoders reject with a clear message).
func jsonable(rec map[string]any) map[string]any {
	out := make(map[string]any, len(rec))
	for k, v := range rec {
		switch x := v.(type) {
		case time.Time:
			out[k] = x.UTC().Format(time.RFC3339Nano)
		case []byte:
			out[k] = string(x)
		default:
			out[k] = v
		}
	}
	return out
}

func (b *batch) record(table, src string, n int64, line []byte, fields *[]field) error {
	var err error
	switch table {
	case lake.Verdicts:
		var v schema.Verdict
		if err = newVerdictDecoder().decode(line, &v); err == nil {
			v.SrcFile, v.SrcLine = src, n
			return add(b, table, &v)
		}
	case lake.Episodes:
		var ep schema.Episode
		if *fields, err = scanObject((*fields)[:0], line); err == nil {
			_, err = decodeMeta(*fields, line, &ep)
		}
		if err == nil {
			ep.Dir, ep.SrcFile, ep.SrcLine = src, src, n
			return add(b, table, &ep)
		}
	case lake.Actions:
		var head struct {
			EpisodeID string `json:"episode_id"`
			Agent     string `json:"agent"`
		}
		json.Unmarshal(line, &head)
		a := schema.Action{EpisodeID: head.EpisodeID, Agent: head.Agent}
		if *fields, err = decodeAction(line, *fields, &a); err == nil {
			a.Extra = dropKey(a.Extra, "agent")
			a.SrcFile, a.SrcLine = src, n
			return add(b, table, &a)
		}
	case lake.GroundTruth:
		var g schema.GroundTruth
		if *fields, err = scanObject((*fields)[:0], line); err == nil {
			_, err = decodeGroundTruth(*fields, line, &g)
		}
		if err == nil {
			if g.Category == nil && g.CategoryRaw != nil {
				b.stats.NeedsReview++
			}
			g.SrcFile, g.SrcLine = src, n
			return add(b, table, &g)
		}
	case lake.Labels:
		var in struct {
			EpisodeID string  `json:"episode_id"`
			Category  string  `json:"category"`
			Annotator *string `json:"annotator"`
			Note      *string `json:"note"`
		}
		if err = json.Unmarshal(line, &in); err == nil {
			return b.addLabel(&schema.Label{EpisodeID: in.EpisodeID, CategoryRaw: in.Category, Annotator: in.Annotator, Note: in.Note}, src, n)
		}
		err = &schema.FieldError{Field: "record", Err: schema.Reason(schema.ErrType, "%v", err)}
	case lake.Results:
		return b.resultRecord(src, n, line)
	default:
		return fmt.Errorf("ingest sql: table %s cannot be loaded this way", table)
	}
	b.reject(src, n, err)
	return nil
}

// dropKey removes key from an extra-fields JSON object.
func dropKey(extra, key string) string {
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(extra), &m) != nil {
		return extra
	}
	delete(m, key)
	if len(m) == 0 {
		return "{}"
	}
	out, _ := json.Marshal(m)
	return string(out)
}
