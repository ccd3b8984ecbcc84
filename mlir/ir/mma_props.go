package ir

import (
	"regexp"

	"planner/model"
)

// The matrix ops' properties as current MLIR writes them: as keywords
// between the operands and the attribute dictionary, where LLVM 19 wrote
// them in the dictionary. The forms are IREE 3.13's (iree-base-compiler
// 3.13.0's iree-opt prints them so, and refuses LLVM 19's: "custom op
// 'nvgpu.ldmatrix' expected 'numTiles'"); the ops are llvm-project's
// mlir/include/mlir/Dialect/GPU/IR/GPUOps.td (SubgroupMmaLoadMatrixOp,
// SubgroupMmaStoreMatrixOp), mlir/include/mlir/Dialect/NVGPU/IR/NVGPUOps.td
// (LdMatrixOp, MmaSyncOp) and mlir/include/mlir/Dialect/AMDGPU/IR/AMDGPUOps.td
// (MFMAOp, whose m, n and k are its custom<MNKDimensionList>). Each
// reader below reads its keywords when they are there and nothing
// otherwise, so both forms read to the same properties.

// wmmaProps reads gpu.subgroup_mma_load_matrix's and _store_matrix's
// leadDimension N [transpose] (N an index).
func (p *parser) wmmaProps(op *Op) {
	if !p.isKeyword("leadDimension") {
		return
	}
	p.intProp(op, IndexType{})
	p.unitProp(op, "transpose")
}

// ldmatrixProps reads nvgpu.ldmatrix's numTiles = N transpose = B (N an
// i32, B true or false).
func (p *parser) ldmatrixProps(op *Op) {
	if !p.isKeyword("numTiles") {
		return
	}
	name, at := p.tok.text, p.tok.pos
	p.nextTok()
	if !p.expect("=", "after numTiles") {
		return
	}
	p.intValue(op, name, at, &IntType{Width: 32})
	if !p.isKeyword("transpose") {
		p.failf(p.tok.pos, "expected nvgpu.ldmatrix's transpose = true|false after its numTiles, found %s", p.tok.describe())
		return
	}
	at = p.tok.pos
	p.nextTok()
	if !p.expect("=", "after transpose") {
		return
	}
	if !p.isKeyword("true") && !p.isKeyword("false") {
		p.failf(p.tok.pos, "expected transpose's value, true or false, found %s", p.tok.describe())
		return
	}
	op.Props = append(op.Props, &NamedAttr{Name: "transpose", Pos: at, ValuePos: p.tok.pos, Value: &BoolAttr{Value: p.tok.text == "true"}})
	p.nextTok()
}

// mmaSyncProps reads nvgpu.mma.sync's mmaShape = [M, N, K]
// [tf32Enabled].
func (p *parser) mmaSyncProps(op *Op) {
	if !p.isKeyword("mmaShape") {
		return
	}
	at := p.tok.pos
	p.nextTok()
	if !p.expect("=", "after mmaShape") {
		return
	}
	if !p.tok.is("[") {
		p.failf(p.tok.pos, "expected mmaShape's [M, N, K], found %s", p.tok.describe())
		return
	}
	vpos := p.tok.pos
	if v := p.parseAttr(); v != nil {
		op.Props = append(op.Props, &NamedAttr{Name: "mmaShape", Pos: at, ValuePos: vpos, Value: v})
	}
	p.unitProp(op, "tf32Enabled")
}

// mnkRE reads the x16x16 that follows the M of an mfma's MxNxK, which
// the lexer reads as an integer and an identifier.
var mnkRE = regexp.MustCompile(`^x([0-9]+)x([0-9]+)$`)

// mfmaShape reads amdgpu.mfma's [blocks(B)] MxNxK as its properties
// blocks, m, n and k; it reads nothing where LLVM 19's form (the operands
// first) is written.
func (p *parser) mfmaShape(op *Op) {
	if p.isKeyword("blocks") {
		p.parenProp(op, &IntType{Width: 32})
		if !p.ok() {
			return
		}
		if p.tok.kind != tInt {
			p.failf(p.tok.pos, "expected amdgpu.mfma's MxNxK after blocks, found %s", p.tok.describe())
			return
		}
	}
	if p.tok.kind != tInt {
		return
	}
	m := p.tok
	p.nextTok()
	rest := mnkRE.FindStringSubmatch(p.tok.text)
	if p.tok.kind != tBareID || p.tok.off != m.end || rest == nil {
		p.failf(m.pos, "expected amdgpu.mfma's dimensions as MxNxK (16x16x16), found %s", m.raw)
		return
	}
	i32 := &IntType{Width: 32}
	op.Props = append(op.Props,
		&NamedAttr{Name: "m", Pos: m.pos, ValuePos: m.pos, Value: &IntAttr{Text: m.text, Type: i32}},
		&NamedAttr{Name: "n", Pos: m.pos, ValuePos: m.pos, Value: &IntAttr{Text: rest[1], Type: i32}},
		&NamedAttr{Name: "k", Pos: m.pos, ValuePos: m.pos, Value: &IntAttr{Text: rest[2], Type: i32}})
	p.nextTok()
}

