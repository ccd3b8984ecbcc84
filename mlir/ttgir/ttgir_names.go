package ttgir

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"planner/mlir/ir"
	"planner/mlir/reader"
	"planner/model"
	"planner/notation"
)

// Naming the written TTGIR's encodings value by value. One layout often
// has several Triton names (the same element map is a slice of a version 2
// and of a version 3 #ttg.nvidia_mma, of two #ttg.blocked parents, a
// #ttg.dot_op and an accumulator), and Triton's typing picks the name from
// the neighbouring op: a tt.reduce's result is the #ttg.slice of its
// operand's encoding along its axis, a tt.expand_dims's operand the slice
// of its result's, a dot's A and B #ttg.dot_op of its result's encoding
// (lib/Dialect/TritonGPU/IR/Dialect.cpp, TritonGPUInferLayoutInterface:
// inferReduceOpEncoding, inferExpandDimsOpEncoding, inferDotOpEncoding),
// and element-wise ops, splat, broadcast, addptr, fp_to_fp, loads and
// stores keep one encoding over their operands and results
// (include/triton/Dialect/Triton/IR/TritonOps.td:
// SameOperandsAndResultEncoding, SameLoadStoreOperandsAndResultEncoding;
// arith's SameOperandsAndResultType), as do an scf.for's init, region
// argument, yield and result. So the writer records, for every tensor it
// writes (an IR value in one layout, and the operands whose name Triton
// derives, readKey), these ties, and names the tensors tied by equality
// together, starting from the dots' results (their mma encodings) and
// following the ties, then from each tensor still unnamed (the largest
// first) by the name a renaming suggests or its layout's usual name.
// Where an operand's name is not its value's, the layout being the
// same, a ttg.convert_layout renames it (use); where no name gives a
// class's layouts, each tensor keeps the name its layout has alone, and
// the kernel breaks Triton's typing there.

// tyNode is one tensor as written: an IR value in a layout.
type tyNode struct {
	layout *model.Layout
	role   notation.TritonRole // the part a dot reads it in, for its fallback name
}

// tyTie ties the encoding of node a to node b's: a is the #ttg.slice of
// b along dim (tieSlice), the #ttg.dot_op of opIdx dim whose parent is
// b's encoding (tieDot), or b's encoding where that fits both, else
// another name for the same layout, which a ttg.convert_layout gives it
// (tieRename: an op's operand a and the value b it reads). A renaming's
// name flows at once from the end that decides it (the value to a
// reduce's operand, whose result is named after it; an expand_dims's or
// a dot's operand, named after their results, to the value), and the
// other way only once the ties of Triton's typing have named all they
// can.
type tyTie struct {
	kind    tieKind
	a, b    int
	dim     int
	kWidth  int   // the kWidth to try first for a #ttg.dot_op
	toValue bool  // a renaming's name flows at once from the operand to the value
	perm    []int // a tt.trans's order (tieTrans)
}

type tieKind int

const (
	tieSlice tieKind = iota
	tieDot
	tieRename
	tieTrans // a is the result of a tt.trans of b by perm, named from b's encoding only (transEncoding)
	tieFp4   // a is the result of a ttg.fp4_to_fp of b along dim, named from b's encoding only (fp4Encoding)
)

// ttTyping collects the written tensors and their ties, and names them.
type ttTyping struct {
	index   map[string]int
	nodes   []tyNode
	up      []int // union-find over nodes tied by equality
	ties    []tyTie
	anchors []tyAnchor
}

// tyAnchor is a dot's result and the mma encoding it is written in.
type tyAnchor struct {
	node int
	enc  notation.TritonEncoding
}

func newTyping() *ttTyping { return &ttTyping{index: map[string]int{}} }

// nodeKey identifies an IR value in a layout.
func nodeKey(v *ir.Value, l *model.Layout) string { return fmt.Sprintf("%p|%s", v, l.Key()) }

