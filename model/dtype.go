package model

import (
	"sort"
	"strings"
)

// DType is an element type: what matters to layouts is its width in bits,
// which decides how values pack into 32-bit registers and how many bytes a
// shared-memory access moves.
type DType struct {
	Name string
	Bits int
}

var dtypes = map[string]int{
	"f64": 64, "f32": 32, "tf32": 32, "f16": 16, "bf16": 16,
	"f8e4m3": 8, "f8e5m2": 8, "fp8": 8, "f6": 6, "f4": 4,
	"i64": 64, "i32": 32, "i16": 16, "i8": 8, "i4": 4, "i1": 1,
	"s64": 64, "s32": 32, "s16": 16, "s8": 8, "s4": 4,
	"u64": 64, "u32": 32, "u16": 16, "u8": 8, "u4": 4,
	"b64": 64, "b32": 32, "b16": 16, "b8": 8, // untyped bits, as PTX loads name them
	// The PTX ISA's narrow floating-point formats by exponent and mantissa
	// bits, and the unsigned scale-factor formats of block-scaled mma
	// (PTX ISA, "Alternate Floating Point Data Formats" and "Block Scaling
	// for mma.sync"): e2m1 is 4 bits, e2m3 and e3m2 6, ue8m0 and ue4m3 8.
	"f4e2m1": 4, "f6e2m3": 6, "f6e3m2": 6, "ue8m0": 8, "ue4m3": 8,
}

// ParseDType looks an element type up by name.
func ParseDType(name string) (DType, bool) {
	b, ok := dtypes[strings.ToLower(name)]
	return DType{strings.ToLower(name), b}, ok
}

// DTypeNames lists the known element types.
func DTypeNames() []string {
	var out []string
	for k := range dtypes {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
