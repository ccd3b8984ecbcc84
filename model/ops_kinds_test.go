package model

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Every row of the op table has one OpKind constant and every OpKind
// constant names a row, so that the table stays the one list of kinds and
// a front end can name each kind it builds without spelling it.
func TestOpKindConstants(t *testing.T) {
	consts := opKindConstants(t)
	names := map[OpKind][]string{}
	for name, kind := range consts {
		names[kind] = append(names[kind], name)
		if OpInfoOf(kind) == nil {
			t.Errorf("%s is %q, which no row of the op table has as its kind", name, kind)
		}
	}
	for _, info := range opRows {
		if n := len(names[info.Kind]); n != 1 {
			slices.Sort(names[info.Kind])
			t.Errorf("the row %s has %d OpKind constants %v; it needs one", info.Kind, n, names[info.Kind])
		}
	}
}

// opKindConstants reads the package's OpKind constants, by name, from its
// source: the constants the code declares, not a list kept beside them.
func opKindConstants(t *testing.T) map[string]OpKind {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	consts := map[string]OpKind{}
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
				if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "OpKind" {
					continue
				}
				for i, n := range vs.Names {
					lit, ok := vs.Values[i].(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						t.Fatalf("%s: the OpKind constant %s is not a string literal", path, n.Name)
					}
					v, err := strconv.Unquote(lit.Value)
					if err != nil {
						t.Fatal(err)
					}
					consts[n.Name] = OpKind(v)
				}
			}
		}
	}
	if len(consts) == 0 {
		t.Fatal("found no OpKind constants in the package's files")
	}
	return consts
}
