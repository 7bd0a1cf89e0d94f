package main

import (
	"github.com/trustlake/trustlake/tasks"
	"github.com/trustlake/trustlake/tasks/check"
)

func browserTasks() []def {
	return []def{chromiumBookmark(), chromiumHomepage(), firefoxPref(), firefoxBookmark(), browserDownload()}
}

const chromiumBookmarks = ".config/chromium/Default/Bookmarks"

func bookmarksJSON(bar, other string) text {
	return text(`{
   "checksum": "",
   "roots": {
      "bookmark_bar": {
         "children": [ ` + bar + ` ],
         "name": "Bookmarks bar",
         "type": "folder"
      },
      "other": {
         "children": [ ` + other + ` ],
         "name": "Other bookmarks",
         "type": "folder"
      }
   },
   "version": 1
}
`)
}

const (
	bmNews = `{ "id": "5", "name": "News", "type": "url", "url": "https://news.example.com/" }`
	bmDocs = `{ "id": "7", "name": "Docs", "type": "url", "url": "https://example.org/docs" }`
)

func chromiumBookmark() def {
	return def{
		Task: tasks.Task{
			ID: "browser_chromium_bookmark", Domain: "browser",
			Instruction: "In Chromium, bookmark https://example.org/docs on the bookmarks bar.",
			Checks: []check.Spec{
				gate("on_bar", check.TypeJSONKey, abort, check.Spec{Path: chromiumBookmarks, Key: "roots.bookmark_bar.children[*].url", Equals: "https://example.org/docs"}),
				refine("in_other_folder", "on_bar", check.TypeJSONKey, wrongT, check.Spec{Path: chromiumBookmarks, Key: "roots.other.children[*].url", Equals: "https://example.org/docs"}),
				gate("news_kept", check.TypeJSONKey, sideEff, check.Spec{Path: chromiumBookmarks, Key: "roots.bookmark_bar.children[*].url", Equals: "https://news.example.com/"}),
				sideEffects(".config/chromium/Default/Bookmarks*"),
			},
			Perturbations: []tasks.Perturbation{{Name: tasks.PerturbSkipSave, Path: chromiumBookmarks}},
		},
		Initial: state{chromiumBookmarks: bookmarksJSON(bmNews, "")},
		Pass:    map[string]ending{"done": {Changes: state{chromiumBookmarks: bookmarksJSON(bmNews+", "+bmDocs, ""), ".config/chromium/Default/Bookmarks.bak": bookmarksJSON(bmNews, "")}}},
		Fail: map[string]ending{
			"other_folder":  {Changes: state{chromiumBookmarks: bookmarksJSON(bmNews, bmDocs)}, Category: wrongT},
			"replaced_news": {Changes: state{chromiumBookmarks: bookmarksJSON(bmDocs, "")}, Category: sideEff},
			"nothing_done":  {Changes: state{}, Category: abort},
		},
	}
}

const chromiumPrefs = ".config/chromium/Default/Preferences"

func prefsJSON(home string, ntp bool) text {
	b := "false"
	if ntp {
		b = "true"
	}
	return text(`{"browser":{"show_home_button":true},"homepage":"` + home + `","homepage_is_newtabpage":` + b + `,"profile":{"name":"Person 1"}}` + "\n")
}

func chromiumHomepage() def {
	return def{
		Task: tasks.Task{
			ID: "browser_chromium_homepage", Domain: "browser",
			Instruction: "Make https://intranet.local the home page of Chromium (the home button opens it, not the new-tab page).",
			Checks: []check.Spec{
				gate("homepage", check.TypeJSONKey, uncomm, check.Spec{Path: chromiumPrefs, Key: "homepage", Equals: "https://intranet.local"}),
				gate("not_ntp", check.TypeJSONKey, partial, check.Spec{Path: chromiumPrefs, Key: "homepage_is_newtabpage", Equals: false}),
				gate("profile_kept", check.TypeJSONKey, sideEff, check.Spec{Path: chromiumPrefs, Key: "profile.name", Equals: "Person 1"}),
			},
			Perturbations: []tasks.Perturbation{{Name: tasks.PerturbSkipSave, Path: chromiumPrefs}},
		},
		Initial: state{chromiumPrefs: prefsJSON("https://www.example.com", true)},
		Pass:    map[string]ending{"done": {Changes: state{chromiumPrefs: prefsJSON("https://intranet.local", false)}}},
		Fail: map[string]ending{
			"still_ntp": {Changes: state{chromiumPrefs: prefsJSON("https://intranet.local", true)}, Category: partial, Note: "URL typed but the new-tab page still wins"},
			"not_saved": {Changes: state{}, Category: uncomm, Note: "browser killed before it flushed its preferences"},
		},
	}
}

