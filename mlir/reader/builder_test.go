package reader

import (
	"strings"
	"testing"

	"planner/mlir/ir"
)

// Choose reads the function the options name, or the only one, and says
// at the file's start or at the second function why it can read none.
func TestChoose(t *testing.T) {
	const two = "func.func @a() {\n  return\n}\nfunc.func @b() {\n  return\n}\n"
	for _, c := range []struct {
		src, fn, want string
	}{
		{two, "@b", "b"},
		{two, "a", "a"},
		{"func.func @only() {\n  return\n}\n", "", "only"},
		{two, "", "k.mlir:4:1: the file has 2 functions (@a, @b): name the kernel with --func NAME (planner solve without it plans each)"},
		{two, "@c", "k.mlir:1:1: the file has no function @c (its functions: @a, @b)"},
		{"#a = #gpu<dim x>\n", "", "k.mlir:1:1: the file has no func.func"},
		{"func.func private @decl()\n", "", "k.mlir:1:1: @decl is a declaration"},
	} {
		m, err := ir.Parse("k.mlir", []byte(c.src))
		if err != nil {
			t.Fatalf("%q: %v", c.src, err)
		}
		fn, err := Choose(m, Options{Func: c.fn})
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			got = ir.FuncName(fn)
		}
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("%q with --func %q: got %s, want %s", c.src, c.fn, got, c.want)
		}
	}
}
