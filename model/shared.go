package model

import (
	"fmt"
	"strings"
	"sync"
)

// Swizzle XORs bits of a byte offset: the Bits bits starting at
// Base+Shift are XORed into the Bits bits starting at Base, as CuTe's
// Swizzle<B, M, S> does on its own units (cute/swizzle.hpp). Over bytes,
// Hopper's 128-byte mode is {3, 4, 3}: the 16-byte chunk index within a
// 128-byte row is XORed with the row index modulo 8 (PTX ISA, "Shared
// Memory Matrix Layout", swizzling modes); 64B is {2, 4, 3}, 32B {1, 4, 3}.
type Swizzle struct {
	Bits, Base, Shift int
}

// Apply permutes a byte offset.
func (s Swizzle) Apply(addr int) int {
	if s.Bits <= 0 {
		return addr
	}
	mask := 1<<s.Bits - 1
	return addr ^ ((addr>>(s.Base+s.Shift))&mask)<<s.Base
}

func (s Swizzle) String() string {
	if s.Bits <= 0 {
		return "none"
	}
	return fmt.Sprintf("xor(bits %d, base %d, shift %d)", s.Bits, s.Base, s.Shift)
}

// ModeSwizzle is the swizzle a named mode stands for.
func ModeSwizzle(mode string) Swizzle {
	if b := swizzleBits(mode); b > 0 {
		return Swizzle{Bits: b, Base: 4, Shift: 3}
	}
	return Swizzle{}
}

// ModeSpan is the bytes one row of a descriptor mode's pattern spans: 16
// without a swizzle, else the mode's own width (32, 64 or 128).
func ModeSpan(mode string) int { return 16 << swizzleBits(mode) }

// DescriptorMode is the named mode a matrix descriptor would give for this
// placement: its named swizzle, or the mode whose XOR its explicit one is;
// an error for an XOR that is no mode's.
func (s *SharedLayout) DescriptorMode() (string, error) {
	if s.XOR.Bits > 0 {
		for _, mode := range SwizzleModes {
			if mode != "none" && ModeSwizzle(mode) == s.XOR {
				return mode, nil
			}
		}
		return "", fmt.Errorf("the buffer's swizzle %s is none of a descriptor's modes (%s)", s.XOR, strings.Join(SwizzleModes, ", "))
	}
	if s.Swizzle == "" {
		return "none", nil
	}
	return s.Swizzle, nil
}

// CanonicalMode is the mode in which a matrix descriptor describes the
// placement (one of SwizzleModes), whatever instruction reads it: its
// DescriptorMode, where the placement is that mode's canonical layout;
// an error saying why it is none.
func (s *SharedLayout) CanonicalMode() (string, error) {
	mode, err := s.DescriptorMode()
	if err != nil {
		return "", err
	}
	if err := s.canonicalIn(mode); err != nil {
		return "", err
	}
	return mode, nil
}

// canonicalIn says why the placement is not the canonical layout of the
// descriptor mode it swizzles in; nil when it is.
func (s *SharedLayout) canonicalIn(mode string) error {
	if s.PadEvery > 0 && s.Pad > 0 {
		return fmt.Errorf("a descriptor describes a dense swizzled tile: padding every %d rows cannot be named", s.PadEvery)
	}
	// In every mode the 8 rows of a core matrix lie one span apart:
	// 16 bytes without a swizzle (each 8x16-byte core matrix
	// contiguous), 32, 64 or 128 bytes in the swizzled modes (NVIDIA/
	// cutlass include/cute/atom/mma_traits_sm90_gmma.hpp, the canonical
	// layouts of make_gmma_desc: Swizzle<0..3,4,3> o ((T,1|2|4|8,m),
	// (8,k)):((1,T,LBO),(1|2|4|8 T,SBO)), T the elements of 16 bytes;
	// PTX ISA, "Shared Memory Matrix Layout"). A row-major buffer is one
	// of them when its rows are exactly that span; a buffer in column
	// blocks when each block's rows are, the blocks whole atoms (8 rows
	// each, so that every block starts where the pattern repeats): the
	// atoms repeat down the rows at the stride dimension byte offset and
	// across the blocks at the leading dimension byte offset.
	if s.columnBlocked() {
		switch {
		case s.Stride != 0 || s.PadEvery > 0 && s.Pad > 0:
			return fmt.Errorf("a buffer in column blocks is dense within each block")
		case s.storedCols()%s.ColumnBlock != 0:
			return fmt.Errorf("column blocks of %d do not divide the buffer's %d stored columns", s.ColumnBlock, s.storedCols())
		case s.storedRows()%8 != 0:
			return fmt.Errorf("column blocks of %d rows are not whole atoms of 8 rows", s.storedRows())
		}
	}
	if span, rowBytes := ModeSpan(mode), s.stride()*s.ElemBits/8; rowBytes != span {
		what := "swizzle " + mode
		if mode == "none" {
			what = "no swizzle (each core matrix of 8 rows of 16 bytes contiguous)"
		}
		return fmt.Errorf("%s lays out rows of %d bytes; the buffer's rows are %d bytes", what, span, rowBytes)
	}
	return nil
}