// mfmaFlags are the properties current MLIR writes after an mfma's
// operands, in any order, each at most once: abid(N), blgp(V), cbsz(N)
// and the unit flags.
var mfmaFlags = map[string]bool{"abid": false, "blgp": false, "cbsz": false, "reducePrecision": true, "negateA": true, "negateB": true, "negateC": true}

// mfmaOptions reads amdgpu.mfma's optional properties after its operands:
// abid(N) cbsz(N) blgp(V) (V a case of ROCDL's mfma_perm_b, which
// iree-opt's generic form writes #rocdl.mfma_perm_b<none>) and the flags
// reducePrecision, negateA, negateB, negateC.
func (p *parser) mfmaOptions(op *Op) {
	seen := map[string]model.Pos{}
	for p.ok() && p.tok.kind == tBareID {
		name := p.tok.text
		unit, known := mfmaFlags[name]
		if !known {
			return
		}
		if prev, dup := seen[name]; dup {
			p.failCode(p.tok.pos, model.CodeDuplicate, "amdgpu.mfma's %s is given twice (first at %s)", name, prev)
			return
		}
		seen[name] = p.tok.pos
		switch {
		case unit:
			p.unitProp(op, name)
		case name == "blgp":
			at := p.tok.pos
			p.nextTok()
			if !p.expect("(", "after blgp") {
				return
			}
			if p.tok.kind != tBareID {
				p.failf(p.tok.pos, "expected blgp's value (none, bcast_first_32, ...), found %s", p.tok.describe())
				return
			}
			op.Props = append(op.Props, &NamedAttr{Name: "blgp", Pos: at, ValuePos: p.tok.pos, Value: &DialectAttr{Name: "rocdl.mfma_perm_b", Body: p.tok.text, HasBody: true}})
			p.nextTok()
			p.expect(")", "after blgp's value")
		default:
			p.parenProp(op, &IntType{Width: 32})
		}
	}
}

// intProp reads the keyword at the parser and the integer after it as
// the property of that name, of type t.
func (p *parser) intProp(op *Op, t Type) {
	name, at := p.tok.text, p.tok.pos
	p.nextTok()
	p.intValue(op, name, at, t)
}

// parenProp reads the keyword at the parser and the (N) after it as the
// integer property of that name, of type t.
func (p *parser) parenProp(op *Op, t Type) {
	name, at := p.tok.text, p.tok.pos
	p.nextTok()
	if !p.expect("(", "after "+name) {
		return
	}
	p.intValue(op, name, at, t)
	p.expect(")", "after "+name+"'s value")
}

// intValue reads an integer as the property name (written at at), of
// type t.
func (p *parser) intValue(op *Op, name string, at model.Pos, t Type) {
	if !p.ok() {
		return
	}
	if p.tok.kind != tInt {
		p.failf(p.tok.pos, "expected %s's value, an integer, found %s", name, p.tok.describe())
		return
	}
	op.Props = append(op.Props, &NamedAttr{Name: name, Pos: at, ValuePos: p.tok.pos, Value: &IntAttr{Text: p.tok.text, Type: t}})
	p.nextTok()
}

// unitProp reads the keyword name, when it is there, as a unit property.
func (p *parser) unitProp(op *Op, name string) {
	if p.ok() && p.isKeyword(name) {
		op.Props = append(op.Props, &NamedAttr{Name: name, Pos: p.tok.pos, ValuePos: p.tok.pos, Value: UnitAttr{}})
		p.nextTok()
	}
}

// propsNotInDict refuses an attribute dictionary that names a property
// the op's keywords gave: MLIR refuses it too ("inherent attribute ...
// cannot be parsed from attr-dict when strict properties in assembly
// format is enabled", iree-opt).
func (p *parser) propsNotInDict(op *Op) {
	for _, pr := range op.Props {
		for _, a := range op.Attrs {
			if a.Name == pr.Name && p.ok() {
				p.failCode(a.Pos, model.CodeDuplicate, "%s's %s is given twice: as a keyword at %s and in its attribute dictionary", op.Name, a.Name, pr.Pos)
			}
		}
	}
}
