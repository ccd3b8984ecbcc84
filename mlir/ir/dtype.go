package ir

import (
	"fmt"
	"strings"

	"planner/model"
)

// dtypeOf maps an MLIR element type to the graph's element type.
func DType(t Type) (model.DType, bool) {
	name := ""
	switch e := t.(type) {
	case *FloatType:
		switch {
		case strings.HasPrefix(e.Name, "f8E4M3"):
			name = "f8e4m3"
		case strings.HasPrefix(e.Name, "f8E5M2"):
			name = "f8e5m2"
		case e.Name == "f6E2M3FN":
			name = "f6e2m3"
		case e.Name == "f6E3M2FN":
			name = "f6e3m2"
		case e.Name == "f4E2M1FN":
			name = "f4e2m1"
		case e.Name == "f8E8M0FNU":
			name = "ue8m0"
		default:
			name = e.Name
		}
	case *IntType:
		switch e.Signed {
		case 's':
			name = fmt.Sprintf("s%d", e.Width)
		case 'u':
			name = fmt.Sprintf("u%d", e.Width)
		default:
			name = fmt.Sprintf("i%d", e.Width)
		}
	case IndexType:
		// An index is as wide as the data layout says, 64 bits unless it
		// says otherwise (llvm-project
		// mlir/include/mlir/Interfaces/DataLayoutInterfaces.h,
		// kDefaultIndexBitwidth), as the GPU lowerings keep it.
		name = "i64"
	default:
		return model.DType{}, false
	}
	return model.ParseDType(name)
}