// swizzle is the swizzle the layout applies: its explicit XOR, or its
// named mode's.
func (s *SharedLayout) swizzle() Swizzle {
	if s.XOR.Bits > 0 {
		return s.XOR
	}
	return ModeSwizzle(s.Swizzle)
}

// XORSwizzle is the XOR swizzle the layout applies: XOR when it is set,
// else the one its Swizzle mode names (none when neither is).
func (s *SharedLayout) XORSwizzle() Swizzle { return s.swizzle() }

// Swizzled reports whether the layout permutes addresses.
func (s *SharedLayout) Swizzled() bool { return s.swizzle().Bits > 0 }

// ByteOffset is where element (i, j) starts, in bytes.
func (s *SharedLayout) ByteOffset(i, j int) int { return s.Offset(i, j) * s.ElemBits / 8 }

// Formula writes the address of element (i, j) as an expression, in
// bytes from the buffer's start.
func (s *SharedLayout) Formula() string {
	elems := fmt.Sprintf("i*%d + j", s.stride())
	if s.columnBlocked() {
		w := s.ColumnBlock
		elems = fmt.Sprintf("(j/%d)*%d + i*%d + j%%%d", w, s.storedRows()*w, w, w)
	}
	if s.ColumnMajor {
		elems = strings.NewReplacer("i", "j", "j", "i").Replace(elems)
	}
	if s.PadEvery > 0 && s.Pad > 0 {
		if s.PadEvery == 1 {
			elems += fmt.Sprintf(" + i*%d", s.Pad)
		} else {
			elems += fmt.Sprintf(" + (i/%d)*%d", s.PadEvery, s.Pad)
		}
	}
	bytes := fmt.Sprintf("%s*(%s)", bytesPerElem(s.ElemBits), elems)
	sw := s.swizzle()
	if sw.Bits == 0 {
		return "addr(i, j) = " + bytes
	}
	return fmt.Sprintf("addr(i, j) = a ^ (((a >> %d) & %d) << %d), a = %s", sw.Base+sw.Shift, 1<<sw.Bits-1, sw.Base, bytes)
}

func bytesPerElem(bits int) string {
	if bits%8 == 0 {
		return fmt.Sprint(bits / 8)
	}
	return fmt.Sprintf("%d/8", bits)
}

// Access is how one subgroup's warp-wide shared-memory instructions
// touch a buffer: how many instructions, how many wavefronts they take,
// and how many a conflict-free access of the same width would take.
type Access struct {
	Instructions int
	Wavefronts   int
	Ideal        int
	Vector       int // elements per lane per instruction
	Bytes        int // bytes per lane per instruction
}

// Conflicts is the number of wavefronts beyond the conflict-free count.
func (a Access) Conflicts() int { return a.Wavefronts - a.Ideal }

func (a Access) String() string {
	return fmt.Sprintf("%d instructions of %d bytes per lane, %d wavefronts (%d without conflicts)", a.Instructions, a.Bytes, a.Wavefronts, a.Ideal)
}