// readKey identifies what op reads as its operand i, value v in layout
// l: the value itself, but for the operands whose name Triton derives
// from another tensor's (a dot's A and B, a reduce's and an
// expand_dims's operand), and every use of a reduce's result (named
// after the reduce's operand), an operand of their own, which a
// ttg.convert_layout renames where the value has another name for the
// same layout. An op made again in result layout res (a free tensor's
// definition, remade; nil: the op as written) reads operands of its own
// apart from the op's: two remade broadcasts of one 64x1 tensor, to an
// mma's layout and to a dot operand's, name their operands apart.
func readKey(op *ir.Op, i int, v *ir.Value, l, res *model.Layout) string {
	if ownOperand(op, i) || fromReduce(v) {
		k := nodeKey(v, l) + fmt.Sprintf("|%p.%d", op, i)
		if res != nil {
			k += "|" + res.Key()
		}
		return k
	}
	return nodeKey(v, l)
}

// ownOperand reports whether op's operand i is named after another
// tensor by Triton's typing of op: a dot's A and B, a reduce's, an
// expand_dims's and a broadcast's operand, a returned tensor.
func ownOperand(op *ir.Op, i int) bool {
	name := ir.TTName(op.Name)
	return isDot(name) && (dotOperand(op, notation.OperandA) == i || dotOperand(op, notation.OperandB) == i) || (name == "tt.reduce" || name == "tt.expand_dims" || name == "tt.broadcast") && i == 0 || name == "tt.return"
}

// fromReduce reports whether v is a result of a tt.reduce, whose name
// Triton derives from the reduce's operand (the #ttg.slice of its
// encoding): its every use is an operand of its own, which a
// ttg.convert_layout renames where the users name the same layout
// otherwise (a loop's carried maximum, say).
func fromReduce(v *ir.Value) bool {
	return v.Def != nil && ir.TTName(v.Def.Name) == "tt.reduce"
}

// node is the index of the tensor k in layout l, registered the first
// time.
func (t *ttTyping) node(k string, l *model.Layout, role notation.TritonRole) int {
	n, ok := t.index[k]
	if !ok {
		n = len(t.nodes)
		t.index[k] = n
		t.nodes = append(t.nodes, tyNode{layout: l})
		t.up = append(t.up, n)
	}
	if role != notation.AnyRole && t.nodes[n].role == notation.AnyRole {
		t.nodes[n].role = role
	}
	return n
}

func (t *ttTyping) find(n int) int {
	for t.up[n] != n {
		t.up[n] = t.up[t.up[n]]
		n = t.up[n]
	}
	return n
}

// same ties nodes to one encoding (negative indices are no tensor).
func (t *ttTyping) same(ns ...int) {
	first := -1
	for _, n := range ns {
		if n < 0 {
			continue
		}
		if first < 0 {
			first = n
			continue
		}
		a, b := t.find(first), t.find(n)
		if a != b {
			t.up[max(a, b)] = min(a, b)
		}
	}
}

// tyClass is the nodes tied to one encoding, and the encoding chosen.
type tyClass struct {
	members []int
	enc     notation.TritonEncoding
	fits    map[string]bool // by encoding text
}

