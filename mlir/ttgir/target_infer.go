package ttgir

import (
	"fmt"
	"slices"
	"strings"

	"planner/mlir/ir"
	"planner/model"
	"planner/notation"
)

// encodingTarget is the target an mma encoding of one version decides:
// the hardware Triton makes that version for, which the planner plans
// on, and why.
type encodingTarget struct {
	encoding string // nvidia_mma, amd_mfma, amd_wmma
	version  int
	target   string
	why      string
	// rank orders the versions that may meet in one module: Triton makes
	// a lower one on the hardware of a higher one where the higher cannot
	// run a dot (nvidia_mma version 2 on sm_90), so the highest decides.
	rank int
}

// encodingTargets are the mma encodings' versions and the targets they
// decide.
//
// NVIDIA: Triton's getMMAVersionSafe
// (lib/Dialect/TritonGPU/Transforms/AccelerateMatmul.cpp of
// triton-lang/triton) makes version 2 for compute capabilities 75 to 89
// and 110 to 129 (and as the fallback on 90 and 100), version 3 only for
// 90 to 99 (Hopper's wgmma), version 5 for 100 to 109 (tcgen05, which the
// planner does not read). Version 2 is planned on sm_80, the records of
// mma.sync that every one of those targets has; version 3 on sm_90.
//
// AMD: getMfmaVersion in third_party/amd/lib/TritonAMDGPUTransforms/
// AccelerateAMDMatmul.cpp makes #ttg.amd_mfma version 2 for CDNA2
// (gfx90a), 3 for CDNA3 (gfx942; gfx940 and gfx941 are its kin) and 4 for
// CDNA4 (gfx950), the families deduceISAFamily
// (third_party/amd/lib/TritonAMDGPUToLLVM/TargetUtils.cpp) gives those
// names; getWmmaVersion makes #ttg.amd_wmma version 1 for gfx11 (RDNA3,
// planned as gfx1100) and 2 for gfx12 (RDNA4, planned as gfx1200).
var encodingTargets = []encodingTarget{
	{"nvidia_mma", 2, "sm_80", "Triton makes version 2, mma.sync, for sm_75 to sm_89 and sm_120, planned on sm_80's records", 1},
	{"nvidia_mma", 3, "sm_90", "Triton makes version 3, wgmma, only for sm_90", 2},
	{"amd_mfma", 2, "gfx90a", "Triton makes #ttg.amd_mfma version 2 for CDNA2, gfx90a", 1},
	{"amd_mfma", 3, "gfx942", "Triton makes #ttg.amd_mfma version 3 for CDNA3, gfx942", 1},
	{"amd_mfma", 4, "gfx950", "Triton makes #ttg.amd_mfma version 4 for CDNA4, gfx950", 1},
	{"amd_wmma", 1, "gfx1100", "Triton makes #ttg.amd_wmma version 1 for gfx11 (RDNA3), planned as gfx1100", 1},
	{"amd_wmma", 2, "gfx1200", "Triton makes #ttg.amd_wmma version 2 for gfx12 (RDNA4), planned as gfx1200", 1},
}

// inferred is the target a module's encodings decide: the encoding (its
// alias, or its text) that decides it, where it is written, and the
// version field read.
type inferred struct {
	encodingTarget
	name, field string
	pos         model.Pos
}

// inferTarget finds the target a module without ttg.target runs on from
// its mma encodings (encodingTargets), the aliases' first and then those
// the function's arguments' and results' types write in place, in the
// order written; a warp of 64 lanes makes gfx11
// and gfx12 their wave64 targets as ttTarget does. It says why none is
// decided where the encodings name no version of encodingTargets or name
// versions of two targets.
func (b *ttBuilder) inferTarget(lanes int) (*inferred, string) {
	var found []*inferred
	look := func(a ir.Attr, name string, at model.Pos) {
		n, err := notation.EncodingNode(a, at)
		if err != nil {
			return
		}
		enc, cerr := notation.TritonEncodingOf(n)
		if cerr != nil {
			return
		}
		if f := decides(enc, name, at); f != nil {
			found = append(found, f)
		}
	}
	names := slices.Collect(func(yield func(string) bool) {
		for name := range b.Mod.AttrAliases {
			if !yield(name) {
				return
			}
		}
	})
	slices.SortFunc(names, func(x, y string) int { return comparePos(b.Mod.AliasPos[x], b.Mod.AliasPos[y]) })
	for _, name := range names {
		look(b.Mod.AttrAliases[name], "#"+name, b.Mod.AliasPos[name])
	}
	aliased := map[ir.Attr]bool{}
	for _, a := range b.Mod.AttrAliases {
		aliased[a] = true
	}
	for _, a := range b.Fn.Regions[0].Blocks[0].Args {
		if t, ok := a.Type.(*ir.TensorType); ok && t.Encoding != nil && !aliased[t.Encoding] {
			look(t.Encoding, t.Encoding.String(), a.Pos)
		}
	}
	ir.Visit(b.Fn.Regions[0].Blocks[0].Ops, func(op *ir.Op) bool {
		for _, r := range op.Results {
			if t, ok := r.Type.(*ir.TensorType); ok && t.Encoding != nil && !aliased[t.Encoding] {
				look(t.Encoding, t.Encoding.String(), r.Pos)
			}
		}
		return true
	})
	if len(found) == 0 {
		return nil, "no encoding decides one (the version of an #ttg.nvidia_mma, #ttg.amd_mfma or #ttg.amd_wmma names its hardware)"
	}
	best := found[0]
	for _, f := range found[1:] {
		switch {
		case f.target == best.target:
		case f.encoding == best.encoding && f.encoding == "nvidia_mma" && f.rank != best.rank:
			if f.rank > best.rank {
				best = f
			}
		default:
			return nil, fmt.Sprintf("its encodings decide two targets: %s's %s = %d (at %s) says %s, %s's %s = %d (at %s) says %s", best.name, best.field, best.version, best.pos, best.target, f.name, f.field, f.version, f.pos, f.target)
		}
	}
	if lanes == 64 && (strings.HasPrefix(best.target, "gfx11") || strings.HasPrefix(best.target, "gfx12")) {
		best.target += "_wave64"
	}
	return best, ""
}

// decides is the target enc, or the mma it is a slice or a dot operand
// of, decides; nil for none.
func decides(enc notation.TritonEncoding, name string, at model.Pos) *inferred {
	var kind, field string
	var version int
	switch e := enc.(type) {
	case *notation.NvidiaMMA:
		kind, field, version = "nvidia_mma", "versionMajor", e.VersionMajor
	case *notation.AMDMFMA:
		kind, field, version = "amd_mfma", "version", e.Version
	case *notation.AMDWMMA:
		kind, field, version = "amd_wmma", "version", e.Version
	case *notation.DotOperand:
		return decides(e.Parent, name, at)
	case *notation.SliceEncoding:
		return decides(e.Parent, name, at)
	default:
		return nil
	}
	for _, t := range encodingTargets {
		if t.encoding == kind && t.version == version {
			return &inferred{encodingTarget: t, name: name, field: field, pos: at}
		}
	}
	return nil
}

// comparePos orders positions by line, then column.
func comparePos(x, y model.Pos) int {
	if x.Line != y.Line {
		return x.Line - y.Line
	}
	return x.Col - y.Col
}
