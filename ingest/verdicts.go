package ingest

import (
	"bytes"
	"encoding/binary"
	"time"
	"unsafe"

	"github.com/trustlake/trustlake/schema"
)

// verdictDecoder decodes verdict lines, reusing its scratch space and
// interning the few distinct values of low-cardinality fields (judge,
// condition, verdict, model, timestamps) so a million rows do not make a
// million copies of "E2-lastk".
type verdictDecoder struct {
	fields   []field
	intern   map[string]*interned // by raw JSON value
	lastTime string
	lastT    time.Time
	minute   [17]byte  // "2006-01-02T15:04:" of the last fast-path timestamp
	minuteT  time.Time // its time at second 0
	// Optional values point into slabs instead of one allocation each
	// (empty with room, or nil for fresh ones). The lake copies the values
	// when a row is added, so a slab lives as long as the rows of its chunk.
	floats []float64
	times  []time.Time
	arena  []byte // bytes of decoded episode ids
	// lastText is the last string text copied into the arena: the next
	// row of the same episode shares it (one copy per run of rows, and
	// equal ids are then the same bytes downstream).
	lastText string
	// The last few distinct values of each interned field (judge,
	// condition, verdict, model), the latest first: runs of equal values,
	// and fields alternating between a few values, skip the map.
	last [4][4]*interned
}

// interned is one distinct value of a low-cardinality string field: its
// raw JSON (the map key) and the decoded string, which the rows holding
// that value share (as a string, or as a pointer to s: nothing writes
// through it).
type interned struct {
	raw  string
	s    string
	word rawWord // raw's first 16 bytes (same)
}

// Slots of verdictDecoder.last; noIntern decodes without interning.
const (
	noIntern = iota - 1
	slotJudge
	slotCondition
	slotVerdict
	slotModel
)

func newVerdictDecoder() *verdictDecoder {
	return &verdictDecoder{intern: map[string]*interned{}}
}

const slabLen = 1024

// slabNew stores v in the slab, or in a fresh one when it is full.
func slabNew[T any](slab *[]T, v T) *T {
	if len(*slab) == cap(*slab) {
		*slab = make([]T, 0, slabLen)
	}
	*slab = append(*slab, v)
	return &(*slab)[len(*slab)-1]
}

func (d *verdictDecoder) optFloat(f *field) (*float64, error) {
	if f.kind == kNull {
		return nil, nil
	}
	v, err := f.float()
	if err != nil {
		return nil, err
	}
	return slabNew(&d.floats, v), nil
}

// str decodes a string field, interning it in slot unless noIntern.
func (d *verdictDecoder) str(f *field, slot int) (string, error) {
	if f.kind != kString {
		return "", f.typeErr("string")
	}
	if slot == noIntern {
		return d.text(f.val[1 : len(f.val)-1])
	}
	in, err := d.interned(f, slot)
	if err != nil {
		return "", err
	}
	return in.s, nil
}

// text decodes the raw string value raw, copying it into the decoder's
// arena when it has no escapes: one allocation per 64 KiB of episode ids
// instead of one per row. The arena is only appended to, so the strings
// stay valid; they keep it alive while held (refs clones what it keeps).
func (d *verdictDecoder) text(raw []byte) (string, error) {
	if len(raw) == 0 || len(raw) > 1024 || bytes.IndexByte(raw, '\\') >= 0 {
		return unquote(raw)
	}
	if string(raw) == d.lastText { // no escapes: the raw bytes are the text
		return d.lastText, nil
	}
	if len(d.arena)+len(raw) > cap(d.arena) {
		d.arena = make([]byte, 0, 64<<10)
	}
	start := len(d.arena)
	d.arena = append(d.arena, raw...)
	d.lastText = unsafe.String(&d.arena[start], len(raw))
	return d.lastText, nil
}