// solve names every node: by key, the encoding it is written in. fallback
// is the name a layout has alone, for a dot's operand in role.
func (t *ttTyping) solve(fallback func(*model.Layout, notation.TritonRole) *notation.Triton) map[string]*notation.Triton {
	classes := map[int]*tyClass{}
	var order []int // the classes' roots, in the order first registered
	for n := range t.nodes {
		r := t.find(n)
		c := classes[r]
		if c == nil {
			c = &tyClass{fits: map[string]bool{}}
			classes[r] = c
			order = append(order, r)
		}
		c.members = append(c.members, n)
	}
	fits := func(c *tyClass, enc notation.TritonEncoding) bool {
		text := enc.TritonAttr()
		if ok, seen := c.fits[text]; seen {
			return ok
		}
		ok := true
		for _, n := range c.members {
			l := t.nodes[n].layout
			back, err := (&notation.Triton{Enc: enc}).Layout(model.FrameOf(l))
			if err != nil || !back.Equal(l) {
				ok = false
				break
			}
		}
		c.fits[text] = ok
		return ok
	}
	var queue []int
	fix := func(r int, enc notation.TritonEncoding) bool {
		c := classes[r]
		if c.enc != nil || !fits(c, enc) {
			return false
		}
		c.enc = enc
		queue = append(queue, r)
		return true
	}
	// Each class's ties, either end.
	tied := map[int][]tyTie{}
	for _, tie := range t.ties {
		a, b := t.find(tie.a), t.find(tie.b)
		tied[a] = append(tied[a], tie)
		if b != a {
			tied[b] = append(tied[b], tie)
		}
	}
	// The renamings' other ways wait: a class named by none of the ties
	// tries their names first when its turn comes, and the parents of
	// the slices they suggest for the operands of its expand_dims.
	suggested := map[int][]notation.TritonEncoding{}
	propagate := func() {
		for len(queue) > 0 {
			r := queue[0]
			queue = queue[1:]
			enc := classes[r].enc
			for _, tie := range tied[r] {
				a, b := t.find(tie.a), t.find(tie.b)
				switch {
				case tie.kind == tieRename && a == r && tie.toValue:
					fix(b, enc)
				case tie.kind == tieRename && b == r && !tie.toValue:
					fix(a, enc)
				case tie.kind == tieRename && a == r:
					suggested[b] = append(suggested[b], enc)
				case tie.kind == tieRename:
					suggested[a] = append(suggested[a], enc)
				case tie.kind == tieTrans && b == r:
					if enc := transEncoding(enc, tie.perm, t.nodes[tie.a].layout); enc != nil {
						fix(a, enc)
					}
				case tie.kind == tieFp4 && b == r:
					if enc := fp4Encoding(enc, tie.dim, t.nodes[tie.a].layout); enc != nil {
						fix(a, enc)
					}
				case tie.kind == tieTrans || tie.kind == tieFp4:
					// Triton infers the result's encoding from the
					// operand's, never the other way.
				case tie.kind == tieSlice && b == r:
					fix(a, &notation.SliceEncoding{Dim: tie.dim, Parent: enc})
				case tie.kind == tieSlice:
					if s, ok := enc.(*notation.SliceEncoding); ok && s.Dim == tie.dim {
						fix(b, s.Parent)
					}
				case b == r:
					for _, k := range kWidths(tie.kWidth, enc) {
						if fix(a, &notation.DotOperand{OpIdx: tie.dim, Parent: enc, KWidth: k}) {
							break
						}
					}
				default:
					if d, ok := enc.(*notation.DotOperand); ok && d.OpIdx == tie.dim {
						fix(b, d.Parent)
					}
				}
			}
		}
	}
	for _, an := range t.anchors {
		fix(t.find(an.node), an.enc)
	}
	propagate()
	// The rest from the largest tensors down, each by the name its own
	// layout has (the largest member's first that fits them all).
	size := func(r int) (rank, elems int) {
		for _, n := range classes[r].members {
			l := t.nodes[n].layout
			rank, elems = max(rank, l.Rank()), max(elems, l.Elements())
		}
		return rank, elems
	}
	rest := slices.Clone(order)
	slices.SortStableFunc(rest, func(x, y int) int {
		rx, ex := size(x)
		ry, ey := size(y)
		return cmp.Or(cmp.Compare(ry, rx), cmp.Compare(ey, ex))
	})
	var nameRest func(r, depth int)
	nameRest = func(r, depth int) {
		c := classes[r]
		if c.enc != nil {
			return
		}
		// A tt.trans's or ttg.fp4_to_fp's operand is named before its
		// result, which then takes the encoding Triton infers from it.
		for _, tie := range tied[r] {
			if b := t.find(tie.b); (tie.kind == tieTrans || tie.kind == tieFp4) && t.find(tie.a) == r && b != r && depth < 16 {
				nameRest(b, depth+1)
			}
		}
		if c.enc != nil {
			return
		}
		cands := slices.Clone(suggested[r])
		for _, tie := range tied[r] {
			if tie.kind == tieSlice && t.find(tie.b) == r {
				for _, enc := range suggested[t.find(tie.a)] {
					if s, ok := enc.(*notation.SliceEncoding); ok && s.Dim == tie.dim {
						cands = append(cands, s.Parent)
					}
				}
			}
		}
		members := slices.Clone(c.members)
		slices.SortStableFunc(members, func(x, y int) int {
			return cmp.Compare(t.nodes[y].layout.Elements(), t.nodes[x].layout.Elements())
		})
		for _, n := range members {
			cands = append(cands, fallback(t.nodes[n].layout, t.nodes[n].role).Enc)
		}
		if slices.ContainsFunc(members, func(n int) bool { return t.nodes[n].role == notation.Plain }) {
			// A block-scaled dot's scale is written #ttg.linear alone
			// (notation.Plain), whatever else names its tensor.
			cands = slices.DeleteFunc(cands, func(enc notation.TritonEncoding) bool {
				_, linear := enc.(*notation.Linear)
				return !linear
			})
		}
		for _, enc := range cands {
			if fix(r, enc) {
				break
			}
		}
		propagate()
	}
	for _, r := range rest {
		nameRest(r, 0)
	}
	out := map[string]*notation.Triton{}
	for k, n := range t.index {
		if enc := classes[t.find(n)].enc; enc != nil {
			out[k] = &notation.Triton{Enc: enc}
		} else {
			// Tied to tensors no one name fits: its own name.
			out[k] = fallback(t.nodes[n].layout, t.nodes[n].role)
		}
	}
	return out
}

