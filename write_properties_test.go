package planner_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"planner"
	"planner/internal/oracle"
	"planner/mlir"
)

// writtenCase is one kernel the tests write back with its plan: read
// with in; other names the functions the plan is not written into (a
// module of several), whose text must survive byte for byte.
type writtenCase struct {
	name, path string
	in         planner.Input
	other      []string
}

// everyWrittenKernel is every kernel the write-back tests write: the MLIR
// of writtenKernels, the TTGIR of ttgirKernels and of testdata/triton,
// and the modules of two functions in testdata/two_funcs.
func everyWrittenKernel(t *testing.T) []writtenCase {
	var out []writtenCase
	for _, k := range writtenKernels {
		out = append(out, writtenCase{name: strings.TrimSuffix(filepath.Base(planned(k.path, k.name)), ".planned.mlir"), path: k.path, in: k.in})
	}
	for _, p := range ttgirKernels(t) {
		out = append(out, writtenCase{name: filepath.Base(p), path: p})
	}
	triton, _ := filepath.Glob("testdata/triton/*.ttgir")
	for _, p := range triton {
		out = append(out, writtenCase{name: "triton_" + filepath.Base(p), path: p, in: planner.Input{Trips: tritonTrips}})
	}
	wants, _ := filepath.Glob("testdata/want/*.ttgir")
	for _, p := range wants {
		data, err := os.ReadFile(p)
		if err != nil || wantsNoPlan.Match(data) {
			continue
		}
		fns, err := planner.Functions(p, data)
		if err != nil {
			t.Fatal(err)
		}
		if len(fns) < 2 {
			out = append(out, writtenCase{name: "want_" + filepath.Base(p), path: p})
			continue
		}
		// A module of several functions: each written on its own, the
		// others kept. (A function with nothing to lay out writes
		// nothing, and is left out.)
		for i, fn := range fns {
			others := slices.Concat(fns[:i], fns[i+1:])
			out = append(out, writtenCase{name: "want_" + filepath.Base(p) + "@" + fn, path: p, in: planner.Input{Func: fn}, other: others})
		}
	}
	return append(out,
		writtenCase{name: "two_funcs.mlir", path: "testdata/two_funcs/two_funcs.mlir", in: planner.Input{Func: "softmax_row"}, other: []string{"row_copy"}},
		writtenCase{name: "two_funcs.ttgir", path: "testdata/two_funcs/two_funcs.ttgir", in: planner.Input{Func: "masked_dot"}, other: []string{"scale"}},
		writtenCase{name: "device_fn_returns_sm80.ttgir", path: "testdata/ttgir_signature/device_fn_returns_sm80.ttgir", in: planner.Input{Func: "scale_rows"}, other: []string{"kernel"}})
}

// wantsNoPlan finds the want comments of a kernel that plans to nothing
// written: an error, no plan, or nothing to lay out.
var wantsNoPlan = regexp.MustCompile(`//\s*want\b[^\n]*\b(error|status infeasible|nothing to lay out)`)

