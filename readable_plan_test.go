package planner_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"planner"
	"planner/plans"
)

// The text plan is read at a glance: no line is wider than
// plans.TextWidth but an alias definition, every layout alias a line uses
// is defined under "layouts:", and every op says its line. Checked on the
// TTGIR flash attention, whose plan converts and must point at planner
// explain, and on every golden text plan.
func TestTextPlanReadsAtAGlance(t *testing.T) {
	res, err := testPlanner(t).SolveFile(context.Background(), "examples/ttgir/flash_attention_fwd_sm80.ttgir", planner.Options{})
	if err != nil || res.Plan == nil {
		t.Fatalf("no plan: %v", err)
	}
	var b bytes.Buffer
	if err := res.Plan.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	fa := b.String()
	checkReadable(t, "flash_attention_fwd_sm80", fa)
	for _, want := range []string{
		"why each of the 4 conversions is there, and what the alternatives cost: planner explain\n",
		"cost unit: one warp-wide ALU instruction",
		"  #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>\n",
		"%q 64x64 f16, 32 per lane: #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>",
		"needed because 43 requires the mma_m16n8k16_f32_f16 fragment of operand a",
		"registers: 117 per lane at the peak, at mma 43,",
		"tt.store@148 store line 148 cost 264",
		"(tt.store@148: the tt.store at line 148, named for its line since it has no result)",
	} {
		if !strings.Contains(unwrapped(fa), unwrapped(want)) {
			t.Errorf("the flash attention plan lacks %q:\n%s", want, fa)
		}
	}
	goldens, _ := filepath.Glob("testdata/plans/*.txt")
	more, _ := filepath.Glob("testdata/ttgir_plans/*.txt")
	goldens = append(goldens, more...)
	if len(goldens) < 20 {
		t.Fatalf("only %d golden text plans", len(goldens))
	}
	for _, g := range goldens {
		data, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		checkReadable(t, g, string(data))
	}
}

var aliasUseRE = regexp.MustCompile(`#[a-z_]+[0-9]*\b`)

func checkReadable(t *testing.T, name, text string) {
	t.Helper()
	defined := map[string]bool{}
	section := ""
	for i, line := range strings.Split(text, "\n") {
		isDef := section == "layouts:" && strings.HasPrefix(line, "  #") && strings.Contains(line, " = #")
		if !strings.HasPrefix(line, " ") && strings.HasSuffix(line, ":") || strings.HasPrefix(line, "ops (") || strings.HasPrefix(line, "values (") {
			section = line
		}
		if isDef {
			defined[strings.Fields(line)[0]] = true
			continue
		}
		if w := utf8.RuneCountInString(line); w > plans.TextWidth {
			t.Errorf("%s:%d is %d characters wide: %q", name, i+1, w, line)
		}
		if strings.HasPrefix(section, "values (") || strings.HasPrefix(section, "ops (") {
			for _, use := range aliasUseRE.FindAllString(line, -1) {
				if !defined[use] && !strings.Contains(line, use+".") {
					t.Errorf("%s:%d uses %s, which no line under layouts: defines", name, i+1, use)
				}
			}
		}
	}
}

// The picture of the plan (--format dot, rendered by Graphviz): a title
// with the file, target, status and cost; the loop a cluster saying what
// it carries, around its ops; each mma with its record and warp grid;
// the layout aliases on the edges and their definitions in a note.
func TestPlanPicture(t *testing.T) {
	dot, err := exec.LookPath("dot")
	if err != nil {
		t.Skip("Graphviz's dot is not installed (Debian: apt-get install graphviz; .ci/run installs it)")
	}
	res, err := testPlanner(t).SolveFile(context.Background(), "examples/ttgir/flash_attention_fwd_sm80.ttgir", planner.Options{})
	if err != nil || res.Plan == nil {
		t.Fatalf("no plan: %v", err)
	}
	var src, out, errs bytes.Buffer
	if err := res.Plan.WriteDOT(&src, plans.ShapeOf(res.Graph)); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(dot, "-Tjson")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(src.Bytes()), &out, &errs
	if err := cmd.Run(); err != nil || errs.Len() > 0 {
		t.Fatalf("dot refuses the picture (%v): %s", err, errs.String())
	}
	var d struct {
		Label   string `json:"label"`
		Objects []struct {
			ID    int    `json:"_gvid"`
			Name  string `json:"name"`
			Label string `json:"label"`
			Nodes []int  `json:"nodes"`
		} `json:"objects"`
		Edges []struct {
			Label string `json:"label"`
			Color string `json:"color"`
		} `json:"edges"`
	}
	if err := json.Unmarshal(out.Bytes(), &d); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"examples/ttgir/flash_attention_fwd_sm80.ttgir on sm_80, 4 subgroups", "status optimal, cost 24976, 4 conversions"} {
		if !strings.Contains(d.Label, want) {
			t.Errorf("the title %q lacks %q", d.Label, want)
		}
	}
	ids := map[string]int{}
	labels := map[string]string{}
	var loopNodes []int
	for _, o := range d.Objects {
		ids[o.Name], labels[o.Name] = o.ID, o.Label
		if o.Name == "cluster loop" {
			loopNodes = o.Nodes
			if !strings.Contains(o.Label, "16 trips") || !strings.Contains(o.Label, "carries %acc, %l_i, %m_i") {
				t.Errorf("the loop's cluster is labelled %q", o.Label)
			}
		}
	}
	for _, op := range []string{"loop", "k", "43", "62", "alpha"} {
		if !slices.Contains(loopNodes, ids[op]) {
			t.Errorf("op %s is not drawn in the loop's cluster (%v)", op, loopNodes)
		}
	}
	for _, op := range []string{"q", "68", "tt.store@148"} {
		if slices.Contains(loopNodes, ids[op]) {
			t.Errorf("op %s, outside the loop, is drawn in its cluster", op)
		}
	}
	for op, want := range map[string]string{"43": `mma_m16n8k16_f32_f16\n4×1 warps`, "62": `mma_m16n8k16_f32_f16\n4×1 warps`} {
		if !strings.Contains(labels[op], want) {
			t.Errorf("mma %s is labelled %q, want %q in it", op, labels[op], want)
		}
	}
	if !strings.Contains(labels["layouts"], "#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1]") {
		t.Errorf("the layouts note reads %q", labels["layouts"])
	}
	red, aliased := 0, 0
	for _, e := range d.Edges {
		if e.Color == "red" {
			red++
			if !strings.Contains(e.Label, "converted: ") {
				t.Errorf("a red edge is labelled %q", e.Label)
			}
		}
		if strings.Contains(e.Label, "#mma") || strings.Contains(e.Label, "#blocked") {
			aliased++
		}
	}
	if red != 4 || aliased < 30 {
		t.Errorf("%d red edges (want the plan's 4 conversions), %d edges naming a layout alias", red, aliased)
	}
}
