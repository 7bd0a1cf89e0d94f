package tasks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/trustlake/trustlake/sandbox"
	"github.com/trustlake/trustlake/schema"
)

// Verify statuses. Only written, replaced and unchanged carry a label.
const (
	StatusWritten          = "written"          // gt.json created
	StatusReplaced         = "replaced"         // a different gt.json overwritten (Force)
	StatusUnchanged        = "unchanged"        // an identical gt.json was already there
	StatusConflict         = "conflict"         // a different gt.json exists; not overwritten
	StatusVerifierError    = "verifier_error"   // crash, timeout, limit, bad output, empty or unreadable snapshot: no label
	StatusNondeterministic = "nondeterministic" // two runs disagreed: no label
	StatusError            = "error"            // bad episode (meta, unknown task, unsafe snapshot)
)

// RunOptions tune SelfTest, Verify and Perturb. Zero values mean defaults.
type RunOptions struct {
	Jobs int // concurrent fixtures or episodes; 0 means 1
	// CheckBinary is the host path of a static trustlake-check mounted at
	// /trustlake-check for declarative tasks; "" uses the image's own.
	// The bwrap backend needs it.
	CheckBinary string
	// Runs is how many times the verifier runs on each state; all must agree
	// for a verdict. Values below 2 mean DefaultRuns. A coin-flip verifier
	// goes unnoticed on one state with probability UnnoticedCoinFlip(Runs).
	Runs   int
	Logger *slog.Logger // nil discards
	// Progress, when set, is called after each fixture or episode with the
	// number done so far and the total; calls may come from several
	// goroutines but never at the same time.
	Progress func(done, total int)
}

// VerifyOptions tune Verify. Zero values mean defaults.
type VerifyOptions struct {
	RunOptions
	Force bool // overwrite a gt.json with different content
	// ReadMeta decodes an episode's meta.json; nil means ReadMeta. The
	// command passes the ingest decoder, so that verify accepts and refuses
	// exactly what ingest does.
	ReadMeta func(dir string) (Meta, error)
}

// VerifyResult is the outcome for one episode folder.
type VerifyResult struct {
	Dir            string `json:"dir"`
	EpisodeID      string `json:"episode_id,omitempty"`
	TaskID         string `json:"task_id,omitempty"`
	Status         string `json:"status"`
	Pass           *bool  `json:"pass,omitempty"`
	Category       string `json:"category,omitempty"`
	VerifierSHA256 string `json:"verifier_sha256,omitempty"`
	Err            string `json:"error,omitempty"`
}

// Labeled reports whether the episode has a ground-truth label now.
func (r VerifyResult) Labeled() bool {
	return r.Status == StatusWritten || r.Status == StatusReplaced || r.Status == StatusUnchanged
}

// GTFile is the content of gt.json as Verify writes it (the fields package
// ingest reads): the verdict between the episode id and its provenance.
type GTFile struct {
	EpisodeID string `json:"episode_id"`
	Output
	VerifierSHA256 string `json:"verifier_sha256"`
	Deterministic  bool   `json:"deterministic"`
}

