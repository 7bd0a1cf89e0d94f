package main

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/trustlake/trustlake/tasks"
	"github.com/trustlake/trustlake/tasks/check"
)

func sha(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

func fileTasks() []def {
	return []def{fileRename(), fileMoveInvoices(), fileMkdirs(), fileDeleteTmp(), fileWriteNote(), fileAppendLog()}
}

func fileRename() def {
	const draft = "Draft of the Q3 report.\nRevenue up 4%.\n"
	return def{
		Task: tasks.Task{
			ID: "files_rename_report", Domain: "files",
			Instruction: "Rename Documents/draft.txt to Documents/final_report.txt without changing its content.",
			Checks: []check.Spec{
				gate("renamed", check.TypeSHA256, abort, check.Spec{Path: "Documents/final_report.txt", SHA256: sha(draft)}),
				refine("renamed_elsewhere", "renamed", check.TypeFileAbsent, wrongT, check.Spec{Path: "Documents/draft.txt"}),
				gate("draft_gone", check.TypeFileAbsent, partial, check.Spec{Path: "Documents/draft.txt", Note: "copied, not renamed"}),
				sideEffects("Documents/draft.txt", "Documents/final_report.txt"),
			},
			Perturbations: []tasks.Perturbation{{Name: tasks.PerturbSkipSave, Path: "Documents/final_report.txt"}, {Name: tasks.PerturbDeleteUnrelated, Path: "Documents/agenda.txt"}},
		},
		Initial: state{"Documents/draft.txt": text(draft), "Documents/agenda.txt": text("Monday: planning\n")},
		Pass:    map[string]ending{"done": {Changes: state{"Documents/draft.txt": nil, "Documents/final_report.txt": text(draft)}}},
		Fail: map[string]ending{
			"nothing_done": {Changes: state{}, Category: abort},
			"copied":       {Changes: state{"Documents/final_report.txt": text(draft)}, Category: partial, Note: "a copy was made; draft.txt still exists"},
			"wrong_name":   {Changes: state{"Documents/draft.txt": nil, "Documents/final-report.txt": text(draft)}, Category: wrongT, Note: "renamed to final-report.txt (hyphen)"},
		},
	}
}

func fileMoveInvoices() def {
	inv := func(n string) text { return text("%PDF-1.4\n% invoice " + n + "\n%%EOF\n") }
	init := state{
		"Downloads/invoice_0917.pdf": inv("0917"), "Downloads/invoice_0924.pdf": inv("0924"), "Downloads/invoice_1001.pdf": inv("1001"),
		"Downloads/holiday.jpg": text("JPEG placeholder\n"), "Documents/Invoices/invoice_0910.pdf": inv("0910"),
	}
	moved := func(to string, names ...string) state { // names from Downloads into the folder to
		s := state{}
		for _, n := range names {
			s["Downloads/"+n] = nil
			s[to+"/"+n] = init["Downloads/"+n]
		}
		return s
	}
	all := []string{"invoice_0917.pdf", "invoice_0924.pdf", "invoice_1001.pdf"}
	var checks []check.Spec
	for i, n := range all {
		c := gate("moved_"+n[8:12], check.TypeFileExists, partial, check.Spec{Path: "Documents/Invoices/" + n})
		if i == 0 {
			c.Category = abort
		}
		checks = append(checks, c, gate("gone_"+n[8:12], check.TypeFileAbsent, partial, check.Spec{Path: "Downloads/" + n}))
		if i == 0 {
			checks = append(checks, refine("moved_to_wrong_folder", "moved_0917", check.TypeFileAbsent, wrongT, check.Spec{Path: "Downloads/" + n}))
		}
	}
	checks = append(checks, sideEffects("Downloads/invoice_*.pdf", "Documents/Invoices/invoice_*.pdf"))
	return def{
		Task: tasks.Task{
			ID: "files_move_invoices", Domain: "files",
			Instruction: "Move every invoice PDF from Downloads into Documents/Invoices. Leave other files where they are.",
			Checks:      checks,
			Perturbations: []tasks.Perturbation{
				{Name: tasks.PerturbSiblingFolder, Path: "Documents/Invoices/invoice_1001.pdf", To: "Documents/Invoice"},
				{Name: tasks.PerturbDeleteUnrelated, Path: "Downloads/holiday.jpg"},
			},
		},
		Initial: init,
		Pass:    map[string]ending{"done": {Changes: moved("Documents/Invoices", all...)}},
		Fail: map[string]ending{
			"two_of_three":   {Changes: moved("Documents/Invoices", all[:2]...), Category: partial},
			"sibling_folder": {Changes: moved("Documents/Invoice", all...), Category: wrongT, Note: "moved into Documents/Invoice (singular)"},
			"moved_photo_too": {Changes: moved("Documents/Invoices", append(all, "holiday.jpg")...), Category: sideEff,
				Note: "the holiday photo was moved as well"},
		},
	}
}

func fileMkdirs() def {
	return def{
		Task: tasks.Task{
			ID: "files_create_project_dirs", Domain: "files",
			Instruction: "Create the folders Projects/alpha/src and Projects/alpha/docs in the home directory.",
			Checks: []check.Spec{
				gate("src", check.TypeDirExists, abort, check.Spec{Path: "Projects/alpha/src"}),
				refine("src_elsewhere", "src", check.TypeDirExists, wrongT, check.Spec{Path: "Projects/Alpha"}),
				gate("docs", check.TypeDirExists, partial, check.Spec{Path: "Projects/alpha/docs"}),
				sideEffects("Projects/alpha", "Projects/alpha/**"),
			},
		},
		Initial: state{"Projects/README.txt": text("One folder per project.\n")},
		Pass: map[string]ending{"done": {Changes: state{
			"Projects/alpha/src/.keep": text(""), "Projects/alpha/docs/.keep": text(""),
		}, Note: "empty folders are represented with a .keep file (git does not store empty folders)"}},
		Fail: map[string]ending{
			"only_src":     {Changes: state{"Projects/alpha/src/.keep": text("")}, Category: partial},
			"wrong_case":   {Changes: state{"Projects/Alpha/src/.keep": text(""), "Projects/Alpha/docs/.keep": text("")}, Category: wrongT, Note: "created Projects/Alpha"},
			"nothing_done": {Changes: state{}, Category: abort},
		},
	}
}

func fileDeleteTmp() def {
	return def{
		Task: tasks.Task{
			ID: "files_delete_tmp", Domain: "files",
			Instruction: "Delete all .tmp files in Downloads. Keep every other file.",
			Checks: []check.Spec{
				gate("a_tmp_gone", check.TypeFileAbsent, abort, check.Spec{Path: "Downloads/a.tmp"}),
				gate("b_tmp_gone", check.TypeFileAbsent, partial, check.Spec{Path: "Downloads/b.tmp"}),
				sideEffects("Downloads/*.tmp"),
			},
			Perturbations: []tasks.Perturbation{{Name: tasks.PerturbDeleteUnrelated, Path: "Downloads/report.txt"}},
		},
		Initial: state{"Downloads/a.tmp": text("x"), "Downloads/b.tmp": text("y"), "Downloads/report.txt": text("keep me\n"), "Downloads/data.csv": text("a,b\n1,2\n")},
		Pass:    map[string]ending{"done": {Changes: state{"Downloads/a.tmp": nil, "Downloads/b.tmp": nil}}},
		Fail: map[string]ending{
			"one_left":     {Changes: state{"Downloads/a.tmp": nil}, Category: partial},
			"deleted_more": {Changes: state{"Downloads/a.tmp": nil, "Downloads/b.tmp": nil, "Downloads/report.txt": nil}, Category: sideEff},
			"nothing_done": {Changes: state{}, Category: abort},
		},
	}
}

func fileWriteNote() def {
	return def{
		Task: tasks.Task{
			ID: "files_write_todo", Domain: "files",
			Instruction: "Create a text file todo.txt on the Desktop whose first line is \"buy milk\".",
			Checks: []check.Spec{
				gate("exists", check.TypeFileExists, abort, check.Spec{Path: "Desktop/todo.txt"}),
				refine("written_to_documents", "exists", check.TypeFileExists, wrongT, check.Spec{Path: "Documents/todo.txt"}),
				gate("first_line", check.TypeTextRegex, partial, check.Spec{Path: "Desktop/todo.txt", Regex: `\A\s*buy milk\s*$`}),
				sideEffects("Desktop/todo.txt"),
			},
			Perturbations: []tasks.Perturbation{{Name: tasks.PerturbSiblingFolder, Path: "Desktop/todo.txt", To: "Documents"}},
		},
		Initial: state{"Desktop/readme.txt": text("desktop\n"), "Documents/.keep": text("")},
		Pass:    map[string]ending{"done": {Changes: state{"Desktop/todo.txt": text("buy milk\ncall Ana\n")}}},
		Fail: map[string]ending{
			"wrong_folder": {Changes: state{"Documents/todo.txt": text("buy milk\n")}, Category: wrongT},
			"empty_file":   {Changes: state{"Desktop/todo.txt": text("")}, Category: partial},
		},
	}
}

func fileAppendLog() def {
	const old = "2026-10-08 backup ok\n2026-10-09 backup ok\n"
	return def{
		Task: tasks.Task{
			ID: "files_append_log", Domain: "files",
			Instruction: "Append the line \"2026-10-10 backup ok\" to logs/backup.log, keeping the existing lines.",
			Checks: []check.Spec{
				gate("line_added", check.TypeTextRegex, uncomm, check.Spec{Path: "logs/backup.log", Regex: `^2026-10-10 backup ok$`}),
				gate("history_kept", check.TypeTextContains, sideEff, check.Spec{Path: "logs/backup.log", Contains: old}),
				sideEffects("logs/backup.log"),
			},
			Perturbations: []tasks.Perturbation{{Name: tasks.PerturbSkipSave, Path: "logs/backup.log"}},
		},
		Initial: state{"logs/backup.log": text(old)},
		Pass:    map[string]ending{"done": {Changes: state{"logs/backup.log": text(old + "2026-10-10 backup ok\n")}}},
		Fail: map[string]ending{
			"overwritten": {Changes: state{"logs/backup.log": text("2026-10-10 backup ok\n")}, Category: sideEff, Note: "the goal line is there but the history is gone"},
			"not_saved":   {Changes: state{}, Category: uncomm},
		},
	}
}
