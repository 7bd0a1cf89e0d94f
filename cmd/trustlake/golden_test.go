package main

import (
	"os"
	"strings"
	"testing"
)

// updateDoc replaces, in the document at path, the text between the first
// start marker and the next end marker with body: make golden rewrites the
// CLI output that the examples' READMEs quote this way.
func updateDoc(t *testing.T, path, start, end, body string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i := strings.Index(doc, start)
	if i < 0 {
		t.Fatalf("%s: no %q to update after", path, start)
	}
	i += len(start)
	j := strings.Index(doc[i:], end)
	if j < 0 {
		t.Fatalf("%s: no %q after %q", path, end, start)
	}
	if err := os.WriteFile(path, []byte(doc[:i]+body+doc[i+j:]), 0o644); err != nil {
		t.Fatal(err)
	}
}
