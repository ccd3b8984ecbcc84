package vector

import (
	"fmt"
	"math/bits"
	"slices"

	"planner/mlir/ir"
	"planner/mlir/reader"
	"planner/model"
	"planner/notation"
)

// Lane-level matrix ops: nvgpu.ldmatrix, nvgpu.mma.sync and amdgpu.mfma
// give and take each lane's share of a subgroup's fragment
// (vector<4x2xf16> of a 16x16 A). The graph holds the subgroup's tile,
// pinned to the layout of the record the op names; b.lane marks the IR
// values that stand for such tiles (and the element-wise ops and loops
// that carry them).

// laneMMA is what an nvgpu.mma.sync or amdgpu.mfma is read as: its
// record, or nil when it was refused (reported once).
type laneMMA struct {
	rec *model.Record
}

// laneRecord is the mma record of an nvgpu.mma.sync or amdgpu.mfma, nil
// when there is none (reported at the op, once).
func (b *builder) laneRecord(op *ir.Op) *model.Record {
	if lm, ok := b.laneMMAs[op]; ok {
		return lm.rec
	}
	rec := b.findLaneRecord(op)
	b.laneMMAs[op] = laneMMA{rec}
	return rec
}

// operandDType is the element type of op's operand i, as the graph knows
// it ("" and false where it knows none: reported).
func (b *builder) operandDType(op *ir.Op, i int) (model.DType, bool) {
	if i >= len(op.Operands) {
		return model.DType{}, false
	}
	t := op.Operands[i].Value.Type
	v, ok := t.(*ir.VectorType)
	if !ok {
		b.Errorf(op.Operands[i].Pos, model.CodeBadValue, "%s's operand %d is %v: the reader reads its operands as vectors (each lane's share of the fragment)", op.Name, i, t)
		return model.DType{}, false
	}
	dt, ok := ir.DType(v.Elem)
	if !ok {
		b.Errorf(op.Operands[i].Pos, model.CodeUnknownName, "%s's operand %d has elements of type %s, which the planner does not know", op.Name, i, v.Elem)
	}
	return dt, ok
}

func (b *builder) findLaneRecord(op *ir.Op) *model.Record {
	if len(op.Operands) < 3 || len(op.Results) != 1 {
		return nil // ready reports it
	}
	var dts [3]model.DType
	for i := range dts {
		dt, ok := b.operandDType(op, i)
		if !ok {
			return nil
		}
		dts[i] = dt
	}
	if op.Name == "nvgpu.mma.sync" {
		na, ok := op.Attr("mmaShape")
		mnk, isInts := []int(nil), false
		if ok {
			mnk, isInts = reader.IntsOf(na.Value)
		}
		if !isInts || len(mnk) != 3 {
			b.Fail(op, model.CodeMissingKey, "nvgpu.mma.sync needs mmaShape = [M, N, K]")
			return nil
		}
		if flagOf(op, "tf32Enabled") && dts[0].Name == "f32" {
			// NVGPUOps.td, MmaSyncOp: tf32Enabled runs an f32 product
			// as tf32.
			dts[0], _ = model.ParseDType("tf32")
			dts[1] = dts[0]
		}
		return b.mmaRecord(op, mnk[0], mnk[1], mnk[2], 1, dts[0], dts[1], dts[2], false)
	}
	var dims [4]int
	for i, name := range []string{"m", "n", "k", "blocks"} {
		def := 0
		if name == "blocks" {
			def = 1
		}
		n, na, ok := intAttrOf(op, name, def)
		if !ok || n < 1 {
			at := op.Pos
			if na != nil {
				at = na.ValuePos
			}
			b.Errorf(at, model.CodeMissingKey, "amdgpu.mfma needs positive integers m, n, k (and blocks): %s is missing or not one", name)
			return nil
		}
		dims[i] = n
	}
	for _, name := range []string{"cbsz", "abid"} {
		if n, na, _ := intAttrOf(op, name, 0); n != 0 {
			b.Errorf(na.ValuePos, model.CodeBadValue, "amdgpu.mfma has %s = %d: the reader reads an mfma whose blocks each read their own A (cbsz = 0, abid = 0)", name, n)
			return nil
		}
	}
	if na, ok := op.Attr("blgp"); ok {
		if c, _ := ir.EnumCase(na.Value, "mfma_perm_b"); c != "none" {
			b.Errorf(na.ValuePos, model.CodeBadValue, "amdgpu.mfma has blgp = %s: the reader reads an mfma that reads B as it is (blgp = none)", na.Value)
			return nil
		}
	}
	if dims[3] > 1 {
		b.Fail(op, model.CodeBadValue, "amdgpu.mfma has blocks = %d: it computes %d independent products, and the reader reads an mfma as one matrix product (blocks = 1)", dims[3], dims[3])
		return nil
	}
	return b.mmaRecord(op, dims[0], dims[1], dims[2], 1, dts[0], dts[1], dts[2], false)
}

