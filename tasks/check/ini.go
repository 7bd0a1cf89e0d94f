package check

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
)

// parseINI reads an INI-style file into section → key → value. Lines starting
// with ';' or '#' are comments; "[section]" opens a section (gitconfig's
// `[remote "origin"]` gives section `remote "origin"`); "key = value" or
// "key: value" sets a key, the last occurrence winning. Keys before any
// section belong to section "". Values are trimmed and lose one pair of
// surrounding double quotes. Section and key names are compared exactly.
func parseINI(data []byte) (map[string]map[string]string, error) {
	out := map[string]map[string]string{"": {}}
	sec := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if n == 1 {
			line = strings.TrimPrefix(line, "\ufeff")
		}
		if line == "" || line[0] == ';' || line[0] == '#' {
			continue
		}
		if line[0] == '[' {
			end := strings.LastIndexByte(line, ']')
			if end < 0 {
				return nil, fmt.Errorf("line %d: unclosed section header", n)
			}
			sec = strings.TrimSpace(line[1:end])
			if out[sec] == nil {
				out[sec] = map[string]string{}
			}
			continue
		}
		i := strings.IndexAny(line, "=:")
		if i < 0 {
			out[sec][line] = "" // a bare key, as in gitconfig booleans
			continue
		}
		k := strings.TrimSpace(line[:i])
		v := strings.TrimSpace(line[i+1:])
		if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
			v = v[1 : len(v)-1]
		}
		out[sec][k] = v
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read INI: %w", err)
	}
	return out, nil
}

// splitINIKey splits "section.key" at the last dot; "key" has section "".
func splitINIKey(k string) (section, key string) {
	i := strings.LastIndexByte(k, '.')
	if i < 0 {
		return "", k
	}
	return k[:i], k[i+1:]
}

func evalINI(s *Spec, data []byte) (bool, any, error) {
	ini, err := parseINI(data)
	if err != nil {
		return false, nil, err
	}
	sec, key := splitINIKey(s.Key)
	m, ok := ini[sec]
	if !ok {
		return false, nil, fmt.Errorf("section %q not found", sec)
	}
	v, ok := m[key]
	if !ok {
		return false, nil, fmt.Errorf("key %q not found in section %q", key, sec)
	}
	return equal(v, s.Equals, s.Tolerance), v, nil
}
