package planner_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"planner"
	"planner/internal/golden"
	"planner/mlir"
	"planner/model"
	"planner/plans"
)

// Behaviour tests as data: each file of testdata/want, a graph file
// (*.toml) or a kernel (*.mlir, *.ttgir), carries what planning it must
// give in comments, as go/types' tests carry ERROR comments: `# want ...`
// in a graph file, `// want ...` in a kernel. A want comment alone on its
// line is about the whole file; one after code is about that line: the
// error reported there, or the value or op defined there (in a graph
// file a value at its result key, an op at its kind key; in a kernel the
// %name the line defines, and the op or ops it is read as). One comment
// may hold several wants, separated by semicolons:
//
//	kind = "mma" # want cost 4; warps "each tile held by 2 warps"
//
//	want error "text"    (line) an error at this line whose message contains text
//	want cost N          (file) the plan costs N; (line) the op defined here costs N
//	want status S        (file) optimal or feasible: the plan's status;
//	                     infeasible: no plan satisfies the graph
//	want subgroups N     (file) the graph (a kernel: as read) has N subgroups
//	want registers N     (file) the plan's register peak is N per lane
//	want conversions N   (file) the plan converts N times;
//	                     (line) it converts the value defined here N times
//	want layout "text"   (line) the value defined here is planned in a layout whose text contains text
//	want dtype T         (line) the value defined here has element type T
//	want intrinsic "R"   (line) the op defined here runs on record R (a
//	                     kernel's op read as several ops: one of them)
//	want warps "text"    (line) the op's warp arrangement contains text
//	want method "text"   (line) the op's method contains text
//
// Every error reported must be wanted, and every want met; a file with no
// want fails. Texts are Go strings; a kernel is read with the default
// input (its only function, its own target).
func TestWants(t *testing.T) {
	files, err := filepath.Glob("testdata/want/*")
	if err != nil || len(files) == 0 {
		t.Fatalf("testdata/want has %d files: %v", len(files), err)
	}
	pl := testPlanner(t)
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if planner.IsMLIR(path) {
				if fns, ferr := planner.Functions(path, data); ferr == nil && len(fns) > 1 {
					res, err := pl.SolveFunctions(context.Background(), path, data, planner.Options{})
					for _, p := range functionsWantProblems(path, data, res, err) {
						t.Error(p)
					}
					return
				}
			}
			res, err := pl.SolveText(context.Background(), path, data, planner.Options{})
			for _, p := range wantProblems(path, data, res, err) {
				t.Error(p)
			}
		})
	}
}

// want is one expectation: its kind and argument, and the line it is
// about (0: the file).
type want struct {
	line       int
	kind, text string
	num        int64
}

var wantRE = regexp.MustCompile(`^(.*?)(#|//)\s*want\s+(.*?)\s*$`)

// wantsOf reads a file's want comments: after "want", one or more
// expectations (a kind and its argument) separated by semicolons.
func wantsOf(data []byte) ([]want, error) {
	var ws []want
	for i, line := range strings.Split(string(data), "\n") {
		m := wantRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		at := 0
		if strings.TrimSpace(m[1]) != "" {
			at = i + 1
		}
		for rest := m[3]; rest != ""; {
			w, tail, err := parseWant(rest)
			fileOnly := w.kind == "status" || w.kind == "subgroups" || w.kind == "registers"
			if err == nil && w.kind != "cost" && w.kind != "conversions" && (at == 0) != fileOnly {
				err = fmt.Errorf("a want %s is about %s", w.kind, map[bool]string{true: "the file: write it on a line of its own", false: "a line: write it after the line's code"}[fileOnly])
			}
			if err != nil {
				return nil, fmt.Errorf("line %d: want %s: %v", i+1, rest, err)
			}
			w.line = at
			ws = append(ws, w)
			rest = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(tail), ";"))
		}
	}
	if len(ws) == 0 {
		return nil, fmt.Errorf("no want comment")
	}
	return ws, nil
}

