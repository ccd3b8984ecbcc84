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

	"planner/internal/golden"
	"planner/model"
	"planner/notation"
)

// The NVIDIA records held against what an H100 did with the instructions
// they name: testdata/hardware/nvidia_h100.txt (warp-level instructions)
// and nvidia_h100_wgmma.txt (wgmma.mma_async) are the output of
// hwcheck/nvidia/hwcheck.c (its README says how they were made and what
// each block means). The measurement reads no record; the checks below
// read the records and the measurement alone, never the PTX ISA's tables,
// except for where the wgmma kernels put B in shared memory (hwBElement).

const (
	hwFile      = "testdata/hardware/nvidia_h100.txt"
	hwWgmmaFile = "testdata/hardware/nvidia_h100_wgmma.txt"
)

// hwBlock is one block of a measurement file: its first line's words
// (kind, record or case name, then the instruction or the records a chain
// names) and its body lines split into words, each with its line number.
type hwBlock struct {
	file  string
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

// hwKinds are the words that open a block.
var hwKinds = []string{"load", "store", "random", "onehot", "chain", "wgrandom", "wgonehot"}

// readHW parses a measurement file. Lines outside blocks are "key value";
// a block runs from a line starting with one of hwKinds to a line "end".
// Errors carry file:line.
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
		case slices.Contains(hwKinds, words[0]):
			if len(words) < 3 {
				return nil, fmt.Errorf("%s:%d:1: expected a kind, a name and an instruction, found %q", path, n, text)
			}
			cur = &hwBlock{file: path, head: words, line: n}
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
	return hwThreads(b, "lane", 32)
}

