package model

import (
	"fmt"
	"slices"
)

// What a compiled kernel holds in registers besides its tensors' values,
// each rule read off the code Triton 3.9 compiles the kernels of
// docs/compiled.md to (oracle/compiled.py --keep DIR keeps the PTX; the
// SASS and its register life ranges are ptxas's cubin read by the
// wheel's nvdisasm --print-life-ranges, oracle/sassregs.py), with the
// register widths of the PTX ISA ("Registers": a .b64/.u64 register, a
// 64-bit address, is two 32-bit registers; an index or a loop counter is
// a .b32 register). A target declares the widths (Target.AddressRegisters,
// IndexRegisters, PredicateRegisters, ThreadRegisters); a target that
// declares none holds none of these.
//
//   - An access of global memory (a load or store) addresses each row of
//     a lane's elements (the elements that differ only along the tensor's
//     contiguous dimension) with one 64-bit address, the row's other
//     elements at immediate offsets from it: Triton's PTX forms one
//     address per row just before the loads or stores of that row
//     (add.s64 %rdN, base, offset; then ld.global.v4.b32 ... [%rdN + 0]).
//     A row's address is dead once its access is issued, so where the
//     access reads its operands one address is counted: the row's being
//     issued. That is the floor: where registers are plentiful ptxas
//     forms every row's address before the first access and issues them
//     together (transpose_sm80 holds its four rows' addresses, R20:R21
//     to R26:R27, at its four LDG.E.128), and where they are scarce it
//     forms each just in time; a plan's budget is checked at the floor,
//     and the estimate (LiveAmple) counts every row's address.
//   - An access inside a loop keeps, through the whole of the outermost
//     loop around it, its pointer's 64-bit base (hoisted out of the loop:
//     %rd6 = param + offset before the loop of flash_attention_sm80) and
//     one 32-bit offset per row (a row's stride is a run-time value, so
//     its offset is a register: the %r26, %r28, %r29, %r30 added to the
//     carried offset on every trip).
//   - Estimate only (LiveAmple), where registers are plentiful: an
//     access of shared memory inside a loop (an mma operand's
//     ldmatrix, the store of a tile into its buffer) keeps, through the
//     whole of the outermost loop around it, one 32-bit shared-memory
//     address per 16-byte access of a lane (an ldmatrix .x4 delivers 16
//     bytes a lane, st.shared.v4 writes 16): the offsets are the same on
//     every trip and, in a swizzled buffer, an XOR of the row with the
//     column rather than an immediate added to one base, so Triton's PTX
//     computes each before the loop and ptxas keeps them (the SASS of
//     matmul_bias_relu_sm80 in Triton's layouts, whose loop reads a
//     swizzled buffer, there its conversion's scratch, with
//     LDSM.16.M88.4 R8, [R74] and [R75] and LDSM.16.MT88.4 [R71] and
//     [R72], their addresses made by LOP3 ... 0x3c, an XOR, before the
//     loop and live through it).
//   - A loop keeps its counter through its body, and its bound when the
//     trip count is known only at run time (add.s32 %r672, %r672, 64;
//     setp.lt.s32 %p14, %r672, %r33; @%p14 bra).
//   - A masked access holds one predicate per distinct mask among a
//     lane's elements (elements in different blocks of the mask's
//     constancy, AccessMask; a mask that differs from one element to the
//     next along the contiguous dimension makes Triton access each
//     element alone, since its vectors are no wider than the mask is
//     constant: AxisInfo's getMaskAlignment, lib/Analysis/AxisInfo.cpp),
//     from the first access that reads the mask to the last. SASS has
//     seven predicate registers a thread may write, P0 to P6 (PT reads
//     as true), and ptxas keeps some of the masks in them; the others are
//     kept in 32-bit registers, saved with P2R and tested again with
//     ISETP.NE. A target says how many it keeps (PredicateRegisters):
//     NVIDIA's 5 is the median over the eight kernels of
//     docs/compiled.md with 16 masks a lane (layernorm and softmax on
//     sm_80 and sm_90, both sides), whose SASS holds, at its peak, 11 of
//     them in 32-bit registers in five, 10 in two (softmax_sm80 in
//     Triton's layouts, where the sum is reduced) and 19 in one.
//   - Estimate only (LiveAmple): a reduction within a lane whose operand
//     is read again after it (softmax's max and sum, whose inputs the
//     subtraction and the division read) combines the lane's elements as
//     a tree, pairs first, beside the operand's registers: half the
//     operand's registers where it runs (the SASS of
//     examples/ttgir/softmax_sm80 in the planner's layouts: FADD R21, R5,
//     R4; FADD R22, R13, R20; ... eight partial sums of sixteen
//     exponentials, which stay live for the division). Evaluated depth
//     first the tree needs far fewer, which is why it is no floor.
//   - Every kernel keeps, from its start to its end, the registers its
//     target names: on NVIDIA the stack pointer, R1, which the first
//     instruction of every kernel loads (MOV R1, c[0x0][0x28]) and which
//     is live to the end, and the thread's index (S2R Rn, SR_TID.X), from
//     which every address and mask is derived.
//   - Every kernel is also charged the registers its target says the
//     compiler counts and never names: ptxas -v's "Used N registers" is
//     two more than the general registers its SASS uses (the columns of
//     nvdisasm --print-life-ranges, R0 to the highest register named) in
//     every one of the 27 cubins of docs/compiled.md nvdisasm reads (the
//     PTX assembled by the wheel's ptxas-blackwell, 13.4; nvdisasm reads
//     no cubin of ptxas 12.9, Triton's on sm_80), from 36
//     (transpose_sm80: R0 to R33) to 198 (flash_attention_fwd_sm90 in
//     Triton's layouts: R0 to R195); oracle/sassregs.py prints both.
//     A kernel ptxas says uses 255 names R0 to R252 at most.
//   - Estimate only (AssignmentEstimate, given the layouts): a
//     conversion makes a copy of its value in registers of its own, live
//     from the conversion to the copy's last use (HoldConverted at a use
//     the plan converts; a ttg.convert_layout read with the input's
//     layouts is a relabel whose result has its own range, Converted).
//     Where the value has no other reader the copy takes over its
//     registers, which the round trip frees as it stores them. In
//     flash_attention_sm80's loop in Triton's layouts, Q, loaded in
//     #blocked before the loop, and its #ttg.dot_op copy %q_53, made
//     every trip, are both live at the mma.
//   - Estimate only: a conversion through shared memory inside a loop
//     keeps its addresses through the outermost loop, as the shared
//     accesses of loops do, one 32-bit register a store and a load of a
//     lane but at most SwizzlePhases a side: the accesses of one swizzle
//     pattern are one register plus immediates. Outside loops it holds
//     them through the round trip, its loads included, which write the
//     copy: testdata/triton/layernorm_sm80 in Triton's layouts converts
//     w with STS.64 [R50] and LDS.64 from [R21], [R52+0x100],
//     [R48+0x200] and [R35+0x300], four bases XORed with 0x20, 0x40 and
//     0x60 (LOP3.LUT ... 0x3c), five registers live at its peak
//     (0x0dd0).
//   - Estimate only: an element-wise result read by one element-wise op
//     is made where that op reads its operands, an element at a time
//     (ComputedAtReader); it holds no registers, and its operands stay
//     live to there.
//   - Estimate only: a conversion's copy of more than StreamedCopyWords
//     that an mma in a loop reads as A or B, the last thing the mma
//     waits for, is held one K step at a time (StreamedCopy); a load the
//     mma reads in another layout is held in its own until then.
//   - Estimate only: a constant a conversion reads is stored into the
//     round trip's scratch from one register (a zero from RZ: STS.128
//     [R161], RZ in examples/ttgir/chained_dots_sm80) and holds none.
//   - The estimate is at most the target's register budget: ptxas gives
//     a lane no more and reports no more (plans.RegisterPlan.Demand
//     keeps what the layouts would hold).
//   - Estimate only: a mask is formed from the lane's coordinates along
//     the dimensions it varies along, one register per distinct block of
//     its constancy among the lane's elements (ISETP compares one
//     register with the bound; LaneCoordinates). A mask formed every trip
//     of a loop (AccessMask.EachTrip) keeps them through the loop: the
//     SASS of matmul_bias_relu_sm90 keeps R5 and R6 (A's two rows), R56
//     (its column), R3 and R64 (B's two rows) and R4 (its column) through
//     its loop and compares them every trip (ISETP.LT.AND P1, PT, R5,
//     UR14). A mask first read after the kernel's first access keeps
//     them from that access to its own: transpose_sm80's store keeps the
//     program's tile offsets and the lane's row and column (R2, R28, R29,
//     R3) from its loads to the store's ISETPs, where it forms its four
//     rows from them (LOP3.LUT R12, R2, 0x10, R29); the rule counts 5,
//     its 4 rows and 1 column.
//
// Not counted: other index tensors and offsets derived from the thread's
// index (a store's row offsets shared with an earlier load, which
// layernorm_sm80's SASS keeps from the loads of x to the store of y: R13
// and R23), and the registers ptxas's allocation leaves unused (the
// registers below the highest it names that nothing holds at the point
// where the most are live: docs/compiled.md's "live at once" column).