// transEncoding is the encoding Triton infers for the result of a
// tt.trans by perm of a tensor in enc, whose layout is l
// (inferTransOpEncoding in lib/Dialect/TritonGPU/IR/Dialect.cpp of
// triton-lang/triton): a #ttg.blocked's fields permuted, its order
// renumbered (result dimension i is the operand's perm[i]); any other
// register encoding the #ttg.linear of the transposed layout, l itself.
// nil where l has no linear form.
func transEncoding(enc notation.TritonEncoding, perm []int, l *model.Layout) notation.TritonEncoding {
	if b, ok := enc.(*notation.TritonBlocked); ok && len(b.Order) == len(perm) && len(b.SizePerThread) == len(perm) {
		inv := make([]int, len(perm))
		for i, p := range perm {
			if p < 0 || p >= len(perm) {
				return nil
			}
			inv[p] = i
		}
		permute := func(v []int) []int {
			if len(v) != len(perm) {
				return v
			}
			out := make([]int, len(perm))
			for i, p := range perm {
				out[i] = v[p]
			}
			return out
		}
		order := make([]int, len(b.Order))
		for i, d := range b.Order {
			order[i] = inv[d]
		}
		return &notation.TritonBlocked{Blocked: notation.Blocked{SizePerThread: permute(b.SizePerThread), ThreadsPerWarp: permute(b.ThreadsPerWarp),
			WarpsPerCTA: permute(b.WarpsPerCTA), Order: order}, CTAsPerCGA: permute(b.CTAsPerCGA), CTASplitNum: permute(b.CTASplitNum), CTAOrder: b.CTAOrder}
	}
	x, err := notation.ExpressLinear(l)
	if err != nil {
		return nil
	}
	return x
}

// fp4Encoding is the encoding Triton infers for the result of a
// ttg.fp4_to_fp along axis of a tensor in enc, the result's layout l
// (inferFp4ToFpOpEncoding in lib/Dialect/TritonGPU/IR/Dialect.cpp of
// triton-lang/triton, as Triton 3.9's DecomposeScaledBlocked writes it):
// a #ttg.blocked whose fastest dimension is axis with its sizePerThread
// there doubled (the byte's pair the lowest register); any other the
// #ttg.linear of l. nil where l has no linear form.
func fp4Encoding(enc notation.TritonEncoding, axis int, l *model.Layout) notation.TritonEncoding {
	if b, ok := enc.(*notation.TritonBlocked); ok && len(b.Order) > 0 && b.Order[0] == axis && axis < len(b.SizePerThread) {
		d := *b
		d.SizePerThread = slices.Clone(b.SizePerThread)
		d.SizePerThread[axis] *= 2
		return &d
	}
	x, err := notation.ExpressLinear(l)
	if err != nil {
		return nil
	}
	return x
}

// kWidths lists the kWidths to try for a #ttg.dot_op of parent: first
// the one the operand's layout has named alone, then none for a blocked
// parent (an FMA dot's), then the powers of two the model reads.
func kWidths(first int, parent notation.TritonEncoding) []int {
	var out []int
	if first > 0 {
		out = append(out, first)
	}
	if _, ok := parent.(*notation.TritonBlocked); ok {
		out = append(out, 0)
	}
	for k := 1; k <= 64; k *= 2 {
		if k != first {
			out = append(out, k)
		}
	}
	return out
}

