package ingest

import (
	"bufio"
	"cmp"
	"encoding/json"
	"errors"
	"io"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/klauspost/compress/zstd"
	"github.com/zeebo/xxh3"

	"github.com/trustlake/trustlake/schema"
)

// zipMethodZstd is the ZIP compression method of zstd entries (APPNOTE
// 4.4.5: 93), which inspect-ai writes since it moved off deflate.
const zipMethodZstd = 93

// inspectHeader is what a log says about its run: header.json of a
// finished .eval, _journal/start.json of an unfinished one, the top-level
// fields of a .json log.
type inspectHeader struct {
	Version    int         `json:"version"`
	Status     string      `json:"status"`
	Eval       inspectEval `json:"eval"`
	Unfinished bool        `json:"-"` // no header.json: read from the journal
}

// inspectEval is the part of EvalSpec the adapter maps (the rest is kept
// raw in Extra).
type inspectEval struct {
	EvalID     string `json:"eval_id"`
	RunID      string `json:"run_id"`
	TaskID     string `json:"task_id"`
	Created    string `json:"created"`
	Task       string `json:"task"`
	Model      string `json:"model"`
	ModelRoles map[string]struct {
		Model string `json:"model"`
	} `json:"model_roles"`
	Config struct {
		Epochs        *int64   `json:"epochs"`
		EpochsReducer []string `json:"epochs_reducer"`
	} `json:"config"`
	Scorers  []inspectScorer   `json:"scorers"`
	Packages map[string]string `json:"packages"`  // e.g. inspect_ai version
	TaskArgs json.RawMessage   `json:"task_args"` // the task's parameters
}

// inspectScorer is one scorer declared by the task.
type inspectScorer struct {
	Name    string                     `json:"name"`
	Options map[string]json.RawMessage `json:"options"`
}

// sampleEntry is one sample × epoch as stored: where it is (for messages
// and provenance) and its JSON object.
type sampleEntry struct {
	where string // "log.eval:samples/q1_epoch_1.json", or the .json log's name
	line  int64  // line of the sample in a .json log; 0 in an .eval
	raw   []byte
}

// inspectReader reads one log: its header first, then its samples one at a
// time, so memory holds one sample.
type inspectReader interface {
	header() (*inspectHeader, error)
	samples(each func(sampleEntry) error) error
	Close() error
}

// openInspect opens an .eval (ZIP) or .json log, by content: a ZIP starts
// with "PK".
func openInspect(name string) (inspectReader, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	var magic [2]byte
	if _, err := io.ReadFull(f, magic[:]); err == nil && string(magic[:]) == "PK" {
		st, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, err
		}
		return openEvalZip(f, name, st.Size())
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	return &jsonLog{f: f, name: name}, nil
}

// evalZip reads an .eval log: a ZIP of JSON entries. Its central
// directory is walked from the file each time it is needed (zipDir), so
// nothing is kept per sample: memory holds the sample being read.
type evalZip struct {
	f     *os.File
	name  string
	size  int64
	dir   *zipDir
	heads map[string]*zipEntry // header.json and _journal/start.json
	later map[uint64]int       // xxh3 of a sample entry's name written more than once -> its copies not yet passed
	dec   *zstd.Decoder
	fl    io.ReadCloser // deflate reader, reset per entry
	buf   []byte        // compressed bytes of the entry being read
}

func openEvalZip(f *os.File, name string, size int64) (*evalZip, error) {
	dir, err := openZipDir(f, size)
	if err != nil {
		f.Close()
		return nil, (&evalZip{name: name}).unreadable(err)
	}
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true))
	if err != nil {
		f.Close()
		return nil, err
	}
	// Entries are read one at a time, so one decoder serves them all.
	z := &evalZip{f: f, name: name, size: size, dir: dir, heads: map[string]*zipEntry{}, later: map[uint64]int{}, dec: dec}
	// A first walk finds the header and the sample names written more
	// than once (the last copy counts, as for every ZIP reader): a hash
	// of each sample's name, 8 bytes a sample while it runs.
	var hashes []uint64
	err = dir.each(func(e *zipEntry) error {
		switch {
		case isHead(e.name):
			it, err := dir.item(e)
			if err != nil {
				return z.entryErr(e.name, err)
			}
			z.heads[e.name] = &it
		case isSample(e.name):
			hashes = append(hashes, xxh3.HashString(e.name))
		}
		return nil
	})
	if err != nil {
		z.Close()
		var de *zipDirError
		if errors.As(err, &de) {
			return nil, z.unreadable(de.err)
		}
		return nil, err
	}
	slices.Sort(hashes)
	for i := 1; i < len(hashes); i++ {
		if hashes[i] == hashes[i-1] {
			z.later[hashes[i]]++
		}
	}
	return z, nil
}

// isSample says whether an entry belongs to a sample (either layout).
func isSample(name string) bool {
	return strings.HasPrefix(name, "samples/") && (monolithSample.MatchString(name) || chunkedSample.MatchString(name))
}

// isHead says whether an entry holds the run's header.
func isHead(name string) bool { return name == "header.json" || name == "_journal/start.json" }

func (z *evalZip) Close() error {
	z.dec.Close()
	return z.f.Close()
}

// header reads header.json, or, in a log whose run has not finished,
// _journal/start.json.
func (z *evalZip) header() (*inspectHeader, error) {
	name, unfinished := "header.json", false
	e := z.heads[name]
	if e == nil {
		name, unfinished = "_journal/start.json", true
		e = z.heads[name]
	}
	if e == nil {
		return nil, &schema.RecordError{File: z.name, Field: "header.json", Err: schema.Reason(schema.ErrMissing, "neither header.json nor _journal/start.json: not an Inspect AI log")}
	}
	b, err := z.item(e)
	if err != nil {
		return nil, err
	}
	var h inspectHeader
	if err := json.Unmarshal(b, &h); err != nil {
		return nil, &schema.RecordError{File: z.name + ":" + name, Err: jsonReason(err)}
	}
	h.Unfinished = unfinished
	if unfinished {
		h.Status = "started"
	}
	return &h, nil
}

