package intrinsics

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"planner/model"
)

// The NVIDIA records held against what an H100 did with the instructions
// they name: testdata/hardware/nvidia_h100.txt is the output of
// hwcheck/nvidia/hwcheck.c (its README says how it was made and what each
// block means). The measurement reads no record; the checks below read the
// records and the measurement alone, never the PTX ISA's tables.

const hwFile = "testdata/hardware/nvidia_h100.txt"

// hwBlock is one block of a measurement file: its first line's words
// (kind, record or case name, then the instruction or the records a chain
// names) and its body lines split into words, each with its line number.
type hwBlock struct {
	head  []string
	line  int
	body  [][]string
	lines []int
}

func (b hwBlock) kind() string { return b.head[0] }
func (b hwBlock) name() string { return b.head[1] }

// hwData is a parsed measurement file: the header (gpu, date, driver) and
// the blocks in order.
type hwData struct {
	header map[string]string
	blocks []hwBlock
}

// readHW parses a measurement file. Lines outside blocks are "key value";
// a block runs from a line starting with load, store, random, onehot or
// chain to a line "end". Errors carry file:line.
func readHW(path string) (*hwData, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	d := &hwData{header: map[string]string{}}
	var cur *hwBlock
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		text := strings.TrimSpace(sc.Text())
		words := strings.Fields(text)
		switch {
		case text == "" || strings.HasPrefix(text, "#"):
		case cur != nil && text == "end":
			d.blocks = append(d.blocks, *cur)
			cur = nil
		case cur != nil:
			cur.body = append(cur.body, words)
			cur.lines = append(cur.lines, n)
		case slices.Contains([]string{"load", "store", "random", "onehot", "chain"}, words[0]):
			if len(words) < 3 {
				return nil, fmt.Errorf("%s:%d:1: expected a kind, a name and an instruction, found %q", path, n, text)
			}
			cur = &hwBlock{head: words, line: n}
		default:
			k, v, _ := strings.Cut(text, " ")
			d.header[k] = strings.TrimSpace(v)
		}
	}
	if cur != nil {
		return nil, fmt.Errorf("%s:%d:1: expected \"end\" closing the %s block, found the end of the file", path, cur.line, cur.kind())
	}
	return d, sc.Err()
}

// hwWords parses the hexadecimal words (4 or 8 digits) of a body line from
// index from on, up to the next word that is not one, and returns where it
// stopped.
func hwWords(words []string, from int) ([]uint32, int) {
	var out []uint32
	i := from
	for ; i < len(words); i++ {
		v, err := strconv.ParseUint(words[i], 16, 32)
		if err != nil || len(words[i]) < 4 {
			break
		}
		out = append(out, uint32(v))
	}
	return out, i
}

// hwLanes parses "lane L ..." lines into each lane's named groups of words
// ("a", "b", "c", "d"; "" for words right after the lane number).
func hwLanes(b hwBlock) (map[int]map[string][]uint32, []string) {
	lanes := map[int]map[string][]uint32{}
	var bad []string
	for i, w := range b.body {
		if w[0] != "lane" || len(w) < 2 {
			continue
		}
		l, err := strconv.Atoi(w[1])
		if err != nil || l < 0 || l >= 32 {
			bad = append(bad, fmt.Sprintf("%s:%d: expected a lane number 0..31, found %q", hwFile, b.lines[i], w[1]))
			continue
		}
		groups := map[string][]uint32{}
		for j, name := 2, ""; j < len(w); {
			words, next := hwWords(w, j)
			if next == j { // a group's name: a, b, c or d
				name = w[j]
				next++
			}
			groups[name] = append(groups[name], words...)
			j = next
		}
		lanes[l] = groups
	}
	if len(lanes) != 32 {
		bad = append(bad, fmt.Sprintf("%s:%d: %d lanes, want 32", hwFile, b.line, len(lanes)))
	}
	return lanes, bad
}

