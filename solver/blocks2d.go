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

// readAsB reports whether an mma reads v as its B operand, directly or
// through ops that relabel it (a transpose of a block loaded K-contiguous).
func readAsB(v *model.Value) bool {
	for _, u := range v.Uses {
		if u.Op == nil || u.Yield {
			continue
		}
		switch info := u.Op.Info(); {
		case info.Flow == model.FlowRecord && model.RoleName(u.Op, u.Index) == "b":
			return true
		case info.Flow == model.FlowRelabel && u.Op.Result != nil && readAsB(u.Op.Result):
			return true
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