// parseWant reads one expectation off the front of s: its kind, then a
// Go string, a number or a word as the kind takes.
func parseWant(s string) (want, string, error) {
	kind, rest, _ := strings.Cut(s, " ")
	w := want{kind: kind}
	rest = strings.TrimLeft(rest, " ")
	word := func() string {
		end := strings.IndexAny(rest, "; ")
		if end < 0 {
			end = len(rest)
		}
		arg := rest[:end]
		rest = rest[end:]
		return arg
	}
	var err error
	switch kind {
	case "error", "layout", "intrinsic", "warps", "method":
		var q string
		if q, err = strconv.QuotedPrefix(rest); err == nil {
			w.text, _ = strconv.Unquote(q)
			rest = rest[len(q):]
		}
	case "cost", "conversions", "subgroups", "registers":
		w.num, err = strconv.ParseInt(word(), 10, 64)
	case "status", "dtype":
		w.text = word()
	default:
		err = fmt.Errorf("no want of kind %q", kind)
	}
	return w, rest, err
}

// functionsWantProblems is wantProblems for a kernel of several
// functions, each planned (res, err: SolveFunctions): a want about a line
// is checked against the plan of the function that holds the line; want
// status and subgroups hold for every function, and want cost and
// conversions about the file are the functions' totals.
func functionsWantProblems(path string, data []byte, res []planner.FuncResult, err error) []string {
	if err != nil {
		return wantProblems(path, data, nil, err)
	}
	m, perr := mlir.Parse(path, data)
	if perr != nil {
		return []string{perr.Error()}
	}
	lineOf := func(off int) int { return 1 + strings.Count(string(data[:off]), "\n") }
	spans := map[string][2]int{} // each function's first and last line
	for _, f := range mlir.Funcs(m) {
		spans[mlir.FuncName(f)] = [2]int{lineOf(f.Span.Off), lineOf(f.Span.End)}
	}
	var total, conv int64
	for _, r := range res {
		if r.Plan != nil {
			total += r.Plan.Cost
			conv += int64(len(r.Plan.Conv))
		}
	}
	var out []string
	for _, r := range res {
		span := spans[r.Func]
		inside := func(w want) bool { return w.line == 0 || w.line >= span[0] && w.line <= span[1] }
		for _, p := range wantProblems(path, data, r.Result, nil, func(w want) (want, bool) {
			if w.line == 0 && r.Plan != nil {
				switch w.kind {
				case "cost":
					w.num += r.Plan.Cost - total // the total, checked against this function's cost
				case "conversions":
					w.num += int64(len(r.Plan.Conv)) - conv
				}
			}
			return w, inside(w)
		}) {
			out = append(out, "@"+r.Func+": "+p)
		}
	}
	return out
}

// wantProblems says how planning a file (res, err) falls short of the
// file's want comments; none when it meets them all. keep, when given,
// says which wants to check, and as what.
func wantProblems(path string, data []byte, res *planner.Result, err error, keep ...func(want) (want, bool)) []string {
	ws, werr := wantsOf(data)
	if werr != nil {
		return []string{werr.Error()}
	}
	for _, k := range keep {
		var kept []want
		for _, w := range ws {
			if w, ok := k(w); ok {
				kept = append(kept, w)
			}
		}
		ws = kept
	}
	var out []string
	bad := func(w want, format string, args ...any) {
		at := "the file"
		if w.line > 0 {
			at = fmt.Sprintf("line %d", w.line)
		}
		out = append(out, fmt.Sprintf("%s: want %s: %s", at, w.kind, fmt.Sprintf(format, args...)))
	}
	// Errors: every one wanted at its line, every want error met.
	met := map[int]bool{}
	if err != nil {
		list, ok := model.Errors(err)
		if !ok {
			list = model.ErrorList{{Msg: err.Error()}}
		}
		for _, e := range list {
			found := false
			for i, w := range ws {
				if w.kind == "error" && !met[i] && e.Pos.Line == w.line && strings.Contains(e.Msg, w.text) {
					met[i], found = true, true
					break
				}
			}
			if !found {
				out = append(out, fmt.Sprintf("unwanted error %s", e))
			}
		}
	}
	for i, w := range ws {
		if w.kind == "error" && !met[i] {
			bad(w, "%q not reported (errors: %v)", w.text, err)
		}
	}
	if err != nil {
		for _, w := range ws {
			if w.kind != "error" {
				bad(w, "no plan to check: the file has errors")
			}
		}
		return out
	}
	for _, w := range ws {
		if w.kind == "error" {
			continue
		}
		if w.kind == "status" {
			got := res.Why
			if res.Plan != nil {
				got = res.Plan.Status
			} else if res.Outcome == planner.Infeasible {
				got = "infeasible"
			}
			if got != w.text {
				bad(w, "%s, got %s", w.text, got)
			}
			continue
		}
		p := res.Plan
		if p == nil {
			bad(w, "no plan: %s", res.Why)
			continue
		}
		if w.line == 0 {
			switch w.kind {
			case "cost":
				if p.Cost != w.num {
					bad(w, "%d, got %d", w.num, p.Cost)
				}
			case "conversions":
				if int64(len(p.Conv)) != w.num {
					bad(w, "%d, got %d", w.num, len(p.Conv))
				}
			case "subgroups":
				if int64(res.Graph.Subgroups) != w.num {
					bad(w, "%d, got %d", w.num, res.Graph.Subgroups)
				}
			case "registers":
				if int64(p.Registers.Peak) != w.num {
					bad(w, "%d, got %d", w.num, p.Registers.Peak)
				}
			}
			continue
		}
		lineProblems(w, res.Graph, p, definedAt(data, w.line), bad)
	}
	return out
}

