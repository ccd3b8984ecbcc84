package ir

import (
	"strings"
	"testing"
)

// An IREE target named by alias inside a dialect attribute's body is read
// as its value: its fields come where the alias is written, and the use
// of the alias is recorded; an alias named in a string is no use.
func TestFieldsReadAliasesAsValues(t *testing.T) {
	src := `#target = #iree_gpu.target<arch = "gfx942", features = "#target", wgp = <subgroup_size_choices = [64]>>
#exec = #hal.executable.target<"rocm", "rocm-hsaco-fb", {iree_codegen.target_info = #target}>
func.func @k() attributes {hal.executable.target = #exec, translation_info = #iree_codegen.translation_info<pipeline = LLVMGPUVectorDistribute workgroup_size = [64, 1, 1] subgroup_size = 64>} {
  return
}
`
	m, err := Parse("k.mlir", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	fn := Funcs(m)[0]
	var got []string
	for _, na := range fn.Attrs {
		m.Fields(na.Value, func(f Field) {
			switch f.Kind {
			case FieldDialect:
				got = append(got, "#"+f.Key)
			case FieldString, FieldInt, FieldList:
				got = append(got, f.Key+"="+f.Value)
			}
		})
	}
	want := "#hal.executable.target #iree_gpu.target arch=gfx942 features=#target subgroup_size_choices=64 " +
		"#iree_codegen.translation_info workgroup_size=64, 1, 1 subgroup_size=64"
	if g := strings.Join(got, " "); g != want {
		t.Errorf("fields:\n got %s\nwant %s", g, want)
	}
	var uses []string
	for _, u := range m.AliasUses {
		uses = append(uses, u.Name+"@"+src[u.Off:u.Off+len(u.Name)+1])
	}
	if g, w := strings.Join(uses, " "), "target@#target exec@#exec"; g != w {
		t.Errorf("alias uses: got %s, want %s", g, w)
	}
}
