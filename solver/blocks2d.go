package solver

import "planner/model"

// blockRecords keeps the global block records (Intel 2D block loads and
// stores) of records.
func blockRecords(records []*model.Record) []*model.Record {
	var out []*model.Record
	for _, r := range records {
		if r.Kind == model.RecordLoadGlobal || r.Kind == model.RecordStoreGlobal {
			out = append(out, r)
		}
	}
	return out
}

// cheapestBlock is the cheapest way op accesses global memory with v in
// layout l: plain, the cost of plain vector accesses, or a global block
// record of the op's kind whose messages move l (model.BlockMessages),
// when cheaper. A record that packs rows or memory columns into each
// lane's words (VNNI) serves only a value an mma reads as its B operand,
// which takes that packing; the others serve any value. rec is nil when
// plain accesses are the cheapest.
//
// A load moves its result res; a store runs in exec (res nil).
func (p *Problem) cheapestBlock(op *model.Op, v *model.Value, res, exec *model.Layout, plain int64) (int64, *model.Record) {
	if op.Surface == nil || res == nil && exec == nil {
		return plain, nil
	}
	best, rec := plain, (*model.Record)(nil)
	asB := -1
	for _, r := range p.blockRecs {
		if r.Kind != op.Info().Records {
			continue
		}
		if model.PacksPairs(r, v.DType.Bits) {
			if asB < 0 {
				asB = b2i(readAsB(v))
			}
			if asB == 0 {
				continue
			}
		}
		c, _, err := p.memo.ops.OpCost(op, res, &model.OpChoice{Record: r, Exec: exec}, p.Target)
		if err == nil && c < best {
			best, rec = c, r
		}
	}
	return best, rec
}

// readAsB reports whether an mma reads v as its B operand, directly,
// through ops that relabel it (a transpose of a block loaded
// K-contiguous), or through a loop that carries it (a load for the next
// trip).
func readAsB(v *model.Value) bool {
	return readsAsB(v, map[*model.Value]bool{})
}

func readsAsB(v *model.Value, seen map[*model.Value]bool) bool {
	if seen[v] {
		return false
	}
	seen[v] = true
	for _, u := range v.Uses {
		if u.Op == nil {
			continue
		}
		var next []*model.Value
		switch info := u.Op.Info(); {
		case u.Yield && u.Op.Body != nil && u.Index < len(u.Op.Body.Args):
			next = append(next, u.Op.Body.Args[u.Index])
			if u.Index < len(u.Op.Body.Results) {
				next = append(next, u.Op.Body.Results[u.Index])
			}
		case info.Flow == model.FlowCarry && u.Op.Body != nil && u.Index < len(u.Op.Body.Args):
			next = append(next, u.Op.Body.Args[u.Index]) // a loop's init
		case info.Flow == model.FlowRecord && model.RoleName(u.Op, u.Index) == "b":
			return true
		case info.Flow == model.FlowRelabel && u.Op.Result != nil:
			next = append(next, u.Op.Result)
		}
		for _, w := range next {
			if w != nil && readsAsB(w, seen) {
				return true
			}
		}
	}
	return false
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