// HoldingKind is what a Holding holds.
type HoldingKind int

const (
	HoldAddress            HoldingKind = iota // an access's 64-bit address of the row it issues, at the access
	HoldBase                                  // an access's 64-bit base, through its loop
	HoldRowOffsets                            // an access's 32-bit offset per row, through its loop
	HoldCounter                               // a loop's counter, through its body
	HoldBound                                 // a loop's run-time bound, through its body
	HoldMask                                  // a mask's predicates beyond the predicate registers, from its first access to its last
	HoldThread                                // the registers every kernel keeps, through the whole kernel
	HoldReduceTree                            // a reduction's partial results beside its operand, where it runs
	HoldSharedAddresses                       // a shared-memory access's 32-bit addresses, through its loop
	HoldRowAddresses                          // the 64-bit addresses of an access's other rows, at the access
	HoldReserved                              // the registers the compiler counts and never names, through the whole kernel
	HoldConverted                             // the copy a conversion at a use makes of its value, at the use
	HoldConvertedAddresses                    // a round trip's shared-memory addresses, through its loop
	HoldMaskCoordinates                       // the lane's coordinates a mask is formed from, until it is formed
)

// Holding is one thing the compiled code holds in registers besides a
// tensor's values: what it is, the op it serves (for a mask, the first
// access that reads it, and Last the last), and the value whose layout
// decides its size (the tensor an access reads or writes; nil where the
// size is fixed).
type Holding struct {
	Kind  HoldingKind
	Op    *Op
	Last  *Op
	Value *Value
	// Index is, for a conversion's copy (HoldConverted), the operand of
	// Op it is made for; Reuses is set where that operand is its value's
	// only reader in the value's own block, whose registers the copy may
	// then take over as the conversion frees them.
	Index  int
	Reuses bool
}

