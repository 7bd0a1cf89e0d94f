package tasks_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/trustlake/trustlake/tasks"
)

// Verify an episode of the seed's running example with the declarative checks
// evaluated in process (a real run passes a sandbox.Runner instead).
func ExampleVerify() {
	ctx := context.Background()
	lib, err := tasks.LoadLibrary("library")
	if err != nil {
		panic(err)
	}
	tmp, _ := os.MkdirTemp("", "example-")
	defer os.RemoveAll(tmp)
	ep := filepath.Join(tmp, "ep_0001")
	state := filepath.Join("library", "sheet_set_cell_d14", "fixtures", "fail", "wrong_cell")
	meta := tasks.Meta{EpisodeID: "ep_0001", TaskID: "sheet_set_cell_d14", Source: "natural", Agent: tasks.Agent{Name: "demo"}}
	if err := tasks.BuildEpisode(ep, meta, state, nil); err != nil {
		panic(err)
	}
	res, err := tasks.Verify(ctx, lib, tasks.InProcess{}, []string{ep}, tasks.VerifyOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println(res[0].EpisodeID, res[0].Status, *res[0].Pass, res[0].Category)
	// Output: ep_0001 written false F-WRONGTARGET
}
