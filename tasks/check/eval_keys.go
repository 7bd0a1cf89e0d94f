package check

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"gopkg.in/yaml.v3"
)

// step is one element of a key path: a map key, a list index, or any
// element of a list ([*]).
type step struct {
	key   string
	index int
	kind  int // stepKey, stepIndex, stepAny
}

const (
	stepKey = iota
	stepIndex
	stepAny
)

// parseKeyPath parses a key path such as `a.b[0].c`, `roots["bookmark_bar"]`,
// `["editor.tabSize"]` or `children[*].url`. Quoted keys may contain dots.
func parseKeyPath(p string) ([]step, error) {
	var out []step
	i := 0
	for i < len(p) {
		switch c := p[i]; {
		case c == '.':
			if i == 0 || i == len(p)-1 || p[i+1] == '.' || p[i+1] == '[' {
				return nil, fmt.Errorf("%q: empty key at offset %d", p, i)
			}
			i++
		case c == '[':
			end := strings.IndexByte(p[i:], ']')
			if end < 0 {
				return nil, fmt.Errorf("%q: unclosed [", p)
			}
			inner := p[i+1 : i+end]
			if strings.HasPrefix(inner, `"`) {
				// A quoted key may contain ']'; find the closing quote.
				q, err := strconv.QuotedPrefix(p[i+1:])
				if err != nil {
					return nil, fmt.Errorf("%q: bad quoted key: %v", p, err)
				}
				key, _ := strconv.Unquote(q)
				j := i + 1 + len(q)
				if j >= len(p) || p[j] != ']' {
					return nil, fmt.Errorf("%q: want ] after quoted key", p)
				}
				out = append(out, step{key: key, kind: stepKey})
				i = j + 1
				continue
			}
			if inner == "*" {
				out = append(out, step{kind: stepAny})
			} else {
				n, err := strconv.Atoi(inner)
				if err != nil || n < 0 {
					return nil, fmt.Errorf("%q: index %q: want a number, * or a quoted key", p, inner)
				}
				out = append(out, step{index: n, kind: stepIndex})
			}
			i += end + 1
		default:
			j := i
			for j < len(p) && p[j] != '.' && p[j] != '[' {
				j++
			}
			out = append(out, step{key: p[i:j], kind: stepKey})
			i = j
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%q: empty key path", p)
	}
	return out, nil
}

// lookup follows steps from v and returns every value reached ([*] fans out).
func lookup(v any, steps []step) []any {
	cur := []any{v}
	for _, st := range steps {
		var next []any
		for _, c := range cur {
			switch st.kind {
			case stepKey:
				if m, ok := c.(map[string]any); ok {
					if e, ok := m[st.key]; ok {
						next = append(next, e)
					}
				}
			case stepIndex:
				if l, ok := c.([]any); ok && st.index < len(l) {
					next = append(next, l[st.index])
				}
			case stepAny:
				if l, ok := c.([]any); ok {
					next = append(next, l...)
				}
			}
		}
		cur = next
	}
	return cur
}

func decodeStructured(kind string, data []byte) (any, error) {
	var v any
	switch kind {
	case TypeJSONKey:
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("parse JSON: %w", err)
		}
	case TypeYAMLKey:
		if err := yaml.Unmarshal(data, &v); err != nil {
			return nil, fmt.Errorf("parse YAML: %w", err)
		}
	case TypeTOMLKey:
		m := map[string]any{}
		if _, err := toml.Decode(string(data), &m); err != nil {
			return nil, fmt.Errorf("parse TOML: %w", err)
		}
		v = m
	}
	return normalize(v), nil
}

func evalKey(s *Spec, data []byte) (bool, any, error) {
	doc, err := decodeStructured(s.Type, data)
	if err != nil {
		return false, nil, err
	}
	steps, err := parseKeyPath(s.Key)
	if err != nil {
		return false, nil, err
	}
	vals := lookup(doc, steps)
	if len(vals) == 0 {
		return false, nil, errors.New("key not found")
	}
	for _, v := range vals {
		if equal(v, s.Equals, s.Tolerance) {
			return true, v, nil
		}
	}
	if len(vals) == 1 {
		return false, vals[0], nil
	}
	return false, vals, nil
}