// Properties of every written kernel, each stated against the verified
// plan written (plans.Plan, which the verifier replayed):
//
//   - the plan written is the verified one (no NotVerified);
//   - every alias (#name) the output uses is defined in it;
//   - in TTGIR, each dot's A and B tensor operands are written as the
//     #ttg.dot_op of opIdx 0 and 1 whose parent is the encoding its
//     result is written in (Triton's inferDotOpEncoding), so the chosen
//     mma names them (dotOperandProblems);
//   - it writes as many conversions as the plan has (Plan.Conv). In MLIR a
//     conversion is written as TestWriteMLIRRoundTrip reads it back: a
//     statement defining a %..._cv value (IREE's to_layout,
//     xegpu.convert_layout), or, where no IR value is read as the value
//     converted, a "// planner: ... converted to" comment line; in TTGIR
//     as TestWriteTTGIRRoundTrip counts: the ttg.convert_layout ops less
//     the renamings (renamings: between two encodings of one layout);
//   - the functions the plan is not written into are byte for byte the
//     input's, and so is the definition of every alias they use;
//   - read back with the same flags, it plans to the plan's cost;
//   - written through the kernel the solve read (read once), it is the
//     output of reading the text again (mlir.WritePlan).
func TestWrittenKernelProperties(t *testing.T) {
	pl := testPlanner(t)
	for _, k := range everyWrittenKernel(t) {
		t.Run(k.name, func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(k.path)
			if err != nil {
				t.Fatal(err)
			}
			first := solveMLIR(t, k.path, data, k.in)
			var buf bytes.Buffer
			if err := pl.WriteMLIR(&buf, k.path, data, k.in, first); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			if first.Plan.NotVerified != "" {
				t.Errorf("the plan written was not verified: %s", first.Plan.NotVerified)
			}
			// Written through the kernel the solve read, as after reading
			// the text again.
			if !planner.KeptKernel(first) {
				t.Errorf("the solve keeps no kernel: the writer reads the text again")
			}
			var reread bytes.Buffer
			if err := mlir.WritePlan(&reread, k.path, data, pl.MLIROptions(k.in), first.Plan); err != nil {
				t.Fatal(err)
			}
			if reread.String() != out {
				t.Errorf("written through the kernel read once, the output differs from the one written after reading the text again")
			}
			if undef := undefinedAliases(out); len(undef) > 0 {
				t.Errorf("the output uses aliases it does not define: %s", strings.Join(undef, ", "))
			}
			tt := strings.HasSuffix(k.path, ".ttgir")
			if tt {
				for _, p := range dotOperandProblems(out) {
					t.Error(p)
				}
				renamed, err := renamings(k.path, buf.Bytes())
				if err != nil {
					t.Fatal(err)
				}
				// The other functions' own convert_layouts are kept.
				kept := 0
				for _, name := range k.other {
					kept += len(convertRE.FindAllString(funcText(k.path, data, name), -1))
				}
				if got := len(convertRE.FindAllString(out, -1)) - renamed - kept; got != len(first.Plan.Conv) {
					t.Errorf("%d convert_layouts (and %d renamings) written for a plan of %d conversions", got, renamed, len(first.Plan.Conv))
				}
			} else if got := writtenConversions(out) - writtenConversions(string(data)); got != len(first.Plan.Conv) {
				t.Errorf("%d conversions written for a plan of %d", got, len(first.Plan.Conv))
			}
			for _, name := range k.other {
				if why := keptFunc(k.path, data, buf.Bytes(), name); why != "" {
					t.Errorf("@%s: %s", name, why)
				}
			}
			ext := filepath.Ext(k.path)
			again := solveMLIR(t, strings.TrimSuffix(k.path, ext)+".written"+ext, buf.Bytes(), k.in)
			if again.Plan.Cost != first.Plan.Cost {
				t.Errorf("read back, the plan costs %d, first %d", again.Plan.Cost, first.Plan.Cost)
			}
		})
	}
}

var (
	// aliasDef finds an attribute alias's definition, at a line's start.
	aliasDef = regexp.MustCompile(`(?m)^#([A-Za-z_][\w$.]*)\s*=`)
	// aliasRef finds a use of an attribute alias: a #name not part of a
	// value's result number (%0#1) and not a dialect attribute
	// (#ttg.slice<...>, #ttg.shared_memory: a dotted name).
	aliasRef = regexp.MustCompile(`(^|[^\w%#$.])#([A-Za-z_][\w$]*)\b([^.\w$]|$)`)
	// quoted finds string literals and comments, whose # are not uses.
	quoted = regexp.MustCompile(`"(?:[^"\\\n]|\\.)*"|//[^\n]*`)
	// conversionLine finds a conversion MLIR's writer writes.
	conversionLine = regexp.MustCompile(`(?m)^[ \t]*(%[A-Za-z0-9_]+_cv(_\d+)? = ("iree_vector_ext\.to_layout"\(|xegpu\.convert_layout )|// planner: \S+ reads %\S+ converted to )`)
)

// undefinedAliases lists the aliases text uses but does not define.
func undefinedAliases(text string) []string {
	defined := map[string]bool{}
	for _, m := range aliasDef.FindAllStringSubmatch(text, -1) {
		defined[m[1]] = true
	}
	var out []string
	for _, m := range aliasRef.FindAllStringSubmatch(quoted.ReplaceAllString(text, ""), -1) {
		if !defined[m[2]] && !slices.Contains(out, "#"+m[2]) {
			out = append(out, "#"+m[2])
		}
	}
	return out
}

// writtenConversions counts the conversions MLIR text states as the
// writer writes them.
func writtenConversions(text string) int { return len(conversionLine.FindAllString(text, -1)) }