// holdingWhat names what a holding of each kind holds of its op.
var holdingWhat = map[HoldingKind]string{
	HoldAddress: "address", HoldBase: "base", HoldRowOffsets: "row offsets", HoldReduceTree: "partial results",
	HoldSharedAddresses: "shared addresses", HoldRowAddresses: "other rows' addresses", HoldMask: "masks",
	HoldMaskCoordinates: "mask coordinates",
}

// String names a held thing for people.
func (h Holding) String() string {
	switch h.Kind {
	case HoldCounter:
		return "counter of loop " + h.Op.Name
	case HoldBound:
		return "bound of loop " + h.Op.Name
	case HoldThread:
		return "stack pointer and thread index"
	case HoldReserved:
		return "registers ptxas reserves"
	case HoldConverted:
		return fmt.Sprintf("%%%s converted for %s %s", h.Value.Name, h.Op.KindName(), h.Op.Name)
	case HoldConvertedAddresses:
		return fmt.Sprintf("shared addresses converting %%%s for %s %s", h.Value.Name, h.Op.KindName(), h.Op.Name)
	case HoldMaskCoordinates:
		if h.Last != nil {
			return fmt.Sprintf("mask coordinates of %s %s from %s %s", h.Last.KindName(), h.Last.Name, h.Op.KindName(), h.Op.Name)
		}
	}
	s := fmt.Sprintf("%s of %s %s", holdingWhat[h.Kind], h.Op.KindName(), h.Op.Name)
	if h.Kind == HoldMask && h.Last != nil && h.Last != h.Op {
		s += fmt.Sprintf(" to %s %s", h.Last.KindName(), h.Last.Name)
	}
	return s
}

