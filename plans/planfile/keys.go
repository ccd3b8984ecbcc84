package planfile

import "strings"

// Check is how a replay stands behind a key of a plan file. No key is
// believed: a choice is read back into the assignment and replayed, a
// claim is recomputed from the choices and must be what the file says,
// and an identity key says which entry of the graph a table is about.
type Check int

const (
	// Choice: read into the assignment (a layout, a record, an
	// arrangement, a placement) and replayed element by element.
	Choice Check = iota
	// Claim: recomputed from the choices by the model and compared with
	// the file; a difference names the key.
	Claim
	// Identity: names the value, op, use or buffer access a table is
	// about; a name the graph (or the replay) lacks is refused.
	Identity
	// Layout: a table holding a layout in layout-file form
	// (docs/layouts.md): every key under it is part of one choice, read
	// as a layout file is read and replayed as a whole.
	Layout
	// Table: a table or a table of named entries, with keys of its own.
	Table
)

func (c Check) String() string {
	return [...]string{"choice", "claim", "identity", "layout", "table"}[c]
}

// Key is one key a plan file may carry, and what checks it.
type Key struct {
	// Path is the key's dotted path: * stands for an entry's name
	// ([values."a"] is values.*), [] for an entry of an array of tables
	// ([[conversions]] is conversions[]).
	Path  string
	Check Check
	// What says what checks the key; docs/verify.md lists it.
	What string
}

