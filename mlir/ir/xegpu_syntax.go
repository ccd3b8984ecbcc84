package ir

import (
	"planner/model"
)

// The custom forms of XeGPU's ops, each as its assemblyFormat in
// llvm-project mlir/include/mlir/Dialect/XeGPU/IR/XeGPUOps.td writes it
// (and mlir/test/Dialect/XeGPU/ops.mlir and layout.mlir use it). The
// offsets of load_nd, store_nd and prefetch_nd and the properties
// <{...}> are optional, as the dialect has had them both ways.

// offsets reads an optional DynamicIndexList ([%i, 0, ...]) as the op's
// const_offsets, giving the dynamic entries.
func (p *parser) offsets(op *Op) ([]ref, bool) {
	if !p.tok.is("[") {
		return nil, true
	}
	return p.positions(op, "const_offsets", "offsets")
}

// optProps reads an optional <{properties}>.
func (p *parser) optProps(op *Op) bool {
	if !p.ok() || !p.tok.is("<") {
		return p.ok()
	}
	p.nextTok()
	d := p.parseDictBody()
	if d == nil {
		return false
	}
	op.Props = append(op.Props, d...)
	return p.expect(">", "to close the properties <{...}>")
}

// arrowType reads '-> type'.
func (p *parser) arrowType(what string) Type {
	if !p.ok() {
		return nil
	}
	if p.tok.kind != tArrow {
		p.failf(p.tok.pos, "expected '->' and %s, found %s", what, p.tok.describe())
		return nil
	}
	p.nextTok()
	return p.parseType()
}

// tdescType checks that t is a tensor_desc.
func (p *parser) tdescType(op *Op, t Type, at model.Pos) bool {
	if !p.ok() {
		return false
	}
	if _, ok := t.(*TensorDescType); !ok {
		p.failf(at, "%s takes a !xegpu.tensor_desc<...>, found %s", op.Name, t)
		return false
	}
	return true
}

// parseCreateNdDesc reads %src[[offsets]] [, [shape], [strides]] [{...}] :
// SrcT -> !xegpu.tensor_desc<...> (the offsets optional, as later
// versions move them to load_nd; the lists optionally labelled shape :
// and strides :).
func parseCreateNdDesc(p *parser, op *Op) []Type {
	src, ok := p.parseRef()
	if !ok {
		return nil
	}
	var lists [3][]ref
	if p.tok.is("[") {
		if lists[0], ok = p.offsets(op); !ok {
			return nil
		}
	}
	// The shape and strides, after the offsets or, with none, after the
	// source (%src, shape : [..], strides : [..], as ops.mlir's
	// test_create_nd_tdesc_8 writes it).
	if p.tok.is(",") {
		p.nextTok()
		if lists[1], ok = p.labelled(op, "shape"); !ok || !p.expect(",", "between the shape and the strides") {
			return nil
		}
		if lists[2], ok = p.labelled(op, "strides"); !ok {
			return nil
		}
	}
	p.optAttrs(op)
	srcT := p.colonType(op)
	at := p.tok.pos
	if p.tok.kind == tArrow {
		at = p.lx.pos()
	}
	t := p.arrowType("the tensor_desc's type")
	if !p.tdescType(op, t, at) || p.use(op, src, srcT) == nil {
		return nil
	}
	for _, l := range lists {
		if !p.useAll(op, l, IndexType{}) {
			return nil
		}
	}
	segments(op, 1, len(lists[0]), len(lists[1]), len(lists[2]))
	return []Type{t}
}

// labelled reads create_nd_tdesc's shape or strides list, [..] or, as
// later versions write it, shape : [..] (mlir/test/Dialect/XeGPU/ops.mlir,
// create_nd_tdesc_2), into its const_ property.
func (p *parser) labelled(op *Op, what string) ([]ref, bool) {
	if p.isKeyword(what) {
		p.nextTok()
		if !p.expect(":", "after "+what) {
			return nil, false
		}
	}
	return p.positions(op, "const_"+what, what)
}

// parseUpdateNdOffset reads %t, [offsets] [{...}] : T.
func parseUpdateNdOffset(p *parser, op *Op) []Type {
	t, ok := p.parseRef()
	if !ok || !p.expect(",", "before the offsets") {
		return nil
	}
	dyn, ok := p.positions(op, "const_offsets", "offsets")
	if !ok {
		return nil
	}
	p.optAttrs(op)
	at := p.tok.pos
	typ := p.colonType(op)
	if !p.tdescType(op, typ, at) || p.use(op, t, typ) == nil || !p.useAll(op, dyn, IndexType{}) {
		return nil
	}
	return []Type{typ}
}

// tdescAccess reads what load_nd, store_nd and prefetch_nd share after
// their operands: [offsets] [<{props}>] [{attrs}] : then the descriptor's
// type (after the value's, for a store); it resolves the uses.
func (p *parser) tdescAccess(op *Op, value *ref, desc ref) Type {
	dyn, ok := p.offsets(op)
	if !ok || !p.optProps(op) {
		return nil
	}
	p.optAttrs(op)
	var vt Type
	if value != nil {
		if vt = p.colonType(op); !p.expect(",", "between the value's and the tensor_desc's types") {
			return nil
		}
	} else if !p.expect(":", "before the tensor_desc's type") {
		return nil
	}
	at := p.tok.pos
	t := p.parseType()
	if !p.tdescType(op, t, at) {
		return nil
	}
	if value != nil && p.use(op, *value, vt) == nil || p.use(op, desc, t) == nil || !p.useAll(op, dyn, IndexType{}) {
		return nil
	}
	return t
}

// parseLoadNd reads %t [offsets] [<{...}>] [{...}] : TDescT -> VecT.
func parseLoadNd(p *parser, op *Op) []Type {
	t, ok := p.parseRef()
	if !ok || p.tdescAccess(op, nil, t) == nil {
		return nil
	}
	v := p.arrowType("the loaded vector's type")
	if !p.ok() {
		return nil
	}
	return []Type{v}
}

// parseStoreNd reads %v, %t [offsets] [<{...}>] [{...}] : VecT, TDescT.
func parseStoreNd(p *parser, op *Op) []Type {
	v, ok := p.parseRef()
	if !ok || !p.expect(",", "between the value and the tensor_desc") {
		return nil
	}
	t, ok := p.parseRef()
	if ok {
		p.tdescAccess(op, &v, t)
	}
	return nil
}

// parsePrefetchNd reads %t [offsets] [<{...}>] [{...}] : TDescT.
func parsePrefetchNd(p *parser, op *Op) []Type {
	if t, ok := p.parseRef(); ok {
		p.tdescAccess(op, nil, t)
	}
	return nil
}

// parseConvertLayout reads %v [<{input_layout = ..., target_layout =
// ...}>] [{...}] : T (its layouts as properties, or as srcMap and resMap
// attributes in earlier versions); the result has the operand's type.
func parseConvertLayout(p *parser, op *Op) []Type {
	v, ok := p.parseRef()
	if !ok || !p.optProps(op) {
		return nil
	}
	p.optAttrs(op)
	t := p.colonType(op)
	if !p.ok() || p.use(op, v, t) == nil {
		return nil
	}
	return []Type{t}
}

// tdesc is what the reader knows of a tensor descriptor: its type, as
// its create_nd_tdesc made it (a block of global memory).
