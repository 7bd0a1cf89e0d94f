package sim

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/trustlake/trustlake/schema"
)

// SandboxImage is the sandbox_image written in every meta.json.
const SandboxImage = "sim-sandbox:0.1"

// Final messages. A claim says the task is done (what Trust Layer D3 and
// condition E2+claim react to); the others admit a problem.
var (
	claimMessages = [...]string{
		"Done! I completed the task and saved the file.",
		"I updated the document as requested and saved it.",
		"Task complete: all requested changes are applied.",
		"Finished. Everything asked for is done.",
	}
	hedgeMessages = map[string]string{
		"":                    "I made the requested change; please double-check the result.",
		schema.CatAbort:       "I could not complete the task: the application stopped responding.",
		schema.CatWrongApp:    "I could not find the requested document.",
		schema.CatPartial:     "I finished part of the task but could not complete the remaining steps.",
		schema.CatUncommitted: "I made the change but could not save it.",
		schema.CatWrongTarget: "I was not sure which item to change; please check.",
		schema.CatSideEffect:  "I completed the task but had to remove another file to do it.",
		schema.CatClaim:       "I was unable to complete the task.",
	}
	typedTexts = [...]string{"4500", "Q3 budget", "alice@example.com", "2026-10-10", "Approved", "42"}
	keyPresses = [...]string{"Return", "Tab", "ctrl+a", "ctrl+c", "ctrl+v", "Escape"}
)

// finalMessage returns episode ei's final message, drawn from its own
// stream. A perturbed replay carries its parent's message unchanged.
func (p *plan) finalMessage(ei int) string {
	e := &p.episodes[ei]
	if e.parent >= 0 {
		return p.finalMessage(e.parent)
	}
	if !e.claim {
		return hedgeMessages[e.category]
	}
	r := newRand(p.opts.Seed, streamMessage, uint64(e.task), uint64(e.agent), uint64(e.k))
	return claimMessages[r.IntN(len(claimMessages))]
}

// taskID names task t (0-based).
func taskID(t int) string { return fmt.Sprintf("sim-task-%04d", t+1) }

// verifierSHA256 is the pretend hash of task t's verifier: stable per task.
func verifierSHA256(t int) string {
	s := sha256.Sum256([]byte("sim-verifier:" + taskID(t) + ":v1"))
	return hex.EncodeToString(s[:])
}

// episodeFiles builds and writes one episode folder. One per worker.
type episodeFiles struct {
	p     *plan
	root  string   // DIR/episodes
	verif []string // per task
	buf   []byte
}

func (w *episodeFiles) write(ei int) error {
	p, o := w.p, w.p.opts
	e := &p.episodes[ei]
	dir := filepath.Join(w.root, e.id)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return fmt.Errorf("create episode folder: %w", err)
	}
	r := newRand(o.Seed, streamActions, uint64(e.task), uint64(e.agent), uint64(e.k))
	w.buf = w.appendMeta(w.buf[:0], ei, r)
	if err := os.WriteFile(filepath.Join(dir, "meta.json"), w.buf, 0o644); err != nil {
		return fmt.Errorf("write meta.json: %w", err)
	}
	w.buf = w.appendGT(w.buf[:0], e)
	if err := os.WriteFile(filepath.Join(dir, "gt.json"), w.buf, 0o644); err != nil {
		return fmt.Errorf("write gt.json: %w", err)
	}
	if o.Episodes != EpisodeFull {
		return nil
	}
	w.buf = w.appendActions(w.buf[:0], e, r)
	if err := os.WriteFile(filepath.Join(dir, "actions.jsonl"), w.buf, 0o644); err != nil {
		return fmt.Errorf("write actions.jsonl: %w", err)
	}
	if !o.Screens {
		return nil
	}
	sdir := filepath.Join(dir, "screens")
	if err := os.Mkdir(sdir, 0o755); err != nil {
		return fmt.Errorf("create screens folder: %w", err)
	}
	for s := 1; s <= e.nSteps; s++ {
		png, err := renderScreen(e, s)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(sdir, screenName(s)), png, 0o644); err != nil {
			return fmt.Errorf("write screen: %w", err)
		}
	}
	return nil
}

// screenName is the file name of step s's screenshot.
func screenName(s int) string { return fmt.Sprintf("%03d.png", s) }

