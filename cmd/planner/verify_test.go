package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"planner/internal/golden"
	"planner/model"
	"planner/notation"
	"planner/plans"
	"planner/tomlio"
)

// Every golden TOML plan reads back and verifies: planner verify rebuilds
// its choices from the file alone, replays them and recomputes its costs.
func TestVerifyGoldenTOMLPlans(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/plans/*.toml")
	graphs, _ := filepath.Glob("../../testdata/graphs/*.toml")
	if len(files) != len(graphs) {
		t.Fatalf("%d TOML plans for %d graphs", len(files), len(graphs))
	}
	root, _ := filepath.Abs("../..")
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(strings.TrimSuffix(name, ".toml"), func(t *testing.T) {
			t.Chdir(root)
			var out, errs bytes.Buffer
			// A long --prove: the search ends when it proves the optimum
			// (well under a second), and a loaded machine does not stop it
			// first, which verify reports with exit 4.
			if code := Main([]string{"verify", "--prove", "1m", "testdata/plans/" + name}, &out, &errs); code != 0 {
				t.Fatalf("exit %d: %s", code, errs.String())
			}
			if !strings.HasPrefix(out.String(), "verified testdata/plans/"+name) || strings.Count(out.String(), "\n") != 1 {
				t.Errorf("want one verified line, got %q", out.String())
			}
		})
	}
}

// editSection replaces the body of the TOML table header (up to the next
// blank line) in text.
func editSection(t *testing.T, text, header string, edit func(body string) string) string {
	t.Helper()
	start := strings.Index(text, header+"\n")
	if start < 0 {
		t.Fatalf("no %s", header)
	}
	start += len(header) + 1
	end := strings.Index(text[start:], "\n\n")
	if end < 0 {
		end = len(text) - start
	}
	return text[:start] + edit(text[start:start+end]) + text[start+end:]
}

// Two hand edits of a golden plan, kept under testdata/verify and run by
// the CLI cases verify_moved_*: the mma result %d with its first two lane
// bits swapped in the linear form (lanes 1 and 2 trade elements, as do the
// lanes they span), which verify rejects naming the first element in the
// wrong lane; and %d written as a lane/register table with the elements of
// two rows exchanged, which is no layout at all and is rejected at the row.
func TestVerifyHandEditedPlans(t *testing.T) {
	base, err := os.ReadFile("../../testdata/plans/pinned_mma_operand.toml")
	if err != nil {
		t.Fatal(err)
	}
	header := `[values."d".exact.layout]`
	lanes := editSection(t, string(base), header, func(body string) string {
		lines := strings.Split(body, "\n")
		for i, l := range lines {
			if rest, ok := strings.CutPrefix(l, "lane = [["); ok {
				bases := strings.Split(strings.TrimSuffix(rest, "]]"), "], [")
				bases[0], bases[1] = bases[1], bases[0]
				lines[i] = "lane = [[" + strings.Join(bases, "], [") + "]]"
			}
		}
		return strings.Join(lines, "\n")
	})
	table := editSection(t, string(base), header, func(string) string {
		n, err := notation.Express("table", solvedLayout(t, "pinned_mma_operand", "d"))
		if err != nil {
			t.Fatal(err)
		}
		rows := n.(*notation.Table).Rows
		// Lane 1 register 0 and lane 2 register 0 trade elements.
		i := slices.IndexFunc(rows, func(r []int) bool { return r[1] == 1 && r[2] == 0 })
		j := slices.IndexFunc(rows, func(r []int) bool { return r[1] == 2 && r[2] == 0 })
		rows[i], rows[j] = append(rows[i][:3:3], rows[j][3:]...), append(rows[j][:3:3], rows[i][3:]...)
		var b strings.Builder
		tomlio.WriteNotation(&b, n)
		return strings.TrimSuffix(b.String(), "\n")
	})
	root, _ := filepath.Abs("../..")
	for name, text := range map[string]string{"moved_lanes": lanes, "moved_element_table": table} {
		path := filepath.Join("testdata/verify", name+".toml")
		golden.Compare(t, path, text)
		abs, _ := filepath.Abs(path)
		t.Run(name, func(t *testing.T) {
			t.Chdir(root)
			var out, errs bytes.Buffer
			code := Main([]string{"verify", abs}, &out, &errs)
			msg := errs.String()
			if code != exitBadInput || out.Len() != 0 || !strings.Contains(msg, "lane ") || !strings.Contains(msg, "register") && !strings.Contains(msg, "value ") {
				t.Fatalf("exit %d, stdout %q, stderr %q: want exit 1 naming the element, lane and register", code, out.String(), msg)
			}
		})
	}
}

// solvedLayout is the layout the planner gives a value of a test graph.
func solvedLayout(t *testing.T, graph, value string) *model.Layout {
	t.Helper()
	_, res := solveResult(t, "../../testdata/graphs/"+graph+".toml")
	for _, v := range res.Problem.Graph.Values {
		if v.Name == value {
			return res.Assignment.Layouts[v]
		}
	}
	t.Fatalf("no value %s in %s", value, graph)
	return nil
}

// Plans with one wrong claim about a conversion's mechanism: each fails
// verification, the element-level ones naming the element, lane and
// register; the messages are kept in testdata/verify/claims.golden.
func TestVerifyWrongConversionClaims(t *testing.T) {
	cases := []struct {
		name, graph, kind string
		edit              func(c *plans.ConvPlan)
		element           bool // the error names an element and a hardware point
	}{
		{"too_few_rounds", "pinned_mma_operand", "shuffle", func(c *plans.ConvPlan) { c.Rounds-- }, true},
		{"too_many_rounds", "pinned_mma_operand", "shuffle", func(c *plans.ConvPlan) { c.Rounds++ }, false},
		{"shuffle_claimed_register", "pinned_mma_operand", "shuffle", func(c *plans.ConvPlan) { c.Kind = "register" }, false},
		{"shared_claimed_shuffle", "transpose_heavy", "shared", func(c *plans.ConvPlan) { c.Kind = "shuffle" }, false},
		{"scratch_too_small", "transpose_heavy", "shared", func(c *plans.ConvPlan) { c.ScratchBytes /= 2 }, true},
		{"store_vector_too_wide", "transpose_heavy", "shared", func(c *plans.ConvPlan) { c.StoreVector *= 2 }, true},
		{"load_vector_too_wide", "transpose_heavy", "shared", func(c *plans.ConvPlan) { c.LoadVector *= 2 }, true},
		{"scratch_order_reversed", "transpose_heavy", "shared", func(c *plans.ConvPlan) { slices.Reverse(c.ScratchOrder) }, true},
		{"scratch_rank", "transpose_heavy", "shared", func(c *plans.ConvPlan) { c.ScratchOrder = c.ScratchOrder[:1] }, false},
	}
	var got strings.Builder
	for _, tc := range cases {
		plan, res := solveResult(t, "../../testdata/graphs/"+tc.graph+".toml")
		i := slices.IndexFunc(plan.Conv, func(c plans.ConvPlan) bool { return c.Kind == tc.kind })
		if i < 0 {
			t.Fatalf("%s: no %s conversion in %s", tc.name, tc.kind, tc.graph)
		}
		c := plan.Conv[i]
		c.ScratchOrder = slices.Clone(c.ScratchOrder)
		tc.edit(&c)
		plan.Conv[i] = c
		err := plans.Verify(res.Problem.Graph, res.Assignment, plan)
		var ve *plans.VerifyError
		if !errors.As(err, &ve) {
			t.Errorf("%s: a wrong claim verified (%v)", tc.name, err)
			continue
		}
		if tc.element && (ve.Element == nil || ve.Point == nil) {
			t.Errorf("%s: the error names no element and point: %v", tc.name, err)
		}
		fmt.Fprintf(&got, "%s: %v\n", tc.name, err)
	}
	golden.Compare(t, "testdata/verify/claims.golden", got.String())
}

// Hand edits of a plan's buffers: each is rejected with what is wrong.
// The read of As appears twice; the write of As is left out; As claims
// 4 bytes fewer than its placement takes; Cs has no table at all.
func TestVerifyEditedBuffers(t *testing.T) {
	planText, err := os.ReadFile("../../testdata/plans/seed002_wmma_gemm.toml")
	if err != nil {
		t.Fatal(err)
	}
	text := string(planText)
	read := "[[buffers.\"As\".accesses]]\nop = \"a\"\n"
	write := "[[buffers.\"As\".accesses]]\nop = \"copy_to_shared@32\"\n"
	block := func(start string) string {
		i := strings.Index(text, start)
		if i < 0 {
			t.Fatalf("no %q in the golden plan", start)
		}
		j := strings.Index(text[i+len(start):], "\n[")
		return text[i : i+len(start)+j+1]
	}
	cs := block("[buffers.\"Cs\"]\n")
	csAccess := block("[[buffers.\"Cs\".accesses]]\n")
	for _, c := range []struct {
		name, text, want string
	}{
		{"access twice", golden.ReplaceOnce(t, text, read, block(read)+read), "the plan lists this access twice (op a, access read)"},
		{"access left out", golden.ReplaceOnce(t, text, block(write), ""), "the plan leaves out the access the replay makes (op copy_to_shared@32, access write)"},
		{"bytes", golden.ReplaceOnce(t, text, "bytes = 20448\n", "bytes = 20444\n"), "bytes: the plan says 20444, the replay gives 20448"},
		{"buffer left out", golden.ReplaceOnce(t, golden.ReplaceOnce(t, text, cs, ""), csAccess, ""), "the plan gives buffer Cs no placement"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.text == text {
				t.Fatal("the edit changed nothing")
			}
			path := filepath.Join(t.TempDir(), "plan.toml")
			if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
				t.Fatal(err)
			}
			root, _ := filepath.Abs("../..")
			t.Chdir(root)
			var out, errs bytes.Buffer
			code := Main([]string{"verify", path}, &out, &errs)
			if code != exitBadInput || !strings.Contains(errs.String(), c.want) {
				t.Fatalf("exit %d, stderr %q: want exit 1 saying %q", code, errs.String(), c.want)
			}
		})
	}
}

// A negative count in a conversion's claims is refused where it is
// written, not when the replay trips over it.
func TestVerifyNegativeClaim(t *testing.T) {
	planText, err := os.ReadFile("../../testdata/plans/transpose_heavy.toml")
	if err != nil {
		t.Fatal(err)
	}
	text := golden.ReplaceFirst(t, string(planText), "scratch_bytes = 33792\n", "scratch_bytes = -1\n") // the first of two
	line := strings.Count(text[:strings.Index(text, "scratch_bytes = -1")], "\n") + 1
	path := filepath.Join(t.TempDir(), "plan.toml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	root, _ := filepath.Abs("../..")
	t.Chdir(root)
	var out, errs bytes.Buffer
	code := Main([]string{"verify", path}, &out, &errs)
	want := fmt.Sprintf("plan.toml:%d:1: expected a count of 0 or more, found -1", line)
	if code != exitBadInput || !strings.Contains(errs.String(), want) {
		t.Fatalf("exit %d, stderr %q: want exit 1 with %q", code, errs.String(), want)
	}
}

// The sm_90 GEMM's golden plan with its B buffer's swizzle removed: the
// wgmma's descriptor cannot read the dense 128-byte rows, and planner
// verify says so.
func TestVerifyRefusesAnUnswizzledWgmmaBuffer(t *testing.T) {
	planText, err := os.ReadFile("../../testdata/plans/sm90_wgmma_gemm.toml")
	if err != nil {
		t.Fatal(err)
	}
	text := editSection(t, string(planText), `[buffers."Bs"]`, func(body string) string {
		return golden.ReplaceOnce(t, body, "\nswizzle = \"128B\"", "")
	})
	if text == string(planText) {
		t.Fatal("the edit changed nothing")
	}
	path := filepath.Join(t.TempDir(), "unswizzled.toml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	root, _ := filepath.Abs("../..")
	t.Chdir(root)
	var out, errs bytes.Buffer
	code := Main([]string{"verify", path}, &out, &errs)
	if code != exitBadInput || !strings.Contains(errs.String(), "wgmma_m64n64k16_f32_f16 cannot read buffer Bs as placed") {
		t.Fatalf("exit %d, stdout %q, stderr %q: want the wgmma's descriptor refusing the placement", code, out.String(), errs.String())
	}
}

// Claims a plan file carries that the replay does not bear out, each
// edited by hand into a golden plan: planner verify exits 1 naming the
// edited key's line.
func TestVerifyNamesTheEditedKey(t *testing.T) {
	for _, c := range []struct {
		name, graph, old, new string
		want                  string
	}{
		{"4x1 warps on a 2x2 mma", "gemm_epilogue", "warps_m = 2\nwarps_n = 2\n", "warps_m = 4\nwarps_n = 1\n", "which 4×1 warps with ids along N first, outer place elsewhere"},
		{"warp ids along M", "gemm_epilogue", "n_first = true\n", "n_first = false\n", "which 2×2 warps with ids along M first, outer place elsewhere"},
		{"warps swapped", "back_to_back_gemm", "warps_m = 4\nwarps_n = 1\n", "warps_m = 1\nwarps_n = 4\n", "which 1×4 warps with ids along N first place elsewhere"},
		{"outer", "gemm_epilogue", "outer = true\n", "outer = false\n", "which 2×2 warps with ids along N first place elsewhere"},
		{"lower bound above the cost", "gemm_epilogue", "lower_bound = 2742\n", "lower_bound = 99999\n", "lower_bound: expected a bound from 0 to the plan's cost 2742, found 99999"},
		{"lower bound below an optimal cost", "gemm_epilogue", "lower_bound = 2742\n", "lower_bound = 2741\n", "lower_bound: the plan claims optimal, which needs lower_bound = cost 2742, found 2741"},
		{"unknown status", "gemm_epilogue", "status = \"optimal\"\n", "status = \"banana\"\n", `status: expected one of optimal, feasible, greedy, found "banana"`},
		{"feasible at its bound", "gemm_epilogue", "status = \"optimal\"\n", "status = \"feasible\"\n", `status: lower_bound 2742 equals the cost, which proves the plan optimal, and the status says "feasible"`},
		{"reduction lanes", "softmax_row", "lanes = 32\n", "lanes = 16\n", "lanes: the plan says 16, the replay gives 32"},
		{"reduction subgroups", "softmax_row", "lanes = 32\nsubgroups = 1\n", "lanes = 32\nsubgroups = 4\n", "subgroups: the plan says 4, the replay gives 1"},
		{"layout string", "gemm_epilogue", `layout = "#ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [32, 0], [64, 0]], lane = [[0, 8], [0, 16], [1, 0], [2, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>"` + "\n",
			`layout = "#ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [32, 0], [64, 0]], lane = [[0, 8], [0, 16], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [8, 0]], block = []}>"` + "\n",
			"layout: the plan says \"#ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [32, 0], [64, 0]], lane = [[0, 8], [0, 16], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [8, 0]]"},
		{"warps text", "gemm_epilogue", "warps = \"2×2 warps (warp ids along N first; each warp one contiguous block)\"\n", "warps = \"2×2 warps (warp ids along M first; each warp one contiguous block)\"\n", "warps: the plan says"},
		{"budget", "gemm_epilogue", "budget = 166912\n", "budget = 1\n", "budget: the plan says 1, the replay gives 166912"},
	} {
		t.Run(c.name, func(t *testing.T) {
			planText, err := os.ReadFile("../../testdata/plans/" + c.graph + ".toml")
			if err != nil {
				t.Fatal(err)
			}
			i := strings.Index(string(planText), c.old)
			if i < 0 {
				t.Fatalf("no %q in the golden plan", c.old)
			}
			line := strings.Count(string(planText[:i]), "\n") + 1
			if c.name == "reduction subgroups" {
				line++
			}
			path := filepath.Join(t.TempDir(), "plan.toml")
			// The first c.old, at i: some recur further on.
			if err := os.WriteFile(path, []byte(golden.ReplaceFirst(t, string(planText), c.old, c.new)), 0o644); err != nil {
				t.Fatal(err)
			}
			root, _ := filepath.Abs("../..")
			t.Chdir(root)
			var out, errs bytes.Buffer
			code := Main([]string{"verify", "--prove", "0", path}, &out, &errs)
			at := fmt.Sprintf("plan.toml:%d:", line)
			if code != exitBadInput || !strings.Contains(errs.String(), c.want) || !strings.Contains(errs.String(), at) {
				t.Fatalf("exit %d, stdout %q, stderr %q: want exit 1 naming %s and saying %q", code, out.String(), errs.String(), at, c.want)
			}
		})
	}
}

// The greedy baseline's plan of back_to_back_gemm (cost 1452, the
// search's 1140) verifies as greedy; edited to claim optimal at its own
// cost, the new search refutes it at the status.
func TestVerifyProvesTheStatus(t *testing.T) {
	root, _ := filepath.Abs("../..")
	t.Chdir(root)
	var out, errs bytes.Buffer
	if code := Main([]string{"solve", "--solver", "greedy", "--format", "toml", "testdata/graphs/back_to_back_gemm.toml"}, &out, &errs); code != 0 {
		t.Fatalf("solve: exit %d: %s", code, errs.String())
	}
	greedy := out.String()
	if !strings.Contains(greedy, "status = \"greedy\"\ncost = 1452\n") {
		t.Fatalf("the greedy plan is not the greedy baseline's of cost 1452:\n%s", greedy[:min(len(greedy), 400)])
	}
	dir := t.TempDir()
	falselyOptimal := regexp.MustCompile(`status = "greedy"\ncost = 1452\nlower_bound = \d+\n`).ReplaceAllString(greedy, "status = \"optimal\"\ncost = 1452\nlower_bound = 1452\n")
	for _, c := range []struct {
		name, text string
		args       []string
		code       int
		want       string
	}{
		{"greedy", greedy, nil, 0, "verified "},
		{"greedy recomputed", greedy, nil, 0, "the greedy baseline's cost recomputed"},
		{"claims optimal", falselyOptimal, nil,
			exitBadInput, "plan.toml:6:1: status: the plan claims optimal at cost 1452, and a new search finds a plan of cost 1140"},
		// Not searched, the claim is said to be not re-proved, and the
		// plan is not called verified.
		{"claims optimal unsearched", falselyOptimal, []string{"--prove", "0"},
			0, "its claim of optimality at cost 1452 not re-proved (--prove 0 searches nothing)"},
		{"claims optimal searched too briefly", falselyOptimal, []string{"--prove", "1ns"},
			exitStopped, "its claim of optimality at cost 1452 not re-proved within --prove 1ns"},
		{"negative prove", greedy, []string{"--prove", "-5s"}, exitBadInput, "--prove -5s: give a time"},
	} {
		path := filepath.Join(dir, c.name, "plan.toml")
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		out.Reset()
		errs.Reset()
		code := Main(append(append([]string{"verify"}, c.args...), path), &out, &errs)
		if code != c.code || !strings.Contains(out.String()+errs.String(), c.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q: want exit %d saying %q", c.name, code, out.String(), errs.String(), c.code, c.want)
		}
		if c.text == falselyOptimal && strings.HasPrefix(out.String(), "verified") {
			t.Errorf("%s: a plan whose false claim of optimality was not re-proved is called verified: %q", c.name, out.String())
		}
	}
}

// The register repeats of an mma operand's required layout are compared
// exactly: in fa_f16acc_sm80 the B operand %v of acc_new, converted
// into the mma_m16n8k16 fragment at kWidth 8 on 4×1 warps, with its
// register digits of k 4 and 32 swapped still puts every element in a
// lane and register of its fragment, but holds K in another order than
// A (k 4 at position 32 where A has it at 4), so the mma would multiply
// elements of different k; in
// fa_f16acc_gfx942 the B operand %v of acc_new, an MFMA run transposed
// with kWidth 8, with its first two registers swapped holds k 1 where A
// has k 2, against the kWidth's interleaving of K.
func TestVerifyRefusesSwappedRepeats(t *testing.T) {
	root, _ := filepath.Abs("../..")
	t.Chdir(root)
	for _, c := range []struct {
		plan, conversion, own, swapped, want string
	}{
		{"fa_f16acc_sm80", "value = \"v\"\nconsumer = \"acc_new\"\noperand = \"b\"",
			"register = [[1, 0], [2, 0], [4, 0], [32, 0], [0, 8], [0, 16], [0, 32], [0, 64]]",
			"register = [[1, 0], [2, 0], [32, 0], [4, 0], [0, 8], [0, 16], [0, 32], [0, 64]]",
			"so A and B must hold K in one order: operand a %pf holds k = 4 at kWidth 8's K position 4 (kWidth 8's own K order), operand b %v at position 32 (K renumbered, k bits 0 1 5 3 4 2)"},
		{"fa_f16acc_gfx942", "value = \"v\"\nconsumer = \"acc_new\"\noperand = \"b\"",
			"register = [[1, 0], [2, 0], [4, 0], [0, 64]]",
			"register = [[2, 0], [1, 0], [4, 0], [0, 64]]",
			"so A and B must hold K in one order: operand a %pf holds k = 1 at kWidth 8's K position 1 (kWidth 8's own K order), operand b %v at position 2 (K renumbered, k bits 1 0 2 3 4)"},
	} {
		text, err := os.ReadFile("testdata/plans/" + c.plan + ".toml")
		if err != nil {
			t.Fatal(err)
		}
		at := strings.Index(string(text), c.conversion)
		if at < 0 {
			t.Fatalf("%s: no conversion %q in the golden plan", c.plan, c.conversion)
		}
		i := strings.Index(string(text[at:]), c.own)
		if i < 0 {
			t.Fatalf("%s: the golden plan's conversion is not %s", c.plan, c.own)
		}
		edited := string(text[:at+i]) + c.swapped + string(text[at+i+len(c.own):])
		path := filepath.Join(t.TempDir(), "plan.toml")
		if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
			t.Fatal(err)
		}
		var out, errs bytes.Buffer
		code := Main([]string{"verify", "--prove", "0", path}, &out, &errs)
		if code != exitBadInput || !strings.Contains(errs.String(), c.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q: want exit 1 saying %q", c.plan, code, out.String(), errs.String(), c.want)
		}
	}
}