// hwValue is the value of one element of dtype held in bits.
func hwValue(dtype string, x uint32) float64 {
	switch dtype {
	case "f32", "tf32":
		return float64(math.Float32frombits(x))
	case "bf16":
		return float64(math.Float32frombits(x << 16))
	case "s8":
		return float64(int8(x))
	case "s32":
		return float64(int32(x))
	case "f16":
		return hwMinifloat(x, 5, 10, true)
	case "f8e4m3":
		if x&0x7f == 0x7f {
			return math.NaN()
		}
		return hwMinifloat(x, 4, 3, false)
	case "f8e5m2":
		return hwMinifloat(x, 5, 2, true)
	}
	return math.NaN()
}

// hwMinifloat decodes a sign bit, e exponent bits (bias 2^(e-1) - 1) and
// m fraction bits, with subnormals. With ieee an all-ones exponent is
// infinity or NaN, taken as NaN (f16, e5m2); e4m3 has finite values there
// and one NaN, which the caller handles.
func hwMinifloat(x uint32, e, m int, ieee bool) float64 {
	bias := 1<<(e-1) - 1
	exp := int(x>>m) & (1<<e - 1)
	frac := float64(x&(1<<m-1)) / float64(int(1)<<m)
	sign := 1.0
	if x>>(e+m)&1 == 1 {
		sign = -1
	}
	switch {
	case exp == 0:
		return sign * math.Ldexp(frac, 1-bias)
	case exp == 1<<e-1 && ieee:
		return math.NaN()
	}
	return sign * math.Ldexp(1+frac, exp-bias)
}

// hwElements reads an operand's registers, as one lane's words each, into
// its matrix by the operand's layout: value v of a lane lies in register
// v * bits / 32 from bit v * bits % 32 up.
func hwElements(op *model.Operand, regs map[int][]uint32) ([][]float64, []string) {
	if op == nil || op.Layout == nil {
		return nil, []string{"the record has no such operand with a layout"}
	}
	l := op.Layout
	shape := l.Shape()
	m := make([][]float64, shape[0])
	for i := range m {
		m[i] = make([]float64, shape[1])
	}
	bits := op.DType.Bits
	per := 32 / bits
	mask := uint32(1)<<bits - 1
	if bits == 32 {
		mask = ^uint32(0)
	}
	var bad []string
	for lane := range 32 {
		for v := range l.Size(model.Register) {
			w := regs[lane]
			if v/per >= len(w) {
				bad = append(bad, fmt.Sprintf("%s: lane %d has %d registers, value %d needs register %d", op.Name, lane, len(w), v, v/per))
				return m, bad
			}
			idx := l.Index(model.HwPoint{Value: v, Lane: lane})
			m[idx[0]][idx[1]] = hwValue(op.DType.Name, w[v/per]>>(bits*(v%per))&mask)
		}
	}
	return m, bad
}

// hwCheckLoad: each b16 half of a loaded register holds 0x1000 | matrix << 6
// | row << 3 | col of the element shared memory had there; register i must
// hold matrix i, and half h of lane l the element the fragment layout puts
// at value h of lane l.
func hwCheckLoad(r *model.Record, b hwBlock) []string {
	lanes, bad := hwLanes(b)
	f := r.Fragment
	for lane, g := range lanes {
		regs := g[""]
		if len(regs) != r.Matrices {
			bad = append(bad, fmt.Sprintf("lane %d: %d registers, the record moves %d matrices", lane, len(regs), r.Matrices))
			continue
		}
		for i, w := range regs {
			for h := range 2 {
				code := w >> (16 * h) & 0xffff
				mat, row, col := int(code>>6&3), int(code>>3&7), int(code&7)
				want := f.Layout.Index(model.HwPoint{Value: h, Lane: lane})
				if code&0xff00 != 0x1000 || mat != i || !slices.Equal(want, []int{row, col}) {
					bad = append(bad, fmt.Sprintf("lane %d register %d half %d: the hardware loaded %04x (matrix %d row %d col %d), the record says matrix %d element %v", lane, i, h, code, mat, row, col, i, want))
				}
			}
		}
	}
	return bad
}

