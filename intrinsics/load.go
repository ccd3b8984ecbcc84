package intrinsics

import (
	"embed"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"planner/model"
	"planner/tomlio"
)

//go:embed */*.toml
var builtinFS embed.FS

// Library is a set of targets and intrinsic records. One made by Open
// holds in Records only the records parsed so far (Offered parses those
// of the targets asked for); one made by Load or Check holds them all.
type Library struct {
	Targets map[string]*model.Target
	Records map[string]*model.Record
	lazy    *lazy // the built-in records not parsed yet, for Open
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

// RecordNames lists the records, sorted by vendor, then name.
func (lib *Library) RecordNames() []string {
	names := sortedKeys(lib.Records)
	sort.SliceStable(names, func(i, j int) bool { return lib.Records[names[i]].Vendor < lib.Records[names[j]].Vendor })
	return names
}

// RecordsOf lists the records a target offers of one kind, in the order
// the target lists them.
func (lib *Library) RecordsOf(t *model.Target, kind model.RecordKind) ([]*model.Record, error) {
	recs, err := lib.Offered(t)
	if err != nil {
		return nil, err
	}
	var out []*model.Record
	for _, r := range recs {
		if r.Kind == kind {
			out = append(out, r)
		}
	}
	return out, nil
}

// Load reads the built-in records and those in paths (each a *.toml file
// or a folder of them, searched recursively). A record or target defined
// twice is an error naming both places.
func Load(paths ...string) (*Library, error) {
	builtin, errs := read(true, nil)
	user, userErrs := read(false, paths)
	lib, shadowed := merge(builtin, user)
	errs = append(append(errs, userErrs...), shadowed...)
	errs = append(errs, lib.resolveExtends(lib)...)
	// The files of --records are cross-checked as intrinsics check does
	// (the built-in ones are checked by their tests), so that both report
	// one mistake alike, at the same place.
	errs = append(errs, user.crossCheck(lib)...)
	errs.Sort()
	if len(errs) > 0 {
		return nil, errs
	}
	for _, t := range lib.Targets {
		t.RecordKinds = map[string]model.RecordKind{}
		recs := make([]*model.Record, 0, len(t.Records))
		for _, n := range t.Records {
			t.RecordKinds[n] = lib.Records[n].Kind
			recs = append(recs, lib.Records[n])
		}
		t.ScratchRows = scratchRows(recs)
	}
	return lib, nil
}

// Check reads the records and targets in paths alone, as a linter for
// new ones: every finding of every file, each with its position and the
// rule it breaks (its Code). Records are checked against the built-in
// targets that offer them, and targets against the built-in records,
// where the checked files do not define them themselves.
func Check(paths ...string) (*Library, model.ErrorList) {
	lib, errs := read(false, paths)
	builtin, _ := read(true, nil)
	both, shadowed := merge(builtin, lib)
	errs = append(errs, shadowed...)
	errs = append(errs, lib.resolveExtends(both)...)
	errs = append(errs, lib.crossCheck(both)...)
	errs.Sort()
	return lib, errs
}

// merge puts the records and targets of user beside the built-in ones. A
// name both define is an error with both positions, whether the planner
// loads them (--records) or checks them (intrinsics check): a record of
// the user's never silently replaces a built-in one. A file that is the
// built-in file itself (intrinsics/nvidia/ldmatrix_x4.toml checked in a
// checkout) replaces it: it is the same record, perhaps being edited.
func merge(builtin, user *Library) (*Library, model.ErrorList) {
	all := &Library{Targets: maps.Clone(builtin.Targets), Records: maps.Clone(builtin.Records)}
	var errs model.ErrorList
	shadow := func(what, name string, pos, prev model.Pos) {
		if isBuiltinFile(pos.File, prev.File) {
			return
		}
		errs = append(errs, &model.Error{Pos: pos, Code: model.CodeDuplicate, Index: -1, Related: []model.Pos{prev},
			Msg: fmt.Sprintf("%s %q is also defined at %s, a built-in %s: a %s of --records cannot replace a built-in one; give it another name", what, name, prev, what, what)})
	}
	for _, name := range sortedKeys(user.Records) {
		r := user.Records[name]
		if prev, ok := builtin.Records[name]; ok {
			shadow("record", name, r.Pos, prev.Pos)
		}
		all.Records[name] = r
	}
	for _, name := range sortedKeys(user.Targets) {
		t := user.Targets[name]
		if prev, ok := builtin.Targets[name]; ok {
			shadow("target", name, t.Pos, prev.Pos)
		}
		all.Targets[name] = t
	}
	return all, errs
}

// isBuiltinFile reports whether the file at path is the built-in file
// builtin (named intrinsics/...): the same path inside a checkout.
func isBuiltinFile(path, builtin string) bool {
	abs, err := filepath.Abs(path)
	return err == nil && strings.HasSuffix(filepath.ToSlash(abs), "/"+builtin)
}

// read parses the built-in files (when builtin) and those in paths, each
// file once however often paths name it (a folder given twice, or a file
// and its folder).
func read(builtin bool, paths []string) (*Library, model.ErrorList) {
	lib := &Library{Targets: map[string]*model.Target{}, Records: map[string]*model.Record{}}
	var errs model.ErrorList
	add := func(file string, data []byte) {
		if err := lib.parseFile(file, data); err != nil {
			appendErr(&errs, err)
		}
	}
	if builtin {
		walkBuiltin(add)
	}
	cannotRead := func(path string, err error) {
		errs = append(errs, &model.Error{Pos: model.Pos{File: path}, Code: model.CodeUnknownName, Index: -1, Msg: fmt.Sprintf("cannot read: %v", err)})
	}
	seen := map[string]bool{}
	for _, root := range paths {
		st, err := os.Stat(root)
		if err != nil {
			cannotRead(root, err)
			continue
		}
		if !st.IsDir() && !strings.HasSuffix(root, ".toml") {
			cannotRead(root, fmt.Errorf("a record or target file ends in .toml"))
			continue
		}
		_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				cannotRead(path, err)
				return nil
			}
			if d.IsDir() || !strings.HasSuffix(path, ".toml") {
				return nil
			}
			if abs, err := filepath.Abs(path); err == nil {
				if seen[abs] {
					return nil
				}
				seen[abs] = true
			}
			data, err := tomlio.ReadFile(path) // refuses a file over tomlio.DefaultMaxInput bytes
			if err != nil {
				errs = append(errs, err.(*model.Error)) // ReadFile's errors are all *model.Error
				return nil
			}
			add(path, data)
			return nil
		})
	}
	return lib, errs
}

