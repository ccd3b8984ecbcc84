package planner_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"planner"
	"planner/model"
	"planner/plans"
)

// drawn is what Graphviz's dot -Tjson reports of a drawing: every node
// with the lines of text it draws as its label, and every edge's ends.
type drawn struct {
	Objects []struct {
		ID    int    `json:"_gvid"`
		Name  string `json:"name"`
		Label []struct {
			Op   string `json:"op"`
			Text string `json:"text"`
		} `json:"_ldraw_"`
	} `json:"objects"`
	Edges []struct {
		Tail  int `json:"tail"`
		Head  int `json:"head"`
		Label []struct {
			Op   string `json:"op"`
			Text string `json:"text"`
		} `json:"_ldraw_"`
	} `json:"edges"`
}

// Every golden plan, written as DOT, is read by the real Graphviz: dot
// accepts it, each op's label is drawn as its lines (name, kind,
// intrinsic) with no backslash left in any text, and the drawing links
// the ops that the graph links through values or buffers, and no others.
func TestDOTRendersWithGraphviz(t *testing.T) {
	dot, err := exec.LookPath("dot")
	if err != nil {
		t.Skip("Graphviz's dot is not installed (Debian: apt-get install graphviz; .ci/run installs it), so DOT output is not rendered")
	}
	files, _ := filepath.Glob("testdata/plans/*.toml")
	if len(files) < 8 {
		t.Fatalf("only %d golden plans", len(files))
	}
	pl, err := planner.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".toml"), func(t *testing.T) {
			t.Parallel()
			rep, err := pl.VerifyFile(context.Background(), file, "")
			if err != nil {
				t.Fatal(err)
			}
			var src, out, errs bytes.Buffer
			if err := rep.Plan.WriteDOT(&src, plans.ShapeOf(rep.Graph)); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(dot, "-Tjson")
			cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(src.Bytes()), &out, &errs
			if err := cmd.Run(); err != nil || errs.Len() > 0 {
				t.Fatalf("dot refuses the plan (%v): %s\n%s", err, errs.String(), src.String())
			}
			var d drawn
			if err := json.Unmarshal(out.Bytes(), &d); err != nil {
				t.Fatal(err)
			}
			checkDrawnLabels(t, rep.Plan, d)
			checkDrawnComponents(t, rep.Graph, d)
		})
	}
}

func checkDrawnLabels(t *testing.T, p *plans.Plan, d drawn) {
	t.Helper()
	texts := map[string][]string{}
	for _, o := range d.Objects {
		for _, op := range o.Label {
			if op.Op == "T" {
				texts[o.Name] = append(texts[o.Name], op.Text)
			}
		}
	}
	for _, e := range d.Edges {
		for _, op := range e.Label {
			if op.Op == "T" {
				texts["edge"] = append(texts["edge"], op.Text)
			}
		}
	}
	for name, lines := range texts {
		for _, l := range lines {
			if strings.Contains(l, `\`) {
				t.Errorf("%s: drawn text %q has a backslash", name, l)
			}
		}
	}
	for _, o := range p.Ops {
		want := []string{o.Name, o.Kind}
		if o.Intrinsic != "" {
			want = append(want, o.Intrinsic)
		}
		if o.WarpsM > 0 {
			want = append(want, fmt.Sprintf("%d×%d warps", o.WarpsM, o.WarpsN))
		}
		if got := texts[o.Name]; !slices.Equal(got, want) {
			t.Errorf("op %s is drawn as the lines %q, want %q", o.Name, got, want)
		}
	}
}

// checkDrawnComponents compares the connected components of the graph's
// ops, linked by each value (its defining op, or the loop of an iter
// arg, to each op using it) and by each buffer (every op that writes or
// reads it), with those of the drawing, edges taken as undirected.
func checkDrawnComponents(t *testing.T, g *model.Graph, d drawn) {
	t.Helper()
	linked := newUnion()
	byBuffer := map[*model.Buffer]string{}
	g.Walk(func(op *model.Op) {
		linked.find(op.Name)
		if op.Buffer != nil {
			if other, ok := byBuffer[op.Buffer]; ok {
				linked.join(op.Name, other)
			}
			byBuffer[op.Buffer] = op.Name
		}
	})
	for _, v := range g.Values {
		def := v.Def
		if v.Arg != nil {
			def = v.Arg.Op
		}
		for _, u := range v.Uses {
			if def != nil {
				linked.join(def.Name, u.Op.Name)
			}
		}
	}
	names := map[int]string{}
	drawnLinks := newUnion()
	for _, o := range d.Objects {
		names[o.ID] = o.Name
		drawnLinks.find(o.Name)
	}
	for _, e := range d.Edges {
		drawnLinks.join(names[e.Tail], names[e.Head])
	}
	var ops []string
	g.Walk(func(op *model.Op) { ops = append(ops, op.Name) })
	for i, a := range ops {
		if _, ok := drawnLinks.parent[a]; !ok {
			t.Errorf("op %s is not drawn", a)
			continue
		}
		for _, b := range ops[i+1:] {
			inGraph, inDrawing := linked.find(a) == linked.find(b), drawnLinks.find(a) == drawnLinks.find(b)
			if inGraph != inDrawing {
				t.Errorf("ops %s and %s: linked in the graph %v, in the drawing %v", a, b, inGraph, inDrawing)
			}
		}
	}
}

// union is a union-find over names.
type union struct{ parent map[string]string }

func newUnion() *union { return &union{parent: map[string]string{}} }

func (u *union) find(x string) string {
	p, ok := u.parent[x]
	if !ok {
		u.parent[x] = x
		return x
	}
	if p == x {
		return x
	}
	r := u.find(p)
	u.parent[x] = r
	return r
}

func (u *union) join(a, b string) { u.parent[u.find(a)] = u.find(b) }