// hwCheckStore: lane l put 0x2000 | l << 3 | i << 1 | h in half h of its
// register i; every element of matrix i in memory must hold the code of the
// lane and half the fragment layout says holds it, and no spare row of
// shared memory may change.
func hwCheckStore(r *model.Record, b hwBlock) []string {
	var bad []string
	seen := map[uint32]bool{}
	f := r.Fragment
	for i, w := range b.body {
		switch w[0] {
		case "spare_written":
			if len(w) != 2 || w[1] != "0" {
				bad = append(bad, fmt.Sprintf("%s:%d: stmatrix wrote %v halves outside the rows its lanes named", hwFile, b.lines[i], w[1:]))
			}
		case "row":
			mat, _ := strconv.Atoi(w[1])
			row, _ := strconv.Atoi(w[2])
			codes, _ := hwWords(w, 3)
			if len(codes) != 8 {
				bad = append(bad, fmt.Sprintf("%s:%d: %d halves, want 8", hwFile, b.lines[i], len(codes)))
				continue
			}
			for col, code := range codes {
				lane, reg, h := int(code>>3&31), int(code>>1&3), int(code&1)
				got := f.Layout.Index(model.HwPoint{Value: h, Lane: lane})
				if code&0xff00 != 0x2000 || reg != mat || !slices.Equal(got, []int{row, col}) || seen[code] {
					bad = append(bad, fmt.Sprintf("matrix %d row %d col %d: the hardware stored %04x (lane %d register %d half %d), where the record puts %v of register %d", mat, row, col, code, lane, reg, h, got, reg))
				}
				seen[code] = true
			}
		}
	}
	if len(seen) != 64*r.Matrices {
		bad = append(bad, fmt.Sprintf("%d distinct elements stored, want %d", len(seen), 64*r.Matrices))
	}
	return bad
}

// hwProduct is A x B + C (C may be nil).
func hwProduct(a, b, c [][]float64) [][]float64 {
	d := make([][]float64, len(a))
	for m := range a {
		d[m] = make([]float64, len(b[0]))
		for n := range d[m] {
			if c != nil {
				d[m][n] = c[m][n]
			}
			for k := range b {
				d[m][n] += a[m][k] * b[k][n]
			}
		}
	}
	return d
}

// hwCompare lists the elements where got and want differ. Every input is
// a small integer, so every product is exact.
func hwCompare(what string, got, want [][]float64) []string {
	var bad []string
	for m := range want {
		for n := range want[m] {
			if got[m][n] != want[m][n] {
				bad = append(bad, fmt.Sprintf("%s[%d][%d] = %g, the product is %g", what, m, n, got[m][n], want[m][n]))
			}
		}
	}
	return bad
}

// hwCheckRandom: the registers went in and came out as the file says; read
// through the record's four layouts they must satisfy D = A x B + C.
func hwCheckRandom(r *model.Record, b hwBlock) []string {
	lanes, bad := hwLanes(b)
	ops := map[string][][]float64{}
	for _, name := range []string{"a", "b", "c", "d"} {
		regs := map[int][]uint32{}
		for l, g := range lanes {
			regs[l] = g[name]
		}
		m, errs := hwElements(r.Operands[name], regs)
		if m == nil {
			return append(bad, name+": "+errs[0])
		}
		bad = append(bad, errs...)
		ops[name] = m
	}
	if len(bad) > 0 {
		return bad
	}
	return hwCompare("D", ops["d"], hwProduct(ops["a"], ops["b"], ops["c"]))
}

