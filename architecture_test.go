package planner_test

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// layers says which of the module's packages each package may import:
// data flows one way, from text through model values to plans, and only
// the library and the command line see everything.
var layers = map[string][]string{
	"planner/model":             {},
	"planner/model/modeltest":   {"planner/model", "planner/notation"},
	"planner/notation":          {"planner/model", "planner/mlir/ir"},
	"planner/tomlio":            {"planner/model", "planner/notation"},
	"planner/tomlio/tomltest":   {},
	"planner/mlir/ir":           {"planner/model"},
	"planner/mlir/reader":       {"planner/model", "planner/plans", "planner/mlir/ir"},
	"planner/mlir/vector":       {"planner/model", "planner/notation", "planner/plans", "planner/mlir/ir", "planner/mlir/reader"},
	"planner/mlir/ttgir":        {"planner/model", "planner/notation", "planner/plans", "planner/mlir/ir", "planner/mlir/reader"},
	"planner/mlir":              {"planner/model", "planner/plans", "planner/mlir/ir", "planner/mlir/reader", "planner/mlir/vector", "planner/mlir/ttgir"},
	"planner/intrinsics":        {"planner/model", "planner/tomlio"},
	"planner/solver/pbqp":       {},
	"planner/solver/z3opt":      {},
	"planner/solver":            {"planner/model", "planner/notation", "planner/solver/pbqp"},
	"planner/solver/solvertest": {"planner/model", "planner/intrinsics", "planner/tomlio", "planner/plans"},
	"planner/mlir/mlirtest":     {"planner/model", "planner/intrinsics", "planner/mlir/ir", "planner/mlir/reader"},
	"planner/solver/smt":        {"planner/model", "planner/solver", "planner/solver/pbqp", "planner/solver/z3opt"},
	"planner/plans":             {"planner/model", "planner/notation"},
	"planner/plans/planfile":    {"planner/model", "planner/notation", "planner/plans", "planner/tomlio"},
	"planner/gen":               {},
	"planner/internal/golden":   {"planner/model"},
	"planner/internal/oracle":   {},
	"planner/schema":            {},
	"planner": {"planner/model", "planner/notation", "planner/tomlio", "planner/mlir", "planner/intrinsics", "planner/solver",
		"planner/solver/pbqp", "planner/solver/smt", "planner/plans", "planner/plans/planfile", "planner/gen"},
	"planner/cmd/planner": {"planner", "planner/model", "planner/notation", "planner/tomlio", "planner/intrinsics", "planner/solver",
		"planner/plans", "planner/plans/planfile", "planner/gen"},
	"planner/cmd/perftable": {"planner", "planner/tomlio", "planner/solver", "planner/plans", "planner/gen"},
}

// frontEnds are the packages that read a kernel's text into the model:
// none imports another.
var frontEnds = []string{"planner/mlir/vector", "planner/mlir/ttgir", "planner/tomlio"}

// The import graph of the module's non-test code keeps to the layers;
// neither model nor notation imports a TOML package; no front end imports
// another, the grammar (mlir/ir) imports none, and nothing under mlir
// imports tomlio.
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
			if (pkg == "planner/model" || pkg == "planner/notation") && strings.Contains(imp, "toml") {
				t.Errorf("%s imports the TOML package %s", pkg, imp)
			}
			if slices.Contains(frontEnds, pkg) && slices.Contains(frontEnds, imp) {
				t.Errorf("the front end %s imports the front end %s: what both need goes in a package both import", pkg, imp)
			}
			if pkg == "planner/mlir/ir" && (slices.Contains(frontEnds, imp) || strings.HasPrefix(imp, "planner/mlir")) {
				t.Errorf("the grammar mlir/ir imports %s: it imports no front end", imp)
			}
			if (pkg == "planner/mlir" || strings.HasPrefix(pkg, "planner/mlir/")) && strings.HasPrefix(imp, "planner/tomlio") {
				t.Errorf("%s imports %s: nothing under mlir reads TOML", pkg, imp)
			}
		}
	}
	for pkg := range layers {
		if !seen[pkg] {
			t.Errorf("layers names %s, which go list does not know", pkg)
		}
	}
}