// laneRoles are the record operands of an mma op's operands A, B, C.
var laneRoles = []string{"a", "b", "c"}

// laneTile is the tile a lane-level value v stands for, from the first
// nvgpu.mma.sync or amdgpu.mfma that reads it directly (its role there),
// or nil.
func (b *builder) laneTile(v *ir.Value) (shape []int, role string, rec *model.Record) {
	for _, u := range v.Uses {
		if (u.Op.Name == "nvgpu.mma.sync" || u.Op.Name == "amdgpu.mfma") && u.Index < 3 {
			rec := b.laneRecord(u.Op)
			if rec == nil {
				return nil, "", nil
			}
			return rec.OperandShape(laneRoles[u.Index]), laneRoles[u.Index], rec
		}
		// A loop's init: the tile its iter_arg is read as.
		if u.Op.Name == "scf.for" && u.Index >= 3 && len(u.Op.Regions) == 1 && len(u.Op.Regions[0].Blocks) == 1 {
			if args := u.Op.Regions[0].Blocks[0].Args; u.Index-2 < len(args) {
				if shape, role, rec := b.laneTile(args[u.Index-2]); rec != nil {
					return shape, role, rec
				}
			}
		}
	}
	return nil, "", nil
}

// lanePin is the pin of a tile to a record operand's layout (over the
// graph's subgroups, each holding the same tile).
func (b *builder) lanePin(rec *model.Record, role string, at model.Pos) *model.Pin {
	o := rec.Operands[role]
	if role == "c" && rec.Operands["d"] != nil && o.Layout == nil {
		o = rec.Operands["d"]
	}
	if o == nil || o.Layout == nil {
		return nil
	}
	lin, err := notation.ExpressLinear(o.Layout)
	if err != nil {
		return nil
	}
	lin.Warp = make([][]int, bits.TrailingZeros(uint(b.G.Subgroups)))
	for i := range lin.Warp {
		lin.Warp[i] = make([]int, len(o.Shape))
	}
	l, err := lin.Layout(model.Frame{Shape: o.Shape, SubgroupSize: b.Target.SubgroupSize, Subgroups: b.G.Subgroups})
	if err != nil {
		return nil
	}
	return &model.Pin{Layout: l, Notation: lin, Pos: at}
}

// checkLanes checks that an IR vector is a lane's share of a tile: its
// elements times the subgroup's lanes are the tile's.
func (b *builder) checkLanes(who string, at model.Pos, t ir.Type, tile []int, what string) bool {
	v, ok := t.(*ir.VectorType)
	if !ok {
		b.Errorf(at, model.CodeBadValue, "%s's %s is %v, not a vector", who, what, t)
		return false
	}
	n := 1
	for _, d := range v.Shape {
		n *= d
	}
	elems := 1
	for _, d := range tile {
		elems *= d
	}
	if n*b.Target.SubgroupSize != elems {
		b.Errorf(at, model.CodeShapeMismatch, "%s's %s is %s, %d elements per lane, but the %v tile it is part of gives each of %s's %d lanes %d", who, what, t, n, tile, b.Target.Name, b.Target.SubgroupSize, elems/b.Target.SubgroupSize)
		return false
	}
	return true
}