// sameEncodingOps are the ops whose tensor operands and results Triton
// holds to one encoding (TritonOps.td: SameOperandsAndResultEncoding,
// SameLoadStoreOperandsAndResultEncoding, SameLoadStoreOperandsEncoding),
// besides arith's and math's element-wise ops (SameOperandsAndResultType,
// or SameTypeOperands with the result's shape, in MLIR's ArithOps.td and
// MathOps.td).
var sameEncodingOps = map[string]bool{
	"tt.splat": true, "tt.broadcast": true, "tt.addptr": true, "tt.fp_to_fp": true, "tt.load": true, "tt.store": true,
	"tt.bitcast": true, "tt.int_to_ptr": true, "tt.ptr_to_int": true, "tt.precise_sqrt": true, "tt.precise_divf": true,
	"tt.clampf": true, "tt.mulhiui": true, "tt.extern_elementwise": true,
}

// tie records, on the first writing, the tensors op is written with (its
// result in res for an op made again, nil: its own) and the ties of
// Triton's typing between them.
func (wr *ttWriter) tie(op *ir.Op, res *model.Layout) {
	t := wr.typing
	if t == nil {
		return
	}
	operand := func(op *ir.Op, i int) int {
		if i >= len(op.Operands) || !isTensor(op.Operands[i].Value.Type) {
			return -1
		}
		v, want, _, how := wr.reads(op, i, res)
		if want == nil {
			return -1
		}
		n := t.node(readKey(op, i, v, want, res), want, wr.role(op, i))
		if k := nodeKey(v, want); how != readConverted && readKey(op, i, v, want, res) != k {
			t.ties = append(t.ties, tyTie{kind: tieRename, a: n, b: t.node(k, want, notation.AnyRole), toValue: ir.TTName(op.Name) != "tt.reduce" && ir.TTName(op.Name) != "tt.return" && ownOperand(op, i)})
		}
		return n
	}
	result := func(op *ir.Op, k int, res *model.Layout) int {
		if k >= len(op.Results) || !isTensor(op.Results[k].Type) {
			return -1
		}
		l := res
		if l == nil {
			l = wr.layoutOf(op.Results[k])
		}
		if l == nil {
			return -1
		}
		role := notation.AnyRole
		if isDot(op.Name) {
			role = notation.Accumulator
		}
		return t.node(nodeKey(op.Results[k], l), l, role)
	}
	name := ir.TTName(op.Name)
	switch {
	case isDot(name):
		r := result(op, 0, res)
		if r < 0 {
			return
		}
		if c := dotOperand(op, notation.Accumulator); c >= 0 {
			t.same(operand(op, c), r)
		}
		for dim, role := range []notation.TritonRole{notation.OperandA, notation.OperandB} {
			i := dotOperand(op, role)
			if i < 0 {
				continue
			}
			if a := operand(op, i); a >= 0 {
				k := 0
				if d, ok := wr.plain(t.nodes[a].layout, role).Enc.(*notation.DotOperand); ok {
					k = d.KWidth
				}
				t.ties = append(t.ties, tyTie{kind: tieDot, a: a, b: r, dim: dim, kWidth: k})
			}
		}
		if acc, err := notation.ExpressTritonFor(t.nodes[r].layout, notation.Accumulator, notation.TritonTargetOf(wr.b.Target, wr.warpgroupOf(op))); err == nil {
			enc := acc.Enc
			if m, ok := enc.(*notation.AMDMFMA); ok {
				if rec := wr.mmaRecord(op); rec != nil {
					enc = wr.withVersion(withK(m, []*model.Record{rec}))
				}
			}
			t.anchors = append(t.anchors, tyAnchor{node: r, enc: enc})
		}
	case name == "tt.return":
		// A returned tensor is written in the function's declared
		// result type (Triton's ReturnOp verifier, in
		// lib/Dialect/Triton/IR/Ops.cpp, wants the types equal); its
		// value keeps its own name, which a ttg.convert_layout renames
		// where it is another.
		for i, o := range op.Operands {
			if n := operand(op, i); n >= 0 {
				if e := wr.b.declared(o.Value.Type, o.Pos); e != nil {
					t.anchors = append(t.anchors, tyAnchor{node: n, enc: e})
				}
			}
		}
	case name == "tt.reduce":
		// Its operands share one encoding (SameOperandsEncoding), each
		// result the slice of it.
		var ns []int
		for k := range op.Operands {
			b := operand(op, k)
			ns = append(ns, b)
			if a := result(op, k, res); a >= 0 && b >= 0 {
				t.ties = append(t.ties, tyTie{kind: tieSlice, a: a, b: b, dim: axisOf(op)})
			}
		}
		t.same(ns...)
	case name == "tt.expand_dims":
		if a, b := operand(op, 0), result(op, 0, res); a >= 0 && b >= 0 {
			t.ties = append(t.ties, tyTie{kind: tieSlice, a: a, b: b, dim: axisOf(op)})
		}
	case name == "tt.trans":
		perm, ok := reader.IntsAttr(op, "order")
		if a, b := result(op, 0, res), operand(op, 0); ok && a >= 0 && b >= 0 {
			t.ties = append(t.ties, tyTie{kind: tieTrans, a: a, b: b, perm: perm})
		}
	case name == "ttg.fp4_to_fp":
		if a, b := result(op, 0, res), operand(op, 0); a >= 0 && b >= 0 {
			t.ties = append(t.ties, tyTie{kind: tieFp4, a: a, b: b, dim: axisOf(op)})
		}
	case name == "scf.for" && len(op.Regions) == 1 && len(op.Regions[0].Blocks) == 1:
		args := op.Regions[0].Blocks[0].Args
		for i := 3; i < len(op.Operands) && i-2 < len(args); i++ {
			arg := -1
			if l := wr.layoutOf(args[i-2]); l != nil && isTensor(args[i-2].Type) {
				arg = t.node(nodeKey(args[i-2], l), l, notation.AnyRole)
			}
			t.same(operand(op, i), arg, result(op, i-3, nil))
		}
	case name == "scf.while" && len(op.Regions) == 2 && len(op.Regions[0].Blocks) == 1 && len(op.Regions[1].Blocks) == 1:
		// An init, the before and after regions' arguments and the result
		// of one carried value share one type (SCFOps.td, WhileOp; the
		// reader reads the form whose scf.condition passes the before
		// region's arguments on).
		arg := func(a []*ir.Value, i int) int {
			if i >= len(a) || !isTensor(a[i].Type) {
				return -1
			}
			if l := wr.layoutOf(a[i]); l != nil {
				return t.node(nodeKey(a[i], l), l, notation.AnyRole)
			}
			return -1
		}
		for i := range op.Operands {
			t.same(operand(op, i), arg(op.Regions[0].Blocks[0].Args, i), arg(op.Regions[1].Blocks[0].Args, i), result(op, i, nil))
		}
	case name == "tt.gather":
		// The result has the indices' encoding (GatherOp::verify).
		t.same(operand(op, 1), result(op, 0, res))
	case name == "scf.condition":
		if op.Parent == nil || op.Parent.Region == nil || op.Parent.Region.Parent == nil {
			return
		}
		for k := 1; k < len(op.Operands); k++ {
			t.same(operand(op, k), result(op.Parent.Region.Parent, k-1, nil))
		}
	case name == "scf.yield":
		if op.Parent == nil || op.Parent.Region == nil || op.Parent.Region.Parent == nil {
			return
		}
		parent := op.Parent.Region.Parent
		for k := range op.Operands {
			t.same(operand(op, k), result(parent, k, nil))
		}
	case sameEncodingOps[name] || strings.HasPrefix(name, "arith.") || strings.HasPrefix(name, "math."):
		var ns []int
		for i := range op.Operands {
			ns = append(ns, operand(op, i))
		}
		for k := range op.Results {
			ns = append(ns, result(op, k, res))
		}
		t.same(ns...)
	}
}