// Words is the 32-bit registers per lane h holds on t when its value
// takes layout l (nil: one row, one mask).
func (h Holding) Words(t *Target, l *Layout) int {
	switch h.Kind {
	case HoldAddress, HoldBase:
		return t.AddressRegisters
	case HoldRowOffsets:
		return t.IndexRegisters * LaneRows(l, h.Op.Contiguous)
	case HoldMask:
		if t.PredicateRegisters == 0 || h.Op.Mask == nil {
			return 0
		}
		return max(0, LaneMasks(l, h.Op.Mask.Constancy)-t.PredicateRegisters)
	case HoldThread:
		return t.ThreadRegisters
	case HoldReserved:
		return t.ReservedRegisters
	case HoldReduceTree:
		return RegisterWords(l, h.Value.DType.Bits) / 2
	case HoldSharedAddresses:
		return t.IndexRegisters * ((RegisterWords(l, h.Value.DType.Bits) + StreamVectorWords - 1) / StreamVectorWords)
	case HoldRowAddresses:
		return t.AddressRegisters * (LaneRows(l, h.Op.Contiguous) - 1)
	case HoldMaskCoordinates:
		m := h.Op.Mask
		if h.Last != nil {
			m = h.Last.Mask
		}
		if m == nil {
			return 0
		}
		return t.IndexRegisters * LaneCoordinates(l, m.Constancy)
	}
	return t.IndexRegisters
}

// copyWords is the registers per lane a conversion's copy (HoldConverted)
// adds where its value takes layout from and the use reads it in to:
// all of the copy's, or where the copy may take over the value's
// registers (Reuses) only what it needs beyond them; none where the two
// layouts are one.
func (h Holding) copyWords(from, to *Layout) int {
	if from == nil || to == nil || from.Equal(to) {
		return 0
	}
	w := RegisterWords(to, h.Value.DType.Bits)
	if h.Reuses {
		w -= RegisterWords(from, h.Value.DType.Bits)
	}
	return max(0, w)
}

// conversionLayouts is the layouts the conversion of holding h
// (HoldConverted, HoldConvertedAddresses) converts between under a: a
// relabel's operand's and result's where the op converts (Converted),
// else the value's and the one its use reads it in.
func (h Holding) conversionLayouts(a *Assignment) (from, to *Layout) {
	if Converted(h.Op, a) {
		return a.Layouts[h.Op.Operands[0]], a.Layouts[h.Op.Result]
	}
	return a.Layouts[h.Value], a.Required[Use{Op: h.Op, Index: h.Index}]
}

// roundTripAddresses is the 32-bit registers per lane a conversion from
// one layout to another keeps for its shared-memory addresses (HoldConvertedAddresses), where it goes through shared
// memory (UseCost; none where it moves data in registers or with
// shuffles): one a store and one a load of a lane, as the shared
// accesses of loops keep theirs, but at most SwizzlePhases a side, since
// accesses whose swizzle XORs the same pattern differ by a constant that
// ptxas folds into the instruction (STS.128 [R30+0x80]).
func (h Holding) roundTripAddresses(t *Target, from, to *Layout, m *Memo) int {
	if from == nil || to == nil || from.Equal(to) {
		return 0
	}
	_, c, err := m.UseCost(h.Value, from, to, t)
	if err != nil || c == nil || c.Kind != ConvShared {
		return 0
	}
	return t.IndexRegisters * (min(c.Stores, SwizzlePhases) + min(c.Loads, SwizzlePhases))
}

// SwizzlePhases is the most distinct XOR patterns a swizzled shared-memory
// buffer gives the 16-byte vectors of one lane's accesses: the widest
// swizzle permutes the 16-byte chunks within a 128-byte span by XOR with
// three bits of the row, so it repeats every eight rows (CUDA Driver API,
// CUtensorMapSwizzle: CU_TENSOR_MAP_SWIZZLE_128B; CuTe's Swizzle<3,4,3>,
// three bits over 16-byte units). Accesses with one pattern are one base
// register plus immediates.
const SwizzlePhases = 8