// walkBuiltin calls add with each built-in file, named
// intrinsics/vendor/name.toml, in the order of their names.
func walkBuiltin(add func(file string, data []byte)) {
	_ = fs.WalkDir(builtinFS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".toml") {
			return err
		}
		data, err := builtinFS.ReadFile(path)
		if err != nil {
			return err
		}
		add("intrinsics/"+path, data)
		return nil
	})
}

// resolveExtends completes every target of lib that extends another
// (looked up in all): what the target does not give comes from its base,
// and its records are added to the base's.
func (lib *Library) resolveExtends(all *Library) model.ErrorList {
	var errs model.ErrorList
	for _, name := range sortedKeys(lib.Targets) {
		t := lib.Targets[name]
		if t.Extends == "" {
			continue
		}
		base, ok := all.Targets[t.Extends]
		switch {
		case !ok:
			errs = append(errs, &model.Error{Pos: t.ExtendsPos, Code: model.CodeUnknownName, Index: -1,
				Msg: fmt.Sprintf("target %s extends %q, which no target file defines (known: %s)", t.Name, t.Extends, strings.Join(all.TargetNames(), ", "))})
			continue
		case base.Extends != "":
			errs = append(errs, &model.Error{Pos: t.ExtendsPos, Code: model.CodeBadValue, Index: -1,
				Msg: fmt.Sprintf("target %s extends %s, which itself extends %s: extend the base target directly", t.Name, base.Name, base.Extends)})
			continue
		}
		given := map[string]bool{}
		for _, k := range t.Given {
			given[k] = true
		}
		own := *t
		*t = *base
		t.Name, t.Pos, t.Extends, t.ExtendsPos, t.Given = own.Name, own.Pos, own.Extends, own.ExtendsPos, own.Given
		t.Records = slices.Clone(base.Records)
		t.RecordPos = slices.Clone(base.RecordPos)
		for i, r := range own.Records {
			if !slices.Contains(t.Records, r) {
				t.Records = append(t.Records, r)
				t.RecordPos = append(t.RecordPos, own.RecordPos[i])
			}
		}
		for _, f := range []struct {
			key      string
			dst, src any
		}{
			{"vendor", &t.Vendor, &own.Vendor}, {"source", &t.Source, &own.Source},
			{"subgroup_size", &t.SubgroupSize, &own.SubgroupSize}, {"max_subgroups", &t.MaxSubgroups, &own.MaxSubgroups},
			{"shared_memory", &t.SharedMemory, &own.SharedMemory}, {"banks", &t.Banks, &own.Banks},
			{"bank_bytes", &t.BankBytes, &own.BankBytes}, {"cost", &t.Weights, &own.Weights},
			{"tensor_memory_lanes", &t.TensorMemoryLanes, &own.TensorMemoryLanes},
			{"tensor_memory_columns", &t.TensorMemoryColumns, &own.TensorMemoryColumns},
			{"registers", &t.Registers, &own.Registers}, {"register_file", &t.RegisterFile, &own.RegisterFile},
			{"address_registers", &t.AddressRegisters, &own.AddressRegisters}, {"index_registers", &t.IndexRegisters, &own.IndexRegisters},
			{"predicate_registers", &t.PredicateRegisters, &own.PredicateRegisters}, {"thread_registers", &t.ThreadRegisters, &own.ThreadRegisters},
			{"reserved_registers", &t.ReservedRegisters, &own.ReservedRegisters},
			{"shuffle_transpositions", &t.ShuffleTranspositions, &own.ShuffleTranspositions},
			{"scaled_dot", &t.ScaledDot, &own.ScaledDot}, {"scaled_dot_why", &t.ScaledDotWhy, &own.ScaledDotWhy},
		} {
			if !given[f.key] {
				continue
			}
			switch d := f.dst.(type) {
			case *string:
				*d = *f.src.(*string)
			case *int:
				*d = *f.src.(*int)
			case *model.Weights:
				*d = *f.src.(*model.Weights)
			}
			if f.key == "registers" || f.key == "register_file" && !given["registers"] {
				t.RegistersPos = own.RegistersPos
			}
		}
	}
	return errs
}

// crossCheck checks lib's targets and records against each other, looking
// names up in all: every record a target offers exists and is written for
// the target's subgroup size.
func (lib *Library) crossCheck(all *Library) model.ErrorList {
	var errs model.ErrorList
	for _, name := range sortedKeys(all.Targets) {
		t := all.Targets[name]
		_, ownTarget := lib.Targets[name]
		for i, rn := range t.Records {
			r, ok := all.Records[rn]
			_, ownRecord := lib.Records[rn]
			switch {
			case !ok && ownTarget:
				errs = append(errs, &model.Error{Pos: t.Pos, Code: model.CodeUnknownName, Index: -1,
					Msg: fmt.Sprintf("target %s offers record %q, which no record file defines", t.Name, rn)})
			case !ok || !ownTarget && !ownRecord:
			case r.SubgroupSize != 0 && t.SubgroupSize != 0 && r.SubgroupSize != t.SubgroupSize && ownRecord:
				errs = append(errs, &model.Error{Pos: r.SubgroupPos, Code: model.CodeRecordSubgroup, Index: -1, Related: []model.Pos{t.Pos},
					Msg: fmt.Sprintf("record %s is written for subgroups of %d lanes, but target %s (%s), which offers it, has %d", r.Name, r.SubgroupSize, t.Name, t.Pos, t.SubgroupSize)})
			case r.SubgroupSize != 0 && t.SubgroupSize != 0 && r.SubgroupSize != t.SubgroupSize:
				errs = append(errs, &model.Error{Pos: t.RecordPos[i], Code: model.CodeRecordSubgroup, Index: -1, Related: []model.Pos{r.SubgroupPos},
					Msg: fmt.Sprintf("target %s has subgroups of %d lanes, but record %s (%s) is written for %d", t.Name, t.SubgroupSize, r.Name, r.SubgroupPos, r.SubgroupSize)})
			}
		}
	}
	return errs
}