var ssaDef = regexp.MustCompile(`^\s*%([\w.$-]+)\s*=`)

// definedAt is the value a kernel's line defines (%name = ...), "" for
// none: the graph read from a kernel gives a value the position of its
// first use where its defining op is folded (a mask's tt.broadcast).
func definedAt(data []byte, line int) string {
	lines := strings.Split(string(data), "\n")
	if m := ssaDef.FindStringSubmatch(lines[line-1]); m != nil {
		return m[1]
	}
	return ""
}

// lineProblems checks a want about the value or op defined at its line:
// the value whose position is the line (a graph file: its result key's
// line) or named defined (a kernel's %name =), the op whose position is
// the line (a graph file: its kind key's line).
func lineProblems(w want, g *model.Graph, p *plans.Plan, defined string, bad func(want, string, ...any)) {
	var v *model.Value
	for _, x := range g.Values {
		if x.Pos.Line == w.line && v == nil || defined != "" && x.Name == defined {
			v = x
		}
	}
	var ops []*model.Op // a kernel's op may be read as several (a load and a transpose)
	g.Walk(func(o *model.Op) {
		if o.Pos.Line == w.line || defined != "" && o.Name == defined {
			ops = append(ops, o)
		}
	})
	switch w.kind {
	case "layout", "dtype", "conversions":
		if v == nil {
			bad(w, "no value is defined at this line")
			return
		}
		var vp *plans.ValuePlan
		for i := range p.Values {
			if p.Values[i].Name == v.Name {
				vp = &p.Values[i]
			}
		}
		switch {
		case w.kind == "conversions":
			n := 0
			for _, c := range p.Conv {
				if c.Value == v.Name {
					n++
				}
			}
			if int64(n) != w.num {
				bad(w, "%%%s converted %d times, got %d", v.Name, w.num, n)
			}
		case vp == nil:
			bad(w, "the plan has no %%%s", v.Name)
		case w.kind == "layout" && !strings.Contains(vp.Layout, w.text):
			bad(w, "%%%s in %q, got %s", v.Name, w.text, vp.Layout)
		case w.kind == "dtype" && vp.DType != w.text:
			bad(w, "%%%s of %s, got %s", v.Name, w.text, vp.DType)
		}
	default:
		if len(ops) == 0 {
			bad(w, "no op is defined at this line")
			return
		}
		var got []string
		for _, op := range ops {
			var o *plans.OpPlan
			for i := range p.Ops {
				if p.Ops[i].Name == op.Name {
					o = &p.Ops[i]
				}
			}
			switch {
			case o == nil:
				got = append(got, fmt.Sprintf("the plan has no op %s", op.Name))
			case w.kind == "cost" && o.Cost == w.num,
				w.kind == "intrinsic" && o.Intrinsic == w.text,
				w.kind == "warps" && strings.Contains(o.Warps, w.text),
				w.kind == "method" && strings.Contains(o.Method, w.text):
				return
			default:
				got = append(got, fmt.Sprintf("op %s: cost %d, intrinsic %q, warps %q, method %q", o.Name, o.Cost, o.Intrinsic, o.Warps, o.Method))
			}
		}
		arg := strconv.Quote(w.text)
		if w.kind == "cost" {
			arg = strconv.FormatInt(w.num, 10)
		}
		bad(w, "%s, got %s", arg, strings.Join(got, "; "))
	}
}

