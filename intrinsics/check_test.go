package intrinsics

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	goldenfile "planner/internal/golden"
	"strings"
	"testing"

	"planner/model"
	"planner/tomlio/tomltest"
)

// Each deliberately broken record under testdata/bad/records breaks one
// rule; the checker must report exactly that rule, on a line of the file.
func TestCheckBrokenRecords(t *testing.T) {
	want := map[string]model.Code{
		"bad_type.toml":                      model.CodeBadType,
		"bad_value.toml":                     model.CodeBadValue,
		"coverage_declared_duplicated.toml":  model.CodeRecordCoverage,
		"coverage_undeclared_duplicate.toml": model.CodeRecordCoverage,
		"fma_cost.toml":                      model.CodeUnknownKey,
		"fragment_lanes_rule.toml":           model.CodeRecordMemory,
		"in_unknown.toml":                    model.CodeUnknownName,
		"memory_alignment.toml":              model.CodeRecordMemory,
		"memory_swizzle_mode.toml":           model.CodeRecordMemory,
		"memory_tensor_rule.toml":            model.CodeRecordMemory,
		"memory_unknown_rule.toml":           model.CodeRecordMemory,
		"missing_key.toml":                   model.CodeMissingKey,
		"packing_registers.toml":             model.CodeRecordPacking,
		"scale_missing.toml":                 model.CodeMissingKey,
		"scale_shape.toml":                   model.CodeRecordShape,
		"scale_vec_value.toml":               model.CodeBadValue,
		"shape_operand.toml":                 model.CodeRecordShape,
		"shadow_builtin.toml":                model.CodeDuplicate,
		"shape_row_bytes.toml":               model.CodeRecordShape,
		"subgroup_target.toml":               model.CodeRecordSubgroup,
		"subgroups_not_pow2.toml":            model.CodeNotPowerOfTwo,
		"syntax.toml":                        model.CodeSyntax,
		"target_bank_bytes.toml":             model.CodeNotPowerOfTwo,
		"target_banks.toml":                  model.CodeNotPowerOfTwo,
		"target_record_lanes.toml":           model.CodeRecordSubgroup,
		"target_register_counts.toml":        model.CodeBadValue,
		"target_subgroup_zero.toml":          model.CodeBadValue,
		"target_tensor_memory.toml":          model.CodeMissingKey,
		"tensor_memory_layout.toml":          model.CodeUnknownKey,
		"unknown_key.toml":                   model.CodeUnknownKey,
		"unknown_kind.toml":                  model.CodeUnknownName,
	}
	dir := "../testdata/bad/records"
	files, _ := filepath.Glob(filepath.Join(dir, "*.toml"))
	if len(files) != len(want) {
		t.Fatalf("%d broken records, %d in the table", len(files), len(want))
	}
	var golden strings.Builder
	for _, f := range files {
		base := filepath.Base(f)
		_, errs := Check(f)
		if len(errs) != 1 {
			t.Errorf("%s: %d findings, want exactly one:\n%v", base, len(errs), errs)
			continue
		}
		e := errs[0]
		if e.Code != want[base] {
			t.Errorf("%s: rule %s, want %s: %v", base, e.Code, want[base], e)
		}
		if e.Pos.Line == 0 || filepath.Base(e.Pos.File) != base {
			t.Errorf("%s: the finding is not on a line of the file: %v", base, e)
		}
		golden.WriteString("[" + e.Code.String() + "] " + e.Error() + "\n")
	}
	goldenfile.Compare(t, filepath.Join(dir, "records.golden"), golden.String())
}

// The built-in records pass their own checker.
func TestCheckBuiltin(t *testing.T) {
	if _, errs := Check("."); len(errs) > 0 {
		t.Fatal(errs)
	}
}

// FuzzParseRecord: any TOML read as a record or target file, then
// resolved and cross-checked against the built-in library, gives errors
// that each carry a code and a line of a file (related positions
// included), or none; nothing panics.
func FuzzParseRecord(f *testing.F) {
	_ = fs.WalkDir(builtinFS, ".", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := builtinFS.ReadFile(path)
			f.Add(data)
		}
		return nil
	})
	bad, _ := filepath.Glob("../testdata/bad/records/*.toml")
	for _, p := range bad {
		data, _ := os.ReadFile(p)
		f.Add(data)
	}
	for _, data := range tomltest.Hostile("name = \"t\"\nkind = \"mma\"\n") {
		f.Add(data)
	}
	builtin, errs := read(true, nil)
	if len(errs) > 0 {
		f.Fatal(errs)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lib := &Library{Targets: map[string]*model.Target{}, Records: map[string]*model.Record{}}
		var errs model.ErrorList
		if err := lib.parseFile("fuzz.toml", data); err != nil {
			list, ok := model.Errors(err)
			if !ok {
				t.Fatalf("error %T without a position: %v", err, err)
			}
			errs = list
		}
		all := &Library{Targets: maps.Clone(builtin.Targets), Records: maps.Clone(builtin.Records)}
		maps.Copy(all.Targets, lib.Targets)
		maps.Copy(all.Records, lib.Records)
		errs = append(errs, lib.resolveExtends(all)...)
		errs = append(errs, lib.crossCheck(all)...)
		for _, e := range errs {
			if e.Pos.File == "" || e.Pos.Line < 1 || e.Code == model.CodeNone {
				t.Fatalf("error without a position or code: %#v", e)
			}
			for _, p := range e.Related {
				if p.File == "" || p.Line < 1 {
					t.Fatalf("related position without a file or line: %#v", e)
				}
			}
		}
		if len(errs) > 0 {
			return
		}
		// A target read without an error has the sizes hardware has.
		pow2 := func(n int) bool { return n > 0 && n&(n-1) == 0 }
		for _, tg := range lib.Targets {
			if !pow2(tg.SubgroupSize) || tg.SubgroupSize > 1024 || !pow2(tg.Banks) || !pow2(tg.BankBytes) || tg.MaxSubgroups < 1 || tg.SharedMemory < 1 {
				t.Fatalf("target %s read without an error has subgroups of %d lanes, %d subgroups, %d bytes of shared memory in %d banks of %d bytes",
					tg.Name, tg.SubgroupSize, tg.MaxSubgroups, tg.SharedMemory, tg.Banks, tg.BankBytes)
			}
		}
	})
}