var (
	monolithSample = regexp.MustCompile(`^samples/[^/]+_epoch_\d+\.json$`)
	chunkedSample  = regexp.MustCompile(`^samples/([^/]+_epoch_\d+)/`)
)

// samples yields every samples/{id}_epoch_{n}.json entry in file order.
func (z *evalZip) samples(each func(sampleEntry) error) error {
	err := z.dir.each(func(e *zipEntry) error {
		if !isSample(e.name) {
			return nil
		}
		if len(z.later) > 0 {
			h := xxh3.HashString(e.name)
			if n := z.later[h]; n > 0 { // a later copy of this name follows
				z.later[h] = n - 1
				return nil
			}
		}
		if m := chunkedSample.FindStringSubmatch(e.name); m != nil {
			return &schema.RecordError{File: z.name + ":samples/" + m[1], Err: schema.Reason(schema.ErrValue,
				"chunked sample layout (inspect-ai's convert to chunked) is not supported yet")}
		}
		it, err := z.dir.item(e)
		if err != nil {
			return z.entryErr(e.name, err)
		}
		b, err := z.item(&it)
		if err != nil {
			return err
		}
		return each(sampleEntry{where: z.name + ":" + it.name, raw: b})
	})
	var de *zipDirError
	if errors.As(err, &de) {
		return z.unreadable(de.err)
	}
	return err
}

// unreadable is the message of a log whose ZIP structure is broken.
func (z *evalZip) unreadable(err error) error {
	return &schema.RecordError{File: z.name, Err: schema.Reason(schema.ErrSyntax, "not a readable .eval (ZIP) file: %v (is the log still being written?)", err)}
}

// jsonLog reads a .json log (log_format="json"): one JSON object whose
// "samples" array is streamed element by element.
type jsonLog struct {
	f    *os.File
	name string
	lt   *lineTracker
	dec  *json.Decoder
	h    *inspectHeader
}

func (j *jsonLog) Close() error { return j.f.Close() }

func (j *jsonLog) syntax(err error) error {
	line := int64(0)
	if j.lt != nil && j.dec != nil {
		line = j.lt.lineAt(j.dec.InputOffset())
	}
	return &schema.RecordError{File: j.name, Line: line, Err: jsonReason(err)}
}

// header reads the top-level fields up to "samples" (inspect-ai writes
// version, status, eval, plan, results and stats first).
func (j *jsonLog) header() (*inspectHeader, error) {
	j.lt = &lineTracker{r: bufio.NewReaderSize(j.f, 1<<20)}
	j.dec = json.NewDecoder(j.lt)
	if tok, err := j.dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, &schema.RecordError{File: j.name, Line: 1, Err: schema.Reason(schema.ErrSyntax, "an Inspect AI .json log is one JSON object")}
	}
	h := &inspectHeader{}
	into := map[string]any{"version": &h.Version, "status": &h.Status, "eval": &h.Eval}
	seenEval, noEval := false, "not an Inspect AI log"
	for j.dec.More() {
		tok, err := j.dec.Token()
		if err != nil {
			return nil, j.syntax(err)
		}
		key, _ := tok.(string)
		if key == "samples" {
			noEval = "no eval before samples: not a log written by inspect-ai"
			break
		}
		v, ok := into[key]
		if !ok {
			v = new(json.RawMessage)
		}
		seenEval = seenEval || key == "eval"
		if err := j.dec.Decode(v); err != nil {
			return nil, j.syntax(err)
		}
	}
	if !seenEval {
		return nil, &schema.RecordError{File: j.name, Field: "eval", Err: schema.Reason(schema.ErrMissing, "%s", noEval)}
	}
	j.h = h
	return h, nil
}

// samples streams the "samples" array; header must have been called.
func (j *jsonLog) samples(each func(sampleEntry) error) error {
	if j.h == nil || !j.dec.More() {
		return nil // a log without samples (log_samples=False)
	}
	if tok, err := j.dec.Token(); err != nil {
		return j.syntax(err)
	} else if tok == nil {
		return nil // "samples": null
	} else if tok != json.Delim('[') {
		return &schema.RecordError{File: j.name, Field: "samples", Err: schema.Reason(schema.ErrType, "want an array")}
	}
	for j.dec.More() {
		var raw json.RawMessage
		if err := j.dec.Decode(&raw); err != nil {
			return j.syntax(err)
		}
		line := j.lt.lineAt(j.dec.InputOffset() - int64(len(raw)))
		if err := each(sampleEntry{where: j.name, line: line, raw: raw}); err != nil {
			return err
		}
	}
	return nil
}

// jsonReason turns a decoding error into a record error reason.
func jsonReason(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		want := cmp.Or(map[reflect.Kind]string{reflect.Slice: "array", reflect.Map: "object", reflect.Struct: "object",
			reflect.String: "string", reflect.Int64: "integer", reflect.Int: "integer", reflect.Float64: "number",
			reflect.Bool: "boolean"}[te.Type.Kind()], te.Type.String())
		if te.Field != "" {
			return schema.Reason(schema.ErrType, "%s: got JSON %s, want %s", te.Field, te.Value, want)
		}
		return schema.Reason(schema.ErrType, "got JSON %s, want %s", te.Value, want)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return schema.Reason(schema.ErrSyntax, "unexpected end of JSON (truncated file?)")
	}
	return schema.Reason(schema.ErrSyntax, "%v", strings.TrimPrefix(err.Error(), "json: "))
}
