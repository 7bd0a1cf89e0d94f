package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/moby/moby/client"
)

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

// BuildImage builds an image tagged tag from a tar build context holding a
// Dockerfile (classic builder, no registry access needed for FROM scratch). It
// reads the build output to the end and returns the first build error.
func (d *Docker) BuildImage(ctx context.Context, tag string, buildContext io.Reader) error {
	resp, err := d.cli.ImageBuild(ctx, buildContext, client.ImageBuildOptions{
		Tags:        []string{tag},
		Remove:      true,
		ForceRemove: true,
		NetworkMode: "none",
		Labels:      map[string]string{LabelKey + ".image": "1"},
	})
	if err != nil {
		return fmt.Errorf("build image %s: %w", tag, err)
	}
	defer resp.Body.Close()
	dec := json.NewDecoder(resp.Body)
	for {
		var msg struct {
			Error string `json:"error"`
		}
		if err := dec.Decode(&msg); errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return fmt.Errorf("build image %s: read output: %w", tag, err)
		}
		if msg.Error != "" {
			return fmt.Errorf("build image %s: %s", tag, msg.Error)
		}
	}
}

// Leftovers lists the ids of containers, running or not, that carry this
// backend's labels (LabelKey=1 and DockerOptions.Labels).
func (d *Docker) Leftovers(ctx context.Context) ([]string, error) {
	f := make(client.Filters)
	for k, v := range d.labels() {
		f.Add("label", k+"="+v)
	}
	res, err := d.cli.ContainerList(ctx, client.ContainerListOptions{All: true, Filters: f})
	if err != nil {
		return nil, fmt.Errorf("list containers: %w", err)
	}
	ids := make([]string, 0, len(res.Items))
	for _, c := range res.Items {
		ids = append(ids, c.ID)
	}
	return ids, nil
}