// The algebra and the notations are apart, as Triton keeps LinearLayout
// apart from the encodings that convert into it: model names the Notation
// interface, which graphs and records hold, and no type of model
// implements it (no method Layout(Frame) there); every notation is
// written in package notation.
func TestNotationsOutsideModel(t *testing.T) {
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join("model", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || fn.Name.Name != "Layout" || fn.Type.Params.NumFields() != 1 {
				continue
			}
			if id, ok := fn.Type.Params.List[0].Type.(*ast.Ident); ok && id.Name == "Frame" {
				t.Errorf("%s: a notation (a method Layout(Frame)) in model: notations go in package notation", fset.Position(fn.Pos()))
			}
		}
	}
}

// Outside the op table's own files (model/ops*.go), no code switches on
// an op kind, compares kinds or keys a map by them: the reader, the solver,
// greedy, the plans and the verifier read the table's rows. A front end
// names the kind of an op it builds by model's constant (model.OpTranspose),
// never by a string: no string constant is typed as an op kind
// (model.Op{Kind: "transpose"}, model.OpKind("transpose")), and none is
// looked up as one (model.OpBySpelling("transpose")), so that a misspelt
// kind does not compile. A reader of user text (tomlio) looks up the word
// the text has.
func TestNoOpKindSwitches(t *testing.T) {
	pkgs := typeCheckModule(t)
	lookups := kindLookups(pkgs)
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		for _, file := range p.files {
			path := p.fset.Position(file.Pos()).Filename
			if p.path == "planner/model" && strings.HasPrefix(filepath.Base(path), "ops") {
				continue // the table itself
			}
			violations := opKindViolations(p.info, file, lookups)
			if p.path != "planner/tomlio" && p.path != "planner/model" {
				violations = append(violations, spellingLookups(p.info, file)...)
			}
			for _, v := range violations {
				at := p.fset.Position(v.pos)
				if rel, err := filepath.Rel(dir, at.Filename); err == nil {
					at.Filename = rel
				}
				t.Errorf("%s: %s", at, v.what)
			}
		}
	}
}

// The MLIR writers build from the verified plan (plans.Plan), not from
// the solver's raw answer: no exported function or method of a package
// under planner/mlir takes a model.Assignment, in any parameter or in
// the fields of a parameter of the package's own types, and one takes a
// *plans.Plan.
func TestMLIRWritesFromPlan(t *testing.T) {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	takesPlan := false
	for _, p := range typeCheckModule(t) {
		if p.path != "planner/mlir" && !strings.HasPrefix(p.path, "planner/mlir/") {
			continue
		}
		for _, f := range exportedFuncs(p.pkg) {
			params := f.Type().(*types.Signature).Params()
			for i := range params.Len() {
				pt := params.At(i).Type()
				if holdsAssignment(pt, map[types.Type]bool{}) {
					at := p.fset.Position(f.Pos())
					if rel, err := filepath.Rel(dir, at.Filename); err == nil {
						at.Filename = rel
					}
					t.Errorf("%s: %s takes a model.Assignment (in %s): the writer reads the verified plans.Plan", at, f.FullName(), pt)
				}
				if ptr, ok := pt.(*types.Pointer); ok && isNamed(ptr.Elem(), "planner/plans", "Plan") {
					takesPlan = true
				}
			}
		}
	}
	if !takesPlan {
		t.Errorf("no exported function of planner/mlir takes a *plans.Plan: which writes the plan back?")
	}
}

// exportedFuncs are a package's exported functions and the exported
// methods of its exported types.
func exportedFuncs(pkg *types.Package) []*types.Func {
	var out []*types.Func
	for _, name := range pkg.Scope().Names() {
		switch obj := pkg.Scope().Lookup(name).(type) {
		case *types.Func:
			if obj.Exported() {
				out = append(out, obj)
			}
		case *types.TypeName:
			named, ok := obj.Type().(*types.Named)
			if !ok || !obj.Exported() {
				continue
			}
			for i := range named.NumMethods() {
				if m := named.Method(i); m.Exported() {
					out = append(out, m)
				}
			}
		}
	}
	return out
}