// hwThreads parses the n lines "<word> T ..." (T from 0 to n-1) into each
// thread's named groups of words, as hwLanes does for lanes.
func hwThreads(b hwBlock, word string, n int) (map[int]map[string][]uint32, []string) {
	lanes := map[int]map[string][]uint32{}
	var bad []string
	for i, w := range b.body {
		if w[0] != word || len(w) < 2 {
			continue
		}
		l, err := strconv.Atoi(w[1])
		if err != nil || l < 0 || l >= n {
			bad = append(bad, fmt.Sprintf("%s:%d: expected a %s number 0..%d, found %q", b.file, b.lines[i], word, n-1, w[1]))
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
	if len(lanes) != n {
		bad = append(bad, fmt.Sprintf("%s:%d: %d %ss, want %d", b.file, b.line, len(lanes), word, n))
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

// hwElements reads an operand's registers, as one thread's words each, into
// its matrix by the operand's layout: value v of a thread lies in register
// v * bits / 32 from bit v * bits % 32 up, and thread t is lane t % 32 of
// subgroup t / 32.
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
	for thread := range 32 * l.Size(model.Subgroup) {
		for v := range l.Size(model.Register) {
			w := regs[thread]
			if v/per >= len(w) {
				bad = append(bad, fmt.Sprintf("%s: thread %d has %d registers, value %d needs register %d", op.Name, thread, len(w), v, v/per))
				return m, bad
			}
			idx := l.Index(model.HwPoint{Value: v, Lane: thread % 32, Subgroup: thread / 32})
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
				bad = append(bad, fmt.Sprintf("%s:%d: stmatrix wrote %v halves outside the rows its lanes named", b.file, b.lines[i], w[1:]))
			}
		case "row":
			mat, _ := strconv.Atoi(w[1])
			row, _ := strconv.Atoi(w[2])
			codes, _ := hwWords(w, 3)
			if len(codes) != 8 {
				bad = append(bad, fmt.Sprintf("%s:%d: %d halves, want 8", b.file, b.lines[i], len(codes)))
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

// hwOperands reads the named operands' registers, each thread's group of
// words under the operand's name, into matrices by the record's layouts,
// adding what went wrong to bad; nil when an operand has no layout.
func hwOperands(r *model.Record, threads map[int]map[string][]uint32, names []string, bad []string) (map[string][][]float64, []string) {
	ops := map[string][][]float64{}
	for _, name := range names {
		regs := map[int][]uint32{}
		for t, g := range threads {
			regs[t] = g[name]
		}
		m, errs := hwElements(r.Operands[name], regs)
		if m == nil {
			return nil, append(bad, name+": "+errs[0])
		}
		bad = append(bad, errs...)
		ops[name] = m
	}
	return ops, bad
}

// hwCheckRandom: the registers went in and came out as the file says; read
// through the record's four layouts they must satisfy D = A x B + C.
func hwCheckRandom(r *model.Record, b hwBlock) []string {
	lanes, bad := hwLanes(b)
	ops, bad := hwOperands(r, lanes, []string{"a", "b", "c", "d"}, bad)
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
	at := hwSlot
	seen := map[[3]int]bool{}
	for i, w := range b.body {
		if w[0] != "t" || len(w) != 4 {
			bad = append(bad, fmt.Sprintf("%s:%d: expected \"t i j d\", found %q", b.file, b.lines[i], strings.Join(w, " ")))
			continue
		}
		var s [3]int
		for k := range s {
			s[k], _ = strconv.Atoi(w[k+1])
		}
		if s[0] >= 32*a.Size(model.Register) || s[1] >= 32*bb.Size(model.Register) || s[2] >= 32*d.Size(model.Register) {
			bad = append(bad, fmt.Sprintf("%s:%d: slot out of range", b.file, b.lines[i]))
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

// hwSlot is the element a layout puts at value slot: value slot % values
// of thread slot / values, which is lane thread % 32 of subgroup
// thread / 32.
func hwSlot(l *model.Layout, slot int) []int {
	v := l.Size(model.Register)
	t := slot / v
	return l.Index(model.HwPoint{Value: slot % v, Lane: t % 32, Subgroup: t / 32})
}

// hwBElement is the shared-memory element (16-bit, counted from the
// descriptor's start address) that holds B[k][n] of a wgmma whose B is
// K-major with no swizzle: core matrices of 8 rows of N by 16 bytes (8 K
// values), the next 8 K values lbo bytes on, the next 8 rows of N sbo
// bytes on. PTX ISA, "Asynchronous Warpgroup Level Matrix
// Multiply-Accumulate Instructions", "Shared Memory Matrix Layout" (no
// swizzle, K-major: an 8x1 atom of 128-bit elements) and "Matrix
// Descriptor Format" (leading dimension byte offset, stride dimension byte
// offset); the same canonical form as NVIDIA/cutlass
// include/cute/atom/mma_traits_sm90_gmma.hpp writes for K-major
// INTERLEAVE, ((8,m),(T,2)):((1T,SBO),(1,LBO)) in 16-byte units.
func hwBElement(lbo, sbo, k, n int) int {
	return (n/8*sbo + k/8*lbo + n%8*16 + k%8*2) / 2
}

// hwWgB is what a wgmma block says of B: the descriptor's strides (its
// line "lbo L sbo S"), the tile (lines "bmem e h0 .. h15": elements e to
// e+15 of shared memory) and, for each element of the K x N tile under
// hwBElement, B[k][n] as a matrix and where element e lies (-1 outside).
type hwWgB struct {
	lbo, sbo int
	at       map[int][2]int
	mem      map[int]uint32
}

func hwReadWgB(b hwBlock, k, n int) (*hwWgB, []string) {
	w := &hwWgB{at: map[int][2]int{}, mem: map[int]uint32{}}
	var bad []string
	for i, f := range b.body {
		switch f[0] {
		case "lbo":
			if len(f) != 4 || f[2] != "sbo" {
				bad = append(bad, fmt.Sprintf("%s:%d: expected \"lbo L sbo S\", found %q", b.file, b.lines[i], strings.Join(f, " ")))
				continue
			}
			w.lbo, _ = strconv.Atoi(f[1])
			w.sbo, _ = strconv.Atoi(f[3])
		case "bmem":
			e, err := strconv.Atoi(f[1])
			halves, _ := hwWords(f, 2)
			if err != nil || len(halves) != 16 {
				bad = append(bad, fmt.Sprintf("%s:%d: expected \"bmem e\" and 16 halves, found %q", b.file, b.lines[i], strings.Join(f, " ")))
				continue
			}
			for j, h := range halves {
				w.mem[e+j] = h
			}
		}
	}
	if w.lbo <= 0 || w.sbo <= 0 {
		return nil, append(bad, fmt.Sprintf("%s:%d: no descriptor strides", b.file, b.line))
	}
	for kk := range k {
		for nn := range n {
			w.at[hwBElement(w.lbo, w.sbo, kk, nn)] = [2]int{kk, nn}
		}
	}
	return w, bad
}

// matrix is B as the shared-memory tile holds it under hwBElement.
func (w *hwWgB) matrix(k, n int) ([][]float64, []string) {
	var bad []string
	m := make([][]float64, k)
	for kk := range m {
		m[kk] = make([]float64, n)
		for nn := range m[kk] {
			e := hwBElement(w.lbo, w.sbo, kk, nn)
			h, ok := w.mem[e]
			if !ok {
				bad = append(bad, fmt.Sprintf("B[%d][%d] would be shared element %d, which the block does not list", kk, nn, e))
			}
			m[kk][nn] = hwValue("f16", h)
		}
	}
	return m, bad
}

// hwCheckWgRandom: A, C and D registers of the 128 threads of the
// warpgroup and B in shared memory went in and came out as the file says;
// read through the record's layouts and hwBElement they must satisfy
// D = A x B + C.
func hwCheckWgRandom(r *model.Record, b hwBlock) []string {
	threads, bad := hwThreads(b, "thread", 32*r.Subgroups)
	ops, bad := hwOperands(r, threads, []string{"a", "c", "d"}, bad)
	if ops == nil {
		return bad
	}
	w, errs := hwReadWgB(b, r.K, r.N)
	if w == nil {
		return append(bad, errs...)
	}
	bm, errs2 := w.matrix(r.K, r.N)
	if bad = append(append(bad, errs...), errs2...); len(bad) > 0 {
		return bad
	}
	return hwCompare("D", ops["d"], hwProduct(ops["a"], bm, ops["c"]))
}

// hwCheckWgOneHot: each line "t i e d" says that with 1 in A's value slot
// i (thread i / 8, value i % 8), zeros elsewhere in A and C, and every
// shared-memory element coded, D's slot d (thread d / (N/2), value
// d % (N/2)) held shared element e. By the record, slot i holds A[m][k] and
// slot d D[m'][n]; by hwBElement, element e is B[k'][n']: k = k', m = m',
// n = n' on every line, e inside the tile, and every A slot and every D
// slot on some line. The lines pin K and N of A and D absolutely (B's
// place in memory names them) and M up to one renumbering of A's and D's
// rows alike. "lit" and "odd" lines are failures of the run.
func hwCheckWgOneHot(r *model.Record, b hwBlock) []string {
	a, d := r.Operands["a"].Layout, r.Operands["d"].Layout
	threads := 32 * r.Subgroups
	w, bad := hwReadWgB(b, r.K, r.N)
	if w == nil {
		return bad
	}
	seenA, seenD := map[int]bool{}, map[int]bool{}
	for i, f := range b.body {
		switch f[0] {
		case "lbo":
			continue
		case "rows":
			if len(f) != 2 || f[1] != strconv.Itoa(r.M) {
				bad = append(bad, fmt.Sprintf("%s:%d: %q, want %d rows", b.file, b.lines[i], strings.Join(f, " "), r.M))
			}
			continue
		case "t":
		default:
			bad = append(bad, fmt.Sprintf("%s:%d: the run reported %q", b.file, b.lines[i], strings.Join(f, " ")))
			continue
		}
		var s [3]int
		for k := range s {
			if len(f) == 4 {
				s[k], _ = strconv.Atoi(f[k+1])
			}
		}
		kn, inTile := w.at[s[1]]
		if len(f) != 4 || s[0] >= threads*a.Size(model.Register) || s[2] >= threads*d.Size(model.Register) || !inTile {
			bad = append(bad, fmt.Sprintf("%s:%d: %q: a slot or element out of range (element %d in the tile: %v)", b.file, b.lines[i], strings.Join(f, " "), s[1], inTile))
			continue
		}
		ea, ed := hwSlot(a, s[0]), hwSlot(d, s[2])
		if ea[1] != kn[0] || ea[0] != ed[0] || kn[1] != ed[1] {
			bad = append(bad, fmt.Sprintf("A slot %d (A%v), shared element %d (B%v) gave D slot %d (D%v)", s[0], ea, s[1], kn, s[2], ed))
			continue
		}
		seenA[s[0]], seenD[s[2]] = true, true
	}
	if len(seenA) != r.M*r.K || len(seenD) != r.M*r.N {
		bad = append(bad, fmt.Sprintf("%d A slots and %d D slots agree, want %d and %d", len(seenA), len(seenD), r.M*r.K, r.M*r.N))
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
		return []string{fmt.Sprintf("%s:%d: A is %d rows, B %d", b.file, b.line, len(a), len(bt))}
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
	case "wgrandom":
		return hwCheckWgRandom(r, b)
	case "wgonehot":
		return hwCheckWgOneHot(r, b)
	}
	return []string{"unknown block kind " + b.kind()}
}

// hwWgmmaN are the N of the wgmma.mma_async forms hwcheck runs (both
// accumulator types each).
var hwWgmmaN = []int{8, 16, 64, 256}

func readHWData(t *testing.T, path string) *hwData {
	t.Helper()
	d, err := readHW(path)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// hwBlocks reads both measurement files, each of which must be a run on
// an H100 (9.0) with no failures, and returns their blocks.
func hwBlocks(t *testing.T) []hwBlock {
	t.Helper()
	var blocks []hwBlock
	for _, path := range []string{hwFile, hwWgmmaFile} {
		d := readHWData(t, path)
		if d.header["gpu"] != "NVIDIA H100 80GB HBM3" || d.header["capability"] != "9.0" || d.header["failures"] != "0" {
			t.Fatalf("%s: header %v: want an H100 (9.0) run with no failures", path, d.header)
		}
		blocks = append(blocks, d.blocks...)
	}
	return blocks
}

// Every ldmatrix, stmatrix, plain mma.sync and measured wgmma.mma_async
// record agrees with what the H100 did, and every such record that sm_90
// runs was measured (wgmma: the N of hwWgmmaN).
func TestNvidiaRecordsAgreeWithHardware(t *testing.T) {
	lib := nvidiaLib(t)
	lookup := func(n string) *model.Record { return lib.Records[n] }
	measured := map[string]bool{}
	for _, b := range hwBlocks(t) {
		name := b.name()
		if b.kind() == "chain" {
			name = b.kind() + " " + name
		}
		t.Run(b.kind()+"_"+b.name(), func(t *testing.T) {
			if bad := hwCheck(lookup, b); len(bad) > 0 {
				t.Errorf("%s:%d: %s: %d disagreements, the first: %s", b.file, b.line, name, len(bad), strings.Join(bad[:min(len(bad), 4)], "; "))
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
		case strings.HasPrefix(r.Instruction, "wgmma.mma_async.") && slices.Contains(hwWgmmaN, r.N):
			want = []string{"wgrandom", "wgonehot"}
		}
		for _, k := range want {
			if !measured[n+" "+k] {
				t.Errorf("%s: no %s measurement in %s or %s (rerun hwcheck/nvidia)", n, k, hwFile, hwWgmmaFile)
			}
		}
	}
}

// hwAltered returns a copy of r whose operand op (or fragment, for "") has
// bases i and j of its linear layout exchanged, the flat list being the
// register bases, then the lane bases, then the subgroup (warp) bases.
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
	lin, err := notation.ExpressLinear(orig.Layout)
	if err != nil {
		t.Fatal(err)
	}
	flat := slices.Concat(lin.Register, lin.Lane, lin.Warp)
	flat[i], flat[j] = flat[j], flat[i]
	nr, nl := len(lin.Register), len(lin.Lane)
	lin.Register, lin.Lane, lin.Warp = flat[:nr], flat[nr:nr+nl], flat[nr+nl:]
	l, err := lin.Layout(model.FrameOf(orig.Layout))
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
// The short run exchanges neighbouring bases (each base moved at least
// once) and the first with the last; PLANNER_LONG_TESTS=1 every pair.
func TestHardwareCheckCatchesAlteredRecords(t *testing.T) {
	lib := nvidiaLib(t)
	byRecord := map[string][]hwBlock{}
	for _, b := range hwBlocks(t) {
		names := []string{b.name()}
		if b.kind() == "chain" {
			names = b.head[2:3] // the record whose D layout the chain reads
		}
		for _, n := range names {
			byRecord[n] = append(byRecord[n], b)
		}
	}
	for _, name := range []string{"ldmatrix_x4_trans", "ldmatrix_x1", "stmatrix_x2", "stmatrix_x4_trans",
		"mma_m16n8k16_f32_f16", "mma_m16n8k8_f32_tf32", "mma_m16n8k32_s32_s8", "mma_m16n8k32_f16_e5m2_e4m3",
		"wgmma_m64n8k16_f16_f16", "wgmma_m64n16k16_f32_f16", "wgmma_m64n64k16_f32_f16"} {
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
			if l == nil {
				continue // wgmma's B, in shared memory
			}
			n := len(l.Radices(model.Register)) + len(l.Radices(model.Lane)) + len(l.Radices(model.Subgroup))
			for i := range n {
				for j := i + 1; j < n; j++ {
					if !golden.LongTests() && j != i+1 && (i != 0 || j != n-1) {
						continue
					}
					alt := hwAltered(t, r, op, i, j)
					lookup := func(s string) *model.Record {
						if s == name {
							return alt
						}
						return lib.Records[s]
					}
					caught := map[string]bool{}
					for _, b := range byRecord[name] {
						if len(hwCheck(lookup, b)) > 0 {
							caught[b.kind()] = true
						}
					}
					if len(caught) == 0 {
						t.Errorf("%s %s with bases %d and %d exchanged still agrees with the hardware", name, op, i, j)
					}
					if (op == "a" || op == "d") && strings.HasPrefix(name, "wgmma") && !caught["wgonehot"] {
						t.Errorf("%s %s with bases %d and %d exchanged agrees with the one-hot block", name, op, i, j)
					}
				}
			}
		}
	}
}

// The wgmma blocks pin where B lies in shared memory: read with the
// descriptor's two strides exchanged (the next 8 K values sbo bytes on,
// the next 8 rows of N lbo bytes on), every wgmma block disagrees with
// its record, so a descriptor the hardware read otherwise than
// hwBElement assumes could not pass as agreement.
func TestHardwareWgmmaPinsBInMemory(t *testing.T) {
	lib := nvidiaLib(t)
	lookup := func(n string) *model.Record { return lib.Records[n] }
	blocks := 0
	for _, b := range hwBlocks(t) {
		if !strings.HasPrefix(b.kind(), "wg") {
			continue
		}
		blocks++
		swapped := b
		swapped.body = slices.Clone(b.body)
		for i, w := range swapped.body {
			if w[0] == "lbo" && len(w) == 4 {
				swapped.body[i] = []string{"lbo", w[3], "sbo", w[1]}
			}
		}
		if len(hwCheck(lookup, swapped)) == 0 {
			t.Errorf("%s:%d: %s %s agrees with LBO and SBO exchanged", b.file, b.line, b.kind(), b.name())
		}
	}
	if blocks != 2*2*len(hwWgmmaN) {
		t.Errorf("%d wgmma blocks, want %d", blocks, 2*2*len(hwWgmmaN))
	}
}

// K bits 0 and 1 exchanged in both A and B of mma_m16n8k16_f32_f16 (A's
// register basis 0 with its lane basis 0, B's likewise) renumber K alike
// in both: every product, and so the random and one-hot blocks, still
// agree; only the chain through ldmatrix, which ties A and B to memory,
// tells the altered record from the hardware.
func TestHardwareChainPinsK(t *testing.T) {
	lib := nvidiaLib(t)
	d := readHWData(t, hwFile)
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
