package intrinsics

import (
	"path/filepath"
	"strings"
	"testing"
)

// A record or target of the user's under a built-in name is refused alike
// by Check (intrinsics check) and Load (--records on every other command),
// with both positions; the built-in folder itself is not a second copy.
func TestShadowingAgrees(t *testing.T) {
	const file = "../testdata/bad/records/shadow_builtin.toml"
	_, checked := Check(file)
	_, err := Load(file)
	if len(checked) != 1 || err == nil || checked.Error() != err.Error() {
		t.Fatalf("check and load disagree:\ncheck: %v\nload:  %v", checked, err)
	}
	if e := checked[0]; len(e.Related) != 1 || e.Related[0].File != "intrinsics/targets/sm_89.toml" || !strings.Contains(e.Msg, "cannot replace a built-in one") {
		t.Errorf("the error does not give both positions: %#v", e)
	}
	if _, err := Load("."); err != nil {
		t.Errorf("the built-in folder given with --records: %v", err)
	}
}

// A folder given twice, or a folder and a file in it, is read once: no
// record is "also defined" at its own position.
func TestRecordsPathsReadOnce(t *testing.T) {
	paths := []string{"../examples/records", "../examples/records/", "../examples/records/mma_m16n8k4_f32_tf32.toml"}
	lib, err := Load(paths...)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := lib.Records["mma_m16n8k4_f32_tf32"]; !ok {
		t.Error("the record was not loaded")
	}
	if _, errs := Check(paths...); len(errs) > 0 {
		t.Error(errs)
	}
}

// Every broken record of the catalogue is refused by Load (--records) with
// the findings intrinsics check gives it.
func TestLoadAgreesWithCheck(t *testing.T) {
	files, _ := filepath.Glob("../testdata/bad/records/*.toml")
	for _, f := range files {
		_, checked := Check(f)
		_, err := Load(f)
		if err == nil || checked.Error() != err.Error() {
			t.Errorf("%s: check and load disagree:\ncheck: %v\nload:  %v", filepath.Base(f), checked, err)
		}
	}
}
