package main

import (
	"archive/tar"
	"bytes"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/trustlake/trustlake/tasks"
	"github.com/trustlake/trustlake/tasks/check"
)

// tarball is a plain tar archive of name → content, deterministic.
type tarball map[string]string

func (t tarball) bytes() ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, name := range slices.Sorted(maps.Keys(t)) {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(t[name])), ModTime: time.Unix(1760000000, 0), Typeflag: tar.TypeReg, Format: tar.FormatPAX}); err != nil {
			return nil, err
		}
		if _, err := tw.Write([]byte(t[name])); err != nil {
			return nil, err
		}
	}
	err := tw.Close()
	return buf.Bytes(), err
}

func terminalTasks() []def {
	return []def{termCountErrors(), termSortNames(), termChecksum(), termExtract()}
}

func appLog() string {
	var b strings.Builder
	levels := []string{"INFO", "ERROR", "INFO", "WARN", "ERROR", "INFO", "INFO", "ERROR", "DEBUG", "ERROR", "INFO", "WARN", "ERROR", "INFO", "INFO", "ERROR", "INFO", "ERROR", "INFO", "INFO"}
	for i, l := range levels {
		b.WriteString("2026-10-10T09:" + strconv.Itoa(10+i) + ":00Z " + l + " request " + strconv.Itoa(100+i) + "\n")
	}
	return b.String()
}

func termCountErrors() def {
	const out = "out/errors.txt"
	return def{
		Task: tasks.Task{
			ID: "terminal_count_errors", Domain: "terminal",
			Instruction: "Count the lines of logs/app.log that contain ERROR and write just that number to out/errors.txt.",
			Checks: []check.Spec{
				gate("written", check.TypeFileExists, abort, check.Spec{Path: out}),
				gate("count", check.TypeTextRegex, wrongT, check.Spec{Path: out, Regex: `\A\s*7\s*\z`, Note: "a wrong number means the wrong lines were counted"}),
				gate("log_kept", check.TypeUnchanged, sideEff, check.Spec{Path: "logs/app.log"}),
			},
			Perturbations: []tasks.Perturbation{{Name: tasks.PerturbSkipSave, Path: out}},
		},
		Initial: state{"logs/app.log": text(appLog()), "out/.keep": text("")},
		Pass:    map[string]ending{"done": {Changes: state{out: text("7\n")}}},
		Fail: map[string]ending{
			"counted_all": {Changes: state{out: text("20\n")}, Category: wrongT},
			"no_output":   {Changes: state{}, Category: abort},
			"log_cleared": {Changes: state{out: text("7\n"), "logs/app.log": text("")}, Category: sideEff, Note: "the log was truncated by a wrong redirect"},
		},
	}
}

const names = "Mallory\nalice\nBob\nCarol\nDave\n"

func termSortNames() def {
	sorted := "Bob\nCarol\nDave\nMallory\nalice\n"
	return def{
		Task: tasks.Task{
			ID: "terminal_sort_names", Domain: "terminal",
			Instruction: "Write the lines of names.txt sorted in byte order (LC_ALL=C sort) to sorted.txt; leave names.txt as it is.",
			Checks: []check.Spec{
				gate("written", check.TypeFileExists, abort, check.Spec{Path: "sorted.txt"}),
				refine("sorted_in_place", "written", check.TypeUnchanged, wrongT, check.Spec{Path: "names.txt", Not: true}),
				gate("sorted", check.TypeSHA256, partial, check.Spec{Path: "sorted.txt", SHA256: sha(sorted)}),
				sideEffects("sorted.txt"),
			},
			Perturbations: []tasks.Perturbation{{Name: tasks.PerturbSkipSave, Path: "sorted.txt"}, {Name: tasks.PerturbDeleteUnrelated, Path: "names.txt"}},
		},
		Initial: state{"names.txt": text(names)},
		Pass:    map[string]ending{"done": {Changes: state{"sorted.txt": text(sorted)}}},
		Fail: map[string]ending{
			"in_place":     {Changes: state{"names.txt": text(sorted)}, Category: wrongT},
			"locale_order": {Changes: state{"sorted.txt": text("alice\nBob\nCarol\nDave\nMallory\n")}, Category: partial, Note: "sorted with a locale collation, not byte order"},
		},
	}
}