// tieArguments names each tensor argument of the function by the
// encoding its type declares: the caller's, which the signature keeps
// (these anchors come before any other).
func (wr *ttWriter) tieArguments() {
	t := wr.typing
	if t == nil {
		return
	}
	var first []tyAnchor
	for _, a := range wr.b.Fn.Regions[0].Blocks[0].Args {
		l, ok := wr.graphLayout(a)
		if pin := wr.b.ptrArgs[a]; pin != nil {
			l, ok = pin.Layout, true
		}
		if !ok || !isTensor(a.Type) {
			continue
		}
		if e := wr.b.declared(a.Type, a.Pos); e != nil {
			first = append(first, tyAnchor{node: t.node(nodeKey(a, l), l, notation.AnyRole), enc: e})
		}
	}
	t.anchors = append(first, t.anchors...)
}

// declared is the encoding a tensor type states, as read; nil for none
// the reader takes.
func (b *ttBuilder) declared(t ir.Type, at model.Pos) notation.TritonEncoding {
	tt, ok := t.(*ir.TensorType)
	if !ok {
		return nil
	}
	if e := b.encoding(tt, at); e.enc != nil && !e.err {
		return e.enc.Enc
	}
	return nil
}

// mmaRecord is the mma record the plan runs a dot on; nil where it has
// none.
func (wr *ttWriter) mmaRecord(op *ir.Op) *model.Record {
	for _, g := range wr.b.Made[op] {
		if r := wr.plan.Ops[g.Name].Record(); r != nil && r.Kind == model.RecordMMA {
			return r
		}
	}
	return nil
}

