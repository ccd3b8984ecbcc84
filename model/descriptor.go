package model

import (
	"fmt"
	"slices"
	"strings"
)

// SharedOperand is the role ("a" or "b") of the mma record's operand read
// from shared memory through a matrix descriptor (in = "shared": wgmma's
// B), "" when every operand is in registers.
func (r *Record) SharedOperand() string {
	for _, role := range []string{"a", "b"} {
		if o := r.Operands[role]; o != nil && o.Shared {
			return role
		}
	}
	return ""
}

// DescriptorOperand is, for an mma op run with record r, the index of the
// operand r reads from shared memory and the buffer the op's operand is
// loaded from (its load_shared's buffer): -1 and nil when r reads no
// operand from shared memory, the index and nil when the operand is not
// loaded from a buffer.
func DescriptorOperand(op *Op, r *Record) (int, *Buffer) {
	if r == nil {
		return -1, nil
	}
	role := r.SharedOperand()
	if role == "" {
		return -1, nil
	}
	for i := range op.Operands {
		if RoleName(op, i) != role {
			continue
		}
		if d := op.Operands[i].Def; d != nil && d.ReadsShared() && d.Buffer != nil {
			return i, d.Buffer
		}
		return i, nil
	}
	return -1, nil
}

// operandMajor is how a row-major buffer holding an mma operand orders
// it: an A buffer (M rows of K) is K-major, a B buffer (K rows of N) is
// MN-major (PTX ISA, "Shared Memory Matrix Layout": K-major and MN-major
// layouts of A and B; the graph's buffers hold the operand as the mma
// reads it, rows first), and the other way round where the placement
// stores the buffer column major.
func operandMajor(role string, columnMajor bool) string {
	if (role == "b") != columnMajor {
		return "mn"
	}
	return "k"
}

// DescriptorAdmits reports whether record r's descriptor can read its
// shared-memory operand (role) from a buffer placed as s, and if not,
// why: the rule's modes and alignment (MemoryRule.Admits), the order the
// buffer holds the operand in among the rule's majors, and, for an
// MN-major operand, instruction tiles that span whole swizzle atoms
// along M or N, or lie within one. A matrix is made of swizzle atoms
// (PTX ISA, "Shared Memory Matrix Layout", the table of swizzle atom
// layouts: 128B MN-major 8x8 128-bit elements, 64 f16 along MN by 8
// along K), repeated along MN at the leading dimension byte offset
// (a buffer's column blocks) and along K at the stride dimension byte
// offset ("Strides"); a tile that starts inside an atom is described by
// a start address inside the atom's rows, since the swizzle is a
// function of the address (Triton's DotOpMmaV3SmemLoader::smemLoad in
// third_party/nvidia/lib/TritonNVIDIAGPUToLLVM/DotOpToLLVM/WGMMA.cpp
// adds the column within the atom to the descriptor's start).
func DescriptorAdmits(r *Record, role string, s *SharedLayout) error {
	if s == nil {
		return fmt.Errorf("the buffer has no placement to describe")
	}
	major := operandMajor(role, s.ColumnMajor)
	majors := r.Memory.Majors
	if len(majors) == 0 {
		majors = []string{"k"}
	}
	if !slices.Contains(majors, major) {
		return fmt.Errorf("the buffer holds %s %s-major (rows of %s); the descriptor reads it %s-major only", role, major, map[string]string{"k": "K", "mn": map[string]string{"a": "M", "b": "N"}[role]}[major], strings.Join(majors, "- or "))
	}
	shape := r.OperandShape(role)
	if err := r.Memory.Admits(s, [2]int{shape[0], shape[1]}); err != nil {
		return err
	}
	if s.Rows%shape[0] != 0 || s.Cols%shape[1] != 0 {
		return fmt.Errorf("the %dx%d tile does not divide the %dx%d buffer", shape[0], shape[1], s.Rows, s.Cols)
	}
	// The tile as it is stored: its rows the core matrices' rows.
	rows, cols := shape[0], shape[1]
	if s.ColumnMajor {
		rows, cols = cols, rows
	}
	if rows%8 != 0 {
		return fmt.Errorf("the tile's %d stored rows are no whole core matrices of 8 rows", rows)
	}
	if w := s.BlockCols(); cols%w != 0 && w%cols != 0 {
		return fmt.Errorf("a tile spans whole atoms or lies within one, along the rows it is stored in: %d elements of %d bits against atoms %d bytes wide", cols, s.ElemBits, w*s.ElemBits/8)
	}
	return nil
}

// DescriptorAccess counts, per warp, the shared-memory wavefronts the
// tensor core takes to read an mma's shared-memory operand under its
// choice: ch.Buffer is the placement of the buffer the operand is loaded
// from. Each instruction reads its operand tile once for the subgroups
// that execute it together (a wgmma's warpgroup), in core matrices of 8
// rows of 16 bytes (PTX ISA, "Shared Memory Matrix Layout"): one
// wavefront each when their rows fall in distinct banks, more where they
// conflict (PhaseWavefronts). The order in which the tensor core reads
// is not documented; counting core matrices, the unit a descriptor
// describes, is an assumption. The tile's wavefronts are shared among the
// subgroups that execute the instruction, as they share the SM's
// shared-memory bandwidth. false when the record reads no operand from
// shared memory or no placement is given.
func DescriptorAccess(op *Op, ch *OpChoice, t *Target) (Access, bool) {
	if ch == nil || ch.Record == nil || ch.Buffer == nil {
		return Access{}, false
	}
	r := ch.Record
	i, _ := DescriptorOperand(op, r)
	if i < 0 {
		return Access{}, false
	}
	s := ch.Buffer
	role := RoleName(op, i)
	tile := slices.Clone(r.OperandShape(role))
	shape := slices.Clone(op.Operands[i].Shape)
	if s.ColumnMajor { // the tiles as stored: rows of the buffer's columns
		tile[0], tile[1] = tile[1], tile[0]
		shape[0], shape[1] = shape[1], shape[0]
	}
	chunk := max(16*8/max(s.ElemBits, 1), 1) // elements of 16 bytes
	var waves, ideal int
	addrs := make([]int, 8)
	for r0 := 0; r0+tile[0] <= shape[0]; r0 += tile[0] {
		for c0 := 0; c0+tile[1] <= shape[1]; c0 += tile[1] {
			for i8 := 0; i8 < tile[0]; i8 += 8 {
				for c := 0; c < tile[1]; c += chunk {
					for k := range addrs {
						addrs[k] = s.StoredByteOffset(r0+i8+k, c0+c)
					}
					waves += PhaseWavefronts(addrs, 16, t)
					ideal++
				}
			}
		}
	}
	// Every tile of the operand is read once per instruction tile of the
	// other operand's dimension (A's M tiles for B), by each group of
	// subgroups that runs it; a group reads the share of the tiles its
	// instructions cover.
	a, b := op.Operands[0], op.Operands[1]
	m, n, k := a.Shape[0], b.Shape[1], a.Shape[1]
	n1 := MMAInstructions(op, ch)
	all := (m / r.M) * (n / r.N) * (k / r.K)
	tiles := (shape[0] / tile[0]) * (shape[1] / tile[1])
	groups := max(r.Subgroups, 1)
	per := func(w int) int { return ceilDiv(w*n1*(all/tiles), all*groups) }
	return Access{Instructions: n1, Wavefronts: per(waves), Ideal: per(ideal), Vector: chunk, Bytes: 16}, true
}