const (
	ffProfile = ".mozilla/firefox/abcd1234.default-release"
	ffOther   = ".mozilla/firefox/wxyz9876.dev-edition"
)

func firefoxPrefs(home string) text {
	s := "// Mozilla User Preferences\nuser_pref(\"browser.download.dir\", \"/home/agent/Downloads\");\n"
	if home != "" {
		s += "user_pref(\"browser.startup.homepage\", \"" + home + "\");\n"
	}
	return text(s + "user_pref(\"privacy.donottrackheader.enabled\", true);\n")
}

func firefoxPref() def {
	prefs := ffProfile + "/prefs.js"
	return def{
		Task: tasks.Task{
			ID: "browser_firefox_homepage", Domain: "browser",
			Instruction: "Set the Firefox home page (default profile) to https://intranet.local.",
			Checks: []check.Spec{
				gate("homepage", check.TypeTextRegex, uncomm, check.Spec{Path: prefs, Regex: `^user_pref\("browser\.startup\.homepage",\s*"https://intranet\.local/?"\);`}),
				refine("other_profile", "homepage", check.TypeTextContains, wrongA, check.Spec{Path: ffOther + "/prefs.js", Contains: "https://intranet.local"}),
				refine("user_js", "homepage", check.TypeFileExists, wrongT, check.Spec{Path: ffProfile + "/user.js"}),
				gate("dnt_kept", check.TypeTextContains, sideEff, check.Spec{Path: prefs, Contains: `user_pref("privacy.donottrackheader.enabled", true);`}),
			},
			Perturbations: []tasks.Perturbation{{Name: tasks.PerturbSkipSave, Path: prefs}},
		},
		Initial: state{prefs: firefoxPrefs(""), ffOther + "/prefs.js": firefoxPrefs(""), ".mozilla/firefox/profiles.ini": text("[Profile0]\nName=default-release\nPath=abcd1234.default-release\nDefault=1\n\n[Profile1]\nName=dev-edition\nPath=wxyz9876.dev-edition\n")},
		Pass:    map[string]ending{"done": {Changes: state{prefs: firefoxPrefs("https://intranet.local")}}},
		Fail: map[string]ending{
			"other_profile": {Changes: state{ffOther + "/prefs.js": firefoxPrefs("https://intranet.local")}, Category: wrongA},
			"user_js":       {Changes: state{ffProfile + "/user.js": text("user_pref(\"browser.startup.homepage\", \"https://intranet.local\");\n")}, Category: wrongT, Note: "written to user.js, which this task does not count"},
			"not_saved":     {Changes: state{}, Category: uncomm},
		},
	}
}

var placesBase = db{
	"CREATE TABLE moz_places(id INTEGER PRIMARY KEY, url TEXT NOT NULL, title TEXT)",
	"CREATE TABLE moz_bookmarks(id INTEGER PRIMARY KEY, type INTEGER, fk INTEGER, parent INTEGER, title TEXT)",
	"INSERT INTO moz_bookmarks VALUES (1, 2, NULL, 0, 'root'), (2, 2, NULL, 1, 'menu'), (3, 2, NULL, 1, 'toolbar')",
	"INSERT INTO moz_places VALUES (1, 'https://www.mozilla.org/', 'Mozilla')",
	"INSERT INTO moz_bookmarks VALUES (10, 1, 1, 3, 'Mozilla')",
}

