package intrinsics

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"planner/model"
	"planner/source"
)

//go:embed nvidia/*.toml targets/*.toml
var builtin embed.FS

// Library is a set of targets and intrinsic records.
type Library struct {
	Targets map[string]*model.Target
	Records map[string]*model.Record
}

// Target looks a target up by name.
func (lib *Library) Target(name string) (*model.Target, bool) {
	t, ok := lib.Targets[name]
	return t, ok
}

// TargetNames lists the targets, sorted.
func (lib *Library) TargetNames() []string {
	var out []string
	for n := range lib.Targets {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// RecordsOf lists the records a target offers of one kind, in the order
// the target lists them.
func (lib *Library) RecordsOf(t *model.Target, kind model.RecordKind) []*model.Record {
	var out []*model.Record
	for _, name := range t.Records {
		if r, ok := lib.Records[name]; ok && r.Kind == kind {
			out = append(out, r)
		}
	}
	return out
}

// Load reads the built-in records and those in dirs (each a folder of
// *.toml files, searched recursively). A record or target defined twice is
// an error naming both places.
func Load(dirs ...string) (*Library, error) {
	lib := &Library{Targets: map[string]*model.Target{}, Records: map[string]*model.Record{}}
	var errs model.ErrorList
	add := func(file string, data []byte) {
		if err := lib.parseFile(file, data); err != nil {
			appendErr(&errs, err)
		}
	}
	err := fs.WalkDir(builtin, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".toml") {
			return err
		}
		data, err := builtin.ReadFile(path)
		if err != nil {
			return err
		}
		add("intrinsics/"+path, data)
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				errs = append(errs, &model.Error{Pos: model.Pos{File: path}, Code: model.CodeUnknownName, Index: -1, Msg: fmt.Sprintf("cannot read: %v", err)})
				return nil
			}
			if d.IsDir() || !strings.HasSuffix(path, ".toml") {
				return nil
			}
			data, err := os.ReadFile(path)
			if err != nil {
				errs = append(errs, &model.Error{Pos: model.Pos{File: path}, Code: model.CodeUnknownName, Index: -1, Msg: fmt.Sprintf("cannot read: %v", err)})
				return nil
			}
			add(path, data)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	for _, name := range sortedKeys(lib.Targets) {
		t := lib.Targets[name]
		for _, r := range t.Records {
			if _, ok := lib.Records[r]; !ok {
				errs = append(errs, &model.Error{Pos: t.Pos, Code: model.CodeUnknownName, Index: -1,
					Msg: fmt.Sprintf("target %s offers record %q, which no record file defines", t.Name, r)})
			}
		}
	}
	errs.Sort()
	if len(errs) > 0 {
		return nil, errs
	}
	return lib, nil
}

func appendErr(errs *model.ErrorList, err error) {
	switch e := err.(type) {
	case model.ErrorList:
		*errs = append(*errs, e...)
	case *model.Error:
		*errs = append(*errs, e)
	default:
		*errs = append(*errs, &model.Error{Code: model.CodeBadValue, Index: -1, Msg: err.Error()})
	}
}

func sortedKeys[T any](m map[string]T) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Builtin loads the built-in library alone.
func Builtin() (*Library, error) { return Load() }

// parseFile reads one record or target file: a file with a [cost] table
// or subgroup limits is a target, one with a kind is a record.
func (lib *Library) parseFile(file string, data []byte) error {
	doc, err := source.Parse(file, data)
	if err != nil {
		return err
	}
	root := doc.Root()
	if root.Has("kind") {
		r := parseRecord(root)
		if r != nil {
			if prev, ok := lib.Records[r.Name]; ok {
				root.Errorf("name", model.CodeDuplicate, "record %q is also defined at %s", r.Name, prev.Pos)
			} else {
				lib.Records[r.Name] = r
			}
		}
	} else {
		t := parseTarget(root)
		if t != nil {
			if prev, ok := lib.Targets[t.Name]; ok {
				root.Errorf("name", model.CodeDuplicate, "target %q is also defined at %s", t.Name, prev.Pos)
			} else {
				lib.Targets[t.Name] = t
			}
		}
	}
	return doc.Err()
}

var targetKeys = []string{"name", "vendor", "source", "subgroup_size", "max_subgroups", "shared_memory", "banks", "bank_bytes", "records", "cost"}
var weightKeys = []string{"alu", "move", "shuffle", "sfu", "shared_wavefront", "barrier", "global_sector", "issue"}

func parseTarget(root *source.Table) *model.Target {
	root.Expect(targetKeys...)
	t := &model.Target{Pos: root.Pos("name")}
	t.Name, _ = root.String("name", true)
	t.Vendor, _ = root.String("vendor", true)
	t.Source, _ = root.String("source", true)
	t.SubgroupSize, _ = root.Int("subgroup_size", true)
	t.MaxSubgroups, _ = root.Int("max_subgroups", true)
	t.SharedMemory, _ = root.Int("shared_memory", true)
	t.Banks, _ = root.Int("banks", true)
	t.BankBytes, _ = root.Int("bank_bytes", true)
	t.Records, _ = root.Strings("records", true)
	if c, ok := root.Sub("cost", true); ok {
		c.Expect(weightKeys...)
		get := func(key string) int64 {
			v, ok := c.Int(key, true)
			if ok && v < 0 {
				c.Errorf(key, model.CodeBadValue, "a cost weight cannot be negative, found %d", v)
			}
			return int64(v)
		}
		t.Weights = model.Weights{ALU: get("alu"), Move: get("move"), Shuffle: get("shuffle"), SFU: get("sfu"),
			SharedWavefront: get("shared_wavefront"), Barrier: get("barrier"), GlobalSector: get("global_sector"), Issue: get("issue")}
		c.CheckUnknown()
	}
	if t.SubgroupSize > 0 && t.SubgroupSize&(t.SubgroupSize-1) != 0 {
		root.Errorf("subgroup_size", model.CodeNotPowerOfTwo, "subgroup size %d is not a power of two", t.SubgroupSize)
	}
	for _, k := range []struct {
		key string
		v   int
	}{{"max_subgroups", t.MaxSubgroups}, {"shared_memory", t.SharedMemory}, {"banks", t.Banks}, {"bank_bytes", t.BankBytes}} {
		if root.Has(k.key) && k.v < 1 {
			root.Errorf(k.key, model.CodeBadValue, "%s must be positive, found %d", k.key, k.v)
		}
	}
	root.CheckUnknown()
	return t
}

var recordKeys = []string{"name", "kind", "vendor", "instruction", "source", "subgroup_size", "shape", "cost", "matrices", "trans", "a", "b", "c", "d", "fragment", "memory"}

func parseRecord(root *source.Table) *model.Record {
	root.Expect(recordKeys...)
	r := &model.Record{File: root.Pos("").File, Pos: root.Pos("name"), Operands: map[string]*model.Operand{}}
	r.Name, _ = root.String("name", true)
	kind, _ := root.String("kind", true)
	r.Kind = model.RecordKind(kind)
	r.Vendor, _ = root.String("vendor", true)
	r.Instruction, _ = root.String("instruction", true)
	r.Source, _ = root.String("source", true)
	r.SubgroupSize, _ = root.Int("subgroup_size", true)
	cost, _ := root.Int("cost", true)
	r.Cost = int64(cost)
	if root.Has("cost") && cost < 0 {
		root.Errorf("cost", model.CodeBadValue, "cost cannot be negative, found %d", cost)
	}
	frame := func(shape []int) model.Frame {
		return model.Frame{Shape: shape, SubgroupSize: r.SubgroupSize, Subgroups: 1}
	}
	operand := func(name string, shape []int) *model.Operand {
		t, ok := root.Sub(name, true)
		if !ok {
			return nil
		}
		t.Expect("dtype", "shape", "layout")
		op := &model.Operand{Name: name, Shape: shape, Pos: t.Pos("")}
		if dt, ok := t.String("dtype", true); ok {
			d, known := model.ParseDType(dt)
			if !known {
				t.Errorf("dtype", model.CodeUnknownName, "unknown element type %q", dt)
			}
			op.DType = d
		}
		if shape == nil {
			op.Shape, _ = t.Ints("shape", true)
		}
		if lt, ok := t.Sub("layout", true); ok && op.Shape != nil && r.SubgroupSize > 0 {
			if f := frame(op.Shape); f.Check() == nil {
				op.Notation, op.Layout = source.DecodeLayout(lt, f)
			} else {
				t.Report(f.Check())
			}
		}
		t.CheckUnknown()
		return op
	}
	switch r.Kind {
	case model.RecordMMA:
		shape, ok := root.Ints("shape", true)
		if ok && len(shape) != 3 {
			root.Errorf("shape", model.CodeRankMismatch, "an mma shape is [M, N, K], found %d entries", len(shape))
			ok = false
		}
		if ok {
			r.M, r.N, r.K = shape[0], shape[1], shape[2]
			for _, n := range []string{"a", "b", "c", "d"} {
				if op := operand(n, r.OperandShape(n)); op != nil {
					r.Operands[n] = op
				}
			}
			if c, d := r.Operands["c"], r.Operands["d"]; c != nil && d != nil && c.Layout != nil && d.Layout != nil && !c.Layout.Equal(d.Layout) {
				root.Errorf("d", model.CodeBadValue, "the accumulator's input c and output d have different layouts; the planner chains accumulators in one layout")
			}
		}
	case model.RecordLoadShared:
		r.Matrices, _ = root.Int("matrices", true)
		if root.Has("matrices") && r.Matrices < 1 {
			root.Errorf("matrices", model.CodeBadValue, "matrices must be positive, found %d", r.Matrices)
		}
		r.Trans, _ = root.Bool("trans", false)
		r.Fragment = operand("fragment", nil)
		if m, ok := root.Sub("memory", true); ok {
			m.Expect("rule", "row_bytes", "alignment", "stride_multiple")
			r.Memory.Pos = m.Pos("")
			r.Memory.Rule, _ = m.String("rule", true)
			r.Memory.RowBytes, _ = m.Int("row_bytes", false)
			r.Memory.Alignment, _ = m.Int("alignment", false)
			r.Memory.StrideMultiple, _ = m.Int("stride_multiple", false)
			switch r.Memory.Rule {
			case "row_pointers", "constant_stride", "":
			default:
				m.Errorf("rule", model.CodeUnknownName, "unknown memory rule %q (expected row_pointers or constant_stride)", r.Memory.Rule)
			}
			m.CheckUnknown()
		}
	case "":
	default:
		root.Errorf("kind", model.CodeUnknownName, "unknown record kind %q (expected mma or load_shared)", kind)
	}
	root.CheckUnknown()
	return r
}
