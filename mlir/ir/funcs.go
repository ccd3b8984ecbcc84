package ir

// Funcs lists the module's func.func, gpu.func and tt.func ops, in the
// order they are written (inside modules, gpu.modules and other ops too).
func Funcs(m *Module) []*Op {
	var out []*Op
	Visit(m.Ops, func(op *Op) bool {
		if op.Name == "func.func" || op.Name == "gpu.func" || op.Name == "tt.func" {
			out = append(out, op)
			return false
		}
		return true
	})
	return out
}

// Visit calls f on each op in the order they are written, and on the ops
// of its regions where f says to descend.
func Visit(ops []*Op, f func(op *Op) bool) {
	for _, op := range ops {
		if !f(op) {
			continue
		}
		for _, r := range op.Regions {
			for _, b := range r.Blocks {
				Visit(b.Ops, f)
			}
		}
	}
}

// FuncName is a func.func's or gpu.func's symbol name.
func FuncName(f *Op) string {
	if a, ok := f.Attr("sym_name"); ok {
		if s, ok := a.Value.(*StringAttr); ok {
			return s.Value
		}
	}
	return ""
}
