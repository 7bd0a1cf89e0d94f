package main

import (
	"strconv"

	"github.com/trustlake/trustlake/tasks"
	"github.com/trustlake/trustlake/tasks/check"
)

func configTasks() []def {
	return []def{cfgJSON(), cfgYAML(), cfgTOML(), cfgINI(), cfgGit(), cfgEnv()}
}

func cfgJSON() def {
	const (
		user = ".config/Code/User/settings.json"
		ws   = "work/site/.vscode/settings.json"
	)
	body := func(tab int) text {
		return text("{\n  \"editor.fontSize\": 13,\n  \"editor.tabSize\": " + strconv.Itoa(tab) + ",\n  \"files.autoSave\": \"off\"\n}\n")
	}
	return def{
		Task: tasks.Task{
			ID: "config_json_tabsize", Domain: "config",
			Instruction: "In the editor's user settings (~/.config/Code/User/settings.json) set \"editor.tabSize\" to 2.",
			Checks: []check.Spec{
				gate("tab_size", check.TypeJSONKey, uncomm, check.Spec{Path: user, Key: `["editor.tabSize"]`, Equals: 2.0}),
				refine("set_in_workspace", "tab_size", check.TypeUnchanged, wrongT, check.Spec{Path: ws, Not: true}),
				gate("font_kept", check.TypeJSONKey, sideEff, check.Spec{Path: user, Key: `["editor.fontSize"]`, Equals: 13.0}),
				sideEffects(user),
			},
			Perturbations: []tasks.Perturbation{{Name: tasks.PerturbSkipSave, Path: user}},
		},
		Initial: state{user: body(4), ws: text("{\n  \"editor.tabSize\": 4\n}\n")},
		Pass: map[string]ending{
			"done":             {Changes: state{user: body(2)}},
			"done_reformatted": {Changes: state{user: text(`{"files.autoSave":"off","editor.tabSize":2,"editor.fontSize":13}`)}, Note: "key order and spacing do not matter"},
		},
		Fail: map[string]ending{
			"workspace_instead": {Changes: state{ws: text("{\n  \"editor.tabSize\": 2\n}\n")}, Category: wrongT, Note: "changed the workspace settings, not the user settings"},
			"string_value":      {Changes: state{user: text("{\n  \"editor.fontSize\": 13,\n  \"editor.tabSize\": \"two\",\n  \"files.autoSave\": \"off\"\n}\n")}, Category: uncomm, Note: "an invalid value the editor ignores"},
		},
	}
}

func cfgYAML() def {
	const (
		prod  = "deploy/app.yaml"
		stage = "deploy/app.staging.yaml"
	)
	doc := func(replicas, image string) text {
		return text("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: " + replicas + "\n  template:\n    spec:\n      containers:\n        - name: web\n          image: " + image + "\n")
	}
	return def{
		Task: tasks.Task{
			ID: "config_yaml_replicas", Domain: "config",
			Instruction: "In deploy/app.yaml (production) set spec.replicas to 3.",
			Checks: []check.Spec{
				gate("replicas", check.TypeYAMLKey, uncomm, check.Spec{Path: prod, Key: "spec.replicas", Equals: 3.0}),
				refine("staging_edited", "replicas", check.TypeUnchanged, wrongA, check.Spec{Path: stage, Not: true}),
				gate("image_kept", check.TypeYAMLKey, sideEff, check.Spec{Path: prod, Key: "spec.template.spec.containers[0].image", Equals: "nginx:1.27"}),
				sideEffects(prod),
			},
			Perturbations: []tasks.Perturbation{{Name: tasks.PerturbSkipSave, Path: prod}},
		},
		Initial: state{prod: doc("1", "nginx:1.27"), stage: doc("1", "nginx:1.27")},
		Pass:    map[string]ending{"done": {Changes: state{prod: doc("3", "nginx:1.27")}}},
		Fail: map[string]ending{
			"staging_instead": {Changes: state{stage: doc("3", "nginx:1.27")}, Category: wrongA},
			"image_changed":   {Changes: state{prod: doc("3", "nginx:latest")}, Category: sideEff, Note: "replicas right, but the image was also changed"},
		},
	}
}

func cfgTOML() def {
	const p = ".config/myapp/config.toml"
	doc := func(server, db string) text {
		return text("title = \"myapp\"\n\n[server]\nhost = \"127.0.0.1\"\nport = " + server + "\n\n[database]\nport = " + db + "\n")
	}
	return def{
		Task: tasks.Task{
			ID: "config_toml_port", Domain: "config",
			Instruction: "In ~/.config/myapp/config.toml change the server port to 8081.",
			Checks: []check.Spec{
				gate("server_port", check.TypeTOMLKey, uncomm, check.Spec{Path: p, Key: "server.port", Equals: 8081.0}),
				refine("database_port_set", "server_port", check.TypeTOMLKey, wrongT, check.Spec{Path: p, Key: "database.port", Equals: 8081.0}),
				gate("db_port_kept", check.TypeTOMLKey, sideEff, check.Spec{Path: p, Key: "database.port", Equals: 5432.0}),
				sideEffects(p),
			},
			Perturbations: []tasks.Perturbation{{Name: tasks.PerturbSkipSave, Path: p}},
		},
		Initial: state{p: doc("8080", "5432")},
		Pass:    map[string]ending{"done": {Changes: state{p: doc("8081", "5432")}}},
		Fail: map[string]ending{
			"database_section": {Changes: state{p: doc("8080", "8081")}, Category: wrongT, Note: "changed [database] port"},
			"not_saved":        {Changes: state{}, Category: uncomm},
		},
	}
}

