package sandbox

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/client"
)

// A Docker run must stop by itself when the trustlake process that started
// it dies (kill -9): the timeout in this process is then gone. Three things
// bound a container without it:
//   - an in-container deadline: with DockerOptions.DeadlineBinary (a static
//     trustlake-check), the command runs under "trustlake-check -deadline
//     D -- CMD", mounted read-only at DeadlineMount, which kills the command
//     and ends the container DeadlineGrace after the timeout;
//   - RLIMIT_CPU at the timeout plus DeadlineGrace, enforced by the kernel
//     on every process of the container (a busy loop is killed even
//     without the deadline binary);
//   - the label DeadlineLabel (Unix seconds after which the container has
//     no business running): RemoveExpired, which each verify calls when it
//     opens the backend, removes labelled containers past it.
const (
	DeadlineMount = "/.trustlake-deadline"
	DeadlineLabel = "trustlake.deadline"
	DeadlineGrace = time.Second
	// startSlack covers the time between create and start in the label.
	startSlack = 15 * time.Second
)

// wrapDeadline returns the command and mounts of a run under the
// in-container deadline, and the run's labels with its deadline.
func (d *Docker) wrapDeadline(spec Spec, cfg *container.Config, hc *container.HostConfig) {
	t := spec.timeout()
	cpu := int64(math.Ceil((t + DeadlineGrace).Seconds()))
	hc.Resources.Ulimits = append(hc.Resources.Ulimits, &container.Ulimit{Name: "cpu", Soft: cpu, Hard: cpu})
	cfg.Labels[DeadlineLabel] = strconv.FormatInt(time.Now().Add(t+DeadlineGrace+startSlack).Unix(), 10)
	if d.opts.DeadlineBinary == "" {
		return
	}
	hc.Mounts = append(hc.Mounts, mountRO(d.opts.DeadlineBinary, DeadlineMount))
	cmd := []string{DeadlineMount, "-deadline", (t + DeadlineGrace).String(), "--"}
	cfg.Cmd = append(cmd, cfg.Cmd...)
}

// RemoveExpired force-removes containers of any trustlake process (label
// LabelKey=1) whose deadline label has passed, or that carry no deadline and
// were created more than an hour ago: leftovers of a process that was
// killed before it could remove them. Containers of runs still within their
// deadline, also of other processes, are left alone. It returns how many it
// removed.
func (d *Docker) RemoveExpired(ctx context.Context) (int, error) {
	f := make(client.Filters)
	f.Add("label", LabelKey+"=1")
	res, err := d.cli.ContainerList(ctx, client.ContainerListOptions{All: true, Filters: f})
	if err != nil {
		return 0, fmt.Errorf("list containers: %w", err)
	}
	now := time.Now()
	n := 0
	for _, c := range res.Items {
		expired := now.Sub(time.Unix(c.Created, 0)) > time.Hour
		if s, ok := c.Labels[DeadlineLabel]; ok {
			if sec, err := strconv.ParseInt(s, 10, 64); err == nil {
				expired = now.After(time.Unix(sec, 0))
			}
		}
		if !expired {
			continue
		}
		d.log.Warn("removing a leftover sandbox container", logKeyContainer, c.ID, "state", c.State)
		d.remove(ctx, c.ID)
		n++
	}
	return n, nil
}
