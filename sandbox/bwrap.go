package sandbox

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// BwrapOptions configure NewBwrap. Zero values mean defaults.
type BwrapOptions struct {
	Path        string   // bubblewrap binary; "" means /usr/bin/bwrap
	PrlimitPath string   // util-linux prlimit; "" means /usr/bin/prlimit
	HostDirs    []string // host folders bound read-only at the same path; nil means /usr, /lib*, /bin, /sbin (symlinks kept as symlinks)
	HostFiles   []string // host files bound read-only if present; nil means the dynamic-loader and alternatives files of /etc
	Logger      *slog.Logger
}

// bwrapConcurrency is how many concurrent bwrap sandboxes share uid 65534's
// RLIMIT_NPROC (see Bwrap).
const bwrapConcurrency = 8

// Bwrap runs specs under bubblewrap, the engine-less fallback. The command
// runs from the host's own /usr (Spec.Image is ignored), so it must exist on the
// host or in a Mount. Started as root, bwrap itself runs as uid/gid 65534, so
// the snapshot, the mounts and their parent folders must be readable by others.
//
// Isolation: new user, pid, net, ipc, uts and cgroup namespaces (no network but
// a private loopback), a tmpfs root remounted read-only with only the host
// folders above bound read-only, /proc, a minimal read-only /dev (no writable
// /dev/shm), a size-capped tmpfs at /tmp, no capabilities, only Spec.Env, the process killed with its group at the
// timeout and when the caller dies. Limits bwrap cannot give like Docker does:
// memory is RLIMIT_DATA per process (not a cgroup total, so OOMKilled is never
// set: allocations just fail); PIDs is RLIMIT_NPROC for uid 65534 on the host (it
// counts that uid's other processes too, and is not applied without root);
// NanoCPUs is not enforced. Because RLIMIT_NPROC is per user, the limit set is
// PIDs × bwrapConcurrency, shared by the sandboxes running at once. It is safe
// for concurrent use.
type Bwrap struct {
	opts BwrapOptions
	log  *slog.Logger
}

// NewBwrap returns a bubblewrap backend; it fails when the binary is missing.
func NewBwrap(opts BwrapOptions) (*Bwrap, error) {
	opts.Path = cmp.Or(opts.Path, "/usr/bin/bwrap")
	opts.PrlimitPath = cmp.Or(opts.PrlimitPath, "/usr/bin/prlimit")
	if opts.HostDirs == nil {
		opts.HostDirs = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}
	}
	if opts.HostFiles == nil {
		opts.HostFiles = []string{"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives", "/etc/localtime"}
	}
	if _, err := os.Stat(opts.Path); err != nil {
		return nil, fmt.Errorf("find bubblewrap: %w", err)
	}
	return &Bwrap{opts: opts, log: cmp.Or(opts.Logger, slog.New(slog.DiscardHandler))}, nil
}

// Name returns "bwrap".
func (b *Bwrap) Name() string { return "bwrap" }

// Check runs /usr/bin/true in the sandbox to see that bubblewrap works here
// (user namespaces allowed).
func (b *Bwrap) Check(ctx context.Context) error {
	res, err := b.Run(ctx, Spec{Command: []string{"/usr/bin/true"}, Timeout: 10 * time.Second})
	if err != nil {
		return err
	}
	if res.ExitCode != 0 {
		return fmt.Errorf("bubblewrap unusable: exit %d: %s", res.ExitCode, firstLine(res.Stderr))
	}
	return nil
}

// Run runs spec under bubblewrap; see Bwrap for what is isolated. A non-zero
// exit is not an error; bwrap's own setup failures show as exit 1 with a
// "bwrap:" message on stderr.
func (b *Bwrap) Run(ctx context.Context, spec Spec) (Result, error) {
	if err := spec.validate(false); err != nil {
		return Result{}, err
	}
	lim := spec.Limits.withDefaults()
	argv := b.args(spec, lim)
	asRoot := os.Getuid() == 0
	if _, err := os.Stat(b.opts.PrlimitPath); err == nil {
		pre := []string{b.opts.PrlimitPath, "--data=" + strconv.FormatInt(lim.MemoryBytes, 10), "--core=0"}
		if asRoot {
			// RLIMIT_NPROC counts every process and thread of uid 65534 on
			// the host, so concurrent sandboxes share it: give room for
			// bwrapConcurrency of them (Go verifiers run several threads).
			pre = append(pre, "--nproc="+strconv.FormatInt(lim.PIDs*bwrapConcurrency, 10))
		}
		argv = append(append(pre, "--"), argv...)
	} else {
		b.log.Warn("prlimit not found; bwrap runs without memory and process limits", "path", b.opts.PrlimitPath)
	}

	attr := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if asRoot {
		attr.Credential = &syscall.Credential{Uid: sandboxUID, Gid: sandboxGID, Groups: []uint32{}}
	}
	return runHost(ctx, spec, lim, argv, "/", attr, "run bwrap", true)
}

// args builds the bwrap command line (without the prlimit prefix).
func (b *Bwrap) args(spec Spec, lim Limits) []string {
	a := []string{b.opts.Path,
		"--unshare-all", "--die-with-parent", "--new-session",
		"--cap-drop", "ALL",
		"--uid", strconv.Itoa(sandboxUID), "--gid", strconv.Itoa(sandboxGID),
		"--hostname", "sandbox",
	}
	for _, d := range b.opts.HostDirs {
		fi, err := os.Lstat(d)
		switch {
		case err != nil:
			continue
		case fi.Mode()&os.ModeSymlink != 0:
			if target, err := os.Readlink(d); err == nil {
				a = append(a, "--symlink", target, d)
			}
		case fi.IsDir():
			a = append(a, "--ro-bind", d, d)
		}
	}
	for _, f := range b.opts.HostFiles {
		a = append(a, "--ro-bind-try", f, f)
	}
	// /dev (and its /dev/shm) is an unbounded tmpfs: read-only, so /tmp
	// with its size cap is the only writable place. Devices still work.
	a = append(a, "--proc", "/proc", "--dev", "/dev", "--remount-ro", "/dev",
		"--size", strconv.FormatInt(lim.TmpfsBytes, 10), "--perms", "1777", "--tmpfs", "/tmp")
	if spec.Snapshot != "" {
		a = append(a, "--ro-bind", spec.Snapshot, "/snapshot")
	}
	for _, m := range spec.Mounts {
		a = append(a, "--ro-bind", m.Host, filepath.Clean(m.Target))
	}
	a = append(a, "--remount-ro", "/", "--chdir", "/tmp", "--")
	return append(a, spec.Command...)
}

// exitCode maps a process state to a shell-style code (128+signal when killed).
func exitCode(ps *os.ProcessState) int {
	if ps == nil {
		return -1
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}

func firstLine(b []byte) string {
	line, _, _ := bytes.Cut(b, []byte("\n"))
	return string(line)
}