// PhaseWavefronts counts the wavefronts of one warp-wide shared-memory
// instruction in which lane k accesses width bytes from byte addrs[k].
// Shared memory serves Banks banks of BankBytes bytes per wavefront;
// lanes reading the same bank word are served together (a broadcast),
// while distinct words of one bank take one wavefront each (CUDA C++
// Programming Guide, "Compute Capability 5.x/8.x", "Shared Memory"). An
// access wider than a bank word is split into phases of as many lanes as
// one wavefront can serve (half warps for 8 bytes, quarter warps for 16
// bytes on NVIDIA), and conflicts count within a phase.
func PhaseWavefronts(addrs []int, width int, t *Target) int {
	return newBankCounter(t).wavefronts(addrs, width)
}

// bankCounter counts wavefronts, keeping its per-bank lists between
// instructions.
type bankCounter struct {
	banks, bankBytes int
	seen             [][]int
}

// bankCounters keeps the counters given back (release) for the next
// count: a solve counts thousands of accesses, each with a counter.
var bankCounters sync.Pool

func newBankCounter(t *Target) *bankCounter {
	banks, bankBytes := bankGeometry(t)
	if bc, ok := bankCounters.Get().(*bankCounter); ok && bc.banks == banks {
		bc.bankBytes = bankBytes
		return bc
	}
	// Each bank's list starts in one shared array, room for a few words
	// (more conflicts than that grow the list on its own).
	const room = 4
	words := make([]int, banks*room)
	seen := make([][]int, banks)
	for b := range seen {
		seen[b] = words[b*room : b*room : (b+1)*room]
	}
	return &bankCounter{banks: banks, bankBytes: bankBytes, seen: seen}
}

// release gives the counter back for another count; it is not used
// after.
func (bc *bankCounter) release() { bankCounters.Put(bc) }