// OfferedBy lists the targets that offer a record, sorted.
func (lib *Library) OfferedBy(record string) []string {
	var out []string
	for _, name := range lib.TargetNames() {
		if slices.Contains(lib.Targets[name].Records, record) {
			out = append(out, name)
		}
	}
	return out
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

// define adds a record or target under its name, or reports where the
// name was defined first.
func define[T any](root *tomlio.Table, defs map[string]T, what, name string, v T, posOf func(T) model.Pos) {
	if prev, ok := defs[name]; ok {
		root.Errorf("name", model.CodeDuplicate, "%s %q is also defined at %s", what, name, posOf(prev)).Related = []model.Pos{posOf(prev)}
		return
	}
	defs[name] = v
}

// parseFile reads one record or target file: a file with a [cost] table
// or subgroup limits is a target, one with a kind is a record.
func (lib *Library) parseFile(file string, data []byte) error {
	doc, err := tomlio.Parse(file, data)
	if err != nil {
		return err
	}
	root := doc.Root()
	if root.Has("kind") {
		r := parseRecord(root)
		define(root, lib.Records, "record", r.Name, r, func(r *model.Record) model.Pos { return r.Pos })
	} else {
		t := parseTarget(root)
		define(root, lib.Targets, "target", t.Name, t, func(t *model.Target) model.Pos { return t.Pos })
	}
	return doc.Err()
}

var targetKeys = []string{"name", "extends", "vendor", "source", "subgroup_size", "max_subgroups", "shared_memory", "banks", "bank_bytes",
	"tensor_memory_lanes", "tensor_memory_columns", "registers", "register_file", "address_registers", "index_registers", "predicate_registers", "thread_registers", "reserved_registers", "shuffle_transpositions", "scaled_dot", "scaled_dot_why", "records", "cost"}
var weightKeys = []string{"alu", "move", "shuffle", "sfu", "shared_wavefront", "barrier", "global_sector", "l1_sector", "issue"}

func parseTarget(root *tomlio.Table) *model.Target {
	root.Expect(targetKeys...)
	t := &model.Target{Pos: root.Pos("name")}
	t.Name, _ = root.String("name", true)
	var extends bool
	t.Extends, extends = root.String("extends", false)
	t.ExtendsPos = root.Pos("extends")
	req := !extends // a target that extends another takes what it does not give from it
	t.Vendor, _ = root.String("vendor", req)
	t.Source, _ = root.String("source", req)
	t.SubgroupSize, _ = root.Int("subgroup_size", req)
	t.MaxSubgroups, _ = root.Int("max_subgroups", req)
	t.SharedMemory, _ = root.Int("shared_memory", req)
	t.Banks, _ = root.Int("banks", req)
	t.BankBytes, _ = root.Int("bank_bytes", req)
	// Optional: tensor memory (NVIDIA sm_100), lanes and 32-bit columns.
	t.TensorMemoryLanes, _ = root.Int("tensor_memory_lanes", false)
	t.ShuffleTranspositions, _ = root.Int("shuffle_transpositions", false)
	t.TensorMemoryColumns, _ = root.Int("tensor_memory_columns", false)
	if root.Has("tensor_memory_lanes") != root.Has("tensor_memory_columns") {
		given, missing := "tensor_memory_lanes", "tensor_memory_columns"
		if !root.Has(given) {
			given, missing = missing, given
		}
		root.Errorf(given, model.CodeMissingKey, "a target with tensor memory gives both tensor_memory_lanes and tensor_memory_columns; %s is missing", missing)
	}
	parseRegisters(root, t)
	var scaled bool
	if t.ScaledDot, scaled = root.String("scaled_dot", false); scaled && t.ScaledDot != model.ScaledDotDecompose {
		root.Errorf("scaled_dot", model.CodeBadValue, "scaled_dot takes %q (a block-scaled product no record runs is read as an upcast of each side and a plain dot), found %q", model.ScaledDotDecompose, t.ScaledDot)
	}
	var why bool
	if t.ScaledDotWhy, why = root.String("scaled_dot_why", false); scaled != why && !root.Failed("scaled_dot") && !root.Failed("scaled_dot_why") {
		given, missing := "scaled_dot", "scaled_dot_why"
		if why {
			given, missing = missing, given
		}
		root.Errorf(given, model.CodeMissingKey, "a target gives scaled_dot and scaled_dot_why (why its hardware's block-scaled product is not planned) together; %s is missing", missing)
	}
	t.Records, _ = root.Strings("records", req)
	for i := range t.Records {
		t.RecordPos = append(t.RecordPos, root.PosAt("records", i))
	}
	for _, k := range targetKeys {
		if root.Has(k) {
			t.Given = append(t.Given, k)
		}
	}
	if c, ok := root.Sub("cost", req); ok {
		c.Expect(weightKeys...)
		get := func(key string) int64 {
			v, ok := c.Int(key, key != "l1_sector")
			if ok && v < 0 {
				c.Errorf(key, model.CodeBadValue, "a cost weight cannot be negative, found %d", v)
			}
			return int64(v)
		}
		t.Weights = model.Weights{ALU: get("alu"), Move: get("move"), Shuffle: get("shuffle"), SFU: get("sfu"),
			SharedWavefront: get("shared_wavefront"), Barrier: get("barrier"), GlobalSector: get("global_sector"), L1Sector: get("l1_sector"), Issue: get("issue")}
		switch {
		case !c.Has("l1_sector"):
			t.Weights.L1Sector = t.Weights.GlobalSector // no cache discount given: a repeat costs what the first read does
		case c.Failed("l1_sector") || c.Failed("global_sector"):
		case t.Weights.L1Sector > t.Weights.GlobalSector:
			c.Errorf("l1_sector", model.CodeBadValue, "a sector read again from L1 (l1_sector %d) cannot cost more than one read from L2 (global_sector %d)", t.Weights.L1Sector, t.Weights.GlobalSector)
		}
		c.CheckUnknown()
	}
	for _, k := range targetBounds {
		v := k.field(t)
		switch {
		case !root.Has(k.key) || root.Failed(k.key):
		case v < 1:
			root.Errorf(k.key, model.CodeBadValue, "%s must be positive (%s), found %d", k.key, k.what, v)
		case v > k.most:
			root.Errorf(k.key, model.CodeBadValue, "%s is %d, more than any GPU has (at most %d %s)", k.key, v, k.most, k.what)
		case k.pow2 && v&(v-1) != 0:
			root.Errorf(k.key, model.CodeNotPowerOfTwo, "%s %d is not a power of two (%s are a power of two on every GPU)", k.key, v, k.what)
		}
	}
	root.CheckUnknown()
	return t
}

// targetBounds are the invariants every real target's sizes hold: each
// is positive and at most what any GPU has, and those that hardware
// addresses by bits are powers of two. A target breaking one is refused
// where it is read (a subgroup of 0 lanes divided by zero in the search,
// a bank geometry no hardware has was priced).
var targetBounds = []struct {
	key   string
	field func(*model.Target) int
	most  int
	pow2  bool
	what  string
}{
	// Subgroups: 8 to 64 lanes on today's GPUs; lane ids are read bit by bit.
	{"subgroup_size", func(t *model.Target) int { return t.SubgroupSize }, 1024, true, "lanes per subgroup"},
	// A block holds at most 1024 lanes on every vendor.
	{"max_subgroups", func(t *model.Target) int { return t.MaxSubgroups }, 1024, false, "subgroups per block"},
	// 228 KiB on NVIDIA sm_90 and sm_100, the most any target gives.
	{"shared_memory", func(t *model.Target) int { return t.SharedMemory }, 1 << 24, false, "bytes of shared memory per block"},
	// Shared memory banks: 16, 32 or 64 of 4 (8 on NVIDIA Kepler) bytes;
	// an address's bank is read from its bits.
	{"banks", func(t *model.Target) int { return t.Banks }, 128, true, "shared memory banks"},
	{"bank_bytes", func(t *model.Target) int { return t.BankBytes }, 16, true, "bytes per bank"},
	// NVIDIA sm_100: 128 lanes of 512 32-bit columns.
	{"tensor_memory_lanes", func(t *model.Target) int { return t.TensorMemoryLanes }, 1024, true, "tensor memory lanes"},
	{"tensor_memory_columns", func(t *model.Target) int { return t.TensorMemoryColumns }, 1 << 16, true, "tensor memory columns"},
	// A lane's registers and a subgroup's lanes are at most 2^10 each, so
	// no conversion within a subgroup exchanges more than 10 digits.
	{"shuffle_transpositions", func(t *model.Target) int { return t.ShuffleTranspositions }, 10, false, "register digits moved into lanes"},
}

// Bounds on a target's registers: no GPU gives a lane more than 1024
// 32-bit registers (AMD CDNA: 512 with the accumulation registers), nor a
// block more than 2^20; a larger number is a typo.
const (
	maxRegisters    = 1024
	maxRegisterFile = 1 << 20
	// No GPU address or index is wider than 64 bits: two 32-bit registers.
	maxAddressRegisters = 2
	// No GPU gives a thread more than 64 predicate registers (NVIDIA
	// SASS: 7), and no kernel keeps more than 16 registers of its own
	// throughout; more is a typo.
	maxPredicateRegisters = 64
	maxThreadRegisters    = 16
)

// parseRegisters reads the optional register budget: registers per lane
// and the register file a block's subgroups share.
func parseRegisters(root *tomlio.Table, t *model.Target) {
	t.Registers, _ = root.Int("registers", false)
	t.RegisterFile, _ = root.Int("register_file", false)
	t.AddressRegisters, _ = root.Int("address_registers", false)
	t.IndexRegisters, _ = root.Int("index_registers", false)
	t.PredicateRegisters, _ = root.Int("predicate_registers", false)
	t.ThreadRegisters, _ = root.Int("thread_registers", false)
	t.ReservedRegisters, _ = root.Int("reserved_registers", false)
	t.RegistersPos = root.Pos("registers")
	if !root.Has("registers") {
		t.RegistersPos = root.Pos("register_file")
	}
	for _, k := range []struct {
		key      string
		v, limit int
		what     string
	}{{"registers", t.Registers, maxRegisters, "32-bit registers per lane"}, {"register_file", t.RegisterFile, maxRegisterFile, "32-bit registers per block"},
		{"address_registers", t.AddressRegisters, maxAddressRegisters, "32-bit registers per global address"},
		{"index_registers", t.IndexRegisters, maxAddressRegisters, "32-bit registers per index"},
		{"predicate_registers", t.PredicateRegisters, maxPredicateRegisters, "predicate registers per lane"},
		{"thread_registers", t.ThreadRegisters, maxThreadRegisters, "32-bit registers every kernel keeps"},
		{"reserved_registers", t.ReservedRegisters, maxThreadRegisters, "32-bit registers counted and never named"}} {
		switch {
		case !root.Has(k.key) || root.Failed(k.key):
		case k.v < 1:
			root.Errorf(k.key, model.CodeBadValue, "%s must be positive (%s), found %d", k.key, k.what, k.v)
		case k.v > k.limit:
			root.Errorf(k.key, model.CodeBadValue, "%s is %d, more than any GPU gives (at most %d %s)", k.key, k.v, k.limit, k.what)
		}
	}
	if t.Registers > 0 && t.RegisterFile > 0 && t.SubgroupSize > 0 && t.RegisterFile < t.Registers*t.SubgroupSize {
		root.Errorf("register_file", model.CodeBadValue, "register_file %d cannot hold one subgroup of %d lanes at registers = %d (%d registers)",
			t.RegisterFile, t.SubgroupSize, t.Registers, t.Registers*t.SubgroupSize)
	}
}

var recordKeys = []string{"name", "kind", "vendor", "instruction", "source", "notes", "subgroup_size", "subgroups",
	"shape", "blocks", "cost", "matrices", "trans", "transform", "a", "b", "c", "d", "fragment", "memory",
	"scale_vec", "scale_a", "scale_b"}

var operandKeys = []string{"dtype", "shape", "layout", "registers", "duplicated", "in", "specified", "family", "lanes"}

// memoryKeys lists the keys each memory rule takes besides "rule".
var memoryKeys = map[string][]string{
	"row_pointers":    {"row_bytes", "alignment"},
	"constant_stride": {"stride_multiple", "alignment", "row_bytes"},
	"swizzle":         {"modes", "majors", "alignment"},
	"vector":          {"bytes", "alignment"},
	"block_2d": {"base_alignment", "pitch_min", "pitch_max", "pitch_multiple", "width_min", "width_max",
		"width_multiple", "height_max", "x_alignment", "block_width_bytes", "block_height", "array_length"},
	"tensor_memory": {"warp_lanes"},
}

var memoryRules = []string{"row_pointers", "constant_stride", "swizzle", "vector", "block_2d", "tensor_memory"}

func parseRecord(root *tomlio.Table) *model.Record {
	root.Expect(recordKeys...)
	r := &model.Record{File: root.Pos("").File, Pos: root.Pos("name"), Operands: map[string]*model.Operand{}}
	r.Name, _ = root.String("name", true)
	kind, _ := root.String("kind", true)
	r.Kind = model.RecordKind(kind)
	r.Vendor, _ = root.String("vendor", true)
	r.Instruction, _ = root.String("instruction", true)
	r.Source, _ = root.String("source", true)
	r.Notes, _ = root.String("notes", false)
	// An FMA runs in every lane on its own elements, for any subgroup
	// size, and is priced by the target's alu weight: it has neither.
	perLane := r.Kind == model.RecordFMA
	// A kind already reported leaves which keys are required unknown:
	// none is reported missing over a guess.
	need := !perLane && !root.Failed("kind")
	r.SubgroupSize, _ = root.Int("subgroup_size", need)
	r.SubgroupPos = root.Pos("subgroup_size")
	if root.Has("subgroup_size") && !root.Failed("subgroup_size") && (r.SubgroupSize < 1 || r.SubgroupSize&(r.SubgroupSize-1) != 0 || r.SubgroupSize > 1024) {
		root.Errorf("subgroup_size", model.CodeNotPowerOfTwo, "a subgroup size is a power of two from 1 to 1024, found %d", r.SubgroupSize)
		r.SubgroupSize = 0
	}
	r.Subgroups = 1
	if v, ok := root.Int("subgroups", false); root.Failed("subgroups") {
		r.Subgroups = 0 // reported; the operands' layouts are not read over a guess
	} else if ok {
		r.Subgroups = 0 // unless it is good: the layouts are not read over a guess
		switch {
		case v < 1 || v > 64:
			root.Errorf("subgroups", model.CodeBadValue, "subgroups is from 1 to 64, found %d", v)
		case v&(v-1) != 0:
			root.Errorf("subgroups", model.CodeNotPowerOfTwo, "subgroups = %d is not a power of two: a layout gives each bit of the subgroup id a basis, so a record spans 1, 2, 4, ... subgroups", v)
		default:
			r.Subgroups = v
		}
	}
	cost, _ := root.Int("cost", need)
	r.Cost = int64(cost)
	if root.Has("cost") && cost < 0 {
		root.Errorf("cost", model.CodeBadValue, "cost cannot be negative, found %d", cost)
	}
	complete := false
	switch r.Kind {
	case model.RecordMMA:
		complete = parseMMA(root, r)
	case model.RecordFMA:
		complete = parseFMA(root, r)
	case model.RecordLoadShared, model.RecordStoreShared, model.RecordLoadGlobal, model.RecordStoreGlobal,
		model.RecordLoadTensorMemory, model.RecordStoreTensorMemory:
		parseMove(root, r)
		complete = true
	case "":
	default:
		root.Errorf("kind", model.CodeUnknownName, "unknown record kind %q (expected %s)", kind, kindList())
	}
	if complete {
		root.CheckUnused("a " + kind + " record")
		root.CheckUnknown()
	} else {
		root.CheckNotKnown()
	}
	return r
}

func kindList() string {
	var names []string
	for _, k := range model.RecordKinds {
		names = append(names, string(k))
	}
	return strings.Join(names, ", ")
}

// parseOperand reads one operand table; shape is the shape the record
// implies (nil for a fragment, which gives its own).
func parseOperand(root *tomlio.Table, r *model.Record, name string, shape []int) *model.Operand {
	t, ok := root.Sub(name, true)
	if !ok {
		return nil
	}
	t.Expect(operandKeys...)
	op := &model.Operand{Name: name, Shape: shape, Pos: t.Pos("")}
	if dt, ok := t.String("dtype", true); ok {
		d, known := model.ParseDType(dt)
		if !known {
			t.Errorf("dtype", model.CodeUnknownName, "unknown element type %q", dt)
		}
		op.DType = d
	}
	if given, ok := t.Ints("shape", shape == nil); ok {
		switch {
		case shape == nil:
			op.Shape = given
		case !slices.Equal(given, shape):
			t.Errorf("shape", model.CodeRecordShape, "operand %s of an mma of shape [M, N, K] = [%d, %d, %d] is %v, found %v", name, r.M, r.N, r.K, shape, given)
		}
	}
	op.Registers, _ = t.Int("registers", false)
	if t.Has("registers") && !t.Failed("registers") && op.Registers < 1 {
		t.Errorf("registers", model.CodeBadValue, "registers must be positive, found %d", op.Registers)
	}
	op.Duplicated, _ = t.Bool("duplicated", false)
	specified := true
	if t.Has("specified") {
		specified, _ = t.Bool("specified", false)
	}
	op.Unspecified = !specified
	if specified && t.Has("family") {
		t.Errorf("family", model.CodeUnknownKey, "operand %s has a layout: family names the fragment of an operand with specified = false", name)
	}
	placeKnown := true
	if in, ok := t.String("in", false); ok {
		switch in {
		case "registers":
		case "shared":
			op.Shared = true
		case "tensor_memory":
			op.TensorMemory = true
		default:
			t.Errorf("in", model.CodeUnknownName, "an operand is in \"registers\", \"shared\" or \"tensor_memory\", found %q", in)
			placeKnown = false
		}
	}
	if t.Failed("in") {
		placeKnown = false
	}
	lanes := fragmentLanes(t, r, name)
	lt, hasLayout := t.Sub("layout", false)
	inMemory := op.Shared || op.TensorMemory
	switch {
	case !placeKnown: // where it lives is unknown: so is whether it needs a layout
	case op.Shared && hasLayout:
		t.Errorf("layout", model.CodeUnknownKey, "operand %s is read from shared memory: it has no register layout (its [memory] rule says what it accepts)", name)
	case op.TensorMemory && hasLayout:
		t.Errorf("layout", model.CodeUnknownKey, "operand %s lives in tensor memory: it has no register layout (tcgen05.ld and tcgen05.st records move it to and from registers)", name)
	case !hasLayout && !inMemory && specified:
		t.Errorf("layout", model.CodeMissingKey, "operand %s needs a [%s.layout] table (or specified = false when the architecture leaves it unspecified)", name, name)
	case !specified && !inMemory && t.Has("family"):
		standIn(t, op, r)
	case hasLayout && op.Shape != nil && r.SubgroupSize > 0 && r.Subgroups > 0 && !t.Failed("lanes"):
		f := model.Frame{Shape: op.Shape, SubgroupSize: lanes, Subgroups: r.Subgroups}
		if err := f.Check(); err != nil {
			t.Report(err)
			break
		}
		op.Notation, op.Layout = tomlio.DecodeLayout(lt, f)
		checkOperandLayout(t, op)
	}
	t.CheckUnknown()
	return op
}

// fragmentLanes is how many lanes an operand's layout covers: the
// subgroup, or for a load's [fragment] the group of lanes its optional
// lanes key names (a power of two dividing the subgroup): the instruction
// fixes what each group of that many lanes receives, and where each group
// reads is up to its lanes' addresses, so the groups above it repeat the
// fragment as its registers do (ds_read_b64_tr_b16: 16 lanes).
func fragmentLanes(t *tomlio.Table, r *model.Record, name string) int {
	n, ok := t.Int("lanes", false)
	switch {
	case !ok:
		return r.SubgroupSize
	case name != "fragment":
		t.Errorf("lanes", model.CodeUnknownKey, "lanes is a key of a load's [fragment], not of operand %s", name)
	case n < 1 || n&(n-1) != 0 || r.SubgroupSize%n != 0:
		t.Errorf("lanes", model.CodeBadValue, "lanes is a power of two dividing the subgroup size %d, found %d", r.SubgroupSize, n)
	case n < r.SubgroupSize && r.Memory.Rule != "row_pointers":
		t.Errorf("lanes", model.CodeRecordMemory, "a fragment of %d of the %d lanes leaves the other groups' places to their addresses: it needs the row_pointers rule (an address per lane), not %q", n, r.SubgroupSize, r.Memory.Rule)
		return n // the layout is still read over the lanes it states
	default:
		return n
	}
	return r.SubgroupSize
}

// standIn gives an operand whose layout the architecture leaves
// unspecified the stand-in layout of the family it names: the records
// that name one family (a wmma.load, the wmma.mma reading it) make and
// take the same opaque fragment, which nothing else reads and no
// conversion reaches. An unspecified operand naming no family has no
// layout: no value can be planned in it.
func standIn(t *tomlio.Table, op *model.Operand, r *model.Record) {
	family, ok := t.String("family", true)
	if !ok || op.Shape == nil || r.SubgroupSize <= 0 || op.DType.Bits <= 0 {
		return
	}
	if op.Registers < 1 {
		if t.Failed("registers") {
			return
		}
		t.Errorf("registers", model.CodeMissingKey, "operand %s is unspecified: it needs registers (32-bit registers per lane) to size its fragment", op.Name)
		return
	}
	l, err := model.StandIn(family, op.Shape, op.Registers*32/op.DType.Bits, r.SubgroupSize)
	if err != nil {
		t.Report(err)
		return
	}
	op.Layout = l
}

// checkOperandLayout applies the record rules an operand's layout must
// keep: every element held once unless duplication is declared, and the
// registers agreeing with the values per lane and the element width.
func checkOperandLayout(t *tomlio.Table, op *model.Operand) {
	l := op.Layout
	if l == nil {
		return
	}
	dup := l.Duplicated()
	switch {
	case t.Failed("duplicated"): // reported: whether it should be is unknown
	case dup && !op.Duplicated:
		t.Errorf("layout", model.CodeRecordCoverage, "operand %s's layout holds some element in more than one place; declare duplicated = true if the instruction requires it", op.Name)
	case !dup && op.Duplicated:
		t.Errorf("duplicated", model.CodeRecordCoverage, "operand %s is declared duplicated but its layout holds every element exactly once", op.Name)
	}
	bits := op.DType.Bits
	if op.Registers > 0 && bits > 0 {
		values := l.Size(model.Register)
		if values*bits != op.Registers*32 {
			t.Errorf("registers", model.CodeRecordPacking, "operand %s holds %d %s values per lane, %d bits, which is not %d 32-bit registers", op.Name, values, op.DType.Name, values*bits, op.Registers)
		}
	}
}

func parseMMA(root *tomlio.Table, r *model.Record) bool {
	shape, ok := root.Ints("shape", true)
	if ok && len(shape) != 3 {
		root.Errorf("shape", model.CodeRankMismatch, "an mma shape is [M, N, K], found %d entries", len(shape))
		ok = false
	}
	for i, v := range shape {
		if ok && (v < 1 || v > 1024) {
			root.ErrorfAt("shape", i, model.CodeBadValue, "an mma extent is from 1 to 1024, found %d", v)
			ok = false
		}
	}
	r.Blocks = 1
	if v, has := root.Int("blocks", false); has {
		if v < 1 || v > 64 {
			root.Errorf("blocks", model.CodeBadValue, "blocks is from 1 to 64, found %d", v)
			ok = false
		}
		r.Blocks = v
	}
	if !ok || root.Failed("blocks") {
		return false
	}
	r.M, r.N, r.K = shape[0], shape[1], shape[2]
	for _, n := range []string{"a", "b", "c", "d"} {
		if op := parseOperand(root, r, n, r.OperandShape(n)); op != nil {
			r.Operands[n] = op
		}
	}
	if c, d := r.Operands["c"], r.Operands["d"]; c != nil && d != nil && c.Layout != nil && d.Layout != nil && !c.Layout.Equal(d.Layout) {
		root.Errorf("d", model.CodeBadValue, "the accumulator's input c and output d have different layouts; the planner chains accumulators in one layout")
	}
	if c, d := r.Operands["c"], r.Operands["d"]; c != nil && d != nil && c.TensorMemory != d.TensorMemory && !root.Failed("c.in") && !root.Failed("d.in") {
		root.Errorf("d", model.CodeBadValue, "the accumulator's input c and output d live in different places; both are in tensor memory or neither")
	}
	parseScales(root, r)
	for _, n := range []string{"c", "d"} {
		if op := r.Operands[n]; op != nil && op.Shared {
			root.Errorf(n, model.CodeBadValue, "the accumulator %s cannot be read from shared memory", n)
		}
	}
	if r.Operands["a"] != nil && r.Operands["a"].Shared || r.Operands["b"] != nil && r.Operands["b"].Shared {
		if !root.Has("memory") {
			root.Errorf("memory", model.CodeMissingKey, "an operand in shared memory needs a [memory] table saying what layouts the instruction accepts")
		}
	}
	if root.Has("memory") {
		parseMemory(root, r)
	}
	return true
}

// parseScales reads a block-scaled mma's scale_vec and its scale_a and
// scale_b operand tables, which come together: scale_a is M×scale_vec and
// scale_b scale_vec×N (PTX ISA, "Block Scaling for mma.sync", table
// "Shapes for scale matrices depending upon .scale_vec_size qualifier").
func parseScales(root *tomlio.Table, r *model.Record) {
	given := []string{}
	for _, k := range []string{"scale_vec", "scale_a", "scale_b"} {
		if root.Has(k) {
			given = append(given, k)
		}
	}
	if len(given) == 0 {
		return
	}
	// Read on failure too, so that one broken scale is one finding.
	skip := func() { root.Skip("scale_vec", "scale_a", "scale_b") }
	for _, k := range []string{"scale_vec", "scale_a", "scale_b"} {
		if !root.Has(k) {
			root.Errorf(given[0], model.CodeMissingKey, "a block-scaled mma gives scale_vec, [scale_a] and [scale_b] together; %s is missing", k)
			skip()
			return
		}
	}
	v, ok := root.Int("scale_vec", true)
	switch {
	case !ok:
		skip()
		return
	case v != 1 && v != 2 && v != 4:
		root.Errorf("scale_vec", model.CodeBadValue, "scale_vec is 1, 2 or 4 (.scale_vec::1X, 2X, 4X), found %d", v)
		skip()
		return
	case r.K%v != 0:
		root.Errorf("scale_vec", model.CodeRecordShape, "scale_vec %d does not divide K = %d into blocks", v, r.K)
		skip()
		return
	}
	r.ScaleVec = v
	for _, n := range []string{"scale_a", "scale_b"} {
		if op := parseOperand(root, r, n, r.OperandShape(n)); op != nil {
			if op.Shared || op.TensorMemory {
				root.Errorf(n, model.CodeBadValue, "the scale operand %s of an mma.sync is read from registers", n)
			}
			r.Operands[n] = op
		}
	}
}

func parseMove(root *tomlio.Table, r *model.Record) {
	r.Matrices = 1
	if v, ok := root.Int("matrices", false); ok {
		if v < 1 || v > 64 {
			root.Errorf("matrices", model.CodeBadValue, "matrices is from 1 to 64, found %d", v)
		} else {
			r.Matrices = v
		}
	}
	r.Trans, _ = root.Bool("trans", false)
	r.Transform = "none"
	if v, ok := root.String("transform", false); ok {
		switch v {
		case "none", "transpose", "vnni":
			r.Transform = v
		default:
			root.Errorf("transform", model.CodeUnknownName, "unknown transform %q (expected none, transpose or vnni)", v)
		}
	}
	parseMemory(root, r)
	if tm := r.Kind.TensorMemory(); r.Memory.Rule != "" && tm != (r.Memory.Rule == "tensor_memory") {
		if tm {
			root.Errorf("memory", model.CodeRecordMemory, "a %s record moves tensor memory: its memory rule is tensor_memory, found %s", r.Kind, r.Memory.Rule)
		} else {
			root.Errorf("memory", model.CodeRecordMemory, "the tensor_memory rule is for load_tensor_memory and store_tensor_memory records, not %s", r.Kind)
		}
	}
	if r.Memory.Rule == "" && root.Has("memory") {
		// The rule is wrong, and reported: whether the record has a
		// fragment, and of which rows, is unknown.
		root.Skip("fragment")
	} else if r.Memory.Rule == "vector" {
		if root.Has("fragment") {
			root.Errorf("fragment", model.CodeUnknownKey, "a vector access has no fixed fragment: each lane moves its own bytes")
			root.Sub("fragment", false)
		}
	} else {
		r.Fragment = parseOperand(root, r, "fragment", nil)
	}
	f := r.Fragment
	if f != nil && len(f.Shape) == 2 && f.DType.Bits > 0 && r.Memory.Rule == "row_pointers" && r.Memory.RowBytes > 0 {
		if rb := f.Shape[1] * f.DType.Bits / 8; rb != r.Memory.RowBytes && !r.Trans && !root.Failed("trans") {
			root.Errorf("memory", model.CodeRecordShape, "a fragment row is %d x %d bits = %d bytes, but the memory rule gives rows of %d bytes", f.Shape[1], f.DType.Bits, rb, r.Memory.RowBytes)
		}
	}
}

// parseMemory reads the [memory] table: the rule and its own keys.
func parseMemory(root *tomlio.Table, r *model.Record) {
	m, ok := root.Sub("memory", true)
	if !ok {
		return
	}
	r.Memory.Pos = m.Pos("")
	rule, ok := m.String("rule", true)
	if !ok {
		if m.Failed("rule") { // the keys of the rule meant are not unknown
			for _, keys := range memoryKeys {
				m.Skip(keys...)
			}
		}
		m.CheckUnknown()
		return
	}
	keys, known := memoryKeys[rule]
	if !known {
		m.Errorf("rule", model.CodeRecordMemory, "unknown memory rule %q (expected %s)", rule, strings.Join(memoryRules, ", "))
		return
	}
	r.Memory.Rule = rule
	m.Expect(append([]string{"rule"}, keys...)...)
	positive := func(key string, required bool) int {
		v, ok := m.Int(key, required)
		if ok && v < 1 {
			m.Errorf(key, model.CodeRecordMemory, "%s must be positive, found %d", key, v)
			return 0
		}
		return v
	}
	pow2 := func(key string, required bool) int {
		v := positive(key, required)
		if v > 0 && v&(v-1) != 0 {
			m.Errorf(key, model.CodeRecordMemory, "%s must be a power of two, found %d", key, v)
			return 0
		}
		return v
	}
	mem := &r.Memory
	switch rule {
	case "row_pointers":
		mem.RowBytes = positive("row_bytes", true)
		mem.Alignment = pow2("alignment", true)
	case "constant_stride":
		mem.StrideMultiple = positive("stride_multiple", true)
		mem.Alignment = pow2("alignment", true)
		// Optional: the rows the instruction is counted as reading, one
		// per lane pointer, when the architecture does not say how it
		// reads (wmma.load); without it its conflicts are not counted.
		mem.RowBytes = pow2("row_bytes", false)
	case "swizzle":
		mem.Modes, _ = m.Strings("modes", true)
		if m.Has("modes") && !m.Failed("modes") && len(mem.Modes) == 0 {
			m.Errorf("modes", model.CodeRecordMemory, "a swizzle rule names at least one mode (%s)", strings.Join(model.SwizzleModes, ", "))
		}
		first := map[string]int{} // each mode's first entry
		for i, mode := range mem.Modes {
			j, seen := first[mode]
			switch {
			case !slices.Contains(model.SwizzleModes, mode):
				m.ErrorfAt("modes", i, model.CodeRecordMemory, "unknown swizzle mode %q (expected %s)", mode, strings.Join(model.SwizzleModes, ", "))
			case seen:
				m.ErrorfAt("modes", i, model.CodeRecordMemory, "swizzle mode %q is listed twice", mode).Related = []model.Pos{m.PosAt("modes", j)}
			}
			if !seen {
				first[mode] = i
			}
		}
		mem.Majors, _ = m.Strings("majors", false)
		for i, major := range mem.Majors {
			if major != "k" && major != "mn" {
				m.ErrorfAt("majors", i, model.CodeRecordMemory, "unknown major %q (expected k or mn)", major)
			}
		}
		mem.Alignment = pow2("alignment", true)
	case "vector":
		mem.Bytes = pow2("bytes", true)
		mem.Alignment = pow2("alignment", true)
		if mem.Bytes > 0 && mem.Alignment > mem.Bytes {
			m.Errorf("alignment", model.CodeRecordMemory, "an alignment of %d bytes is more than the %d bytes accessed", mem.Alignment, mem.Bytes)
		}
	case "block_2d":
		b := &mem.Block2D
		b.BaseAlignment = pow2("base_alignment", true)
		b.PitchMin = positive("pitch_min", true)
		b.PitchMax = positive("pitch_max", true)
		b.PitchMultiple = positive("pitch_multiple", true)
		b.WidthMin = positive("width_min", true)
		b.WidthMax = positive("width_max", true)
		b.WidthMultiple = positive("width_multiple", true)
		b.HeightMax = positive("height_max", true)
		b.XAlignment = positive("x_alignment", true)
		b.BlockWidthBytes = positive("block_width_bytes", true)
		b.BlockHeight = positive("block_height", true)
		b.ArrayLength = pow2("array_length", true)
		if b.PitchMax > 0 && b.PitchMin > b.PitchMax {
			m.Errorf("pitch_max", model.CodeRecordMemory, "pitch_max %d is below pitch_min %d", b.PitchMax, b.PitchMin)
		}
		if b.WidthMax > 0 && b.WidthMin > b.WidthMax {
			m.Errorf("width_max", model.CodeRecordMemory, "width_max %d is below width_min %d", b.WidthMax, b.WidthMin)
		}
	case "tensor_memory":
		mem.WarpLanes = pow2("warp_lanes", true)
	}
	if mem.Rule == "row_pointers" && mem.Alignment > 0 && mem.RowBytes > 0 && mem.Alignment > mem.RowBytes {
		m.Errorf("alignment", model.CodeRecordMemory, "an alignment of %d bytes is more than the %d-byte rows", mem.Alignment, mem.RowBytes)
	}
	m.CheckUnknown()
}
