package model

import "fmt"

// What a compiled kernel holds in registers besides its tensors' values,
// each rule read off the PTX Triton 3.9 compiles the kernels of
// docs/compiled.md to (oracle/compiled.py --keep DIR keeps it), with the
// register widths of the PTX ISA ("Registers": a .b64/.u64 register, a
// 64-bit address, is two 32-bit registers; an index or a loop counter is
// a .b32 register). A target declares the widths (Target.AddressRegisters,
// IndexRegisters); a target that declares neither holds none of these.
//
//   - An access of global memory (a load or store) addresses each row of
//     a lane's elements (the elements that differ only along the tensor's
//     contiguous dimension) with one 64-bit address, the row's other
//     elements at immediate offsets from it: Triton's PTX forms one
//     address per row just before the loads or stores of that row
//     (add.s64 %rdN, base, offset; then ld.global.v4.b32 ... [%rdN + 0]).
//     A row's address is dead once its access is issued, so where the
//     access reads its operands one address is counted: the row's being
//     issued (as a store's value is streamed one vector at a time). The
//     PTX forms them all ahead of the first access (transpose_sm80's four
//     store addresses precede its conversion), which ptxas may keep or
//     reschedule: one is the floor.
//   - An access inside a loop keeps, through the whole of the outermost
//     loop around it, its pointer's 64-bit base (hoisted out of the loop:
//     %rd6 = param + offset before the loop of flash_attention_sm80) and
//     one 32-bit offset per row (a row's stride is a run-time value, so
//     its offset is a register: the %r26, %r28, %r29, %r30 added to the
//     carried offset on every trip).
//   - A loop keeps its counter through its body, and its bound when the
//     trip count is known only at run time (add.s32 %r672, %r672, 64;
//     setp.lt.s32 %p14, %r672, %r33; @%p14 bra).
//
// Not counted: masks (the PTX holds them in predicate registers, .pred,
// which ptxas's register count does not include), the thread's own
// indices, and what ptxas's schedule adds.

// HoldingKind is what a Holding holds.
type HoldingKind int

const (
	HoldAddress    HoldingKind = iota // an access's 64-bit address of the row it issues, at the access
	HoldBase                          // an access's 64-bit base, through its loop
	HoldRowOffsets                    // an access's 32-bit offset per row, through its loop
	HoldCounter                       // a loop's counter, through its body
	HoldBound                         // a loop's run-time bound, through its body
)

// Holding is one thing the compiled code holds in registers besides a
// tensor's values: what it is, the op it serves, and the value whose
// layout decides its size (the tensor an access reads or writes; nil
// where the size is fixed).
type Holding struct {
	Kind  HoldingKind
	Op    *Op
	Value *Value
}

// String names a held thing for people.
func (h Holding) String() string {
	switch h.Kind {
	case HoldAddress:
		return fmt.Sprintf("address of %s %s", h.Op.KindName(), h.Op.Name)
	case HoldBase:
		return fmt.Sprintf("base of %s %s", h.Op.KindName(), h.Op.Name)
	case HoldRowOffsets:
		return fmt.Sprintf("row offsets of %s %s", h.Op.KindName(), h.Op.Name)
	case HoldCounter:
		return "counter of loop " + h.Op.Name
	}
	return "bound of loop " + h.Op.Name
}

// Words is the 32-bit registers per lane h holds on t when its value
// takes layout l (nil: one row).
func (h Holding) Words(t *Target, l *Layout) int {
	switch h.Kind {
	case HoldAddress, HoldBase:
		return t.AddressRegisters
	case HoldRowOffsets:
		return t.IndexRegisters * LaneRows(l, h.Op.Contiguous)
	}
	return t.IndexRegisters
}

// LaneRows is the number of rows among one lane's elements in layout l:
// the distinct indices of its elements along every dimension but
// contiguous (lane 0 of subgroup 0 stands for every lane). 1 for a nil,
// opaque or shared layout.
func LaneRows(l *Layout, contiguous int) int {
	if l == nil || l.Opaque() != "" || l.InShared() || l.Rank() < 2 {
		return 1
	}
	seen := map[string]bool{}
	for _, e := range l.Held(0, 0, 0) {
		idx := append([]int(nil), e.Index...)
		if contiguous >= 0 && contiguous < len(idx) {
			idx[contiguous] = 0
		}
		seen[fmt.Sprint(idx)] = true
	}
	return max(1, len(seen))
}

// holdingsOf lists what g's compiled code holds besides its values on t
// (the rules above), with the value whose layout decides each; none
// where t declares no register widths.
func holdingsOf(g *Graph, t *Target) []Holding {
	if t == nil || (t.AddressRegisters == 0 && t.IndexRegisters == 0) {
		return nil
	}
	var out []Holding
	g.Walk(func(op *Op) {
		if l := op.Body; l != nil {
			out = append(out, Holding{Kind: HoldCounter, Op: op})
			if l.Dynamic {
				out = append(out, Holding{Kind: HoldBound, Op: op})
			}
			return
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
		if op.In != nil {
			out = append(out, Holding{Kind: HoldBase, Op: op}, Holding{Kind: HoldRowOffsets, Op: op, Value: v})
		}
	})
	return out
}