func termChecksum() def {
	const iso = "ISO9660 placeholder image, 1 MiB in real life\n"
	const other = "another image\n"
	return def{
		Task: tasks.Task{
			ID: "terminal_checksum", Domain: "terminal",
			Instruction: "Compute the SHA-256 checksum of Downloads/debian.iso and save the sha256sum output line to Downloads/debian.iso.sha256.",
			Checks: []check.Spec{
				gate("written", check.TypeFileExists, abort, check.Spec{Path: "Downloads/debian.iso.sha256"}),
				gate("hash", check.TypeTextRegex, wrongT, check.Spec{Path: "Downloads/debian.iso.sha256", Regex: `\A` + sha(iso) + `(\s+\*?(\S*/)?debian\.iso)?\s*\z`}),
				sideEffects("Downloads/debian.iso.sha256"),
			},
			Perturbations: []tasks.Perturbation{{Name: tasks.PerturbSkipSave, Path: "Downloads/debian.iso.sha256"}},
		},
		Initial: state{"Downloads/debian.iso": text(iso), "Downloads/ubuntu.iso": text(other)},
		Pass: map[string]ending{
			"done":      {Changes: state{"Downloads/debian.iso.sha256": text(sha(iso) + "  debian.iso\n")}},
			"hash_only": {Changes: state{"Downloads/debian.iso.sha256": text(sha(iso) + "\n")}},
		},
		Fail: map[string]ending{
			"wrong_file": {Changes: state{"Downloads/debian.iso.sha256": text(sha(other) + "  ubuntu.iso\n")}, Category: wrongT},
			"no_output":  {Changes: state{}, Category: abort},
		},
	}
}

func termExtract() def {
	files := map[string]string{"etc/hosts": "127.0.0.1 localhost\n", "etc/app.conf": "mode=prod\n", "data/users.csv": "id,name\n1,ana\n"}
	extracted := func(prefix string, which ...string) state {
		s := state{}
		for _, k := range which {
			s[prefix+k] = text(files[k])
		}
		return s
	}
	return def{
		Task: tasks.Task{
			ID: "terminal_extract_backup", Domain: "terminal",
			Instruction: "Extract backup.tar into the folder restore/ (create it).",
			Checks: []check.Spec{
				gate("hosts", check.TypeSHA256, abort, check.Spec{Path: "restore/etc/hosts", SHA256: sha(files["etc/hosts"])}),
				refine("extracted_into_home", "hosts", check.TypeFileExists, wrongT, check.Spec{Path: "etc/hosts"}),
				gate("conf", check.TypeSHA256, partial, check.Spec{Path: "restore/etc/app.conf", SHA256: sha(files["etc/app.conf"])}),
				gate("users", check.TypeSHA256, partial, check.Spec{Path: "restore/data/users.csv", SHA256: sha(files["data/users.csv"])}),
				gate("archive_kept", check.TypeUnchanged, sideEff, check.Spec{Path: "backup.tar"}),
				sideEffects("restore", "restore/**"),
			},
			Perturbations: []tasks.Perturbation{{Name: tasks.PerturbSiblingFolder, Path: "restore/etc/hosts", To: "restored/etc"}},
		},
		Initial: state{"backup.tar": tarball(files)},
		Pass:    map[string]ending{"done": {Changes: extracted("restore/", "etc/hosts", "etc/app.conf", "data/users.csv")}},
		Fail: map[string]ending{
			"into_home": {Changes: extracted("", "etc/hosts", "etc/app.conf", "data/users.csv"), Category: wrongT},
			"only_etc":  {Changes: extracted("restore/", "etc/hosts", "etc/app.conf"), Category: partial},
			"archive_gone": {Changes: func() state {
				s := extracted("restore/", "etc/hosts", "etc/app.conf", "data/users.csv")
				s["backup.tar"] = nil
				return s
			}(), Category: sideEff, Note: "extracted, then deleted the archive"},
		},
	}
}