// hwCheckOneHot: each line "t i j d" says that with 1 in A's value slot i
// (lane i / values, value i % values), zeros elsewhere in A and C, D's slot
// d held the value of B's slot j. By the record, slot i holds A[m][k], slot
// j B[k'][n] and slot d D[m'][n']: k = k', m = m', n = n' for every line,
// and the lines are exactly the M x N x K products.
func hwCheckOneHot(r *model.Record, b hwBlock) []string {
	var bad []string
	a, bb, d := r.Operands["a"].Layout, r.Operands["b"].Layout, r.Operands["d"].Layout
	at := func(l *model.Layout, slot int) []int {
		v := l.Size(model.Register)
		return l.Index(model.HwPoint{Value: slot % v, Lane: slot / v})
	}
	seen := map[[3]int]bool{}
	for i, w := range b.body {
		if w[0] != "t" || len(w) != 4 {
			bad = append(bad, fmt.Sprintf("%s:%d: expected \"t i j d\", found %q", hwFile, b.lines[i], strings.Join(w, " ")))
			continue
		}
		var s [3]int
		for k := range s {
			s[k], _ = strconv.Atoi(w[k+1])
		}
		if s[0] >= 32*a.Size(model.Register) || s[1] >= 32*bb.Size(model.Register) || s[2] >= 32*d.Size(model.Register) {
			bad = append(bad, fmt.Sprintf("%s:%d: slot out of range", hwFile, b.lines[i]))
			continue
		}
		ea, eb, ed := at(a, s[0]), at(bb, s[1]), at(d, s[2])
		if ea[1] != eb[0] || ea[0] != ed[0] || eb[1] != ed[1] {
			bad = append(bad, fmt.Sprintf("A slot %d (A%v), B slot %d (B%v) gave D slot %d (D%v)", s[0], ea, s[1], eb, s[2], ed))
			continue
		}
		seen[[3]int{ea[0], eb[1], ea[1]}] = true
	}
	if len(seen) != r.M*r.N*r.K {
		bad = append(bad, fmt.Sprintf("%d distinct products, want %d", len(seen), r.M*r.N*r.K))
	}
	return bad
}

// hwTile reads the rows "<prefix> r h0 h1 ..." of a chain block as f16.
func hwTile(b hwBlock, prefix string) [][]float64 {
	var t [][]float64
	for _, w := range b.body {
		if w[0] != prefix {
			continue
		}
		halves, _ := hwWords(w, 2)
		row := make([]float64, len(halves))
		for i, h := range halves {
			row[i] = hwValue("f16", h)
		}
		t = append(t, row)
	}
	return t
}

// hwChainLoads is, for each chain of hwcheck.c, the ldmatrix records that
// loaded A and B, and where the kernel pointed matrix i of each in the
// tile (chaincase's lane offsets): row and column of its first element.
var hwChainLoads = map[string][2]struct {
	record string
	corner func(i int) (int, int)
}{
	"chain16": {
		{"ldmatrix_x4", func(i int) (int, int) { return 8 * (i & 1), 8 * (i >> 1) }},
		{"ldmatrix_x2_trans", func(i int) (int, int) { return 8 * i, 0 }},
	},
	"chain8": {
		{"ldmatrix_x2", func(i int) (int, int) { return 8 * i, 0 }},
		{"ldmatrix_x1_trans", func(i int) (int, int) { return 0, 0 }},
	},
}

// hwChainOperands: the element the ldmatrix record puts in each b16 value
// of the registers (value v: register v / 2, half v % 2) is the element
// the mma record says that value holds. The mma alone cannot tell a
// renumbering of K in both A and B; this pins A and B to memory.
func hwChainOperands(lookup func(string) *model.Record, chain string, mma *model.Record) []string {
	var bad []string
	for j, op := range []string{"a", "b"} {
		ld := lookup(hwChainLoads[chain][j].record)
		if ld == nil {
			return []string{"no record " + hwChainLoads[chain][j].record}
		}
		l := mma.Operands[op].Layout
		for lane := range 32 {
			for v := range l.Size(model.Register) {
				rc := ld.Fragment.Layout.Index(model.HwPoint{Value: v % 2, Lane: lane})
				r0, c0 := hwChainLoads[chain][j].corner(v / 2)
				loaded := []int{r0 + rc[0], c0 + rc[1]}
				if want := l.Index(model.HwPoint{Value: v, Lane: lane}); !slices.Equal(loaded, want) {
					bad = append(bad, fmt.Sprintf("%s lane %d value %d: %s loads %v, %s %s says %v", chain, lane, v, ld.Name, loaded, mma.Name, op, want))
				}
			}
		}
	}
	return bad
}