func firefoxBookmark() def {
	places := ffProfile + "/places.sqlite"
	add := func(parent string) db {
		return placesBase.and("INSERT INTO moz_places VALUES (2, 'https://example.org/docs', 'Docs')", "INSERT INTO moz_bookmarks VALUES (11, 1, 2, "+parent+", 'Docs')")
	}
	return def{
		Task: tasks.Task{
			ID: "browser_firefox_bookmark", Domain: "browser",
			Instruction: "In Firefox (default profile), bookmark https://example.org/docs in the bookmarks toolbar.",
			Checks: []check.Spec{
				gate("bookmarked", check.TypeSQLiteQuery, abort, check.Spec{Path: places, Query: "SELECT count(*) FROM moz_bookmarks b JOIN moz_places p ON p.id = b.fk WHERE p.url = 'https://example.org/docs' AND b.parent = 3", Equals: 1.0}),
				refine("in_menu", "bookmarked", check.TypeSQLiteQuery, wrongT, check.Spec{Path: places, Query: "SELECT count(*) > 0 FROM moz_bookmarks b JOIN moz_places p ON p.id = b.fk WHERE p.url = 'https://example.org/docs'", Equals: 1.0}),
				refine("other_profile", "bookmarked", check.TypeUnchanged, wrongA, check.Spec{Path: ffOther + "/places.sqlite", Not: true}),
				gate("mozilla_kept", check.TypeSQLiteQuery, sideEff, check.Spec{Path: places, Query: "SELECT count(*) FROM moz_bookmarks WHERE id = 10 AND parent = 3", Equals: 1.0}),
				sideEffects(ffProfile + "/places.sqlite*"),
			},
			Perturbations: []tasks.Perturbation{{Name: tasks.PerturbSkipSave, Path: places}},
		},
		Initial: state{places: placesBase, ffOther + "/places.sqlite": placesBase},
		Pass:    map[string]ending{"done": {Changes: state{places: add("3")}}},
		Fail: map[string]ending{
			"bookmarks_menu": {Changes: state{places: add("2")}, Category: wrongT},
			"other_profile":  {Changes: state{ffOther + "/places.sqlite": add("3")}, Category: wrongA},
			"nothing_done":   {Changes: state{}, Category: abort},
		},
	}
}

func browserDownload() def {
	const pdf = "%PDF-1.4\n% quarterly report\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n"
	return def{
		Task: tasks.Task{
			ID: "browser_download_report", Domain: "browser",
			Instruction: "Download the quarterly report from the intranet page into Downloads as report.pdf.",
			Checks: []check.Spec{
				gate("downloaded", check.TypeSHA256, abort, check.Spec{Path: "Downloads/report.pdf", SHA256: sha(pdf)}),
				refine("partial_download", "downloaded", check.TypeFileExists, uncomm, check.Spec{Path: "Downloads/report.pdf.part"}),
				refine("renamed_copy", "downloaded", check.TypeFileExists, wrongT, check.Spec{Path: "Downloads/report(1).pdf"}),
				refine("wrong_content", "downloaded", check.TypeFileExists, partial, check.Spec{Path: "Downloads/report.pdf"}),
				sideEffects("Downloads/report*", ".cache/**"),
			},
			Perturbations: []tasks.Perturbation{{Name: tasks.PerturbSaveAsCopy, Path: "Downloads/report.pdf"}, {Name: tasks.PerturbSkipSave, Path: "Downloads/report.pdf"}},
		},
		Initial: state{"Downloads/slides.pdf": text("%PDF-1.4\n% slides\n%%EOF\n")},
		Pass:    map[string]ending{"done": {Changes: state{"Downloads/report.pdf": text(pdf)}}},
		Fail: map[string]ending{
			"still_downloading": {Changes: state{"Downloads/report.pdf.part": text(pdf[:20])}, Category: uncomm, Note: "the download never finished"},
			"duplicate_name":    {Changes: state{"Downloads/report(1).pdf": text(pdf)}, Category: wrongT},
			"truncated":         {Changes: state{"Downloads/report.pdf": text(pdf[:30])}, Category: partial, Note: "a truncated file under the right name"},
		},
	}
}