// interned returns the interned value of string field f, remembering it in
// slot.
func (d *verdictDecoder) interned(f *field, slot int) (*interned, error) {
	last := &d.last[slot]
	w := wordOf(f.val)
	for k, in := range last {
		if in != nil && in.word.same(&w, f.val, in.raw) {
			if k > 0 {
				copy(last[1:k+1], last[:k])
				last[0] = in
			}
			return in, nil
		}
	}
	in, ok := d.intern[string(f.val)]
	if !ok {
		s, err := unquote(f.val[1 : len(f.val)-1])
		if err != nil {
			return nil, err
		}
		in = &interned{raw: string(f.val), s: s, word: w}
		if len(d.intern) < 4096 {
			d.intern[in.raw] = in
		}
	}
	copy(last[1:], last[:len(last)-1])
	last[0] = in
	return in, nil
}

// rawWord is a raw value's length and first 16 bytes (zero past its
// end), as two little-endian words: values of up to 16 bytes (most judge,
// condition, verdict and model values, quotes included) compare in two
// word compares, and any two values that differ in them at once.
type rawWord struct {
	n      int
	w0, w1 uint64
}

func wordOf(raw []byte) rawWord {
	w := rawWord{n: len(raw)}
	if cap(raw) >= 16 { // the bytes past raw's end are masked off
		b := raw[:16]
		w.w0, w.w1 = binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:])
		if n := len(raw); n < 16 {
			if n < 8 {
				w.w0 &= 1<<(8*n) - 1
				w.w1 = 0
			} else {
				w.w1 &= 1<<(8*(n-8)) - 1
			}
		}
		return w
	}
	var b [16]byte
	copy(b[:], raw)
	w.w0, w.w1 = binary.LittleEndian.Uint64(b[:]), binary.LittleEndian.Uint64(b[8:])
	return w
}

// same reports whether raw, whose rawWord is w, equals full, whose
// rawWord is r.
func (r *rawWord) same(w *rawWord, raw []byte, full string) bool {
	if r.n != w.n || r.w0 != w.w0 || r.w1 != w.w1 {
		return false
	}
	return r.n <= 16 || string(raw) == full
}

// optStr decodes an optional string field, interned in slot.
func (d *verdictDecoder) optStr(f *field, slot int) (*string, error) {
	if f.kind == kNull {
		return nil, nil
	}
	if f.kind != kString {
		return nil, f.typeErr("string")
	}
	in, err := d.interned(f, slot)
	if err != nil {
		return nil, err
	}
	return &in.s, nil
}

func (d *verdictDecoder) optTime(f *field) (*time.Time, error) {
	if f.kind == kNull {
		return nil, nil
	}
	if f.kind == kString {
		raw := f.val[1 : len(f.val)-1]
		if string(raw) == d.lastTime {
			return slabNew(&d.times, d.lastT), nil
		}
		// Timestamps of a file mostly share their minute: "…T15:04:" as
		// the last one and two digits of seconds, then "Z".
		if len(raw) == 20 && string(raw[:17]) == string(d.minute[:]) && raw[19] == 'Z' &&
			raw[17] >= '0' && raw[17] <= '5' && raw[18] >= '0' && raw[18] <= '9' {
			sec := int(raw[17]-'0')*10 + int(raw[18]-'0')
			return slabNew(&d.times, d.minuteT.Add(time.Duration(sec)*time.Second)), nil
		}
	}
	t, err := f.optTime()
	if err == nil {
		d.lastTime, d.lastT = string(f.val[1:len(f.val)-1]), *t
		if raw := f.val[1 : len(f.val)-1]; len(raw) == 20 && raw[19] == 'Z' {
			if _, ok := parseUTCSeconds(string(raw)); ok {
				copy(d.minute[:], raw[:17])
				d.minuteT = t.Truncate(time.Minute)
			}
		}
	}
	return t, err
}

// Bits of the known verdict fields, for required-field and duplicate checks.
const (
	vEpisode = 1 << iota
	vJudge
	vCondition
	vRun
	vVerdict
	vScore
	vConfidence
	vModel
	vCalledAt
)

// verdictKeys are the keys of a verdict line in the order of the seed's
// example (scanObjectKeys).
var verdictKeys = keyHints(`"episode_id"`, `"judge"`, `"condition"`, `"run"`, `"verdict"`, `"score"`, `"confidence"`, `"model"`, `"called_at"`)