// appendMeta appends meta.json (seed §4.1) for episode ei.
func (w *episodeFiles) appendMeta(b []byte, ei int, r *rand.Rand) []byte {
	o := w.p.opts
	e := &w.p.episodes[ei]
	version := "sim-1"
	if e.source == schema.SourceWeakened {
		version = "sim-1-weakened"
	}
	b = append(b, `{"episode_id":`...)
	b = appendString(b, e.id)
	b = appendField(b, "task_id", taskID(e.task))
	b = appendField(b, "instruction", instruction(e.task))
	b = appendField(b, "source", e.source)
	b = append(b, `,"agent":{"name":`...)
	b = appendString(b, o.Agents[e.agent].Name)
	b = appendField(b, "version", version)
	b = appendKey(b, "seed")
	b = strconv.AppendInt(b, int64(r.IntN(1_000_000)), 10)
	b = append(b, '}')
	b = appendKey(b, "n_steps")
	b = strconv.AppendInt(b, int64(e.nSteps), 10)
	b = appendField(b, "final_message", w.p.finalMessage(ei))
	b = appendField(b, "sandbox_image", SandboxImage)
	b = appendKey(b, "created_at")
	b = appendTime(b, o.BaseTime.Add(time.Duration(ei)*time.Minute))
	if e.parent >= 0 {
		b = appendField(b, "parent_episode_id", w.p.episodes[e.parent].id)
		b = appendField(b, "perturbation", e.perturbation)
	}
	return append(b, '}', '\n')
}

// appendGT appends gt.json (seed §4.4 verifier output).
func (w *episodeFiles) appendGT(b []byte, e *episode) []byte {
	score := 0.0
	switch {
	case e.pass:
		score = 1
	case e.category == schema.CatPartial:
		score = 0.5
	}
	failed := failedGate(e)
	b = append(b, `{"episode_id":`...)
	b = appendString(b, e.id)
	b = appendKey(b, "pass")
	b = strconv.AppendBool(b, e.pass)
	b = appendKey(b, "score")
	b = appendRounded(b, score, 2)
	b = appendKey(b, "category")
	b = appendStringOrNull(b, e.category)
	b = append(b, `,"diagnostics":{"simulated":true,"p_pass":`...)
	b = appendRounded(b, e.pPass, 4)
	b = appendKey(b, "failed_gate")
	b = appendStringOrNull(b, failed)
	b = append(b, '}')
	b = appendField(b, "verifier_sha256", w.verif[e.task])
	b = append(b, `,"gates":[`...)
	for i, g := range gates {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = appendString(b, g.id)
		b = appendField(b, "type", g.typ)
		b = appendKey(b, "passed")
		b = strconv.AppendBool(b, g.id != failed)
		b = append(b, '}')
	}
	return append(b, `],"deterministic":true}`+"\n"...)
}

// gates are the verifier's checks; a failed episode fails exactly one.
var gates = [...]struct{ id, typ string }{
	{"goal", schema.GateCritical},
	{"persisted", schema.GateCritical},
	{"no-side-effects", schema.GateProcess},
}

// failedGate returns the id of the gate a failed episode fails, "" if it passed.
func failedGate(e *episode) string {
	switch {
	case e.pass:
		return ""
	case e.category == schema.CatUncommitted:
		return "persisted"
	case e.category == schema.CatSideEffect:
		return "no-side-effects"
	}
	return "goal"
}

// appendActions appends actions.jsonl: steps 1..n_steps. A passing or
// claimed-saved episode ends with ctrl+s; an uncommitted one never saves.
func (w *episodeFiles) appendActions(b []byte, e *episode, r *rand.Rand) []byte {
	for s := 1; s <= e.nSteps; s++ {
		b = append(b, `{"step":`...)
		b = strconv.AppendInt(b, int64(s), 10)
		action, text, keys := "click", "", ""
		switch u := r.IntN(10); {
		case s == e.nSteps && e.category != schema.CatUncommitted && e.category != schema.CatAbort:
			action, keys = "key", "ctrl+s"
		case u < 5:
		case u < 7:
			action, text = "type", typedTexts[r.IntN(len(typedTexts))]
		case u < 9:
			action, keys = "key", keyPresses[r.IntN(len(keyPresses))]
		default:
			action = "scroll"
		}
		b = appendField(b, "action", action)
		if text != "" {
			b = appendField(b, "text", text)
		}
		if keys != "" {
			b = appendField(b, "keys", keys)
		}
		if w.p.opts.Screens {
			b = appendField(b, "screen", "screens/"+screenName(s))
		}
		b = append(b, '}', '\n')
	}
	return b
}