// hwCheckChain: A and B went from row-major memory through ldmatrix into
// the mma; the f32 D registers, read by the first named record's D layout,
// must be A x B. In chain16 the f16 D also went back to memory through
// stmatrix: that tile must be A x B with no record involved.
func hwCheckChain(records []*model.Record, b hwBlock) []string {
	a, bt := hwTile(b, "arow"), hwTile(b, "brow")
	if len(a) == 0 || len(bt) == 0 || len(a[0]) != len(bt) {
		return []string{fmt.Sprintf("%s:%d: A is %d rows, B %d", hwFile, b.line, len(a), len(bt))}
	}
	want := hwProduct(a, bt, nil)
	lanes, bad := hwLanes(b)
	regs := map[int][]uint32{}
	for l, g := range lanes {
		regs[l] = g["d"]
	}
	d, errs := hwElements(records[0].Operands["d"], regs)
	if d == nil {
		return append(bad, records[0].Name+" d: "+errs[0])
	}
	bad = append(append(bad, errs...), hwCompare(records[0].Name+" D", d, want)...)
	if mem := hwTile(b, "drow"); len(mem) > 0 || b.name() == "chain16" {
		if len(mem) != len(want) {
			return append(bad, fmt.Sprintf("the stored D has %d rows, want %d", len(mem), len(want)))
		}
		bad = append(bad, hwCompare("stored D", mem, want)...)
	}
	return bad
}

// hwCheck checks one block against the records lookup returns.
func hwCheck(lookup func(string) *model.Record, b hwBlock) []string {
	if b.kind() == "chain" {
		var rs []*model.Record
		for _, n := range b.head[2:] {
			r := lookup(n)
			if r == nil {
				return []string{"no record " + n}
			}
			rs = append(rs, r)
		}
		bad := hwCheckChain(rs, b)
		for _, r := range rs {
			bad = append(bad, hwChainOperands(lookup, b.name(), r)...)
		}
		return bad
	}
	r := lookup(b.name())
	if r == nil {
		return []string{"no record " + b.name()}
	}
	if r.Instruction != b.head[2] {
		return []string{fmt.Sprintf("the hardware ran %s, the record names %s", b.head[2], r.Instruction)}
	}
	switch b.kind() {
	case "load":
		return hwCheckLoad(r, b)
	case "store":
		return hwCheckStore(r, b)
	case "random":
		return hwCheckRandom(r, b)
	case "onehot":
		return hwCheckOneHot(r, b)
	}
	return []string{"unknown block kind " + b.kind()}
}

