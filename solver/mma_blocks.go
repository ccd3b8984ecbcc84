package solver

import (
	"fmt"
	"slices"

	"planner/model"
)

// withBlockViews is records with every multi-block mma record replaced
// by its two-dimensional views (model.Record.BlockViews: blocks along M,
// blocks along N), which tile a dot op like any record of one block.
func withBlockViews(records []*model.Record) []*model.Record {
	if !slices.ContainsFunc(records, func(r *model.Record) bool { return r.Blocks > 1 }) {
		return records
	}
	var out []*model.Record
	for _, r := range records {
		if r.Blocks > 1 {
			out = append(out, r.BlockViews()...)
		} else {
			out = append(out, r)
		}
	}
	return out
}

// blockMisfit says why neither view of multi-block record r fits op's
// sizes: blocks along M need M a multiple of Blocks·M and N of N, blocks
// along N the converse; "" when one fits.
func blockMisfit(op *model.Op, r *model.Record) string {
	a, b := op.Operands[0], op.Operands[1]
	m, k, n := a.Shape[0], a.Shape[1], b.Shape[1]
	bm, bn := r.Blocks*r.M, r.Blocks*r.N
	switch {
	case k%r.K != 0:
		return fmt.Sprintf("K = %d is not a multiple of %d", k, r.K)
	case m%bm == 0 && n%r.N == 0, m%r.M == 0 && n%bn == 0:
		return ""
	}
	return fmt.Sprintf("its %d blocks of %d×%d need M×N = %d×%d to be a multiple of %d×%d (blocks along M) or of %d×%d (blocks along N)",
		r.Blocks, r.M, r.N, m, n, bm, r.N, r.M, bn)
}
