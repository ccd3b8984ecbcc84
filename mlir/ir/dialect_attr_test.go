package ir

import (
	"strings"
	"testing"

	"planner/model"
)

// TestAttrTree reads TritonGPU attributes into their trees: every node
// and value positioned, aliases resolved by the parser to the node they
// name, and the tree written back with the aliases in place.
func TestAttrTree(t *testing.T) {
	src := "#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>\n" +
		"#dot = #ttg.dot_op<{opIdx = 0, parent = #mma,\n    kWidth = 2 : i32}>\n" +
		"#pad = #ttg.padded_shared<[64:+4, 512:+8] {order = [1, 0]}>\n"
	m, err := Parse("a.ttgir", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	dot := m.AttrAliases["dot"].(*DialectAttr)
	if dot.TreeErr != nil || dot.Tree == nil {
		t.Fatalf("#dot: no tree: %v", dot.TreeErr)
	}
	n := dot.Tree
	if n.Dialect != "ttg" || n.Name != "dot_op" || n.Pos != (model.Pos{File: "a.ttgir", Line: 2, Col: 8}) {
		t.Errorf("#dot's node: %s.%s at %s", n.Dialect, n.Name, n.Pos)
	}
	parent := n.Entry("parent").Value
	if parent.Kind != AttrAlias || parent.Str != "mma" || parent.Node != m.AttrAliases["mma"].(*DialectAttr).Tree || parent.Pos.Col != 41 {
		t.Errorf("parent: %+v", parent)
	}
	k := n.Entry("kWidth")
	if k.Pos != (model.Pos{File: "a.ttgir", Line: 3, Col: 5}) || k.Value.Kind != AttrInt || k.Value.Int != 2 || k.Value.Pos.Col != 14 {
		t.Errorf("kWidth: %+v at %s, value at %s", k.Value, k.Pos, k.Value.Pos)
	}
	want := "#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 2}>"
	if got := n.String(); got != want {
		t.Errorf("written\n%s\nwant\n%s", got, want)
	}
	pad := m.AttrAliases["pad"].(*DialectAttr).Tree
	if pad == nil || len(pad.Items) != 2 || pad.Items[1].Kind != AttrPad || pad.Items[1].Int != 512 || pad.Items[1].Pad != 8 {
		t.Errorf("#pad: %+v", pad)
	}
}

// TestAttrTreeErrors: a body that is no tree is kept with its error, at
// file:line:col; an alias naming itself is refused where it does.
func TestAttrTreeErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"#a = #ttg.blocked<{order = [1, 0] x = 1}>", "a:1:35: expected '}' to close #ttg.blocked's fields, found 'x'"},
		{"#a = #ttg.slice<{dim = 0, parent = #a}>", "a:1:36: attribute alias #a names itself"},
		{"#a = #ttg.slice<{dim = 0, parent = #b}>", "a:1:36: undefined attribute alias #b"},
		{"#a = #ttg.slice<{dim = 0, dim = 1}>", "a:1:27: dim is given twice (first at a:1:18)"},
		{"#a = #ttg.slice<{dim = 0, parent = #foo.bar<1>}>", "a:1:36: #foo.bar is not a TritonGPU attribute"},
		{"#a = #ttg.blocked<{order = [1, 0], vec = }>", "a:1:42: expected a number, a list, a dictionary, true, false, a string or an attribute, found '}'"},
	} {
		m, err := Parse("a", []byte(tc.src))
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		d := m.AttrAliases["a"].(*DialectAttr)
		if d.TreeErr == nil || !strings.HasPrefix(d.TreeErr.Error(), tc.want) {
			t.Errorf("%s:\n got %v\nwant %s", tc.src, d.TreeErr, tc.want)
		}
	}
	if _, err := Parse("a", []byte("#a = #a")); err == nil || !strings.HasPrefix(err.Error(), "a:1:6: attribute alias #a names itself") {
		t.Errorf("#a = #a: %v", err)
	}
}
