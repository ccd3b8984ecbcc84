package vector

import (
	"strings"
	"testing"

	"planner/internal/golden"
	"planner/mlir/reader"
	"planner/model"
	"planner/notation"
)

// linearBody is a 32x64 layout over 4 subgroups of 32 lanes whose first
// lane bit moves along both dimensions at once: IREE's nested_layout, one
// tile per dimension, cannot write it.
const linearBody = `register = [[0, 1], [0, 2], [0, 4], [0, 8]], lane = [[1, 1], [2, 0], [4, 0], [8, 0], [16, 0]], subgroup = [[0, 16], [0, 32]]`

const linearKernel = `  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  %x = vector.transfer_read %g[%c0, %c0], %p : memref<32x64xf32>, vector<32x64xf32>
  %y = "iree_vector_ext.to_layout"(%x) <{layout = #l}> : (vector<32x64xf32>) -> vector<32x64xf32>
  %z = math.exp %y : vector<32x64xf32>`

// A layout nested_layout cannot write is written as #planner.linear with
// the reason, and reads back as a pin of the same layout.
func TestLinearLayoutWritten(t *testing.T) {
	frame := model.Frame{Shape: []int{32, 64}, SubgroupSize: 32, Subgroups: 4}
	want, err := (&notation.Linear{
		Register: [][]int{{0, 1}, {0, 2}, {0, 4}, {0, 8}},
		Lane:     [][]int{{1, 1}, {2, 0}, {4, 0}, {8, 0}, {16, 0}},
		Warp:     [][]int{{0, 16}, {0, 32}}, Block: [][]int{},
	}).Layout(frame)
	if err != nil {
		t.Fatal(err)
	}
	attr, why := layoutAttr(want)
	if attr != "#planner.linear<"+linearBody+">" || !strings.Contains(why, "not expressible as nested") {
		t.Fatalf("written as %s (%s)", attr, why)
	}
	g := readGraph(t, "#l = "+attr+"\n"+kernel("%g: memref<32x64xf32>", linearKernel), reader.Options{})
	pin := g.Value("x").Pin
	if pin == nil || pin.Layout == nil || !pin.Layout.Equal(want) || pin.Notation.Kind() != "linear" {
		t.Fatalf("read back as %+v", pin)
	}
}

// A malformed #planner.linear is an error at the field or basis at fault.
func TestLinearLayoutErrors(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{golden.ReplaceOnce(t, linearBody, "lane", "lanes"), "k.mlir:1:67: expected a field of planner.linear (register, lane, subgroup), found 'lanes'"},
		{golden.ReplaceOnce(t, linearBody, ", subgroup = [[0, 16], [0, 32]]", ""), "k.mlir:6:51: planner.linear lacks subgroup"},
		{golden.ReplaceOnce(t, linearBody, "[2, 0]", "[2, x]"), "k.mlir:1:87: expected an attribute, found 'x'"},
		{golden.ReplaceOnce(t, linearBody, "[4, 0]", "[4]"), "k.mlir:1:91: basis [4] has 1 coordinates but the shape [32 64] has rank 2"},
		{golden.ReplaceOnce(t, linearBody, ", [16, 0]]", "]"), "k.mlir:1:74: 4 lane bases give 16 ids, but subgroup_size is 32"},
		{linearBody + ", register = []", "k.mlir:1:148: planner.linear gives register twice"},
	} {
		text := "#l = #planner.linear<" + c.body + ">\n" + kernel("%g: memref<32x64xf32>", linearKernel)
		if e := readError(t, text, reader.Options{}); !strings.HasPrefix(e, c.want) {
			t.Errorf("%s:\n got %s\nwant %s", c.body, e, c.want)
		}
	}
}
