package plans

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"planner/model"
	"planner/notation"
)

func seed000(t testing.TB) (*model.Layout, model.Notation) {
	n := &notation.Nested{
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

// svgNode is an element of a parsed SVG picture.
type svgNode struct {
	XMLName  xml.Name
	Attrs    []xml.Attr `xml:",any,attr"`
	Children []svgNode  `xml:",any"`
	Text     string     `xml:",chardata"`
}

func (n *svgNode) attr(name string) string {
	for _, a := range n.Attrs {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// all lists the elements under n (n included) named name with the class
// given ("" for any).
func (n *svgNode) all(name, class string) []*svgNode {
	var out []*svgNode
	var walk func(m *svgNode)
	walk = func(m *svgNode) {
		if m.XMLName.Local == name && (class == "" || m.attr("class") == class) {
			out = append(out, m)
		}
		for i := range m.Children {
			walk(&m.Children[i])
		}
	}
	walk(n)
	return out
}

// parseSVG parses a picture with encoding/xml.
func parseSVG(t *testing.T, data []byte) *svgNode {
	t.Helper()
	var root svgNode
	if err := xml.Unmarshal(data, &root); err != nil {
		t.Fatalf("not well-formed XML: %v", err)
	}
	if root.XMLName.Local != "svg" {
		t.Fatalf("root element %s", root.XMLName.Local)
	}
	return &root
}

var titleRE = regexp.MustCompile(`^subgroup (\d+), lane (\d+), value (\d+)`)

// checkLayoutSVG checks one drawing of a layout: a cell per element, the
// lane written in each held cell as its tooltip names it, one outline per
// subgroup, and within every subgroup one colour per lane and a different
// one for each lane.
func checkLayoutSVG(t *testing.T, d *svgNode, l *model.Layout) {
	t.Helper()
	cells := d.all("rect", "c")
	if len(cells) != l.Elements() {
		t.Fatalf("%d cells for %d elements", len(cells), l.Elements())
	}
	lanes := d.all("text", "lane")
	held := 0
	fill := map[[2]int]string{}  // subgroup, lane -> colour
	owner := map[string][2]int{} // colour -> subgroup, lane
	for _, c := range cells {
		title := c.all("title", "")
		if len(title) != 1 {
			t.Fatalf("a cell without its tooltip: %v", c.Attrs)
		}
		m := titleRE.FindStringSubmatch(title[0].Text)
		if m == nil {
			continue
		}
		if held >= len(lanes) || strings.TrimSpace(lanes[held].Text) != m[2] {
			t.Fatalf("cell %d (%s): lane label missing or wrong", held, title[0].Text)
		}
		held++
		key := [2]int{atoi(t, m[1]), atoi(t, m[2])}
		f := c.attr("fill")
		if prev, ok := fill[key]; ok && prev != f {
			t.Fatalf("subgroup %d lane %d drawn in %s and %s", key[0], key[1], prev, f)
		}
		fill[key] = f
		if o, ok := owner[f]; ok && o[0] == key[0] && o[1] != key[1] {
			t.Fatalf("lanes %d and %d of subgroup %d share the colour %s", o[1], key[1], key[0], f)
		}
		owner[f] = key
	}
	if held != len(lanes) || held == 0 {
		t.Fatalf("%d lane labels for %d held cells", len(lanes), held)
	}
	checkColoursApart(t, fill, l.Size(model.Lane))
	outlines := d.all("path", "subgroup")
	if len(outlines) != l.Size(model.Subgroup) {
		t.Fatalf("%d subgroup outlines, want %d", len(outlines), l.Size(model.Subgroup))
	}
	for s, o := range outlines {
		if title := o.all("title", ""); len(title) != 1 || title[0].Text != fmt.Sprintf("subgroup %d", s) || o.attr("d") == "" {
			t.Fatalf("outline %d: %v", s, o.Attrs)
		}
	}
}

var hslRE = regexp.MustCompile(`^hsl\(([\d.]+),(\d+)%,(\d+)%\)$`)

// checkColoursApart checks that any two lanes of a subgroup are told
// apart by eye: their hues at least a full step of the n lanes' wheel
// apart (360/n degrees), or their lightness at least 10 points apart.
func checkColoursApart(t *testing.T, fill map[[2]int]string, n int) {
	t.Helper()
	type hsl struct{ h, l float64 }
	parsed := map[[2]int]hsl{}
	for k, f := range fill {
		m := hslRE.FindStringSubmatch(f)
		if m == nil {
			t.Fatalf("fill %q is not hsl(h,s%%,l%%)", f)
		}
		h, _ := strconv.ParseFloat(m[1], 64)
		l, _ := strconv.ParseFloat(m[3], 64)
		parsed[k] = hsl{h, l}
	}
	for a, ca := range parsed {
		for b, cb := range parsed {
			if a[0] != b[0] || a[1] >= b[1] {
				continue
			}
			dh := math.Abs(ca.h - cb.h)
			dh = min(dh, 360-dh)
			if dh < 360/float64(n)-0.05 && math.Abs(ca.l-cb.l) < 10 {
				t.Fatalf("subgroup %d: lanes %d (%s) and %d (%s) look alike", a[0], a[1], fill[a], b[1], fill[b])
			}
		}
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func blocked64x128(t *testing.T) (*model.Layout, model.Notation) {
	n := &notation.Blocked{SizePerThread: []int{1, 4}, ThreadsPerWarp: []int{4, 8}, WarpsPerCTA: []int{2, 2}, Order: []int{1, 0}}
	l, err := n.Layout(model.Frame{Shape: []int{64, 128}, SubgroupSize: 32, Subgroups: 4})
	if err != nil {
		t.Fatal(err)
	}
	return l, n
}

// The SVG drawing: well-formed, at most 2000 pixels a side for 64x64 and
// 64x128 tensors, one outline per subgroup, every held cell labelled with
// its lane, and every lane of a subgroup in a colour of its own.
func TestLayoutSVG(t *testing.T) {
	acc := &notation.Linear{Register: [][]int{{0, 1}, {8, 0}}, Lane: [][]int{{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}, Warp: [][]int{}, Block: [][]int{}}
	mma, err := acc.Layout(model.Frame{Shape: []int{16, 8}, SubgroupSize: 32, Subgroups: 1})
	if err != nil {
		t.Fatal(err)
	}
	s64, n64 := seed000(t)
	b128, n128 := blocked64x128(t)
	for _, c := range []struct {
		name string
		l    *model.Layout
		n    model.Notation
	}{{"mma accumulator 16x8", mma, acc}, {"seed000 64x64", s64, n64}, {"blocked 64x128", b128, n128}} {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteLayoutSVG(&b, c.l, c.n); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(b.String(), "<iree") || strings.Contains(b.String(), "<ttg") {
				t.Fatal("the attribute must be escaped")
			}
			root := parseSVG(t, b.Bytes())
			w, h := atoi(t, root.attr("width")), atoi(t, root.attr("height"))
			if w > 2000 || h > 2000 {
				t.Errorf("%dx%d pixels, want at most 2000 a side", w, h)
			}
			ds := root.all("g", "drawing")
			if len(ds) != 1 {
				t.Fatalf("%d drawings, want 1", len(ds))
			}
			checkLayoutSVG(t, ds[0], c.l)
		})
	}
}

// Lanes take distinct hues: the step is coprime with the lane count, so
// all n lanes get n different colours, for every count a subgroup has.
func TestLaneColoursDistinct(t *testing.T) {
	for _, n := range []int{1, 2, 8, 16, 32, 48, 64, 128} {
		seen := map[string]int{}
		for lane := range n {
			c := laneColour(lane, n)
			if prev, ok := seen[c]; ok {
				t.Fatalf("%d lanes: lanes %d and %d share %s", n, prev, lane, c)
			}
			seen[c] = lane
		}
	}
}

// ExampleWriteLayoutText draws the f32 accumulator of mma.sync.m16n8k16
// (PTX ISA, "Matrix Fragments for mma.m16n8k16 with floating point type")
// over an 8x8 corner: lane 4·row + col/2 holds values col%2 and, 8 rows
// down, 2 + col%2.
func ExampleWriteLayoutText() {
	acc := &notation.Linear{Register: [][]int{{0, 1}, {8, 0}}, Lane: [][]int{{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}, Warp: [][]int{}, Block: [][]int{}}
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
