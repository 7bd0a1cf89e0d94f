package main

import (
	"github.com/trustlake/trustlake/tasks"
	"github.com/trustlake/trustlake/tasks/check"
)

func appTasks() []def {
	return []def{appTodo(), appContacts(), appNotes(), appInventory(), appCalendar()}
}

const todoDB = ".local/share/todo/todo.db"

var todoBase = db{
	"CREATE TABLE tasks(id INTEGER PRIMARY KEY, title TEXT NOT NULL, done INTEGER NOT NULL DEFAULT 0, done_at TEXT)",
	"INSERT INTO tasks(title) VALUES ('pay rent'), ('pay bills'), ('book dentist'), ('water plants')",
}

func appTodo() def {
	return def{
		Task: tasks.Task{
			ID: "app_todo_complete", Domain: "app-db",
			Instruction: "In the To-do app, mark the task \"pay rent\" as done.",
			Checks: []check.Spec{
				gate("rent_done", check.TypeSQLiteQuery, uncomm, check.Spec{Path: todoDB, Query: "SELECT done FROM tasks WHERE title = 'pay rent'", Equals: 1.0}),
				refine("other_task_done", "rent_done", check.TypeSQLiteQuery, wrongT, check.Spec{Path: todoDB, Query: "SELECT count(*) > 0 FROM tasks WHERE done = 1 AND title <> 'pay rent'", Equals: 1.0}),
				gate("others_open", check.TypeSQLiteQuery, sideEff, check.Spec{Path: todoDB, Query: "SELECT count(*) FROM tasks WHERE done = 0", Equals: 3.0}),
				sideEffects(".local/share/todo/**"),
			},
			Perturbations: []tasks.Perturbation{{Name: tasks.PerturbSkipSave, Path: todoDB}},
		},
		Initial: state{todoDB: todoBase},
		Pass:    map[string]ending{"done": {Changes: state{todoDB: todoBase.and("UPDATE tasks SET done = 1, done_at = '2026-10-10T09:14:00Z' WHERE title = 'pay rent'")}}},
		Fail: map[string]ending{
			"not_persisted": {Changes: state{}, Category: uncomm, Note: "ticked in the UI, never written"},
			"wrong_task":    {Changes: state{todoDB: todoBase.and("UPDATE tasks SET done = 1 WHERE title = 'pay bills'")}, Category: wrongT},
			"all_done":      {Changes: state{todoDB: todoBase.and("UPDATE tasks SET done = 1")}, Category: sideEff, Note: "marked every task done"},
		},
	}
}

const contactsDB = ".local/share/contacts/contacts.db"

var contactsBase = db{
	"CREATE TABLE contacts(id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT, phone TEXT)",
	"INSERT INTO contacts(name, email) VALUES ('Grace Hopper', 'grace@example.org'), ('Alan Turing', 'alan@example.org')",
}

func appContacts() def {
	return def{
		Task: tasks.Task{
			ID: "app_contacts_add", Domain: "app-db",
			Instruction: "Add a contact Ada Lovelace with the email ada@example.org in the Contacts app.",
			Checks: []check.Spec{
				gate("added", check.TypeSQLiteQuery, abort, check.Spec{Path: contactsDB, Query: "SELECT count(*) FROM contacts WHERE name = 'Ada Lovelace'", Equals: 1.0}),
				gate("email", check.TypeSQLiteQuery, partial, check.Spec{Path: contactsDB, Query: "SELECT coalesce(email, '') FROM contacts WHERE name = 'Ada Lovelace'", Equals: "ada@example.org"}),
				gate("others_kept", check.TypeSQLiteQuery, sideEff, check.Spec{Path: contactsDB, Query: "SELECT name, email FROM contacts WHERE name <> 'Ada Lovelace' ORDER BY id", Equals: []any{[]any{"Grace Hopper", "grace@example.org"}, []any{"Alan Turing", "alan@example.org"}}}),
			},
			Perturbations: []tasks.Perturbation{{Name: tasks.PerturbSkipSave, Path: contactsDB}},
		},
		Initial: state{contactsDB: contactsBase},
		Pass:    map[string]ending{"done": {Changes: state{contactsDB: contactsBase.and("INSERT INTO contacts(name, email) VALUES ('Ada Lovelace', 'ada@example.org')")}}},
		Fail: map[string]ending{
			"no_email":       {Changes: state{contactsDB: contactsBase.and("INSERT INTO contacts(name) VALUES ('Ada Lovelace')")}, Category: partial},
			"nothing_done":   {Changes: state{}, Category: abort},
			"replaced_grace": {Changes: state{contactsDB: contactsBase.and("UPDATE contacts SET name = 'Ada Lovelace', email = 'ada@example.org' WHERE id = 1")}, Category: sideEff, Note: "overwrote an existing contact"},
		},
	}
}