func cfgINI() def {
	const p = ".config/clock/clock.ini"
	doc := func(general, display string) text {
		return text("; clock settings\n[general]\ntimezone = " + general + "\nformat = 24h\n\n[display]\ntimezone = " + display + "\n")
	}
	return def{
		Task: tasks.Task{
			ID: "config_ini_timezone", Domain: "config",
			Instruction: "Set the clock's timezone (section [general] of ~/.config/clock/clock.ini) to Europe/Berlin.",
			Checks: []check.Spec{
				gate("timezone", check.TypeINIKey, uncomm, check.Spec{Path: p, Key: "general.timezone", Equals: "Europe/Berlin"}),
				refine("display_section", "timezone", check.TypeINIKey, wrongT, check.Spec{Path: p, Key: "display.timezone", Equals: "Europe/Berlin"}),
				gate("format_kept", check.TypeINIKey, sideEff, check.Spec{Path: p, Key: "general.format", Equals: "24h"}),
				sideEffects(p),
			},
			Perturbations: []tasks.Perturbation{{Name: tasks.PerturbSkipSave, Path: p}},
		},
		Initial: state{p: doc("UTC", "UTC")},
		Pass:    map[string]ending{"done": {Changes: state{p: doc("Europe/Berlin", "UTC")}}},
		Fail: map[string]ending{
			"display_section": {Changes: state{p: doc("UTC", "Europe/Berlin")}, Category: wrongT},
			"not_saved":       {Changes: state{}, Category: uncomm},
		},
	}
}

func cfgGit() def {
	const p = ".gitconfig"
	doc := func(name, email string) text {
		s := "[core]\n\teditor = vim\n[user]\n"
		if name != "" {
			s += "\tname = " + name + "\n"
		}
		if email != "" {
			s += "\temail = " + email + "\n"
		}
		return text(s)
	}
	return def{
		Task: tasks.Task{
			ID: "config_git_identity", Domain: "config",
			Instruction: "Configure git globally with the name \"Ada Lovelace\" and the email ada@example.org.",
			Checks: []check.Spec{
				gate("name", check.TypeINIKey, abort, check.Spec{Path: p, Key: "user.name", Equals: "Ada Lovelace"}),
				gate("email", check.TypeINIKey, partial, check.Spec{Path: p, Key: "user.email", Equals: "ada@example.org"}),
				refine("repo_config_instead", "name", check.TypeUnchanged, wrongT, check.Spec{Path: "src/analytical-engine.git/config", Not: true}),
				gate("editor_kept", check.TypeINIKey, sideEff, check.Spec{Path: p, Key: "core.editor", Equals: "vim"}),
				sideEffects(p),
			},
		},
		Initial: state{p: doc("", ""), "src/analytical-engine.git/config": text("[core]\n\tbare = false\n"), "src/analytical-engine.git/description": text("notes\n")},
		Pass:    map[string]ending{"done": {Changes: state{p: doc("Ada Lovelace", "ada@example.org")}}},
		Fail: map[string]ending{
			"name_only":    {Changes: state{p: doc("Ada Lovelace", "")}, Category: partial},
			"repo_instead": {Changes: state{"src/analytical-engine.git/config": text("[core]\n\tbare = false\n[user]\n\tname = Ada Lovelace\n\temail = ada@example.org\n")}, Category: wrongT, Note: "set in one repository, not globally"},
		},
	}
}

func cfgEnv() def {
	const p = "work/api/.env"
	doc := func(debug string) text {
		return text("# api settings\nPORT=8000\nDEBUG=" + debug + "\nLOG_LEVEL=info\n")
	}
	return def{
		Task: tasks.Task{
			ID: "config_env_debug", Domain: "config",
			Instruction: "Turn off debug mode of the API: set DEBUG=false in work/api/.env.",
			Checks: []check.Spec{
				gate("debug_off", check.TypeINIKey, uncomm, check.Spec{Path: p, Key: "DEBUG", Equals: false}),
				refine("example_edited", "debug_off", check.TypeUnchanged, wrongA, check.Spec{Path: "work/api/.env.example", Not: true}),
				gate("port_kept", check.TypeINIKey, sideEff, check.Spec{Path: p, Key: "PORT", Equals: 8000.0}),
				sideEffects(p),
			},
			Perturbations: []tasks.Perturbation{{Name: tasks.PerturbSkipSave, Path: p}},
		},
		Initial: state{p: doc("true"), "work/api/.env.example": doc("true")},
		Pass:    map[string]ending{"done": {Changes: state{p: doc("false")}}},
		Fail: map[string]ending{
			"example_instead": {Changes: state{"work/api/.env.example": doc("false")}, Category: wrongA, Note: "edited .env.example"},
			"commented_out":   {Changes: state{p: text("# api settings\nPORT=8000\n#DEBUG=true\nDEBUG = true\nLOG_LEVEL=info\n")}, Category: uncomm, Note: "still true"},
		},
	}
}
