package sandbox

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"maps"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/google/uuid"
	"github.com/moby/moby/api/pkg/stdcopy"
	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/mount"
	"github.com/moby/moby/client"
)

// DockerOptions configure NewDocker. Zero values mean defaults.
type DockerOptions struct {
	// Host is the Engine address, e.g. "unix:///var/run/docker.sock" or a
	// DOCKER_HOST value; "" means the client default (the local socket).
	Host string
	// User is the uid:gid inside the container; "" means SandboxUser.
	User string
	// CleanupTimeout bounds killing and removing a container after a run, also
	// when the run's context is cancelled; 0 means 30s.
	CleanupTimeout time.Duration
	// Labels are added to every container (LabelKey=1 always is), so that
	// one process (a test) can find only its own containers.
	Labels map[string]string
	// DeadlineBinary is the host path of a static trustlake-check; when set,
	// every command runs under its in-container deadline (see
	// DeadlineMount). "" leaves the CPU-time limit as the only bound inside
	// the container.
	DeadlineBinary string
	Logger         *slog.Logger // nil discards
}

// Docker runs specs in fresh containers through the Docker Engine API. It
// negotiates the API version with the engine (API 1.40 and newer). It is safe
// for concurrent use; Close releases its connections.
type Docker struct {
	cli  *client.Client
	opts DockerOptions
	log  *slog.Logger
}

const logKeyContainer = "container"

// NewDocker returns a Docker backend. It does not contact the engine; use Ping.
func NewDocker(opts DockerOptions) (*Docker, error) {
	opts.User = cmp.Or(opts.User, SandboxUser)
	if opts.CleanupTimeout <= 0 {
		opts.CleanupTimeout = 30 * time.Second
	}
	var copts []client.Opt
	if opts.Host != "" {
		copts = append(copts, client.WithHost(opts.Host))
	}
	cli, err := client.New(copts...)
	if err != nil {
		return nil, fmt.Errorf("create docker client: %w", err)
	}
	return &Docker{cli: cli, opts: opts, log: cmp.Or(opts.Logger, slog.New(slog.DiscardHandler))}, nil
}

// Name returns "docker".
func (d *Docker) Name() string { return "docker" }

// Close releases the client's connections.
func (d *Docker) Close() error { return d.cli.Close() }

// Ping checks that the engine answers and negotiates the API version.
func (d *Docker) Ping(ctx context.Context) error {
	if _, err := d.cli.Ping(ctx, client.PingOptions{NegotiateAPIVersion: true}); err != nil {
		return fmt.Errorf("ping docker engine: %w", err)
	}
	return nil
}

// Run runs spec in a new container and always removes it, also when ctx is
// cancelled. The container has no network, a read-only root, no capabilities,
// no-new-privileges, a non-root user, pids/memory/CPU limits, the snapshot
// read-only at /snapshot, the mounts read-only, a private tmpfs at /tmp and only
// spec.Env. A run over its timeout is killed and reported with TimedOut; output
// beyond Limits.OutputBytes per stream is discarded (OutputTruncated). A non-zero
// exit is not an error. The error is non-nil when the run could not happen or
// ctx was cancelled (then the partial Result is returned too).
func (d *Docker) Run(ctx context.Context, spec Spec) (Result, error) {
	if err := spec.validate(true); err != nil {
		return Result{}, err
	}
	lim := spec.Limits.withDefaults()
	cfg, hc := d.containerConfig(spec, lim)
	name := "trustlake-sandbox-" + uuid.NewString()
	created, err := d.cli.ContainerCreate(ctx, client.ContainerCreateOptions{Name: name, Config: cfg, HostConfig: hc})
	if err != nil {
		// The engine may have created it before ctx ended; remove by name.
		d.remove(ctx, name)
		return Result{}, fmt.Errorf("create container: %w", err)
	}
	id := created.ID
	defer d.remove(ctx, id)

	att, err := d.cli.ContainerAttach(ctx, id, client.ContainerAttachOptions{Stream: true, Stdout: true, Stderr: true})
	if err != nil {
		return Result{}, fmt.Errorf("attach container: %w", err)
	}
	defer att.Close()
	stdout, stderr := &capture{limit: lim.OutputBytes}, &capture{limit: lim.OutputBytes}
	copied := make(chan error, 1)
	go func() {
		_, err := stdcopy.StdCopy(stdout, stderr, att.Reader)
		copied <- err
	}()

	runCtx, cancel := context.WithTimeout(ctx, spec.timeout())
	defer cancel()
	start := time.Now()
	if _, err := d.cli.ContainerStart(runCtx, id, client.ContainerStartOptions{}); err != nil {
		att.Close()
		<-copied
		return Result{}, fmt.Errorf("start container: %w", err)
	}
	wait := d.cli.ContainerWait(runCtx, id, client.ContainerWaitOptions{Condition: container.WaitConditionNotRunning})
	var res Result
	var waitErr error
	select {
	case <-wait.Result:
	case waitErr = <-wait.Error:
	}
	res.Duration = time.Since(start)
	if waitErr != nil && runCtx.Err() != nil {
		res.TimedOut = ctx.Err() == nil
		d.kill(ctx, id)
		waitErr = nil
	}
	// The attach stream ends when the container exits; bound the wait anyway.
	select {
	case <-copied:
	case <-time.After(5 * time.Second):
		att.Close()
		<-copied
	}
	fill(&res, stdout, stderr)
	if waitErr != nil {
		return res, fmt.Errorf("wait container: %w", waitErr)
	}
	ictx, icancel := context.WithTimeout(context.WithoutCancel(ctx), d.opts.CleanupTimeout)
	defer icancel()
	ins, err := d.cli.ContainerInspect(ictx, id, client.ContainerInspectOptions{})
	if err != nil {
		return res, fmt.Errorf("inspect container: %w", err)
	}
	if st := ins.Container.State; st != nil {
		res.ExitCode = st.ExitCode
		res.OOMKilled = st.OOMKilled
	}
	if err := ctx.Err(); err != nil {
		return res, fmt.Errorf("run container: %w", err)
	}
	return res, nil
}