const notesDB = ".local/share/notes/notes.db"

var notesBase = db{
	"CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT, trashed INTEGER NOT NULL DEFAULT 0)",
	"INSERT INTO notes(title, body) VALUES ('groceries', 'milk, eggs'), ('ideas', 'trust layer'), ('old draft', 'obsolete'), ('passwords hint', 'ask Ana')",
}

func appNotes() def {
	return def{
		Task: tasks.Task{
			ID: "app_notes_delete", Domain: "app-db",
			Instruction: "Delete the note titled \"old draft\" in the Notes app (moving it to the trash is enough).",
			Checks: []check.Spec{
				gate("draft_gone", check.TypeSQLiteQuery, uncomm, check.Spec{Path: notesDB, Query: "SELECT count(*) FROM notes WHERE title = 'old draft' AND trashed = 0", Equals: 0.0}),
				refine("other_note_deleted", "draft_gone", check.TypeSQLiteQuery, wrongT, check.Spec{Path: notesDB, Query: "SELECT count(*) < 3 FROM notes WHERE title <> 'old draft' AND trashed = 0", Equals: 1.0}),
				gate("others_kept", check.TypeSQLiteQuery, sideEff, check.Spec{Path: notesDB, Query: "SELECT count(*) FROM notes WHERE title <> 'old draft' AND trashed = 0", Equals: 3.0}),
			},
			Perturbations: []tasks.Perturbation{{Name: tasks.PerturbSkipSave, Path: notesDB}},
		},
		Initial: state{notesDB: notesBase},
		Pass: map[string]ending{
			"trashed": {Changes: state{notesDB: notesBase.and("UPDATE notes SET trashed = 1 WHERE title = 'old draft'")}},
			"deleted": {Changes: state{notesDB: notesBase.and("DELETE FROM notes WHERE title = 'old draft'")}},
		},
		Fail: map[string]ending{
			"wrong_note":  {Changes: state{notesDB: notesBase.and("UPDATE notes SET trashed = 1 WHERE title = 'ideas'")}, Category: wrongT, Note: "the wrong note was trashed"},
			"deleted_all": {Changes: state{notesDB: notesBase.and("DELETE FROM notes")}, Category: sideEff},
		},
	}
}

const invDB = "shop/inventory.sqlite"

var invBase = db{
	"CREATE TABLE items(sku TEXT PRIMARY KEY, name TEXT, qty INTEGER NOT NULL)",
	"INSERT INTO items VALUES ('A-100', 'hex bolt', 17), ('A-101', 'hex nut', 230), ('B-200', 'washer', 80)",
}