// ldmatrix reads nvgpu.ldmatrix: a load_shared of the buffer with the
// ldmatrix record of its numTiles and transpose (PTX ISA, ldmatrix:
// numTiles 8x8 matrices of 16-bit elements, one 16-byte row per lane
// address). The tile is the operand of the mma that reads it: A (M×K)
// row major in memory, B (K×N) as mma.sync's .col B, N×K in memory
// (each lane's pair of elements consecutive along K, which ldmatrix
// without .trans gives from 16-byte rows); with transpose the other way
// round. The value in memory order is %x@mem, transposed to the
// operand's orientation where the two differ.
func (b *builder) ldmatrix(op *ir.Op) {
	res := op.Results[0]
	vt, ok := res.Type.(*ir.VectorType)
	if !ok {
		b.Fail(op, model.CodeBadValue, "nvgpu.ldmatrix gives %s, not a vector", res.Type)
		return
	}
	dt, ok := ir.DType(vt.Elem)
	if !ok || dt.Bits != 16 {
		b.Fail(op, model.CodeBadValue, "nvgpu.ldmatrix gives %s elements: the ldmatrix records load 16-bit elements (.b16)", vt.Elem)
		return
	}
	n, na, ok := intAttrOf(op, "numTiles", 0)
	if !ok || n != 1 && n != 2 && n != 4 {
		at := op.Pos
		if na != nil {
			at = na.ValuePos
		}
		b.Errorf(at, model.CodeBadValue, "nvgpu.ldmatrix needs numTiles = 1, 2 or 4")
		b.Failed[res] = true
		return
	}
	trans := flagOf(op, "transpose")
	name := fmt.Sprintf("ldmatrix_x%d", n)
	if trans {
		name += "_trans"
	}
	tile, role, _ := b.laneTile(res)
	if tile == nil {
		tile = [][]int{1: {8, 8}, 2: {16, 8}, 4: {16, 16}}[n]
		role = "a"
	}
	if len(tile) != 2 || tile[0]*tile[1] != 64*n {
		b.Fail(op, model.CodeShapeMismatch, "nvgpu.ldmatrix loads %d 8x8 matrices (%d elements), but the mma reads it as a %v %s operand", n, 64*n, tile, role)
		return
	}
	if !b.checkLanes(op.Name, res.Pos, res.Type, tile, "result") {
		b.Failed[res] = true
		return
	}
	rec := b.recordFor(op, model.RecordLoadShared, name, func(r *model.Record) bool { return r.Name == name })
	if rec == nil {
		b.Failed[res] = true
		return
	}
	m := b.mem(op.Operands[0])
	if m == nil {
		b.Failed[res] = true
		return
	}
	if m.space != "shared" {
		b.Fail(op, model.CodeBadValue, "nvgpu.ldmatrix reads %s in global memory: ldmatrix loads from shared memory", op.Operands[0].Value)
		return
	}
	// A is row major unless transposed; B is stored N×K unless transposed.
	flip := trans != (role == "b")
	mem := tile
	if flip {
		mem = []int{tile[1], tile[0]}
	}
	buf := b.buffer(op, op.Operands[0], m, mem, dt)
	if buf == nil {
		b.Failed[res] = true
		return
	}
	ld := &model.Op{Kind: model.OpLoadShared, Pos: op.Pos, Buffer: buf, Intrinsic: rec.Name, IntrinsicPos: op.Pos}
	b.lane[res] = true
	if !flip {
		b.Add(ld, &model.OpArgs{Buffer: buf}, res, res.Name, res.Pos)
		return
	}
	tv := b.Add(ld, &model.OpArgs{Buffer: buf}, nil, res.Name+"@mem", res.Pos)
	if tv == nil {
		b.Failed[res] = true
		return
	}
	perm := []int{1, 0}
	b.Add(&model.Op{Kind: model.OpTranspose, Pos: op.Pos, Operands: []*model.Value{tv}, Perm: perm}, &model.OpArgs{Perm: perm}, res, res.Name, res.Pos)
}