// keptFunc says how function name of the output differs from the
// input's, or where an alias it uses is not defined as in the input; ""
// when both are kept byte for byte.
func keptFunc(path string, in, out []byte, name string) string {
	was, is := funcText(path, in, name), funcText(path, out, name)
	if was == "" {
		return "the input has no such function"
	}
	if is != was {
		return "its text is not kept:\n" + is + "\nwas\n" + was
	}
	defs := func(data []byte) map[string]string {
		d := map[string]string{}
		for _, line := range strings.Split(string(data), "\n") {
			if m := aliasDef.FindStringSubmatch(line); m != nil {
				d[m[1]] = line
			}
		}
		return d
	}
	inDefs, outDefs := defs(in), defs(out)
	for _, m := range aliasRef.FindAllStringSubmatch(quoted.ReplaceAllString(was, ""), -1) {
		if def := inDefs[m[2]]; def != "" && outDefs[m[2]] != def {
			return "the alias #" + m[2] + " it uses is " + strings.TrimSpace(outDefs[m[2]]) + ", was " + def
		}
	}
	return ""
}

// funcText is the text of function name of a module; "" when the module
// does not read or has no such function.
func funcText(path string, data []byte, name string) string {
	m, err := mlir.Parse(path, data)
	if err != nil {
		return ""
	}
	for _, f := range mlir.Funcs(m) {
		if mlir.FuncName(f) == name {
			return string(data[f.Span.Off:f.Span.End])
		}
	}
	return ""
}

// The real compilers judge the modules of two functions as they come and
// written back with the plan of one: Triton compiles the TTGIR module
// (both tt.funcs, the one not planned on the aliases kept for it), IREE
// parses and verifies the MLIR one.
func TestJudgesTwoFunctionModules(t *testing.T) {
	oracle.Python(t)
	pl := testPlanner(t)
	jobs := map[string][]oracle.Job{}
	for _, k := range everyWrittenKernel(t) {
		if len(k.other) == 0 {
			continue
		}
		data, err := os.ReadFile(k.path)
		if err != nil {
			t.Fatal(err)
		}
		res := solveMLIR(t, k.path, data, k.in)
		var out bytes.Buffer
		if err := pl.WriteMLIR(&out, k.path, data, k.in, res); err != nil {
			t.Fatal(err)
		}
		kind := filepath.Ext(k.path)
		jobs[kind] = append(jobs[kind], oracle.Job{Name: "input:" + k.path, Text: data, Compile: true},
			oracle.Job{Name: "planned:" + k.path, Text: out.Bytes(), Compile: true})
	}
	if len(jobs[".ttgir"]) == 0 || len(jobs[".mlir"]) == 0 {
		t.Fatalf("no module of two functions to judge: %v", jobs)
	}
	verdicts := append(oracle.TTGIR(t, jobs[".ttgir"]), oracle.IREE(t, jobs[".mlir"])...)
	for _, v := range verdicts {
		if !v.OK {
			t.Errorf("%v", v)
		}
	}
}

// dotLine finds a dot of TTGIR text in its custom form and the types
// after its colon: A * B -> C.
var dotLine = regexp.MustCompile(`(?m)^\s*%\S+ = (tt\.dot|ttng\.warp_group_dot) [^:\n]*: (.*) \* (.*) -> (\S.*?)\s*(loc\(.*)?(//.*)?$`)

// dotOperandProblems lists the dots of written TTGIR whose A or B tensor
// operand is not written as the #ttg.dot_op of its opIdx whose parent is
// the dot's result encoding (an operand in shared memory, a
// !ttg.memdesc, has none).
func dotOperandProblems(text string) []string {
	var out []string
	for _, m := range dotLine.FindAllStringSubmatch(text, -1) {
		res := tensorEncoding(m[4])
		for i, t := range []string{m[2], m[3]} {
			if !strings.HasPrefix(t, "tensor<") {
				continue
			}
			want := fmt.Sprintf("#ttg.dot_op<{opIdx = %d, parent = %s", i, res)
			if enc := tensorEncoding(t); res == "" || !strings.HasPrefix(enc, want+",") && !strings.HasPrefix(enc, want+"}") {
				out = append(out, fmt.Sprintf("%s's operand %d is written %s, not %s...}>: %s", m[1], i, enc, want, strings.TrimSpace(m[0])))
			}
		}
	}
	return out
}

// tensorEncoding is the encoding of a tensor type's text, tensor<64x64xf16, ENC>.
func tensorEncoding(t string) string {
	i := strings.Index(t, ", ")
	if !strings.HasPrefix(t, "tensor<") || i < 0 || !strings.HasSuffix(t, ">") {
		return ""
	}
	return strings.TrimSpace(t[i+2 : len(t)-1])
}