// Converted reports whether relabel op converts its operand into another
// layout under a: a relabel that keeps the shape and permutes and adds no
// dimension (a shape cast: TTGIR's ttg.convert_layout read with the
// input's layouts) whose result takes a layout other than its operand's. Its result is then a copy in
// registers of its own, not its operand's registers renamed.
func Converted(op *Op, a *Assignment) bool {
	if op.Info().Flow != FlowRelabel || op.Result == nil || len(op.Operands) != 1 || len(op.Perm) > 0 || len(op.Dims) > 0 ||
		!slices.Equal(op.Result.Shape, op.Operands[0].Shape) {
		return false
	}
	r, o := a.Layouts[op.Result], a.Layouts[op.Operands[0]]
	return r != nil && o != nil && !r.Equal(o)
}

// LaneRows is the number of rows among one lane's elements in layout l:
// the distinct indices of its elements along every dimension but
// contiguous (lane 0 of subgroup 0 stands for every lane). 1 for a nil,
// opaque or shared layout.
func LaneRows(l *Layout, contiguous int) int {
	if l == nil || l.Rank() < 2 {
		return 1
	}
	blocks := make([]int, l.Rank())
	for d := range blocks {
		if d != contiguous {
			blocks[d] = 1
		}
	}
	return laneDistinct(l, blocks)
}

// LaneMasks is the number of distinct masks among one lane's elements in
// layout l for a mask of the given constancy (AccessMask): the distinct
// blocks its elements fall in along the dimensions the mask varies
// along. 1 for a nil, opaque or shared layout, or a mask constant along
// every dimension.
func LaneMasks(l *Layout, constancy []int) int {
	if l == nil || len(constancy) != l.Rank() {
		return 1
	}
	return laneDistinct(l, constancy)
}

// LaneCoordinates is the lane's coordinates a mask of the given
// constancy is formed from in layout l: along each dimension the mask
// varies along, the distinct blocks of its constancy among the lane's
// elements, each compared with the bound in a register of its own (ISETP
// takes one register and the bound). 0 for a nil, opaque or shared
// layout, or a mask constant along every dimension.
func LaneCoordinates(l *Layout, constancy []int) int {
	if l == nil || len(constancy) != l.Rank() || l.Opaque() != "" || l.InShared() {
		return 0
	}
	n := 0
	for d, c := range constancy {
		if c == 0 {
			continue
		}
		blocks := make([]int, len(constancy))
		blocks[d] = c
		n += laneDistinct(l, blocks)
	}
	return n
}

// laneDistinct counts the distinct blocks, of blocks[d] elements along
// each dimension d (0: the whole dimension), that the elements lane 0 of
// subgroup 0 holds in l fall in (1 for an opaque or shared layout).
func laneDistinct(l *Layout, blocks []int) int {
	if l.Opaque() != "" || l.InShared() {
		return 1
	}
	seen := map[string]bool{}
	for _, e := range l.Held(0, 0, 0) {
		idx := append([]int(nil), e.Index...)
		for d := range idx {
			if d >= len(blocks) || blocks[d] <= 0 {
				idx[d] = 0
			} else {
				idx[d] /= blocks[d]
			}
		}
		seen[fmt.Sprint(idx)] = true
	}
	return max(1, len(seen))
}