// Keys is every key a plan file may carry: Write writes no other, Read
// reads no other (each table's keys are taken from here), and the
// replay checks each as What says. A key added to the writer must be
// added here, or reading the plan back refuses it.
var Keys = []Key{
	{"file", Choice, "the graph is read from it; its bytes must hash to graph_sha256"},
	{"graph_sha256", Choice, "must be the SHA-256 of the graph's bytes"},
	{"target", Choice, "must be the graph's target"},
	{"subgroups", Claim, "must be the graph's subgroups"},
	{"notation", Choice, "must be a notation the planner writes; every layout string is checked in it"},
	{"status", Claim, "one of optimal, feasible, greedy; optimal exactly when lower_bound = cost"},
	{"cost", Claim, "the sum of the ops', conversions' and spills' costs, recomputed"},
	{"lower_bound", Claim, "from 0 to the cost; equal to the cost when the status is optimal"},
	{"max_conversions", Choice, "the bound on conversions the plan was solved under, where the graph or the solve set one (\"none\": the solve lifted the graph's): the graph is read with it, and the replay refuses a plan with more conversions"},
	{"shared_memory", Table, "the shared memory the plan uses: the keys below"},
	{"shared_memory.buffers", Claim, "the bytes of the graph's buffers as placed, recomputed"},
	{"shared_memory.scratch", Claim, "the largest scratch of a shared-memory conversion, recomputed"},
	{"shared_memory.budget", Claim, "the graph's budget, or the target's shared memory"},
	{"registers", Table, "the registers per lane the values hold at their peak: the keys below"},
	{"registers.peak", Claim, "the most 32-bit registers per lane the values live at one program point hold, recomputed from the layouts"},
	{"registers.at", Claim, "the program point of the peak, recomputed"},
	{"registers.budget", Claim, "the target's registers per lane for the graph's subgroups"},
	{"registers.over", Claim, "how far the peak exceeds the budget, where the graph allows spilling"},
	{"registers.spill_cost", Claim, "the price of the registers over the budget at the dearest program point, counted in the cost, recomputed"},
	{"buffers", Table, "one table per placed buffer, by name"},
	{"buffers.*", Table, "every accessed two-dimensional buffer of the graph, once"},
	{"buffers.*.shape", Claim, "the buffer's shape in the graph"},
	{"buffers.*.dtype", Claim, "the buffer's element type in the graph"},
	{"buffers.*.placement", Claim, "written again from the placement keys"},
	{"buffers.*.layout", Claim, "written again from the placement keys"},
	{"buffers.*.formula", Claim, "written again from the placement keys"},
	{"buffers.*.bytes", Claim, "recomputed from the placement"},
	{"buffers.*.row_stride", Choice, "the placement: replayed by the load records' memory rules and every access's bank conflicts"},
	{"buffers.*.pad", Choice, "the placement: replayed by the load records' memory rules and every access's bank conflicts"},
	{"buffers.*.pad_every", Choice, "the placement: replayed by the load records' memory rules and every access's bank conflicts"},
	{"buffers.*.swizzle", Choice, "the placement: replayed by the load records' memory rules and every access's bank conflicts"},
	{"buffers.*.xor", Choice, "the placement: replayed by the load records' memory rules and every access's bank conflicts"},
	{"buffers.*.accesses[]", Table, "every access the replay makes, once"},
	{"buffers.*.accesses[].op", Identity, "an op the replay finds accessing the buffer"},
	{"buffers.*.accesses[].access", Identity, "read or write, as that op accesses the buffer"},
	{"buffers.*.accesses[].method", Claim, "written again from the access"},
	{"buffers.*.accesses[].instructions", Claim, "recomputed from the layout and the placement"},
	{"buffers.*.accesses[].wavefronts", Claim, "recomputed from the layout and the placement"},
	{"buffers.*.accesses[].ideal", Claim, "recomputed from the layout and the placement"},
	{"buffers.*.accesses[].conflicts", Claim, "recomputed from the layout and the placement"},
	{"values", Table, "one table per value, by name"},
	{"values.*", Table, "every value of the graph, once"},
	{"values.*.shape", Claim, "the value's shape in the graph"},
	{"values.*.dtype", Claim, "the value's element type in the graph"},
	{"values.*.notation", Claim, "the notation the layout string is written in, written again"},
	{"values.*.layout", Claim, "the exact layout written again in the plan's notation"},
	{"values.*.exact", Layout, "replayed: holds every element; ties to its producer and consumers; fragments of the records"},
	{"ops", Table, "one table per op, by name"},
	{"ops.*", Table, "every op of the graph, once"},
	{"ops.*.kind", Claim, "the op's kind in the graph"},
	{"ops.*.cost", Claim, "recomputed from the op's layouts and choice"},
	{"ops.*.intrinsic", Choice, "a record of the target for this kind of op; its fragments and memory rule are replayed"},
	{"ops.*.warps", Claim, "written again from the arrangement"},
	{"ops.*.layout", Claim, "the exec layout written again in the plan's notation"},
	{"ops.*.method", Claim, "written again from the op's choice"},
	{"ops.*.lanes", Claim, "recomputed from the exec layout of the reduction"},
	{"ops.*.subgroups", Claim, "recomputed from the exec layout of the reduction"},
	{"ops.*.warps_m", Choice, "the arrangement: every subgroup must hold the tiles of A, B, C and D its place gives"},
	{"ops.*.warps_n", Choice, "the arrangement: every subgroup must hold the tiles of A, B, C and D its place gives"},
	{"ops.*.warps_b", Choice, "a batched mma's warps along the batch, above warps_m × warps_n; the batch's matrices each run on the record's fragments"},
	{"ops.*.n_first", Choice, "the arrangement: every subgroup must hold the tiles of A, B, C and D its place gives"},
	{"ops.*.outer", Choice, "the arrangement: every subgroup must hold the tiles of A, B, C and D its place gives"},
	{"ops.*.blocks_along", Choice, "the view of a multi-block record; its fragments are replayed"},
	{"ops.*.transposed", Choice, "the record runs on Bᵀ and Aᵀ: A replayed against the record's B fragment, B against its A, coordinates reversed"},
	{"ops.*.k_order", Choice, "A and B replayed against the record's fragments with K renumbered by this permutation of the K bits, the same for both; each operand's own K order is derived from its layout and must be this one"},
	{"ops.*.k_width", Choice, "A and B replayed against the same interleaving of K at this kWidth; a multiple of the record's own; each operand's own K order is derived from its layout against that interleaving, and the two must agree"},
	{"ops.*.exec", Layout, "replayed: the layout the op runs in, tied to its operands and result"},
	{"conversions[]", Table, "every use the replay converts, once"},
	{"conversions[].value", Identity, "with consumer and operand: a use of the graph"},
	{"conversions[].consumer", Identity, "with value and operand: a use of the graph"},
	{"conversions[].operand", Identity, "with value and consumer: a use of the graph"},
	{"conversions[].kind", Claim, "recomputed, then replayed element by element"},
	{"conversions[].cost", Claim, "recomputed"},
	{"conversions[].free", Claim, "recomputed"},
	{"conversions[].detail", Claim, "written again from the conversion"},
	{"conversions[].because", Claim, "written again from the consumer"},
	{"conversions[].why", Claim, "written again from the conversion"},
	{"conversions[].words", Claim, "recomputed, then replayed"},
	{"conversions[].moves", Claim, "recomputed"},
	{"conversions[].rounds", Claim, "recomputed, then replayed round by round"},
	{"conversions[].scratch_bytes", Claim, "recomputed, then replayed through the scratch"},
	{"conversions[].scratch_order", Claim, "recomputed, then replayed through the scratch"},
	{"conversions[].scratch_pad", Claim, "recomputed, then replayed through the scratch"},
	{"conversions[].scratch_row", Claim, "recomputed, then replayed through the scratch"},
	{"conversions[].store_vector", Claim, "recomputed, then replayed through the scratch"},
	{"conversions[].load_vector", Claim, "recomputed, then replayed through the scratch"},
	{"conversions[].required", Layout, "replayed: the layout the consumer takes; the conversion's mechanism is replayed into it; an mma operand's is compared exactly with the layout its arrangement tiles (model.TileMMA)"},
}

// KeyOf is the entry of Keys for the key at path, given part by part:
// the names of named entries as they are (values, "a", exact), an entry
// of an array of tables as its key with [] (conversions[], required). A
// key under a Layout table is that table's.
func KeyOf(path []string) (Key, bool) {
	p := ""
	for _, part := range path {
		if k, ok := keyAt(join(p, "*")); ok && k.Check == Table && p != "" {
			part = "*"
		}
		p = join(p, part)
		k, ok := keyAt(p)
		switch {
		case !ok:
			return Key{}, false
		case k.Check == Layout:
			return k, true
		}
	}
	return keyAt(p)
}

func join(p, key string) string {
	if p == "" {
		return key
	}
	return p + "." + key
}

func keyAt(p string) (Key, bool) {
	for _, k := range Keys {
		if k.Path == p {
			return k, true
		}
	}
	return Key{}, false
}

// keysOf lists the keys of the table at pattern path.
func keysOf(path string) []string {
	var out []string
	for _, k := range Keys {
		name, ok := strings.CutPrefix(k.Path, path)
		if path != "" {
			name, ok = strings.CutPrefix(k.Path, path+".")
		}
		if ok && name != "" && !strings.ContainsAny(name, ".") && name != "*" {
			out = append(out, strings.TrimSuffix(name, "[]"))
		}
	}
	return out
}