func appInventory() def {
	return def{
		Task: tasks.Task{
			ID: "app_inventory_update", Domain: "app-db",
			Instruction: "In the shop inventory, set the quantity of SKU A-100 to 42.",
			Checks: []check.Spec{
				gate("qty", check.TypeSQLiteQuery, uncomm, check.Spec{Path: invDB, Query: "SELECT qty FROM items WHERE sku = 'A-100'", Equals: 42.0}),
				refine("qty_on_other_sku", "qty", check.TypeSQLiteQuery, wrongT, check.Spec{Path: invDB, Query: "SELECT count(*) FROM items WHERE qty = 42", Equals: 1.0}),
				gate("others_kept", check.TypeSQLiteQuery, sideEff, check.Spec{Path: invDB, Query: "SELECT sku, qty FROM items WHERE sku <> 'A-100' ORDER BY sku", Equals: []any{[]any{"A-101", 230.0}, []any{"B-200", 80.0}}}),
				sideEffects("shop/inventory.sqlite*"),
			},
			Perturbations: []tasks.Perturbation{{Name: tasks.PerturbSkipSave, Path: invDB}},
		},
		Initial: state{invDB: invBase, "shop/README": text("inventory.sqlite is the shop app's database\n")},
		Pass:    map[string]ending{"done": {Changes: state{invDB: invBase.and("UPDATE items SET qty = 42 WHERE sku = 'A-100'")}}},
		Fail: map[string]ending{
			"wrong_sku":  {Changes: state{invDB: invBase.and("UPDATE items SET qty = 42 WHERE sku = 'A-101'")}, Category: wrongT},
			"also_other": {Changes: state{invDB: invBase.and("UPDATE items SET qty = 42 WHERE sku = 'A-100'", "UPDATE items SET qty = 0 WHERE sku = 'B-200'")}, Category: sideEff},
			"not_saved":  {Changes: state{}, Category: uncomm},
		},
	}
}

const calDB = ".local/share/calendar/calendar.db"

var calBase = db{
	"CREATE TABLE events(id INTEGER PRIMARY KEY, title TEXT NOT NULL, day TEXT NOT NULL, start TEXT, calendar TEXT NOT NULL)",
	"INSERT INTO events(title, day, start, calendar) VALUES ('Standup', '2026-10-12', '09:00', 'work'), ('Gym', '2026-10-13', '18:00', 'personal')",
}

func appCalendar() def {
	return def{
		Task: tasks.Task{
			ID: "app_calendar_event", Domain: "app-db",
			Instruction: "Add an event \"Dentist\" on 2026-10-14 at 15:30 to the personal calendar.",
			Checks: []check.Spec{
				gate("event", check.TypeSQLiteQuery, abort, check.Spec{Path: calDB, Query: "SELECT day, start FROM events WHERE title = 'Dentist' AND calendar = 'personal'", Equals: []any{[]any{"2026-10-14", "15:30"}}}),
				refine("wrong_calendar", "event", check.TypeSQLiteQuery, wrongT, check.Spec{Path: calDB, Query: "SELECT count(*) FROM events WHERE title = 'Dentist' AND calendar <> 'personal'", Equals: 1.0}),
				refine("wrong_day", "event", check.TypeSQLiteQuery, wrongT, check.Spec{Path: calDB, Query: "SELECT count(*) FROM events WHERE title = 'Dentist'", Equals: 1.0}),
				gate("others_kept", check.TypeSQLiteQuery, sideEff, check.Spec{Path: calDB, Query: "SELECT count(*) FROM events WHERE title <> 'Dentist'", Equals: 2.0}),
			},
			Perturbations: []tasks.Perturbation{{Name: tasks.PerturbSkipSave, Path: calDB}},
		},
		Initial: state{calDB: calBase},
		Pass:    map[string]ending{"done": {Changes: state{calDB: calBase.and("INSERT INTO events(title, day, start, calendar) VALUES ('Dentist', '2026-10-14', '15:30', 'personal')")}}},
		Fail: map[string]ending{
			"work_calendar": {Changes: state{calDB: calBase.and("INSERT INTO events(title, day, start, calendar) VALUES ('Dentist', '2026-10-14', '15:30', 'work')")}, Category: wrongT},
			"wrong_day":     {Changes: state{calDB: calBase.and("INSERT INTO events(title, day, start, calendar) VALUES ('Dentist', '2026-10-15', '15:30', 'personal')")}, Category: wrongT},
			"nothing_done":  {Changes: state{}, Category: abort},
		},
	}
}
