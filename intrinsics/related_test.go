package intrinsics

import (
	"os"
	"testing"

	"planner/internal/golden"
	"planner/model"
)

// A problem that involves a second place carries it as data: a record
// defined twice points at its first definition, a swizzle mode listed
// twice at its first entry, a subgroup mismatch at the record's size.
func TestErrorsCarryRelated(t *testing.T) {
	swizzle, err := os.ReadFile("../testdata/bad/records/memory_swizzle_mode.toml")
	if err != nil {
		t.Fatal(err)
	}
	twice := golden.ReplaceOnce(t, string(swizzle), `modes = ["none", "256B"]`, `modes = ["none", "32B", "none"]`)
	ldmatrix, err := builtinFS.ReadFile("nvidia/ldmatrix_x1.toml")
	if err != nil {
		t.Fatal(err)
	}
	parse := func(files ...string) model.ErrorList {
		lib := &Library{Targets: map[string]*model.Target{}, Records: map[string]*model.Record{}}
		var errs model.ErrorList
		for i := 0; i < len(files); i += 2 {
			if err := lib.parseFile(files[i], []byte(files[i+1])); err != nil {
				appendErr(&errs, err)
			}
		}
		return errs
	}
	checked := func(path string) model.ErrorList {
		_, errs := Check(path)
		return errs
	}
	for _, c := range []struct {
		name      string
		errs      model.ErrorList
		code      model.Code
		at, first string
	}{
		{"record twice", parse("a.toml", string(ldmatrix), "b.toml", string(ldmatrix)), model.CodeDuplicate, "b.toml:9:1", "a.toml:9:1"},
		{"swizzle mode twice", parse("m.toml", twice), model.CodeRecordMemory, "m.toml:30:25", "m.toml:30:10"},
		{"subgroup size", checked("../testdata/bad/records/subgroup_target.toml"), model.CodeRecordSubgroup,
			"../testdata/bad/records/subgroup_target.toml:10:12", "intrinsics/nvidia/ldmatrix_x1.toml:14:1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if len(c.errs) != 1 {
				t.Fatalf("want one error, got %v", c.errs)
			}
			e := c.errs[0]
			if e.Code != c.code || e.Pos.String() != c.at || len(e.Related) != 1 || e.Related[0].String() != c.first {
				t.Fatalf("got %#v, want %s at %s related to %s", e, c.code, c.at, c.first)
			}
		})
	}
}