// holdingsOf lists what g's compiled code holds besides its values on t
// (the rules above), with the value whose layout decides each; none
// where t declares no register widths. ample adds what ptxas holds where
// registers are plentiful (Ample): every row's address at an access, the
// shared-memory addresses of the accesses in loops, a reduction's
// partial results.
func holdingsOf(g *Graph, t *Target, ample bool, a *Assignment) []Holding {
	copies := ample && a != nil // a conversion's copy is a value: counted on every target
	declares := t != nil && (t.AddressRegisters > 0 || t.IndexRegisters > 0 || t.PredicateRegisters > 0 || t.ThreadRegisters > 0 || t.ReservedRegisters > 0)
	if !declares && !copies {
		return nil
	}
	var out []Holding
	if declares && t.ThreadRegisters > 0 && g.OpCount() > 0 {
		out = append(out, Holding{Kind: HoldThread})
	}
	if declares && t.ReservedRegisters > 0 && g.OpCount() > 0 {
		out = append(out, Holding{Kind: HoldReserved})
	}
	masks := map[*AccessMask]int{} // a mask's holding in out
	var firstAccess *Op            // the kernel's first global access
	g.Walk(func(op *Op) {
		if copies {
			out = append(out, convertedCopies(op, a, declares && t.IndexRegisters > 0)...)
		}
		if !declares {
			return
		}
		if l := op.Body; l != nil {
			out = append(out, Holding{Kind: HoldCounter, Op: op})
			if l.Dynamic {
				out = append(out, Holding{Kind: HoldBound, Op: op})
			}
			return
		}
		if ample && op.Info().Combines && len(op.Operands) > 0 && len(op.Operands[0].Uses) > 1 {
			out = append(out, Holding{Kind: HoldReduceTree, Op: op, Value: op.Operands[0]})
		}
		if ample && op.Info().Memory == MemoryShared && op.In != nil {
			v := op.Result
			if op.Info().Writes && len(op.Operands) > 0 {
				v = op.Operands[0]
			}
			if v != nil {
				out = append(out, Holding{Kind: HoldSharedAddresses, Op: op, Value: v})
			}
		}
		if op.Info().Memory != MemoryGlobal {
			return
		}
		v := op.Result
		if op.Info().Writes && len(op.Operands) > 0 {
			v = op.Operands[0]
		}
		if v == nil {
			return
		}
		out = append(out, Holding{Kind: HoldAddress, Op: op})
		if ample {
			out = append(out, Holding{Kind: HoldRowAddresses, Op: op, Value: v})
		}
		if op.In != nil {
			out = append(out, Holding{Kind: HoldBase, Op: op}, Holding{Kind: HoldRowOffsets, Op: op, Value: v})
		}
		if m := op.Mask; m != nil && t.PredicateRegisters > 0 {
			if k, ok := masks[m]; ok {
				out[k].Last = op
			} else {
				masks[m] = len(out)
				out = append(out, Holding{Kind: HoldMask, Op: op, Last: op, Value: v})
				if ample {
					out = append(out, maskCoordinates(op, firstAccess, v)...)
				}
			}
		}
		if firstAccess == nil {
			firstAccess = op
		}
	})
	return out
}

// convertedCopies lists the copies conversions make of op's operands
// under a (HoldConverted): an operand whose use reads it in a layout
// other than its own; and, where addresses is set (the target declares
// its index registers), the shared-memory addresses of each
// (HoldConvertedAddresses).
func convertedCopies(op *Op, a *Assignment, addresses bool) []Holding {
	var out []Holding
	if Converted(op, a) { // its result is the copy (live)
		if addresses {
			out = append(out, Holding{Kind: HoldConvertedAddresses, Op: op, Value: op.Operands[0]})
		}
		return out
	}
	for i, v := range op.Operands {
		to := a.Required[Use{Op: op, Index: i}]
		if to == nil || a.Layouts[v] == nil || to.Equal(a.Layouts[v]) {
			continue
		}
		reuses := len(v.Uses) == 1 && v.Def != nil && v.Def.In == op.In
		out = append(out, Holding{Kind: HoldConverted, Op: op, Value: v, Index: i, Reuses: reuses})
		if addresses {
			out = append(out, Holding{Kind: HoldConvertedAddresses, Op: op, Value: v, Index: i})
		}
	}
	return out
}

// maskCoordinates lists what the lane's coordinates of op's mask hold
// (HoldMaskCoordinates), op being the first access that reads the mask
// and first the kernel's first global access (nil if op is): a mask
// formed every trip of op's loop (AccessMask.EachTrip) keeps them
// through the outermost loop; a mask first read after the kernel's first
// access keeps them from there to op, since ptxas derives every
// coordinate from the thread and program indices where it forms the
// first addresses and keeps them until they are compared.
func maskCoordinates(op, first *Op, v *Value) []Holding {
	switch {
	case op.Mask.EachTrip && op.In != nil:
		return []Holding{{Kind: HoldMaskCoordinates, Op: op, Value: v}}
	case first != nil && first != op:
		return []Holding{{Kind: HoldMaskCoordinates, Op: first, Last: op, Value: v}}
	}
	return nil
}