// holdsAssignment says whether a value of type t holds a
// model.Assignment: it is one, points to one, holds them in a slice,
// array or map, or is a struct of the mlir packages' own with such a
// field.
func holdsAssignment(t types.Type, seen map[types.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	switch t := t.(type) {
	case *types.Named:
		if isNamed(t, "planner/model", "Assignment") {
			return true
		}
		pkg := t.Obj().Pkg()
		if pkg == nil || pkg.Path() != "planner/mlir" && !strings.HasPrefix(pkg.Path(), "planner/mlir/") {
			return false
		}
		return holdsAssignment(t.Underlying(), seen)
	case *types.Pointer:
		return holdsAssignment(t.Elem(), seen)
	case *types.Slice:
		return holdsAssignment(t.Elem(), seen)
	case *types.Array:
		return holdsAssignment(t.Elem(), seen)
	case *types.Map:
		return holdsAssignment(t.Key(), seen) || holdsAssignment(t.Elem(), seen)
	case *types.Struct:
		for i := range t.NumFields() {
			if holdsAssignment(t.Field(i).Type(), seen) {
				return true
			}
		}
	}
	return false
}

// isNamed says whether t is the type named name of the package path.
func isNamed(t types.Type, path, name string) bool {
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == path && n.Obj().Name() == name
}

type violation struct {
	pos  token.Pos
	what string
}

// kindLookups are the functions that look an op kind up by a word, each
// with the index of the word among its parameters: model.OpBySpelling, and
// every function of the module that hands it (or another lookup) a
// parameter of its own unchanged, as a front end's kind("transpose") did.
func kindLookups(pkgs []*checkedPackage) map[*types.Func]int {
	lookups := map[*types.Func]int{}
	for _, p := range pkgs {
		if p.path == "planner/model" {
			lookups[p.pkg.Scope().Lookup("OpBySpelling").(*types.Func)] = 0
		}
	}
	for grew := true; grew; {
		grew = false
		for _, p := range pkgs {
			for _, file := range p.files {
				for _, d := range file.Decls {
					fd, ok := d.(*ast.FuncDecl)
					if !ok || fd.Body == nil {
						continue
					}
					fn, _ := p.info.Defs[fd.Name].(*types.Func)
					if _, known := lookups[fn]; fn == nil || known {
						continue
					}
					params := fn.Signature().Params()
					ast.Inspect(fd.Body, func(n ast.Node) bool {
						call, ok := n.(*ast.CallExpr)
						if !ok {
							return true
						}
						at, ok := lookups[callee(p.info, call)]
						if !ok || at >= len(call.Args) {
							return true
						}
						id, ok := ast.Unparen(call.Args[at]).(*ast.Ident)
						if !ok {
							return true
						}
						for i := range params.Len() {
							if p.info.Uses[id] == params.At(i) {
								lookups[fn], grew = i, true
							}
						}
						return true
					})
				}
			}
		}
	}
	return lookups
}

// opKindViolations finds in file what TestNoOpKindSwitches forbids.
func opKindViolations(info *types.Info, file *ast.File, lookups map[*types.Func]int) []violation {
	var out []violation
	found := func(n ast.Node, format string, args ...any) {
		out = append(out, violation{n.Pos(), fmt.Sprintf(format, args...)})
	}
	ast.Inspect(file, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.SwitchStmt:
			if x.Tag != nil && isOpKind(info.TypeOf(x.Tag)) {
				found(x, "switches on an op kind; read the op table's row instead")
			}
		case *ast.BinaryExpr:
			if (x.Op == token.EQL || x.Op == token.NEQ) && (isKindValue(info, x.X) || isKindValue(info, x.Y)) {
				found(x, "compares op kinds; read the op table's row instead")
			}
		case *ast.MapType:
			if isOpKind(info.TypeOf(x.Key)) {
				found(x, "keys a map by op kind; read the op table's row instead")
			}
		}
		if e, ok := n.(ast.Expr); ok {
			if tv, ok := info.Types[e]; ok && tv.Value != nil && isOpKind(tv.Type) && !namesConstant(e) {
				found(e, "spells the op kind %s as a string; name it by its model.OpKind constant", tv.Value)
				return false
			}
		}
		if call, ok := n.(*ast.CallExpr); ok {
			fn := callee(info, call)
			if at, ok := lookups[fn]; ok && at < len(call.Args) {
				if tv := info.Types[call.Args[at]]; tv.Value != nil {
					found(call, "looks up the op kind %s by a string (%s); name it by its model.OpKind constant", tv.Value, fn.Name())
				}
			}
		}
		return true
	})
	return out
}

