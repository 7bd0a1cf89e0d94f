package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docBlock is one ```sh block of a Markdown page and the texts its output
// must contain (the <!-- expect: TEXT --> lines right after it).
type docBlock struct {
	line   int
	script string
	expect []string
}

// shellBlocks returns the ```sh blocks of the Markdown file at path.
func shellBlocks(t *testing.T, path string) []docBlock {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var blocks []docBlock
	var cur *docBlock
	inBlock := false
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case !inBlock && line == "```sh":
			blocks = append(blocks, docBlock{line: n})
			cur, inBlock = &blocks[len(blocks)-1], true
		case inBlock && line == "```":
			inBlock = false
		case inBlock:
			cur.script += line + "\n"
		case cur != nil && strings.HasPrefix(line, "<!-- expect: "):
			cur.expect = append(cur.expect, strings.TrimSuffix(strings.TrimPrefix(line, "<!-- expect: "), " -->"))
		case strings.TrimSpace(line) != "":
			cur = nil
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return blocks
}

// docsWorkdir is a folder laid out like the repository for the docs'
// commands: bin/trustlake (this test binary acting as the command),
// bin/trustlake-check, bin/trustlake-simjudge and tasks/ (the library).
func docsWorkdir(t *testing.T) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	wrapper := fmt.Sprintf("#!/bin/sh\nTRUSTLAKE_AS_MAIN=1 exec %q \"$@\"\n", self)
	if err := os.WriteFile(filepath.Join(bin, "trustlake"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	check, err := checkBinary()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(check, filepath.Join(bin, "trustlake-check")); err != nil {
		t.Fatal(err)
	}
	build := exec.CommandContext(t.Context(), "go", "build", "-o", filepath.Join(bin, "trustlake-simjudge"), "../../examples/demo/simjudge")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the simulated judge: %v\n%s", err, out)
	}
	tasks, err := filepath.Abs("../../tasks")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(tasks, filepath.Join(dir, "tasks")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// runDocBlocks runs the blocks in order in one bash (set -e, so a failing
// command fails the test; exported variables carry over) in dir, leaving
// out the `make` lines (dir already holds what they build), and checks
// each block's expected output.
func runDocBlocks(t *testing.T, dir, page string, blocks []docBlock, env ...string) {
	t.Helper()
	var script strings.Builder
	script.WriteString("set -euo pipefail\n")
	for i, b := range blocks {
		fmt.Fprintf(&script, "echo '@@block %d'\n", i)
		for _, line := range strings.SplitAfter(b.script, "\n") {
			if !strings.HasPrefix(line, "make ") {
				script.WriteString(line)
			}
		}
	}
	cmd := exec.CommandContext(t.Context(), "bash", "-c", script.String())
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	parts := strings.Split(string(out), "@@block ")
	if err != nil {
		t.Fatalf("%s: the commands failed: %v\n%s", page, err, parts[len(parts)-1])
	}
	for _, p := range parts[1:] {
		var i int
		fmt.Sscanf(p, "%d", &i)
		for _, want := range blocks[i].expect {
			if !strings.Contains(p, want) {
				t.Errorf("%s:%d: the block's output lacks %q:\n%s", page, blocks[i].line, want, p)
			}
		}
	}
}

// TestQuickstartRuns runs the command blocks of docs/quickstart.md as a
// reader would, from a folder laid out like the repository: a renamed flag
// or a changed output breaks this test, not the reader.
func TestQuickstartRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("the quickstart pipeline takes about half a minute")
	}
	page := "../../docs/quickstart.md"
	blocks := shellBlocks(t, page)
	if len(blocks) < 5 {
		t.Fatalf("%s: %d command blocks, want the five steps", page, len(blocks))
	}
	dir := docsWorkdir(t)
	runDocBlocks(t, dir, page, blocks)
	if _, err := os.Stat(filepath.Join(dir, "quickstart", "report", "report.html")); err != nil {
		t.Errorf("the quickstart wrote no report: %v", err)
	}
}

// TestDocsLinksAndShape checks what a newcomer meets first: the README is
// short (under 12,000 bytes, no prose line over 120 characters) and every
// relative link of the README and docs/ names a file that exists.
func TestDocsLinksAndShape(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(readme) > 12000 {
		t.Errorf("README.md is %d bytes, over 12,000: move the detail into docs/", len(readme))
	}
	inCode := false
	for i, line := range strings.Split(string(readme), "\n") {
		if strings.HasPrefix(line, "```") {
			inCode = !inCode
		}
		if !inCode && len([]rune(line)) > 120 {
			t.Errorf("README.md:%d: %d characters, over 120 outside code blocks", i+1, len([]rune(line)))
		}
	}
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, page := range append(pages, "../../README.md") {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLink.FindAllStringSubmatch(string(b), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			target, _, _ = strings.Cut(target, "#")
			if _, err := os.Stat(filepath.Join(filepath.Dir(page), target)); err != nil {
				t.Errorf("%s: link to %s: %v", page, m[1], err)
			}
		}
	}
}

// mdLink matches a Markdown link or image target: [text](target).
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)
