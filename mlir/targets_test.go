package mlir

import (
	"fmt"
	"sync"

	"planner/intrinsics"
	"planner/model"
)

// testTargets stand in for the planner's targets: the reader needs only
// a target's name, lanes per subgroup and most subgroups.
var testTargets = map[string]*model.Target{
	"sm_80":  {Name: "sm_80", SubgroupSize: 32, MaxSubgroups: 32, SharedMemory: 166912},
	"gfx942": {Name: "gfx942", SubgroupSize: 64, MaxSubgroups: 16, SharedMemory: 65536},
	"pvc":    {Name: "pvc", SubgroupSize: 16, MaxSubgroups: 64, SharedMemory: 131072},
}

// testLibrary is the planner's built-in records, read once.
var testLibrary = sync.OnceValues(intrinsics.Builtin)

// testOffered gives the records the planner's target of a test target's
// name offers, which the matrix ops of the gpu, nvgpu and amdgpu
// dialects name.
func testOffered(t *model.Target) ([]*model.Record, error) {
	lib, err := testLibrary()
	if err != nil {
		return nil, err
	}
	target, ok := lib.Targets[t.Name]
	if !ok {
		return nil, fmt.Errorf("the planner has no target %s", t.Name)
	}
	return lib.Offered(target)
}