// spellingLookups are the calls of model.OpBySpelling in a file: only a
// reader of user text (tomlio) looks a kind up by the word written; a
// front end names the kind of each op it builds by its constant, even
// where the word is not a constant (the mlir readers' function tables
// pair each function with its kind: reader.Func, reader.CastAs).
func spellingLookups(info *types.Info, file *ast.File) []violation {
	var out []violation
	ast.Inspect(file, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if fn := callee(info, call); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "planner/model" && fn.Name() == "OpBySpelling" {
				out = append(out, violation{call.Pos(), "looks an op kind up by its spelling; only tomlio reads kinds as words: name the kind by its model.OpKind constant"})
			}
		}
		return true
	})
	return out
}

// isOpKind reports whether t is model.OpKind.
func isOpKind(t types.Type) bool {
	named, ok := t.(*types.Named)
	if !ok {
		return false
	}
	obj := named.Obj()
	return obj.Pkg() != nil && obj.Pkg().Path() == "planner/model" && obj.Name() == "OpKind"
}

// isKindValue reports whether e is an op kind, or an op kind converted to
// another type (string(op.Kind)).
func isKindValue(info *types.Info, e ast.Expr) bool {
	e = ast.Unparen(e)
	if isOpKind(info.TypeOf(e)) {
		return true
	}
	call, ok := e.(*ast.CallExpr)
	return ok && len(call.Args) == 1 && info.Types[call.Fun].IsType() && isOpKind(info.TypeOf(call.Args[0]))
}

// namesConstant reports whether e names a declared constant (OpLoad,
// model.OpLoad) rather than writing a value.
func namesConstant(e ast.Expr) bool {
	switch ast.Unparen(e).(type) {
	case *ast.Ident, *ast.SelectorExpr:
		return true
	}
	return false
}

// callee is the function call calls by name, nil for none (a func value,
// a conversion, a builtin).
func callee(info *types.Info, call *ast.CallExpr) *types.Func {
	var id *ast.Ident
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return nil
	}
	fn, _ := info.Uses[id].(*types.Func)
	return fn
}

// checkedPackage is one of the module's packages, type-checked from its
// source (the files of a build with the z3 tag).
type checkedPackage struct {
	path  string
	pkg   *types.Package
	fset  *token.FileSet
	files []*ast.File
	info  *types.Info
}

// typeCheckModule type-checks every package of the module from source,
// reading the packages outside it from the export data go list gives.
func typeCheckModule(t *testing.T) []*checkedPackage {
	t.Helper()
	pkgs, err := checkedModule()
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// checkedModule is typeCheckModule's work, done once for the tests that
// read the module's types.
var checkedModule = sync.OnceValues(func() ([]*checkedPackage, error) {
	out, err := exec.Command("go", "list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}", "./...").Output()
	if err != nil {
		return nil, fmt.Errorf("go list -export: %v", err)
	}
	export := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if path, file, ok := strings.Cut(line, "\t"); ok && file != "" {
			export[path] = file
		}
	}
	out, err = exec.Command("go", "list", "-tags", "z3", "-f", "{{.ImportPath}}\t{{.Dir}}", "./...").Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v", err)
	}
	m := &moduleImporter{fset: token.NewFileSet(), dirs: map[string]string{}, done: map[string]*checkedPackage{}, types: map[string]*types.Package{}}
	m.ctxt = build.Default
	m.ctxt.BuildTags = []string{"z3"} // the Z3 backend's files too
	m.outside = importer.ForCompiler(m.fset, "gc", func(path string) (io.ReadCloser, error) {
		file, ok := export[path]
		if !ok {
			return nil, fmt.Errorf("go list gives no export data for %s", path)
		}
		return os.Open(file)
	})
	var paths []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, dir, _ := strings.Cut(line, "\t")
		m.dirs[path] = dir
		paths = append(paths, path)
	}
	var pkgs []*checkedPackage
	for _, path := range paths {
		if _, err := m.Import(path); err != nil {
			return nil, fmt.Errorf("type-checking %s: %v", path, err)
		}
		pkgs = append(pkgs, m.done[path])
	}
	return pkgs, nil
})

