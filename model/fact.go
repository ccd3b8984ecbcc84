package model

// FactKind says where a constraint of a plan came from.
type FactKind string

const (
	// Graph facts: a user wrote them and may relax them.
	FactPin       FactKind = "pin"           // [pins.NAME] fixes a value's layout
	FactNoConvert FactKind = "no_convert"    // one use of a value allows no conversion
	FactIntrinsic FactKind = "intrinsic"     // an op names the record it must use
	FactBudget    FactKind = "shared_memory" // the graph's shared-memory budget
	FactBuffer    FactKind = "buffer"        // a buffer's placement: padding, stride, swizzle
	FactVariant   FactKind = "variant"       // an mma states its kWidth or transposed accumulator
	// The graph's bound on its plan's conversions (max_conversions, or a
	// TTGIR kernel's own convert_layout count).
	FactMaxConversions FactKind = "max_conversions"
	// The target's registers per lane: hardware, but relaxed by letting
	// a plan spill (the graph's registers = "spill").
	FactRegisters FactKind = "registers"

	// Facts of the kernel, the ops and the hardware: always hard.
	FactRule      FactKind = "rule"      // what an op needs of an operand or how it makes its result
	FactRecords   FactKind = "records"   // an mma needs a record of the target that fits it
	FactMemory    FactKind = "memory"    // a load record's rule on addresses
	FactFragment  FactKind = "fragment"  // a load record whose register fragment is unspecified
	FactCapacity  FactKind = "capacity"  // the target's shared memory per block
	FactSubgroups FactKind = "subgroups" // the graph's subgroup count
)

// Relaxable reports whether facts of this kind come from the user's
// choices (pins, budgets, forbidden conversions) rather than from the
// kernel or the hardware.
func (k FactKind) Relaxable() bool {
	switch k {
	case FactPin, FactNoConvert, FactIntrinsic, FactBudget, FactBuffer, FactVariant, FactRegisters, FactMaxConversions:
		return true
	}
	return false
}

// Fact is one thing a person would name as a reason: "%a is pinned to
// layout X", "mma %d reads a in its record's A fragment", "the budget is
// 48 KiB". Every constraint of a problem belongs to one or more facts, so
// an unsat answer can be explained as a few facts and a relaxation as
// dropping some.
type Fact struct {
	ID   int
	Kind FactKind
	// Name identifies the fact in a graph's `hard` list and in
	// explanations: "pin:a", "no_convert:a->d", "rule:d.a".
	Name string
	Text string // one sentence
	Pos  Pos    // the line that states it
	Also []Pos  // further lines it rests on (the records' operand layouts)
	// Hard facts are never offered for relaxation: the kernel's ops, the
	// hardware, and the facts the graph marks hard.
	Hard bool
	// Marked: the graph's `hard` list names it.
	Marked bool
}

// Relaxation is a minimal set of facts whose removal lets a plan exist,
// with the cost of the cheapest plan it then allows.
type Relaxation struct {
	Drop []*Fact
	// Cost is the best plan's cost, or, with Status "unknown" (the time
	// limit ran out before any plan), a lower bound.
	Cost   int64
	Status string // "optimal", "feasible" (a time limit cut the proof) or "unknown"
}

// Clash is two layouts that cannot both hold, drawn side by side in an
// explanation.
type Clash struct {
	Left, Right               *Layout
	LeftCaption, RightCaption string
}

// ConversionWhy explains one conversion of a plan: whether some plan
// avoids it, and if not, the facts that force it.
type ConversionWhy struct {
	Value    string
	Consumer string
	Operand  string
	Kind     ConversionKind
	Cost     int64
	// Forced: no plan at all lets this use go without a conversion; Facts
	// is a minimal set of facts that forces it.
	Forced bool
	Facts  []*Fact
	// When not forced: the cheapest plan without this conversion costs
	// Without, and Instead lists the conversions it makes. WithoutStatus
	// is that search's status: with "unknown" (the time limit ran out
	// before any plan) Without is only a lower bound.
	Without       int64
	WithoutStatus string
	Instead       []string
}

// Explanation answers "why no plan?" or "why this conversion?".
type Explanation struct {
	File   string
	Target string
	// Status is "unsat" (Core and Relaxations are set) or the plan's
	// status (Conversions is set).
	Status string
	Cost   int64
	// Core is a minimal set of facts that cannot all hold, while any
	// smaller part of it can (every fact outside it dropped).
	Core []*Fact
	// DropAlone[i] says whether dropping Core[i] alone, every other fact
	// of the graph kept, leaves a plan: where other facts conflict too,
	// it does not, and only a relaxation of several facts does.
	DropAlone []bool
	Collision []string // sentences on how the core's facts collide
	// Outside: one sentence for each mma pinned to a matrix encoding
	// none of the arrangements the planner offers it computes (the core
	// then names that pin, and the cause is the candidates).
	Outside     []string
	Clash       *Clash
	Relaxations []Relaxation
	// More is how many further relaxations were found than were kept.
	More        int
	Conversions []ConversionWhy
	// FreeSelections counts the uses whose consumer reads the registers it
	// needs of the value's own (a register selection of cost 0, with no
	// instruction): a plan lists them apart from its conversions, and so
	// does an explanation.
	FreeSelections int
}