// laneMMAOp reads nvgpu.mma.sync and amdgpu.mfma: an mma on the record of
// their shape and element types, every operand and the result pinned to
// that record's fragment layouts (the IR fixed them).
func (b *builder) laneMMAOp(op *ir.Op) {
	res := op.Results[0]
	rec := b.laneRecord(op)
	if rec == nil {
		b.Failed[res] = true
		return
	}
	var vals [3]*model.Value
	for i, role := range laneRoles {
		o := op.Operands[i]
		shape := rec.OperandShape(role)
		if !b.checkLanes(op.Name, o.Pos, o.Value.Type, shape, "operand "+role) {
			b.Failed[res] = true
			return
		}
		v := b.Value(o)
		if v == nil {
			b.Failed[res] = true
			return
		}
		if !slices.Equal(v.Shape, shape) {
			b.Errorf(o.Pos, model.CodeShapeMismatch, "%s reads %s as its %s operand, a %v tile, but %s's %s is %v", op.Name, o.Value, role, v.Shape, rec.Name, role, shape)
			b.Failed[res] = true
			return
		}
		pin := b.lanePin(rec, role, op.Pos)
		if want := rec.Operands[role].DType; want.Name != v.DType.Name {
			// tf32Enabled: the f32 bits read as tf32 (NVGPUOps.td,
			// MmaSyncOp), in the same layout.
			if v.Pin == nil {
				v.Pin = pin
			}
			if v = b.Add(&model.Op{Kind: model.OpCast, Fn: "bitcast", Pos: op.Pos, Operands: []*model.Value{v}}, &model.OpArgs{DType: want}, nil, o.Value.Name+"@"+want.Name, op.Pos); v == nil {
				b.Failed[res] = true
				return
			}
		}
		if v.Pin == nil {
			v.Pin = pin
		}
		vals[i] = v
	}
	if !b.checkLanes(op.Name, res.Pos, res.Type, rec.OperandShape("d"), "result") {
		b.Failed[res] = true
		return
	}
	b.lane[res] = true
	d := b.Add(&model.Op{Kind: model.OpMMA, Pos: op.Pos, Operands: vals[:], Intrinsic: rec.Name, IntrinsicPos: op.Pos}, &model.OpArgs{}, res, res.Name, res.Pos)
	if d != nil {
		d.Pin = b.lanePin(rec, "d", op.Pos)
	}
}

// laneConstant reads a splat arith.constant that an nvgpu.mma.sync or
// amdgpu.mfma reads as its accumulator: a constant of the accumulator's
// tile; false when no such op reads it.
func (b *builder) laneConstant(op *ir.Op, res *ir.Value) bool {
	tile, _, rec := b.laneTile(res)
	if rec == nil {
		return false
	}
	_, dt, ok := b.ResultVector(res)
	if !ok || !b.checkLanes(op.Name, res.Pos, res.Type, tile, "result") {
		b.Failed[res] = true
		return true
	}
	b.lane[res] = true
	b.Add(&model.Op{Kind: model.OpConstant, Pos: op.Pos}, &model.OpArgs{Shape: tile, DType: dt}, res, res.Name, res.Pos)
	return true
}

// laneOperand is the tile shape of the first lane-level operand of op,
// or nil.
func (b *builder) laneOperand(op *ir.Op) []int {
	for _, o := range op.Operands {
		if b.lane[o.Value] {
			if v := b.Value(o); v != nil {
				return v.Shape
			}
		}
	}
	return nil
}