func (bc *bankCounter) wavefronts(addrs []int, width int) int {
	banks, bankBytes := bc.banks, bc.bankBytes
	per := max(1, banks*bankBytes/max(width, bankBytes))
	total := 0
	// Per bank, the distinct words the phase touches: few, so a short
	// list per bank beats a set.
	seen := bc.seen
	for p := 0; p < len(addrs); p += per {
		for b := range seen {
			seen[b] = seen[b][:0]
		}
		most := 1
		for _, a := range addrs[p:min(p+per, len(addrs))] {
			for w := a / bankBytes; w <= (a+width-1)/bankBytes; w++ {
				b := w % banks
				if !containsInt(seen[b], w) {
					seen[b] = append(seen[b], w)
					most = max(most, len(seen[b]))
				}
			}
		}
		total += most
	}
	return total
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// idealWavefronts is the wavefronts of a conflict-free instruction of
// lanes lanes moving width bytes each: one per phase (PhaseWavefronts).
func idealWavefronts(lanes, width int, t *Target) int {
	banks, bankBytes := bankGeometry(t)
	per := max(1, banks*bankBytes/max(width, bankBytes))
	return max(1, ceilDiv(lanes, per))
}

// AccessVectors counts the wavefronts of reading or writing the elements
// held in layout l (the buffer's shape) from buffer s, each lane moving
// vector consecutive elements per instruction (its lowest register
// digits): lane addresses per instruction of subgroup 0, then
// PhaseWavefronts (the other subgroups access the same pattern at other
// offsets). Where the buffer does not
// keep a lane's vector contiguous and aligned, the vector is halved.
//
// Memo.AccessVectors remembers the count.
func (s *SharedLayout) AccessVectors(l *Layout, vector int, t *Target) Access {
	return s.accessVectors(tablesOf(nil, l), vector, t)
}

func (s *SharedLayout) accessVectors(tb *layoutTables, vector int, t *Target) Access {
	l := tb.l
	return accessVectors(tb, vector, s.ElemBits, func(idx []int) int { return s.Offset(idx[0], idx[1]) }, s.accessForm(l), t, s.countedSubgroups(tb, t))
}

// vectorAccessKey names a count of AccessVectors on a layout.
type vectorAccessKey struct {
	s      SharedLayout
	vector int
	t      *Target
}

// countedSubgroups lists the subgroups whose accesses to placement s must
// be counted: one per distinct part of the tensor, less those whose
// addresses are subgroup 0's moved by one multiple of 16 bytes (their
// banks are subgroup 0's rotated and their vectors as aligned, so their
// wavefronts are the same). Moving a row-padded placement by whole pad periods of rows, or
// by any columns, moves every address alike; a swizzle is counted.
func (s *SharedLayout) countedSubgroups(tb *layoutTables, t *Target) []int {
	l := tb.l
	subs := tb.subgroupsApart()
	if len(subs) <= 1 || l.Rank() != 2 || s.XOR.Bits > 0 || swizzleBits(s.Swizzle) > 0 || !s.rowMajor() {
		return subs
	}
	bankBytes := t.BankBytes
	if bankBytes <= 0 {
		bankBytes = 4
	}
	out := subs[:1:1]
	for _, sub := range subs[1:] {
		off, ok := l.subgroupShift(sub)
		alike := ok && (s.PadEvery == 0 || s.Pad == 0 || off[0]%s.PadEvery == 0) &&
			(s.ByteOffset(off[0], off[1])-s.ByteOffset(0, 0))%max(bankBytes, 16) == 0
		if !alike {
			out = append(out, sub)
		}
	}
	return out
}

// accessVectors is AccessVectors over any placement: offset gives an
// element's position in elements, and form how offsets combine. Each
// subgroup of subs is counted, and the busiest one's count is the
// access's: a subgroup whose rows fall elsewhere in a row-dependent
// placement may conflict where subgroup 0 does not. Vectors are as wide
// as every one of them keeps aligned. The count comes from the layout's
// bases where the form allows (access_form.go), else from its elements.
func accessVectors(tb *layoutTables, vector, elemBits int, offset func(idx []int) int, form addressForm, t *Target, subs []int) Access {
	if a, ok := accessVectorsByForm(tb, vector, elemBits, offset, form, t, subs); ok {
		if accessCheck != nil {
			accessCheck(a, accessVectorsByElements(tb, vector, elemBits, offset, t, subs), func() string {
				return fmt.Sprintf("%d-bit elements of %s, %d per lane, subgroups %v", elemBits, tb.l, vector, subs)
			})
		}
		return a
	}
	return accessVectorsByElements(tb, vector, elemBits, offset, t, subs)
}

// accessVectorsByElements is accessVectors counted instruction by
// instruction from every element the subgroups hold: the reference that
// the counts from bases must equal.
func accessVectorsByElements(tb *layoutTables, vector, elemBits int, offset func(idx []int) int, t *Target, subs []int) Access {
	l := tb.l
	bytes := max(elemBits/8, 1)
	regs := l.Size(Register)
	vector = max(1, min(vector, regs))
	for vector > 1 && !keepsVectors(tb, vector, offset, subs) {
		vector /= 2
	}
	width := vector * elemBits / 8
	if width == 0 {
		width = bytes
	}
	lanes := l.Size(Lane)
	addrs := make([]int, lanes)
	bc := newBankCounter(t)
	var busiest Access
	for i, sub := range subs {
		held := tb.heldBy(sub)
		a := Access{Vector: vector, Bytes: width}
		for k := 0; k < regs; k += vector {
			for lane := range lanes {
				addrs[lane] = offset(held[lane][k]) * elemBits / 8
			}
			a.Instructions++
			a.Wavefronts += bc.wavefronts(addrs, width)
			a.Ideal += idealWavefronts(lanes, width, t)
		}
		if i == 0 || a.Wavefronts > busiest.Wavefronts {
			busiest = a
		}
	}
	return busiest
}

// keepsVectors reports whether every lane's groups of vector consecutive
// values lie at consecutive, vector-aligned offsets, in every subgroup
// of subs.
func keepsVectors(tb *layoutTables, vector int, offset func(idx []int) int, subs []int) bool {
	for _, sub := range subs {
		for _, held := range tb.heldBy(sub) {
			for k := 0; k+vector <= len(held); k += vector {
				base := offset(held[k])
				if base%vector != 0 {
					return false
				}
				for m := 1; m < vector; m++ {
					if offset(held[k+m]) != base+m {
						return false
					}
				}
			}
		}
	}
	return true
}

// AccessCache remembers counted scratch accesses: one layout is stored or
// loaded the same way whatever it converts from or to. A cache is one
// goroutine's; its views (View) are other goroutines', and share what
// each counted.
type AccessCache struct {
	local  map[accessKey]Access // this view's: read without a lock
	shared *sharedAccesses
}

// sharedAccesses is what the views of one cache counted, and the memo
// whose tables of each layout they read.
type sharedAccesses struct {
	m    kept[accessKey, Access]
	memo *Memo
	// sides and rows are tryScratchRows's: a layout's side of a round
	// trip through rows along given digits, and the rows its records'
	// fragments give a layout.
	sides kept[sideKey, scratchSide]
	rows  kept[layoutRowsKey, [][]DigitRef]
}

// View is a cache for another goroutine that shares what c and its other
// views count.
func (c *AccessCache) View() *AccessCache {
	return &AccessCache{local: map[accessKey]Access{}, shared: c.shared}
}

func (c *AccessCache) lookup(k accessKey) (Access, bool) {
	if a, ok := c.local[k]; ok {
		return a, true
	}
	a, ok := c.shared.m.get(k)
	if ok {
		c.local[k] = a
	}
	return a, ok
}

func (c *AccessCache) keep(k accessKey, a Access) {
	c.local[k] = a
	c.shared.m.put(k, a)
}

type accessKey struct {
	layout               *Layout // the solver's layouts are one copy each: by pointer is by value there
	order                uint64  // the scratch order, 8 bits a dimension
	vector, pad, elemBit int32
}

// NewAccessCache returns an empty cache that reads the tables of each
// layout from m (nil: works them out for each count). What it counts
// stays in it and its views, and goes with them: the solver drops its
// cache when a build ends.
func (m *Memo) NewAccessCache() *AccessCache {
	return &AccessCache{local: map[accessKey]Access{}, shared: &sharedAccesses{memo: m}}
}

// CountScratch counts the wavefronts of a round trip through shared
// memory: the source's lanes store into the scratch buffer and the
// destination's lanes load from it, with the vectors the analysis chose.
// The scratch is dense with ScratchOrder's first dimension fastest, or,
// where that has fewer conflicts, each run of that dimension padded by 16
// bytes (as Triton pads its conversion scratch); ScratchBytes grows by
// the padding.
func CountScratch(c *Conversion, src, dst *Layout, t *Target, cache *AccessCache) {
	if c.Kind != ConvShared || len(c.ScratchOrder) == 0 || c.StoreAccess.Instructions > 0 {
		return
	}
	if cache == nil {
		cache = (*Memo)(nil).NewAccessCache()
	}
	shape := src.shape // read only
	fast := c.ScratchOrder[0]
	offsetWith := func(pad int) func(idx []int) int {
		return func(idx []int) int {
			o, stride := 0, 1
			for k, d := range c.ScratchOrder {
				o += idx[d] * stride
				stride *= shape[d]
				if k == 0 {
					stride += pad
				}
			}
			return o
		}
	}
	best := -1
	padElems := max(1, 16*8/c.ElemBits)
	var order uint64 // ScratchOrder's key (ranks are below MaxRank)
	for _, d := range c.ScratchOrder {
		order = order<<8 | uint64(d+1)
	}
	for _, pad := range []int{0, padElems} {
		if pad > 0 && src.Elements() == shape[fast] {
			continue // one run: nothing to pad
		}
		if pad > 0 && c.StoreAccess.Wavefronts == c.StoreAccess.Ideal && c.LoadAccess.Wavefronts == c.LoadAccess.Ideal {
			break // no conflicts: padding, which moves the same instructions, cannot do better
		}
		off := offsetWith(pad)
		count := func(l *Layout, vector int) Access {
			k := accessKey{l, order, int32(vector), int32(pad), int32(c.ElemBits)}
			a, ok := cache.lookup(k)
			if !ok {
				// Scratch is counted for subgroup 0 only: the others'
				// parts of a dense or run-padded scratch are usually the
				// same pattern moved, which is assumed, not checked.
				var byForm bool
				tb := tablesOf(cache.shared.memo, l)
				if a, byForm = accessVectorsByForm(tb, vector, c.ElemBits, off, scratchForm(c.ElemBits), t, []int{0}); !byForm || accessCheck != nil {
					w := accessVectorsByElements(tb, vector, c.ElemBits, off, t, []int{0})
					if byForm {
						accessCheck(a, w, func() string {
							return fmt.Sprintf("scratch in order %v padded by %d for %s, %d per lane", c.ScratchOrder, pad, l, vector)
						})
					}
					a = w
				}
				cache.keep(k, a)
			}
			return a
		}
		st := count(src, c.StoreVector)
		ld := count(dst, c.LoadVector)
		if total := st.Wavefronts + ld.Wavefronts; best < 0 || total < best {
			best = total
			c.StoreAccess, c.LoadAccess, c.ScratchPad = st, ld, pad
		}
	}
	if c.ScratchPad > 0 {
		runs := src.Elements() / shape[fast]
		c.ScratchBytes += runs * c.ScratchPad * c.ElemBits / 8
	}
	tryScratchRows(c, src, dst, t, cache)
}

// AccessRows counts the wavefronts of a row-pointer access (ldmatrix,
// stmatrix): each 8x8 matrix of 16-bit elements is 8 rows of 16 bytes,
// one row address per lane of a group of 8, served as one phase (PTX ISA,
// "ldmatrix": "each address corresponds to the start of a matrix row").
// Every block of rowsPerPhase rows by rowBytes bytes that a subgroup
// holds in l is read once; each subgroup holding other elements is
// counted and the busiest one's count is the access's. Instructions
// counts those blocks (an ldmatrix.x4 reads four).
func (s *SharedLayout) AccessRows(l *Layout, rowsPerPhase, rowBytes int, t *Target) Access {
	return s.accessRows(tablesOf(nil, l), rowsPerPhase, rowBytes, t)
}

func (s *SharedLayout) accessRows(tb *layoutTables, rowsPerPhase, rowBytes int, t *Target) Access {
	l := tb.l
	subs := s.countedSubgroups(tb, t)
	if a, ok := s.accessRowsByForm(l, rowsPerPhase, rowBytes, t, subs); ok {
		if accessCheck != nil {
			accessCheck(a, s.accessRowsByElements(tb, rowsPerPhase, rowBytes, t, subs), func() string {
				return fmt.Sprintf("blocks of %d rows of %d bytes of %s in %s", rowsPerPhase, rowBytes, l, s)
			})
		}
		return a
	}
	return s.accessRowsByElements(tb, rowsPerPhase, rowBytes, t, subs)
}

// accessRowsByElements is AccessRows counted from every element the
// subgroups hold: the reference that the counts from bases must equal.
func (s *SharedLayout) accessRowsByElements(tb *layoutTables, rowsPerPhase, rowBytes int, t *Target, subs []int) Access {
	cols := max(1, rowBytes*8/s.ElemBits)
	bc := newBankCounter(t)
	addrs := make([]int, rowsPerPhase)
	perRow := ceilDiv(s.Cols, cols)
	var busiest Access
	for n, sub := range subs {
		seen := make([]bool, ceilDiv(s.Rows, rowsPerPhase)*perRow)
		var order [][2]int
		for _, held := range tb.heldBy(sub) {
			for _, idx := range held {
				b := [2]int{idx[0] / rowsPerPhase, idx[1] / cols}
				if k := b[0]*perRow + b[1]; !seen[k] {
					seen[k] = true
					order = append(order, b)
				}
			}
		}
		a := Access{Vector: cols, Bytes: rowBytes, Instructions: len(order)}
		for _, b := range order {
			for i := range addrs {
				addrs[i] = s.ByteOffset(b[0]*rowsPerPhase+i, b[1]*cols)
			}
			a.Wavefronts += bc.wavefronts(addrs, rowBytes)
			a.Ideal += idealWavefronts(rowsPerPhase, rowBytes, t)
		}
		if n == 0 || a.Wavefronts > busiest.Wavefronts {
			busiest = a
		}
	}
	return busiest
}

// Describe names the placement's choices in words: "dense", "padded by 8
// elements per row", "swizzle 128B".
func (s *SharedLayout) Describe() string {
	var parts []string
	if s.ColumnMajor {
		parts = append(parts, "column major")
	}
	if s.columnBlocked() {
		parts = append(parts, fmt.Sprintf("column blocks of %d", s.ColumnBlock))
	} else if s.stride() != s.storedCols() {
		parts = append(parts, fmt.Sprintf("rows padded to %d elements", s.stride()))
	}
	if s.PadEvery > 0 && s.Pad > 0 {
		parts = append(parts, fmt.Sprintf("%d elements of padding every %d rows", s.Pad, s.PadEvery))
	}
	switch {
	case s.XOR.Bits > 0:
		parts = append(parts, "swizzle "+s.XOR.String())
	case swizzleBits(s.Swizzle) > 0:
		parts = append(parts, "swizzle "+s.Swizzle)
	}
	if len(parts) == 0 {
		return "dense row major"
	}
	return strings.Join(parts, ", ")
}

// AccessPattern is what an access touches whatever the placement: per
// phase (the lanes one wavefront can serve), the element at which each
// lane's Width bytes start.
type AccessPattern struct {
	Width  int
	Align  int // the alignment each access needs (its record's rule); Width when 0
	Phases [][][2]int
}

// VectorPatternBy is the pattern of subgroup sub moving layout l with
// vector consecutive elements per lane and instruction.
func VectorPatternBy(l *Layout, vector, elemBits int, t *Target, sub int) AccessPattern {
	width := max(vector*elemBits/8, 1)
	banks, bankBytes := bankGeometry(t)
	per := max(1, banks*bankBytes/max(width, bankBytes))
	held := l.heldBy(sub)
	pat := AccessPattern{Width: width}
	for k := 0; k < l.Size(Register); k += vector {
		for p := 0; p < len(held); p += per {
			var phase [][2]int
			for lane := p; lane < min(p+per, len(held)); lane++ {
				phase = append(phase, [2]int{held[lane][k][0], held[lane][k][1]})
			}
			pat.Phases = append(pat.Phases, phase)
		}
	}
	return pat
}

// RowPatternBy is the pattern of a row-pointer access (ldmatrix) by
// subgroup sub: every block of rowsPerPhase rows by rowBytes bytes that
// it holds in layout l, one phase each.
func RowPatternBy(l *Layout, rowsPerPhase, rowBytes, elemBits, sub int) AccessPattern {
	cols := max(1, rowBytes*8/elemBits)
	pat := AccessPattern{Width: rowBytes}
	seen := map[[2]int]bool{}
	for _, held := range l.heldBy(sub) {
		for _, idx := range held {
			b := [2]int{idx[0] / rowsPerPhase, idx[1] / cols}
			if seen[b] {
				continue
			}
			seen[b] = true
			var phase [][2]int
			for i := range rowsPerPhase {
				phase = append(phase, [2]int{b[0]*rowsPerPhase + i, b[1] * cols})
			}
			pat.Phases = append(pat.Phases, phase)
		}
	}
	return pat
}

// Wavefronts counts a pattern's wavefronts in this placement.
func (s *SharedLayout) Wavefronts(p AccessPattern, t *Target) int {
	bc := newBankCounter(t)
	total := 0
	for _, phase := range p.Phases {
		addrs := make([]int, len(phase))
		for k, e := range phase {
			addrs[k] = s.ByteOffset(e[0], e[1])
		}
		total += bc.wavefronts(addrs, p.Width)
	}
	return total
}

// Aligned reports whether every access of the pattern starts on a
// multiple of its width and alignment in this placement (so that it
// stays one access and obeys its rule).
func (s *SharedLayout) Aligned(p AccessPattern) bool {
	align := max(p.Width, p.Align)
	for _, phase := range p.Phases {
		for _, e := range phase {
			if s.ByteOffset(e[0], e[1])%align != 0 {
				return false
			}
		}
	}
	return true
}