// moduleImporter imports the module's packages by type-checking their
// source, and every other package from its export data.
type moduleImporter struct {
	fset    *token.FileSet
	ctxt    build.Context
	dirs    map[string]string // the module's packages' directories
	done    map[string]*checkedPackage
	types   map[string]*types.Package
	outside types.Importer
}

func (m *moduleImporter) Import(path string) (*types.Package, error) {
	dir, ours := m.dirs[path]
	if !ours {
		return m.outside.Import(path)
	}
	if pkg, ok := m.types[path]; ok {
		return pkg, nil
	}
	bp, err := m.ctxt.ImportDir(dir, 0)
	if err != nil {
		return nil, err
	}
	p := &checkedPackage{path: path, fset: m.fset, info: &types.Info{
		Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
	}}
	for _, name := range append(slices.Clone(bp.GoFiles), bp.CgoFiles...) {
		file, err := parser.ParseFile(m.fset, filepath.Join(dir, name), nil, 0)
		if err != nil {
			return nil, err
		}
		p.files = append(p.files, file)
	}
	var errs []error
	conf := types.Config{Importer: m, FakeImportC: true, Error: func(err error) { errs = append(errs, err) }}
	pkg, _ := conf.Check(path, m.fset, p.files, p.info)
	p.pkg = pkg
	if len(errs) > 0 && len(bp.CgoFiles) == 0 {
		// A cgo package's references into C have no types here; any
		// other package must check cleanly.
		return nil, errs[0]
	}
	m.types[path], m.done[path] = pkg, p
	return pkg, nil
}

// behindView are the files of package solver that read a built problem
// only through its view (solver/view.go): the greedy baseline and the
// explanations, which could then move out of the package as the Z3
// backends did (solver/smt).
var behindView = []string{"greedy.go", "explain.go"}

// The greedy baseline and the explanations read a built solver.Problem
// only through its view. The rule, checked on the type-checked source of
// each file of behindView:
//   - a selector x.f whose x is a Problem or *Problem names an exported
//     field or method (the view: view.go's accessors, Facts, Graph, ...),
//     or an unexported method declared in the same file (the file's own
//     code, which this rule checks too);
//   - no call of an unexported function of package solver declared in
//     another file that takes a Problem or *Problem: it would read the
//     problem's private members on the file's behalf.
//
// An unexported member of another type (a Node's, a model value's) is not
// the problem's and is allowed.
func TestGreedyAndExplainReadTheView(t *testing.T) {
	var p *checkedPackage
	for _, c := range typeCheckModule(t) {
		if c.path == "planner/solver" {
			p = c
		}
	}
	if p == nil {
		t.Fatal("the module has no package planner/solver")
	}
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range viewViolations(p.fset, p.files, p.info, behindView) {
		at := p.fset.Position(v.pos)
		if rel, err := filepath.Rel(dir, at.Filename); err == nil {
			at.Filename = rel
		}
		t.Errorf("%s: %s", at, v.what)
	}
}

// viewViolations finds in the files of a package named by checked (base
// names) what TestGreedyAndExplainReadTheView forbids.
func viewViolations(fset *token.FileSet, files []*ast.File, info *types.Info, checked []string) []violation {
	fileOf := func(pos token.Pos) string { return filepath.Base(fset.Position(pos).Filename) }
	isProblem := func(t types.Type) bool {
		if ptr, ok := t.(*types.Pointer); ok {
			t = ptr.Elem()
		}
		named, ok := t.(*types.Named)
		return ok && named.Obj().Name() == "Problem" && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == "planner/solver"
	}
	takesProblem := func(fn *types.Func) bool {
		sig := fn.Signature()
		for i := range sig.Params().Len() {
			if isProblem(sig.Params().At(i).Type()) {
				return true
			}
		}
		return false
	}
	var out []violation
	for _, file := range files {
		name := fileOf(file.Pos())
		if !slices.Contains(checked, name) {
			continue
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.SelectorExpr:
				sel := info.Selections[x]
				if sel == nil || !isProblem(sel.Recv()) || sel.Obj().Exported() {
					return true
				}
				if fn, ok := sel.Obj().(*types.Func); ok && fileOf(fn.Pos()) == name {
					return true
				}
				out = append(out, violation{x.Sel.Pos(), fmt.Sprintf("reads the problem's unexported %s (declared in %s); read it through the view (solver/view.go)", x.Sel.Name, fileOf(sel.Obj().Pos()))})
			case *ast.CallExpr:
				id, ok := ast.Unparen(x.Fun).(*ast.Ident)
				if !ok {
					return true
				}
				fn, ok := info.Uses[id].(*types.Func)
				if ok && fn.Signature().Recv() == nil && !fn.Exported() && fn.Parent() == fn.Pkg().Scope() && fileOf(fn.Pos()) != name && takesProblem(fn) {
					out = append(out, violation{id.Pos(), fmt.Sprintf("calls %s (declared in %s), which takes the problem and reads its unexported members; read it through the view (solver/view.go)", id.Name, fileOf(fn.Pos()))})
				}
			}
			return true
		})
	}
	return out
}