// laneRead reads a vector.load or transfer_read whose result an
// nvgpu.mma.sync or amdgpu.mfma reads directly: a lane's share of the
// operand's tile, read as a load (or load_shared) of the whole tile. In
// memory the tile runs, in its last dimension, along the dimension a
// lane's consecutive registers run in the record's layout (A M×K as
// stored row major; a B whose lanes hold consecutive K stored N×K, and
// transposed to K×N after the load, %x@mem). False when no such op reads
// the result.
func (b *builder) laneRead(op *ir.Op, res *ir.Value, dt model.DType) bool {
	tile, role, rec := b.laneTile(res)
	if rec == nil {
		return false
	}
	if !b.checkLanes(op.Name, res.Pos, res.Type, tile, "result") {
		b.Failed[res] = true
		return true
	}
	m := b.mem(op.Operands[0])
	if m == nil {
		b.Failed[res] = true
		return true
	}
	if edt, ok := ir.DType(m.typ.Elem); !ok || edt.Name != dt.Name {
		b.Fail(op, model.CodeShapeMismatch, "%s reads %s elements from %s of %s elements", op.Name, dt.Name, op.Operands[0].Value, m.typ.Elem)
		return true
	}
	if len(m.typ.Shape) < len(tile) {
		b.Fail(op, model.CodeRankMismatch, "%s reads its share of a rank-%d tile from a rank-%d memref", op.Name, len(tile), len(m.typ.Shape))
		return true
	}
	mem, perm := tile, []int(nil)
	if d := runsAlong(rec, role); len(tile) >= 2 && d == len(tile)-2 {
		mem = slices.Clone(tile)
		n := len(mem)
		mem[n-2], mem[n-1] = mem[n-1], mem[n-2]
		perm = make([]int, n)
		for i := range perm {
			perm[i] = i
		}
		perm[n-2], perm[n-1] = n-1, n-2
	}
	b.lane[res] = true
	name := res.Name
	if perm != nil {
		name += "@mem"
		res = nil
	}
	var v *model.Value
	if m.space == "global" {
		v = b.Add(&model.Op{Kind: model.OpLoad, Pos: op.Pos, Contiguous: len(mem) - 1}, &model.OpArgs{Shape: mem, DType: dt}, res, name, op.Results[0].Pos)
	} else if buf := b.buffer(op, op.Operands[0], m, mem, dt); buf != nil {
		v = b.Add(&model.Op{Kind: model.OpLoadShared, Pos: op.Pos, Buffer: buf}, &model.OpArgs{Buffer: buf}, res, name, op.Results[0].Pos)
	}
	if v == nil {
		b.Failed[op.Results[0]] = true
		return true
	}
	if perm != nil {
		r := op.Results[0]
		b.Add(&model.Op{Kind: model.OpTranspose, Pos: op.Pos, Operands: []*model.Value{v}, Perm: perm}, &model.OpArgs{Perm: perm}, r, r.Name, r.Pos)
	}
	return true
}

// runsAlong is the tile dimension a lane's first two registers of a
// record operand lie along (its layout's first register basis), or -1.
func runsAlong(rec *model.Record, role string) int {
	o := rec.Operands[role]
	if o == nil || o.Layout == nil || o.Layout.Opaque() != "" {
		return -1
	}
	lin, err := notation.ExpressLinear(o.Layout)
	if err != nil || len(lin.Register) == 0 {
		return -1
	}
	for d, x := range lin.Register[0] {
		if x != 0 {
			return d
		}
	}
	return -1
}

// spreadLanePins pins every lane-level value to the layout of the tile it
// shares one with: the operands and result of an element-wise op or cast,
// a loop's init, iter_arg, yield and result. The IR fixed them all (each
// lane holds its share where the matrix op put it); the pin is the one the
// nearest matrix op gives.
func (b *builder) spreadLanePins() {
	lane := map[*model.Value]bool{}
	for v := range b.lane {
		if gv := b.Vals[v]; gv != nil {
			lane[gv] = true
		}
	}
	if len(lane) == 0 {
		return
	}
	spread := func(group []*model.Value) bool {
		var pin *model.Pin
		for _, v := range group {
			if lane[v] && v.Pin != nil {
				pin = v.Pin
				break
			}
		}
		changed := false
		for _, v := range group {
			if pin != nil && lane[v] && v.Pin == nil {
				v.Pin, changed = pin, true
			}
		}
		return changed
	}
	for changed := true; changed; {
		changed = false
		b.G.Walk(func(op *model.Op) {
			switch op.Info().Flow {
			case model.FlowSame:
				changed = spread(append([]*model.Value{op.Result}, op.Operands...)) || changed
			case model.FlowCarry:
				l := op.Body
				for i := range l.Args {
					changed = spread([]*model.Value{l.Inits[i], l.Args[i], l.Yields[i], l.Results[i]}) || changed
				}
			}
		})
	}
}

// laneArgument reads a vector argument that an nvgpu.mma.sync or
// amdgpu.mfma reads directly as a lane's share of the operand's tile,
// which that op pins: the tile's shape (nil when refused, reported);
// false when no such op reads it.
func (b *builder) laneArgument(a *ir.Value) ([]int, bool) {
	tile, _, rec := b.laneTile(a)
	if rec == nil {
		for _, u := range a.Uses {
			if u.Op.Name == "nvgpu.mma.sync" || u.Op.Name == "amdgpu.mfma" {
				b.Failed[a] = true // the op's record is refused, reported there
				return nil, true
			}
		}
		return nil, false
	}
	if !b.checkLanes("the function", a.Pos, a.Type, tile, "argument "+a.String()) {
		b.Failed[a] = true
		return nil, true
	}
	b.lane[a] = true
	return tile, true
}