// Verify labels episode folders: for each, it extracts final_state.tar.zst
// safely into a private temporary folder, runs the task's verifier Runs
// times (default twice) in the sandbox (a fresh one per run) and, when all
// runs agree, writes
// gt.json once with verifier_sha256 and deterministic. An identical gt.json
// is left alone; a different one is kept unless Force. A verifier that
// crashes, times out or disagrees with itself yields no label, never a
// failure. Results come in the order of dirs. The error is non-nil only when
// ctx is cancelled; per-episode problems are in the results.
func Verify(ctx context.Context, lib *Library, r Runner, dirs []string, opts VerifyOptions) ([]VerifyResult, error) {
	v := newVerifier(lib, r, opts)
	if n := removeStaleTemp(); n > 0 {
		v.opts.Logger.Warn("removed snapshot folders left by killed runs", "count", n)
	}
	out := make([]VerifyResult, len(dirs))
	forEach(ctx, len(dirs), opts.RunOptions, func(i int) {
		out[i] = v.one(ctx, dirs[i])
		v.opts.Logger.Debug("verified", "episode", out[i].EpisodeID, "status", out[i].Status)
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

type verifier struct {
	lib    *Library
	r      Runner
	opts   VerifyOptions
	mu     sync.Mutex
	hashes map[string]string // task id → verifier sha256
}

func newVerifier(lib *Library, r Runner, opts VerifyOptions) *verifier {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.ReadMeta == nil {
		opts.ReadMeta = ReadMeta
	}
	return &verifier{lib: lib, r: r, opts: opts, hashes: map[string]string{}}
}

func (v *verifier) hash(t *Task) (string, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if h, ok := v.hashes[t.ID]; ok {
		return h, nil
	}
	h, err := VerifierSHA256(t)
	if err != nil {
		return "", err
	}
	v.hashes[t.ID] = h
	return h, nil
}

// label extracts the episode's final state and runs its verifier Runs times.
// It returns the meta, task and verdict, or a result row explaining why not.
func (v *verifier) label(ctx context.Context, dir string) (Meta, *Task, Output, *VerifyResult) {
	m, err := v.opts.ReadMeta(dir)
	if err != nil {
		return m, nil, Output{}, &VerifyResult{Dir: dir, Status: StatusError, Err: err.Error()}
	}
	var t *Task
	fail := func(status string, err error) (Meta, *Task, Output, *VerifyResult) {
		return m, t, Output{}, &VerifyResult{Dir: dir, EpisodeID: m.EpisodeID, TaskID: m.TaskID, Status: status, Err: err.Error()}
	}
	if t, err = v.lib.Task(m.TaskID); err != nil {
		return fail(StatusError, err)
	}
	state, cleanup, err := extractState(ctx, dir)
	if err != nil && unusableSnapshot(err) {
		return fail(StatusVerifierError, err) // nothing to grade: no pass/fail label, like a verifier crash
	} else if err != nil {
		return fail(StatusError, err)
	}
	defer cleanup()
	o, err := v.runIn(ctx, t, state)
	if errors.Is(err, ErrNondeterministic) {
		return fail(StatusNondeterministic, err)
	} else if err != nil {
		return fail(StatusVerifierError, err)
	}
	return m, t, o, nil
}

func (v *verifier) one(ctx context.Context, dir string) VerifyResult {
	m, t, o, bad := v.label(ctx, dir)
	if bad != nil {
		return *bad
	}
	res := VerifyResult{Dir: dir, EpisodeID: m.EpisodeID, TaskID: m.TaskID, Status: StatusError}
	sum, err := v.hash(t)
	if err != nil {
		res.Err = err.Error()
		return res
	}
	res.VerifierSHA256 = sum
	pass := o.Pass
	res.Pass, res.Category = &pass, o.CategoryString()
	status, err := writeGT(filepath.Join(dir, GroundTruth), gtFromOutput(m.EpisodeID, sum, o), v.opts.Force)
	res.Status = status
	if err != nil {
		res.Err = err.Error()
	}
	return res
}

func gtFromOutput(episodeID, sum string, o Output) GTFile {
	if o.Gates == nil {
		o.Gates = []schema.Gate{}
	}
	return GTFile{EpisodeID: episodeID, Output: o, VerifierSHA256: sum, Deterministic: true}
}

// writeGT writes gt once: identical content is a no-op, different content
// is a conflict unless force.
func writeGT(name string, gt GTFile, force bool) (string, error) {
	data, err := json.MarshalIndent(gt, "", "  ")
	if err != nil {
		return StatusError, fmt.Errorf("encode gt.json: %w", err)
	}
	data = append(data, '\n')
	status := StatusWritten
	old, err := os.ReadFile(name)
	switch {
	case err == nil:
		if sameJSON(old, data) {
			return StatusUnchanged, nil
		}
		if !force {
			return StatusConflict, fmt.Errorf("%s exists with different content (old verifier_sha256 %s); not overwritten without --force", name, oldSum(old))
		}
		status = StatusReplaced
	case !errors.Is(err, fs.ErrNotExist):
		return StatusError, fmt.Errorf("read gt.json: %w", err)
	}
	if err := writeFileAtomic(name, data); err != nil {
		return StatusError, err
	}
	return status, nil
}

func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

func oldSum(data []byte) string {
	var g struct {
		Sum string `json:"verifier_sha256"`
	}
	if json.Unmarshal(data, &g) != nil || g.Sum == "" {
		return "unknown"
	}
	return g.Sum
}

// unusableSnapshot tells an empty or unreadable final state (no label)
// from a missing or hostile one (a bad episode).
func unusableSnapshot(err error) bool {
	return !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, sandbox.ErrUnsafe) && !errors.Is(err, context.Canceled)
}

// runIn runs t's verifier on state with the task mounted from a copy of
// its folder (without fixtures) beside state, so that /proc/self/mountinfo
// inside the sandbox shows only the neutral temporary folder, never where
// the library lives on the host.
func (v *verifier) runIn(ctx context.Context, t *Task, state string) (Output, error) {
	c := *t
	c.Dir = filepath.Join(filepath.Dir(state), "task")
	if err := copyTree(t.Dir, c.Dir, true); err != nil {
		return Output{}, fmt.Errorf("copy task %s: %w", t.ID, err)
	}
	return runN(ctx, v.r, &c, state, v.opts.CheckBinary, v.opts.Runs)
}

// PrivateCopy copies the executable file path into a new folder
// os.TempDir()/trustlake-state-<pid>-… and returns the copy and its cleanup.
// Sandboxes mount the copy, so that /proc/self/mountinfo inside them does not
// show where the binary lives on the host; a folder left by a killed process
// is removed like a snapshot folder.
func PrivateCopy(path string) (string, func(), error) {
	return stateDir(filepath.Base(path), func(dst string) error {
		data, err := os.ReadFile(path)
		if err == nil {
			err = os.WriteFile(dst, data, 0o755)
		}
		if err != nil {
			return fmt.Errorf("copy %s: %w", path, err)
		}
		return nil
	})
}

// stateDir creates a new folder os.TempDir()/trustlake-state-<pid>-…,
// readable by the sandbox user, has fill write name inside it, and returns
// that path with the cleanup of the folder.
func stateDir(name string, fill func(dst string) error) (string, func(), error) {
	tmp, err := os.MkdirTemp("", fmt.Sprintf("%s%d-", tempPrefix, os.Getpid()))
	if err != nil {
		return "", nil, fmt.Errorf("create temp dir: %w", err)
	}
	cleanup := func() { os.RemoveAll(tmp) }
	if err := os.Chmod(tmp, 0o755); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("create temp dir: %w", err)
	}
	dst := filepath.Join(tmp, name)
	if err := fill(dst); err != nil {
		cleanup()
		return "", nil, err
	}
	return dst, cleanup, nil
}

// tempPrefix starts the name of every snapshot folder, followed by the pid
// of the process that owns it: "trustlake-state-<pid>-<random>".
const tempPrefix = "trustlake-state-"

// removeStaleTemp removes the snapshot folders in os.TempDir() whose owning
// process is gone (killed before its cleanup ran); folders of live
// processes are left alone. It returns how many it removed.
func removeStaleTemp() int {
	matches, _ := filepath.Glob(filepath.Join(os.TempDir(), tempPrefix+"*"))
	n := 0
	for _, m := range matches {
		pidStr, _, ok := strings.Cut(strings.TrimPrefix(filepath.Base(m), tempPrefix), "-")
		pid, err := strconv.Atoi(pidStr)
		if !ok || err != nil || pid <= 0 {
			continue
		}
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			if os.RemoveAll(m) == nil {
				n++
			}
		}
	}
	return n
}

// extractState extracts dir/final_state.tar.zst into a new temporary folder
// (readable by the sandbox user) and returns it with its cleanup.
func extractState(ctx context.Context, dir string) (string, func(), error) {
	return stateDir("state", func(dst string) error {
		_, err := sandbox.ExtractSnapshotFile(ctx, filepath.Join(dir, FinalStateFile), dst, sandbox.ExtractLimits{})
		return err
	})
}
