package tomlio

import (
	"os"
	"testing"

	"planner/model"
)

// A name given twice is reported at the second place with the first as
// data: Related holds where the name was defined first (or the key an
// alias repeats, the row a table row repeats), whether or not the message
// also names it.
func TestDuplicatesCarryRelated(t *testing.T) {
	const twoOps = `target = "sm_80"
subgroups = 4

[[op]]
kind = "load"
name = "l"
result = "x"
shape = [32, 32]
dtype = "f32"

[[op]]
kind = "load"
name = "l"
result = "y"
shape = [32, 32]
dtype = "f32"
`
	read := func(t *testing.T, path string) []byte {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	graph := func(file string, data []byte) error {
		_, err := ParseGraph(file, data, testTargets)
		return err
	}
	layout := func(file string, data []byte) error {
		_, err := ParseLayoutFile(file, data)
		return err
	}
	for _, c := range []struct {
		name, file string
		data       []byte
		parse      func(string, []byte) error
		at, first  model.Pos
	}{
		{"value", "dup.toml", read(t, "../testdata/bad/graphs/duplicate_value.toml"), graph,
			model.Pos{File: "dup.toml", Line: 13, Col: 1}, model.Pos{File: "dup.toml", Line: 7, Col: 1}},
		{"op", "ops.toml", []byte(twoOps), graph,
			model.Pos{File: "ops.toml", Line: 13, Col: 1}, model.Pos{File: "ops.toml", Line: 5, Col: 1}},
		{"alias", "alias.toml", read(t, "../testdata/bad/layouts/xegpu_alias_twice.toml"), layout,
			model.Pos{File: "alias.toml", Line: 9, Col: 1}, model.Pos{File: "alias.toml", Line: 10, Col: 1}},
		{"table row", "rows.toml", read(t, "../testdata/bad/layouts/table_duplicate_row.toml"), layout,
			model.Pos{File: "rows.toml", Line: 11, Col: 3}, model.Pos{File: "rows.toml", Line: 10, Col: 3}},
	} {
		t.Run(c.name, func(t *testing.T) {
			list, ok := model.Errors(c.parse(c.file, c.data))
			if !ok {
				t.Fatal("no positioned error")
			}
			var dup *model.Error
			for _, e := range list {
				if e.Code == model.CodeDuplicate {
					dup = e
				}
			}
			if dup == nil || dup.Pos != c.at || len(dup.Related) != 1 || dup.Related[0] != c.first {
				t.Fatalf("got %#v, want a duplicate at %s related to %s", dup, c.at, c.first)
			}
		})
	}
}