func readHWData(t *testing.T) *hwData {
	t.Helper()
	d, err := readHW(hwFile)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// Every ldmatrix, stmatrix and plain mma.sync record agrees with what the
// H100 did, and every such record that sm_90 runs was measured.
func TestNvidiaRecordsAgreeWithHardware(t *testing.T) {
	lib := nvidiaLib(t)
	d := readHWData(t)
	if d.header["gpu"] != "NVIDIA H100 80GB HBM3" || d.header["capability"] != "9.0" || d.header["failures"] != "0" {
		t.Fatalf("%s: header %v: want an H100 (9.0) run with no failures", hwFile, d.header)
	}
	lookup := func(n string) *model.Record { return lib.Records[n] }
	measured := map[string]bool{}
	for _, b := range d.blocks {
		name := b.name()
		if b.kind() == "chain" {
			name = b.kind() + " " + name
		}
		t.Run(b.kind()+"_"+b.name(), func(t *testing.T) {
			if bad := hwCheck(lookup, b); len(bad) > 0 {
				t.Errorf("%s:%d: %s: %d disagreements, the first: %s", hwFile, b.line, name, len(bad), strings.Join(bad[:min(len(bad), 4)], "; "))
			}
		})
		measured[b.name()+" "+b.kind()] = true
	}
	for _, n := range lib.RecordNames() {
		r := lib.Records[n]
		if r.Vendor != "nvidia" || strings.Contains(r.Instruction, ".kind::") {
			continue // the .kind:: forms need sm_120a
		}
		var want []string
		switch {
		case strings.HasPrefix(r.Instruction, "ldmatrix."):
			want = []string{"load"}
		case strings.HasPrefix(r.Instruction, "stmatrix."):
			want = []string{"store"}
		case strings.HasPrefix(r.Instruction, "mma.sync."):
			want = []string{"random", "onehot"}
		}
		for _, k := range want {
			if !measured[n+" "+k] {
				t.Errorf("%s: no %s measurement in %s (rerun hwcheck/nvidia)", n, k, hwFile)
			}
		}
	}
}

// hwAltered returns a copy of r whose operand op (or fragment, for "") has
// bases i and j of its linear layout exchanged, the flat list being the
// register bases followed by the lane bases.
func hwAltered(t *testing.T, r *model.Record, op string, i, j int) *model.Record {
	t.Helper()
	c := *r
	c.Operands = map[string]*model.Operand{}
	for k, v := range r.Operands {
		c.Operands[k] = v
	}
	var orig *model.Operand
	if op == "" {
		orig = r.Fragment
	} else {
		orig = r.Operands[op]
	}
	lin, err := model.ExpressLinear(orig.Layout)
	if err != nil {
		t.Fatal(err)
	}
	flat := append(slices.Clone(lin.Register), lin.Lane...)
	flat[i], flat[j] = flat[j], flat[i]
	nr := len(lin.Register)
	lin.Register, lin.Lane = flat[:nr], flat[nr:]
	l, err := lin.Layout(model.Frame{Shape: orig.Layout.Shape(), SubgroupSize: 32, Subgroups: 1})
	if err != nil {
		t.Fatal(err)
	}
	alt := *orig
	alt.Layout = l
	if op == "" {
		c.Fragment = &alt
	} else {
		c.Operands[op] = &alt
	}
	return &c
}

// The checks above can fail: exchanging any two bases of any one operand
// of a measured record (a different map, as the bases of a layout are
// distinct) makes the blocks of that record disagree with the hardware.
func TestHardwareCheckCatchesAlteredRecords(t *testing.T) {
	lib := nvidiaLib(t)
	d := readHWData(t)
	byRecord := map[string][]hwBlock{}
	for _, b := range d.blocks {
		names := []string{b.name()}
		if b.kind() == "chain" {
			names = b.head[2:3] // the record whose D layout the chain reads
		}
		for _, n := range names {
			byRecord[n] = append(byRecord[n], b)
		}
	}
	for _, name := range []string{"ldmatrix_x4_trans", "ldmatrix_x1", "stmatrix_x2", "stmatrix_x4_trans",
		"mma_m16n8k16_f32_f16", "mma_m16n8k8_f32_tf32", "mma_m16n8k32_s32_s8", "mma_m16n8k32_f16_e5m2_e4m3"} {
		r := lib.Records[name]
		ops := []string{"a", "b", "c", "d"}
		if r.Kind != model.RecordMMA {
			ops = []string{""}
		}
		for _, op := range ops {
			var l *model.Layout
			if op == "" {
				l = r.Fragment.Layout
			} else {
				l = r.Operands[op].Layout
			}
			n := len(l.Radices(model.Register)) + len(l.Radices(model.Lane))
			for i := range n {
				for j := i + 1; j < n; j++ {
					alt := hwAltered(t, r, op, i, j)
					lookup := func(s string) *model.Record {
						if s == name {
							return alt
						}
						return lib.Records[s]
					}
					caught := false
					for _, b := range byRecord[name] {
						if len(hwCheck(lookup, b)) > 0 {
							caught = true
						}
					}
					if !caught {
						t.Errorf("%s %s with bases %d and %d exchanged still agrees with the hardware", name, op, i, j)
					}
				}
			}
		}
	}
}

// K bits 0 and 1 exchanged in both A and B of mma_m16n8k16_f32_f16 (A's
// register basis 0 with its lane basis 0, B's likewise) renumber K alike
// in both: every product, and so the random and one-hot blocks, still
// agree; only the chain through ldmatrix, which ties A and B to memory,
// tells the altered record from the hardware.
func TestHardwareChainPinsK(t *testing.T) {
	lib := nvidiaLib(t)
	d := readHWData(t)
	const name = "mma_m16n8k16_f32_f16"
	alt := hwAltered(t, lib.Records[name], "a", 0, 3)
	alt = hwAltered(t, alt, "b", 0, 2)
	lookup := func(s string) *model.Record {
		if s == name {
			return alt
		}
		return lib.Records[s]
	}
	chains := 0
	for _, b := range d.blocks {
		switch {
		case b.kind() == "chain" && slices.Contains(b.head[2:], name):
			chains++
			if len(hwCheck(lookup, b)) == 0 {
				t.Errorf("%s: the chain agrees with K renumbered in A and B", b.name())
			}
		case b.name() == name:
			if bad := hwCheck(lookup, b); len(bad) > 0 {
				t.Errorf("%s %s: K renumbered in A and B should give the same products, got %s", b.kind(), name, bad[0])
			}
		}
	}
	if chains != 1 {
		t.Fatalf("%d chains through %s, want 1", chains, name)
	}
}

// The decoders read the measurement's bits as the element types define
// them (IEEE 754 binary16; bfloat16 as the high half of binary32; the OCP
// FP8 formats E4M3, bias 7 with one NaN, and E5M2, bias 15).
func TestHardwareValueDecoding(t *testing.T) {
	for _, c := range []struct {
		dtype string
		bits  uint32
		want  float64
	}{
		{"f16", 0x3c00, 1}, {"f16", 0xc200, -3}, {"f16", 0x0001, math.Ldexp(1, -24)}, {"f16", 0x5800, 128},
		{"bf16", 0x4040, 3}, {"bf16", 0xbf80, -1},
		{"tf32", 0x40400000, 3}, {"f32", 0xc1000000, -8},
		{"f8e4m3", 0x38, 1}, {"f8e4m3", 0xc4, -3}, {"f8e4m3", 0x7e, 448}, {"f8e4m3", 0x01, math.Ldexp(1, -9)},
		{"f8e5m2", 0x3c, 1}, {"f8e5m2", 0x42, 3}, {"f8e5m2", 0xd0, -32}, {"f8e5m2", 0x01, math.Ldexp(1, -16)},
		{"s8", 0xfd, -3}, {"s32", 0xfffffff8, -8},
	} {
		if got := hwValue(c.dtype, c.bits); got != c.want {
			t.Errorf("%s %#x = %g, want %g", c.dtype, c.bits, got, c.want)
		}
	}
	for _, c := range []struct {
		dtype string
		bits  uint32
	}{{"f8e4m3", 0x7f}, {"f8e5m2", 0x7d}, {"f16", 0x7e00}} {
		if got := hwValue(c.dtype, c.bits); !math.IsNaN(got) {
			t.Errorf("%s %#x = %g, want NaN", c.dtype, c.bits, got)
		}
	}
}