// The rule of TestGreedyAndExplainReadTheView catches each way round the
// view, on a small package of its own: an unexported field, an unexported
// method declared in another file, an unexported function of another file
// that takes the problem; and allows the view, the file's own methods and
// other types' unexported members.
func TestViewRuleCatchesPrivateReads(t *testing.T) {
	sources := map[string]string{
		"problem.go": `package solver
type Problem struct{ Nodes []int; facts []int; n node }
type node struct{ id int }
func (p *Problem) Facts() []int { return p.facts }
func (p *Problem) converts() bool { return true }
func count(p *Problem) int { return len(p.facts) }
func times(n int) int { return n }
`,
		"greedy.go": `package solver
func (p *Problem) own() int { var n node; return len(p.Nodes) + len(p.Facts()) + n.id + times(2) }
func run(p *Problem) int {
	if p.converts() {
		return p.own() + p.n.id
	}
	return len(p.facts) + count(p)
}
`,
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range []string{"problem.go", "greedy.go"} {
		f, err := parser.ParseFile(fset, name, sources[name], 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	if _, err := (&types.Config{}).Check("planner/solver", fset, files, info); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range viewViolations(fset, files, info, []string{"greedy.go"}) {
		got = append(got, fmt.Sprintf("%s: %s", fset.Position(v.pos), v.what))
	}
	want := []string{
		"greedy.go:4:7: reads the problem's unexported converts (declared in problem.go)",
		"greedy.go:5:22: reads the problem's unexported n (declared in problem.go)",
		"greedy.go:7:15: reads the problem's unexported facts (declared in problem.go)",
		"greedy.go:7:24: calls count (declared in problem.go)",
	}
	if len(got) != len(want) {
		t.Fatalf("found %d violations, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("violation %d: %s\nwant it to start %s", i, got[i], want[i])
		}
	}
}

// internalTests are the root test files allowed in package planner: each
// truly needs the package's internals, says why on its package line
// ("package planner // internal: ..."), and is named here. Every other
// root test file is package planner_test and reads only the exported API,
// as a user of the library does.
var internalTests = []string{
	"export_test.go", // hands the external tests the kept kernel and the MLIR options
	"limits_test.go", // tests during, within, the progress and solve seams and the big-graph pacing
}

// A new root test file is external by default: one in package planner
// must be listed in internalTests and say why on its package line.
func TestRootTestsAreExternal(t *testing.T) {
	names, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range internalTests {
		if !slices.Contains(names, name) {
			t.Errorf("internalTests names %s, which does not exist", name)
		}
	}
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, data, parser.PackageClauseOnly)
		if err != nil {
			t.Fatal(err)
		}
		listed := slices.Contains(internalTests, name)
		line, _, _ := strings.Cut(string(data[f.Package-1:]), "\n")
		switch {
		case f.Name.Name == "planner" && !listed:
			t.Errorf("%s is in package planner: write it in package planner_test against the exported API, or name it in internalTests if it truly needs the internals", name)
		case f.Name.Name == "planner" && !strings.HasPrefix(line, "package planner // internal: "):
			t.Errorf("%s: its package line says not why it needs the internals (package planner // internal: why)", name)
		case f.Name.Name != "planner" && listed:
			t.Errorf("%s is in package %s, but internalTests names it", name, f.Name.Name)
		}
	}
}