// The harness fails where a file's wants are wrong: each case edits one
// want of a file of testdata/want (the edit must happen exactly once),
// plans it, and must hear a problem saying so.
func TestWantsCatchWrongWants(t *testing.T) {
	pl := testPlanner(t)
	for i, c := range []struct {
		file, old, new, says string
	}{
		{"softmax_expand_dims.toml", "# want cost 1616", "# want cost 1617", "the file: want cost: 1617, got 1616"},
		{"softmax_expand_dims.toml", "# want conversions 0", "# want conversions 2", "want conversions: 2, got 0"},
		{"wmma_loop_gemm.toml", "# want status optimal", "# want status feasible", "want status: feasible, got optimal"},
		{"registers_over_budget.toml", "# want status infeasible", "# want status optimal", "want status: optimal, got infeasible"},
		{"argument_in_registers.toml", `order = [1, 0]}>"`, `order = [0, 1]}>"`, "want layout: %bias in"},
		{"argument_in_registers.toml", `kind = "argument" # want cost 0`, `kind = "argument" # want cost 3`, "want cost: 3, got op bias: cost 0"},
		{"loop_pins_and_select.toml", "# want dtype f32", "# want dtype f16", "want dtype: %kept of f16, got f32"},
		{"fma_dot_f32_named.toml", `# want intrinsic "fma_rn_f32"`, `# want intrinsic "fma_rn_f64"`, `want intrinsic: "fma_rn_f64", got op d: cost 128, intrinsic "fma_rn_f32"`},
		{"mma_small_tile_4warps.toml", `warps "each tile held by 2 warps"`, `warps "each tile held by 4 warps"`, `want warps: "each tile held by 4 warps", got op d`},
		{"loop_dynamic_trips.toml", `(assumed)"`, `(stated)"`, `want method: "trip count dynamic: priced as 16 iterations (stated)", got op tiles`},
		{"masked_dot_sm80.ttgir", "// want conversions 0", "// want conversions 1", "want conversions: %mask converted 1 times, got 0"},
		// An error reported a line off from its want: both sides said.
		{"load_shared_names_tcgen05_ld.toml", "result = \"a\"\nintrinsic = \"tcgen05_ld_32x32b_x1\" # want error \"tcgen05_ld_32x32b_x1 is not a shared-memory load record of sm_100\"\n",
			"result = \"a\" # want error \"tcgen05_ld_32x32b_x1 is not a shared-memory load record of sm_100\"\nintrinsic = \"tcgen05_ld_32x32b_x1\"\n", "unwanted error"},
		{"load_shared_names_tcgen05_ld.toml", "of sm_100\"", "of sm_90\"", "not reported"},
		// An error wanted where the file plans, a want of no such kind, a
		// file with no want.
		{"softmax_expand_dims.toml", `kind = "load"`, `kind = "load" # want error "no such op"`, `want error: "no such op" not reported`},
		{"softmax_expand_dims.toml", "# want cost 1616", "# want price 1616", `no want of kind "price"`},
		{"softmax_expand_dims.toml", "# want cost 1616\n# want conversions 0\n", "", "no want comment"},
		{"softmax_expand_dims.toml", "# want cost 1616", "# want layout \"x\"", "is about a line"},
	} {
		t.Run(fmt.Sprintf("%s#%d", c.file, i), func(t *testing.T) {
			path := filepath.Join("testdata", "want", c.file)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			text := []byte(golden.ReplaceOnce(t, string(data), c.old, c.new))
			res, err := pl.SolveText(context.Background(), path, text, planner.Options{})
			problems := wantProblems(path, text, res, err)
			if !slices.ContainsFunc(problems, func(p string) bool { return strings.Contains(p, c.says) }) {
				t.Errorf("the harness says %q, want a problem saying %q", problems, c.says)
			}
		})
	}
}