func (d *Docker) containerConfig(spec Spec, lim Limits) (*container.Config, *container.HostConfig) {
	cfg := &container.Config{
		Image:           spec.Image,
		Cmd:             spec.Command,
		Env:             append([]string(nil), spec.Env...),
		User:            d.opts.User,
		Labels:          d.labels(),
		NetworkDisabled: true,
		AttachStdout:    true,
		AttachStderr:    true,
	}
	pids := lim.PIDs
	hc := &container.HostConfig{
		NetworkMode:    "none",
		ReadonlyRootfs: true,
		CapDrop:        []string{"ALL"},
		SecurityOpt:    []string{"no-new-privileges"},
		IpcMode:        "none",                            // a private IPC namespace without /dev/shm: no writable area beyond the capped /tmp
		LogConfig:      container.LogConfig{Type: "none"}, // output is taken from the attach stream only
		Tmpfs:          map[string]string{"/tmp": fmt.Sprintf("rw,nosuid,nodev,noexec,size=%d,mode=1777", lim.TmpfsBytes)},
		Resources: container.Resources{
			Memory:     lim.MemoryBytes,
			MemorySwap: lim.MemoryBytes,
			NanoCPUs:   lim.NanoCPUs,
			PidsLimit:  &pids,
		},
	}
	if spec.Snapshot != "" {
		hc.Mounts = append(hc.Mounts, mountRO(spec.Snapshot, "/snapshot"))
	}
	for _, m := range spec.Mounts {
		hc.Mounts = append(hc.Mounts, mountRO(m.Host, m.Target))
	}
	d.wrapDeadline(spec, cfg, hc)
	return cfg, hc
}

func mountRO(host, target string) mount.Mount {
	return mount.Mount{Type: mount.TypeBind, Source: host, Target: target, ReadOnly: true}
}

// kill stops a container whose run timed out or was cancelled.
func (d *Docker) kill(ctx context.Context, id string) {
	kctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), d.opts.CleanupTimeout)
	defer cancel()
	if _, err := d.cli.ContainerKill(kctx, id, client.ContainerKillOptions{Signal: "KILL"}); err != nil {
		d.log.Warn("kill sandbox container", logKeyContainer, id, "err", err)
	}
	// Wait until it is down so that inspect reports the final state.
	w := d.cli.ContainerWait(kctx, id, client.ContainerWaitOptions{Condition: container.WaitConditionNotRunning})
	select {
	case <-w.Result:
	case <-w.Error:
	}
}

// remove force-removes a container with its own timeout, independent of ctx.
func (d *Docker) remove(ctx context.Context, id string) {
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), d.opts.CleanupTimeout)
	defer cancel()
	_, err := d.cli.ContainerRemove(rctx, id, client.ContainerRemoveOptions{Force: true, RemoveVolumes: true})
	if err != nil && !cerrdefs.IsNotFound(err) {
		d.log.Error("remove sandbox container", logKeyContainer, id, "err", err)
	}
}

func (d *Docker) labels() map[string]string {
	l := map[string]string{LabelKey: "1"}
	maps.Copy(l, d.opts.Labels)
	return l
}

// HasImage reports whether the engine has the image ref locally.
func (d *Docker) HasImage(ctx context.Context, ref string) (bool, error) {
	_, err := d.cli.ImageInspect(ctx, ref)
	switch {
	case err == nil:
		return true, nil
	case cerrdefs.IsNotFound(err):
		return false, nil
	default:
		return false, fmt.Errorf("inspect image %s: %w", ref, err)
	}
}
