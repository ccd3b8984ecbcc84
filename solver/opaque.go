package solver

import "planner/model"

// opaqueMMAs marks the mma ops that may run on a record whose fragments
// are opaque (WMMA): those whose operands and result can all stay in such
// a fragment. No conversion reaches or leaves one, so a value can hold it
// only if it is made by an op that can make it (an mma, a load_shared, a
// constant, or element-wise ops and loops carrying one) and used only by
// ops that can take it (mma, copy_to_shared, element-wise ops, loops).
// Values that share a layout (element-wise operands and results, a loop's
// carried values) stand or fall together. An mma that names its
// intrinsic keeps every choice, so that an explanation can say why the
// named record does not fit.
func opaqueMMAs(g *model.Graph) map[*model.Op]bool {
	parent := map[*model.Value]*model.Value{}
	var find func(v *model.Value) *model.Value
	find = func(v *model.Value) *model.Value {
		p, ok := parent[v]
		if !ok || p == v {
			return v
		}
		r := find(p)
		parent[v] = r
		return r
	}
	union := func(a, b *model.Value) { parent[find(a)] = find(b) }
	bad := map[*model.Value]bool{}
	for _, v := range g.Values {
		if v.Def == nil && v.Arg == nil {
			bad[v] = true
		}
		if v.Def != nil && v.Def.Info().Explicit {
			bad[v] = true
		}
		for _, u := range v.Uses {
			if u.Op.Info().Explicit {
				bad[v] = true
			}
		}
	}
	g.Walk(func(op *model.Op) {
		switch op.Info().Flow {
		case model.FlowSame:
			for _, v := range op.Operands {
				union(v, op.Result)
			}
		case model.FlowCarry:
			lp := op.Body
			for i := range lp.Args {
				union(lp.Inits[i], lp.Args[i])
				union(lp.Yields[i], lp.Args[i])
				union(lp.Results[i], lp.Args[i])
			}
		}
	})
	// An mma that cannot run on an opaque record neither takes nor makes
	// such a fragment: its operands and result are then values that
	// cannot hold one either. Repeat until nothing changes.
	out := map[*model.Op]bool{}
	for changed := true; changed; {
		changed = false
		badRoot := map[*model.Value]bool{}
		for v := range bad {
			badRoot[find(v)] = true
		}
		g.Walk(func(op *model.Op) {
			if op.Info().Records != model.RecordMMA {
				return
			}
			ok := op.Intrinsic != "" || !badRoot[find(op.Result)]
			for _, v := range op.Operands {
				ok = ok && (op.Intrinsic != "" || !badRoot[find(v)])
			}
			out[op] = ok
			if ok {
				return
			}
			for _, v := range append([]*model.Value{op.Result}, op.Operands...) {
				if !bad[v] {
					bad[v], changed = true, true
				}
			}
		})
	}
	return out
}

// opaqueRecord reports whether an mma record's fragments are opaque.
func opaqueRecord(r *model.Record) bool {
	for _, op := range recordOperands(r) {
		if op.Layout != nil && op.Layout.Opaque() != "" {
			return true
		}
	}
	return false
}

// mmaRecordsFor are the records an mma op's choices are drawn from: all
// of them where its values can stay in an opaque fragment, the others
// (plainMMA, set by the build) otherwise.
func (p *Problem) mmaRecordsFor(op *model.Op, mmaRecs []*model.Record) []*model.Record {
	if p.build.opaqueMMA[op] {
		return mmaRecs
	}
	return p.plainMMA
}
