package sandbox

import (
	"context"
	"fmt"
	"log/slog"
	"time"
)

// SelectOptions configure Select. Zero values mean defaults.
type SelectOptions struct {
	Docker       DockerOptions
	Bwrap        BwrapOptions
	ProbeTimeout time.Duration // engine ping and bwrap check; 0 means 5s
	Logger       *slog.Logger  // nil discards
}

// Closer is implemented by runners holding connections (Docker); callers of
// Select close the runner when it implements it.
type Closer interface{ Close() error }

// Select returns the runner named name: "docker", "bwrap" or "none". With ""
// it returns Docker when the engine answers a ping, else bubblewrap when it
// works here, else an error wrapping ErrNoBackend: it never falls back to
// running unsandboxed. warning is non-empty for "none" (NoneWarning) and when
// "" fell back to bubblewrap; the CLI prints it. A returned *Docker must be
// closed.
func Select(ctx context.Context, name string, opts SelectOptions) (r Runner, warning string, err error) {
	if opts.ProbeTimeout <= 0 {
		opts.ProbeTimeout = 5 * time.Second
	}
	if opts.Docker.Logger == nil {
		opts.Docker.Logger = opts.Logger
	}
	if opts.Bwrap.Logger == nil {
		opts.Bwrap.Logger = opts.Logger
	}
	switch name {
	case "docker":
		d, err := probeDocker(ctx, opts)
		if err != nil {
			return nil, "", fmt.Errorf("%w: %v", ErrNoBackend, err)
		}
		return d, "", nil
	case "bwrap":
		b, err := probeBwrap(ctx, opts)
		if err != nil {
			return nil, "", fmt.Errorf("%w: %v", ErrNoBackend, err)
		}
		return b, "", nil
	case "none":
		return None{}, NoneWarning, nil
	case "":
		d, derr := probeDocker(ctx, opts)
		if derr == nil {
			return d, "", nil
		}
		b, berr := probeBwrap(ctx, opts)
		if berr == nil {
			return b, fmt.Sprintf("sandbox: using bubblewrap (%v); its limits are weaker than Docker's", derr), nil
		}
		return nil, "", fmt.Errorf("%w: docker: %v; bwrap: %v", ErrNoBackend, derr, berr)
	default:
		return nil, "", fmt.Errorf("%w: unknown backend %q (want docker, bwrap or none)", ErrNoBackend, name)
	}
}

func probeDocker(ctx context.Context, opts SelectOptions) (*Docker, error) {
	d, err := NewDocker(opts.Docker)
	if err != nil {
		return nil, err
	}
	pctx, cancel := context.WithTimeout(ctx, opts.ProbeTimeout)
	defer cancel()
	if err := d.Ping(pctx); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

func probeBwrap(ctx context.Context, opts SelectOptions) (*Bwrap, error) {
	b, err := NewBwrap(opts.Bwrap)
	if err != nil {
		return nil, err
	}
	pctx, cancel := context.WithTimeout(ctx, opts.ProbeTimeout)
	defer cancel()
	if err := b.Check(pctx); err != nil {
		return nil, err
	}
	return b, nil
}