// decode fills v from one verdict line (seed §4.4):
//
//	{"episode_id": "ep_0001", "judge": "vlm:model-x", "condition": "E2-lastk",
//	 "run": 1, "verdict": "success", "score": null, "confidence": 0.9,
//	 "model": "model-x-2026-09-01", "called_at": "2026-10-10T10:02:11Z"}
//
// verdict may be null for a score-only judge (a reward model) when score
// is present. Unknown fields are kept in extra.
func (d *verdictDecoder) decode(line []byte, v *schema.Verdict) error {
	fields, err := scanObjectKeys(d.fields[:0], line, verdictKeys)
	d.fields = fields
	if err != nil {
		return &schema.FieldError{Field: "json", Err: schema.Reason(schema.ErrSyntax, "%v", err)}
	}
	var extra []byte
	var errs schema.FieldErrors
	var seen, bit uint
	walk := false // a nested value or an escaped key: look for repeats inside
	for i := range fields {
		f := &fields[i]
		switch string(f.key) {
		case "episode_id":
			bit = vEpisode
			v.EpisodeID, err = d.str(f, noIntern)
		case "judge":
			bit = vJudge
			v.Judge, err = d.str(f, slotJudge)
		case "condition":
			bit = vCondition
			v.Condition, err = d.str(f, slotCondition)
		case "run":
			bit = vRun
			v.Run, err = f.int()
		case "verdict":
			bit = vVerdict
			v.Verdict, err = d.optStr(f, slotVerdict)
		case "score":
			bit = vScore
			v.Score, err = d.optFloat(f)
		case "confidence":
			bit = vConfidence
			v.Confidence, err = d.optFloat(f)
		case "model":
			bit = vModel
			v.Model, err = d.optStr(f, slotModel)
		case "called_at":
			bit = vCalledAt
			v.CalledAt, err = d.optTime(f)
		default:
			bit = 0
			walk = walk || f.kind == kObject || f.kind == kArray || !lowerASCII(f.key)
			for j := range i {
				if string(fields[j].key) == string(f.key) {
					return fieldError(string(f.key), schema.ErrDuplicate, errString("key appears twice in the object"))
				}
			}
			if f.kind == kNonFinite {
				err = errString(string(f.val) + " is not a finite number")
			} else {
				extra = appendExtra(extra, f)
			}
		}
		if seen&bit != 0 {
			return fieldError(string(f.key), schema.ErrDuplicate, errString("key appears twice in the object"))
		}
		seen |= bit
		if err != nil {
			// Keep going: every bad field of the line is reported.
			errs = append(errs, bad(f, err))
			err = nil
		}
	}
	for _, req := range []struct {
		bit  uint
		name string
	}{{vEpisode, "episode_id"}, {vJudge, "judge"}, {vCondition, "condition"}, {vRun, "run"}} {
		if seen&req.bit == 0 {
			errs = append(errs, &schema.FieldError{Field: req.name, Err: schema.ErrMissing})
		}
	}
	if seen&(vVerdict|vScore) == 0 {
		errs = append(errs, &schema.FieldError{Field: "verdict", Err: schema.ErrMissing})
	}
	if walk && len(errs) == 0 {
		if fe, _ := checkKeys(line); fe != nil {
			return fe
		}
	}
	v.Extra = closeExtra(extra)
	if len(errs) == 0 {
		return v.Validate()
	}
	// Add the validation errors of the fields that decoded. A score that
	// failed to decode leaves the verdict looking absent: not reported twice.
	failed := map[string]bool{}
	for _, e := range errs {
		failed[e.Field] = true
	}
	for _, fe := range schema.SplitFieldErrors(v.Validate()) {
		if failed[fe.Field] || (fe.Field == "verdict" && failed["score"]) {
			continue
		}
		errs = append(errs, fe)
	}
	if len(errs) == 1 {
		return errs[0]
	}
	return errs
}

// lowerASCII reports whether key holds only ASCII without upper-case
// letters or escapes: such a key cannot be a case variant of a known key.
func lowerASCII(key []byte) bool {
	for _, c := range key {
		if c >= 0x80 || c == '\\' || 'A' <= c && c <= 'Z' {
			return false
		}
	}
	return true
}

type errString string

func (e errString) Error() string { return string(e) }
