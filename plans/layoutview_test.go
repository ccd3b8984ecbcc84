package plans

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"planner/model"
)

func seed000(t testing.TB) (*model.Layout, model.Notation) {
	n := &model.Nested{
		SubgroupTile: []int{2, 1}, BatchTile: []int{2, 4}, OuterTile: []int{1, 1},
		ThreadTile: []int{16, 4}, ElementTile: []int{1, 4},
		SubgroupStrides: []int{1, 0}, ThreadStrides: []int{1, 16},
	}
	l, err := n.Layout(model.Frame{Shape: []int{64, 64}, SubgroupSize: 64, Subgroups: 4})
	if err != nil {
		t.Fatal(err)
	}
	return l, n
}

// The JSON contract: "shape" and "elements", one element entry per pair of
// hardware point and element, with subgroup, lane, value and index.
func TestLayoutJSONContract(t *testing.T) {
	l, n := seed000(t)
	var b bytes.Buffer
	if err := WriteLayoutJSON(&b, l, n); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Shape    []int `json:"shape"`
		Elements []map[string]json.RawMessage
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(doc.Shape) != "[64 64]" {
		t.Fatalf("shape %v", doc.Shape)
	}
	if len(doc.Elements) != 4*64*32 {
		t.Fatalf("%d elements, want one per (subgroup, lane, value): %d", len(doc.Elements), 4*64*32)
	}
	seen := map[string]int{}
	for _, e := range doc.Elements {
		for _, k := range []string{"subgroup", "lane", "value", "index"} {
			if _, ok := e[k]; !ok {
				t.Fatalf("element %v lacks %q", e, k)
			}
		}
		if _, ok := e["block"]; ok {
			t.Fatal("one block: no block key")
		}
		seen[string(e["index"])]++
	}
	// Subgroups 2 and 3 repeat 0 and 1: every element appears twice.
	if len(seen) != 64*64 {
		t.Fatalf("%d distinct elements", len(seen))
	}
	for k, c := range seen {
		if c != 2 {
			t.Fatalf("element %s appears %d times, want 2", k, c)
		}
	}
}

func TestLayoutSVGIsWellFormed(t *testing.T) {
	l, n := seed000(t)
	var b bytes.Buffer
	if err := WriteLayoutSVG(&b, l, n); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	if !strings.HasPrefix(s, "<svg ") || !strings.HasSuffix(s, "</svg>\n") || strings.Count(s, "<rect ") != 64*64+1 {
		t.Fatalf("unexpected SVG: %d rects", strings.Count(s, "<rect "))
	}
	if strings.Contains(s, "<iree") {
		t.Fatal("the attribute must be escaped")
	}
}

// ExampleWriteLayoutText draws the f32 accumulator of mma.sync.m16n8k16
// (PTX ISA, "Matrix Fragments for mma.m16n8k16 with floating point type")
// over an 8x8 corner: lane 4·row + col/2 holds values col%2 and, 8 rows
// down, 2 + col%2.
func ExampleWriteLayoutText() {
	acc := &model.Linear{Register: [][]int{{0, 1}, {8, 0}}, Lane: [][]int{{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}, Warp: [][]int{}, Block: [][]int{}}
	l, err := acc.Layout(model.Frame{Shape: []int{16, 8}, SubgroupSize: 32, Subgroups: 1})
	if err != nil {
		panic(err)
	}
	WriteLayoutText(os.Stdout, l, nil)
	// Output:
	// tensor 16x8; 32 lanes per subgroup, 1 subgroup; 4 values per lane
	// cell = lane:value; +n = n more holders
	//
	//       0    1    2    3    4    5    6    7
	//  0  0:0  0:1  1:0  1:1  2:0  2:1  3:0  3:1
	//  1  4:0  4:1  5:0  5:1  6:0  6:1  7:0  7:1
	//  2  8:0  8:1  9:0  9:1 10:0 10:1 11:0 11:1
	//  3 12:0 12:1 13:0 13:1 14:0 14:1 15:0 15:1
	//  4 16:0 16:1 17:0 17:1 18:0 18:1 19:0 19:1
	//  5 20:0 20:1 21:0 21:1 22:0 22:1 23:0 23:1
	//  6 24:0 24:1 25:0 25:1 26:0 26:1 27:0 27:1
	//  7 28:0 28:1 29:0 29:1 30:0 30:1 31:0 31:1
	//  8  0:2  0:3  1:2  1:3  2:2  2:3  3:2  3:3
	//  9  4:2  4:3  5:2  5:3  6:2  6:3  7:2  7:3
	// 10  8:2  8:3  9:2  9:3 10:2 10:3 11:2 11:3
	// 11 12:2 12:3 13:2 13:3 14:2 14:3 15:2 15:3
	// 12 16:2 16:3 17:2 17:3 18:2 18:3 19:2 19:3
	// 13 20:2 20:3 21:2 21:3 22:2 22:3 23:2 23:3
	// 14 24:2 24:3 25:2 25:3 26:2 26:3 27:2 27:3
	// 15 28:2 28:3 29:2 29:3 30:2 30:3 31:2 31:3
}
