package intrinsics

import (
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"planner/model"
	"planner/tomlio/tomltest"
)

// A key of the wrong TOML type in a record or target file is one finding,
// on its line, naming the key: nothing that depends on it is reported as
// well. Every built-in file is tried, each key in turn, under a name of
// its own (the built-in one is taken), checked as intrinsics check does.
func TestWrongTypeRecords(t *testing.T) {
	builtin, errs := read(true, nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	rename := regexp.MustCompile(`(?m)^name = "(.*)"`)
	tried := 0
	_ = fs.WalkDir(builtinFS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, _ := builtinFS.ReadFile(p)
		text := rename.ReplaceAllString(string(data), `name = "${1}_copy"`)
		for _, m := range tomltest.WrongTypes(text) {
			tried++
			lib := &Library{Targets: map[string]*model.Target{}, Records: map[string]*model.Record{}}
			var found model.ErrorList
			if err := lib.parseFile(p, m.Text); err != nil {
				found, _ = model.Errors(err)
			}
			all, shadowed := merge(builtin, lib)
			found = append(append(found, shadowed...), lib.resolveExtends(all)...)
			found = append(found, lib.crossCheck(all)...)
			if len(found) != 1 || found[0].Pos.Line != m.Line || !strings.Contains(found[0].Msg, m.Key) {
				t.Errorf("%s with %s of the wrong type (line %d): want one finding there naming it, got:\n%v", p, m.Key, m.Line, found)
			}
		}
		return nil
	})
	if tried < 1000 {
		t.Fatalf("only %d keys tried", tried)
	}
}
