package planner

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// layers says which of the module's packages each package may import:
// data flows one way, from text through model values to plans, and only
// the library and the command line see everything.
var layers = map[string][]string{
	"planner/model":           {},
	"planner/model/modeltest": {"planner/model"},
	"planner/tomlio":          {"planner/model"},
	"planner/tomlio/tomltest": {},
	"planner/mlir":            {"planner/model", "planner/tomlio"},
	"planner/intrinsics":      {"planner/model", "planner/tomlio"},
	"planner/solver/pbqp":     {},
	"planner/solver/z3opt":    {},
	"planner/solver":          {"planner/model", "planner/solver/pbqp"},
	"planner/solver/smt":      {"planner/model", "planner/solver", "planner/solver/pbqp", "planner/solver/z3opt"},
	"planner/plans":           {"planner/model"},
	"planner/plans/planfile":  {"planner/model", "planner/plans", "planner/tomlio"},
	"planner/gen":             {},
	"planner/internal/golden": {"planner/model"},
	"planner/internal/oracle": {},
	"planner/schema":          {},
	"planner": {"planner/model", "planner/tomlio", "planner/mlir", "planner/intrinsics", "planner/solver",
		"planner/solver/pbqp", "planner/solver/smt", "planner/plans", "planner/plans/planfile", "planner/gen"},
	"planner/cmd/planner": {"planner", "planner/model", "planner/tomlio", "planner/intrinsics", "planner/solver",
		"planner/plans", "planner/plans/planfile", "planner/gen"},
	"planner/cmd/perftable": {"planner", "planner/tomlio", "planner/solver", "planner/plans", "planner/gen"},
}

// The import graph of the module's non-test code keeps to the layers, and
// model imports no TOML package.
func TestImportLayers(t *testing.T) {
	out, err := exec.Command("go", "list", "-tags", "z3", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg, imports := fields[0], fields[1:]
		allowed, known := layers[pkg]
		if !known {
			t.Errorf("package %s has no layer: add it to layers and to docs/architecture.md", pkg)
			continue
		}
		seen[pkg] = true
		for _, imp := range imports {
			if (imp == "planner" || strings.HasPrefix(imp, "planner/")) && !slices.Contains(allowed, imp) {
				t.Errorf("%s imports %s, which stands outside its layer", pkg, imp)
			}
			if pkg == "planner/model" && strings.Contains(imp, "toml") {
				t.Errorf("model imports the TOML package %s", imp)
			}
		}
	}
	for pkg := range layers {
		if !seen[pkg] {
			t.Errorf("layers names %s, which go list does not know", pkg)
		}
	}
}

// Outside the op table's own files, no code names an op kind: the reader,
// the solver, greedy, the plans and the verifier read the table's rows.
func TestNoOpKindSwitches(t *testing.T) {
	kinds := opKindConstants(t)
	if len(kinds) < 10 {
		t.Fatalf("found %d op-kind constants in model; the test reads them from model/ops*.go", len(kinds))
	}
	ctxt := build.Default
	ctxt.BuildTags = []string{"z3"} // the Z3 backend's files too
	for _, dir := range []string{"model", "tomlio", "mlir", "solver", "solver/smt", "plans", "plans/planfile", "intrinsics", "."} {
		pkg, err := ctxt.ImportDir(dir, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range pkg.GoFiles {
			if dir == "model" && strings.HasPrefix(f, "ops") {
				continue // the table itself
			}
			path := filepath.Join(dir, f)
			fset := token.NewFileSet()
			file, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(file, func(n ast.Node) bool {
				var name string
				switch x := n.(type) {
				case *ast.SelectorExpr:
					if id, ok := x.X.(*ast.Ident); ok && id.Name == "model" {
						name = x.Sel.Name
					}
				case *ast.ValueSpec:
					if id, ok := x.Type.(*ast.Ident); ok && id.Name == "OpKind" {
						return false // the kinds' own declarations
					}
				case *ast.Ident:
					if dir == "model" {
						name = x.Name
					}
				}
				if kinds[name] {
					t.Errorf("%s: names the op kind %s; read the op table's row instead", fset.Position(n.Pos()), name)
				}
				return true
			})
		}
	}
}

// opKindConstants reads the names of model's OpKind constants.
func opKindConstants(t *testing.T) map[string]bool {
	files, _ := filepath.Glob("model/*.go")
	kinds := map[string]bool{}
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				if id, ok := vs.Type.(*ast.Ident); ok && id.Name == "OpKind" {
					for _, n := range vs.Names {
						kinds[n.Name] = true
					}
				}
			}
		}
	}
	return kinds
}