// withK is m with the K of its instruction: Triton's AMD backend reads
// #ttg.amd_mfma's instrShape as (M, N, K) (AMDMfmaEncodingAttr in
// include/triton/Dialect/TritonGPU/IR/TritonGPUAttrDefs.td: "The shape in
// the form of (M, N, K)") and lowers a dot by its K (convertDot in
// third_party/amd/lib/TritonAMDGPUToLLVM/DotOpToLLVM/MFMA.cpp takes kDim
// from instrShape[2]; Triton 3.9.0 stops on an assertion compiling one
// written [M, N]). The layout does not depend on K, so the K is the
// first of recs that is an mfma of m's M × N; m as it is where m states
// a K already or no record is one.
func withK(m *notation.AMDMFMA, recs []*model.Record) *notation.AMDMFMA {
	if len(m.InstrShape) != 2 {
		return m
	}
	for _, r := range recs {
		if r != nil && r.Kind == model.RecordMMA && r.Vendor == "amd" && r.M == m.InstrShape[0] && r.N == m.InstrShape[1] && r.K > 0 {
			k := *m
			k.InstrShape = []int{r.M, r.N, r.K}
			return &k
		}
	}
	return m
}

// mfmaVersions are the #ttg.amd_mfma versions Triton gives the AMD
// targets' matrix cores: CDNA2 (gfx90a) 2, CDNA3 (gfx942) 3, CDNA4
// (gfx950) 4 (Triton 3.9 writes version = 4 for hip:gfx950, and lowers a
// tt.dot_scaled to the scaled MFMA only under it).
var mfmaVersions = map[string]int{"gfx90a": 2, "gfx942": 3, "gfx950": 4}

// withVersion is m with the version of the writer's target, m where the
// target has none.
func (wr *ttWriter) withVersion(m *notation.AMDMFMA) *notation.AMDMFMA {
	if wr.b.Target == nil {
		return m
	}
	v, ok := mfmaVersions[wr.b.Target.Name]
	if !ok || v == m.Version {
		return m
	}
	x := *m
	x.Version = v
	return &x
}

// mfmaRecords are the records an #ttg.amd_mfma not written for one dot
// takes its K from (withK): those the plan runs its dots on, then those
// the target offers.
func (wr *ttWriter) mfmaRecords() []*model.Record {
	var recs []*model.Record
	for _, op := range wr.ops {
		if isDot(op.Name) {
			recs = append(recs, wr.mmaRecord(op))
		}
	}
	if wr.b.Opt.Offered != nil && wr.b.Target != nil {
		if offered, err := wr.b.Opt.Offered(wr.b.Target); err == nil {
			recs = append(recs, offered...)
		}
	}
	return recs
}

// warpgroupOf reports whether a dot's result is written as a warpgroup
// mma's (Hopper's wgmma, #ttg.nvidia_mma version 3): a
// ttng.warp_group_dot's always, as Triton makes that op only for a
// version 3 result (BlockedToMMA in
// lib/Dialect/TritonGPU/Transforms/AccelerateMatmul.cpp; a plan that runs
// it on mma.sync records keeps the op, whose layout the version 3 name
// gives as well), a tt.dot's where its record in the plan runs over
// several subgroups.
func (wr *ttWriter) warpgroupOf(op *ir.Op) bool {
	if ir.TTName(op.Name) == "ttng.warp_group_dot" {
		return true
	}
	for _, g := range wr.b.Made[op] {
		if r := wr.plan.Ops[g.Name].Record(); r != nil && r.Kind == model.RecordMMA {
			return r.Subgroups > 1
		}
	}
	return wr.warpgroup
}
