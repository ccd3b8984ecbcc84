// Package gen writes synthetic kernel graphs for scale tests: chains of
// element-wise math, stacked attention blocks, wide fan-out and fan-in,
// loops, and random DAGs, each of a requested size and reproducible from
// its seed. The graphs are TOML in the format docs/graphs.md describes.
package gen

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// Families lists the shapes of graph Graph can write.
var Families = []string{"chain", "attention", "fanout", "loops", "random"}

// Graph writes a graph of about ops ops of the family on sm_80, seeded.
func Graph(family string, ops int, seed uint64) (string, error) {
	if !slices.Contains(Families, family) {
		return "", fmt.Errorf("unknown family %q (expected one of %s)", family, strings.Join(Families, ", "))
	}
	if ops < 4 || ops > 1_000_000 {
		return "", fmt.Errorf("ops is from 4 to 1000000, found %d", ops)
	}
	w := &writer{b: &strings.Builder{}, r: rand.New(rand.NewPCG(seed, 0x5eed)), family: family}
	fmt.Fprintf(w.b, "# %s graph of about %d ops, seed %d (planner gen).\ntarget = \"sm_80\"\nsubgroups = 4\n", family, ops, seed)
	if family == "fanout" || family == "random" {
		// Their many values live at once are sized for scale, not for a
		// register file: the plans may spill (docs/graphs.md, registers).
		w.b.WriteString("registers = \"spill\"\n")
	}
	switch family {
	case "chain":
		w.chain(ops)
	case "attention":
		w.attention(ops)
	case "fanout":
		w.fanout(ops)
	case "loops":
		w.loops(ops)
	case "random":
		w.random(ops)
	}
	return w.b.String(), nil
}

type writer struct {
	b      *strings.Builder
	r      *rand.Rand
	family string
	n      int // values named so far
	ops    int
	indent string
	body   string // the op table name: "op", "op.body"
}

// name makes a fresh value name.
func (w *writer) name(prefix string) string {
	w.n++
	return fmt.Sprintf("%s%d", prefix, w.n)
}

// op writes one op table from key/value pairs (values already TOML).
func (w *writer) op(kv ...string) {
	table := w.body
	if table == "" {
		table = "op"
	}
	fmt.Fprintf(w.b, "\n%s[[%s]]\n", w.indent, table)
	for i := 0; i+1 < len(kv); i += 2 {
		fmt.Fprintf(w.b, "%s%s = %s\n", w.indent, kv[i], kv[i+1])
	}
	w.ops++
}

func q(s string) string { return fmt.Sprintf("%q", s) }

func list(names ...string) string {
	var parts []string
	for _, n := range names {
		parts = append(parts, q(n))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

const tile = "[64, 64]"

func (w *writer) load(dtype string) string {
	v := w.name("x")
	w.op("kind", q("load"), "result", q(v), "shape", tile, "dtype", q(dtype))
	return v
}

func (w *writer) store(v string) { w.op("kind", q("store"), "operands", list(v)) }

// math applies a random element-wise function, a transpose pair or a row
// reduction with its broadcast back to v.
func (w *writer) math(v string) string {
	switch k := w.r.IntN(10); {
	case k < 5:
		fn := []string{"exp2", "neg", "abs", "relu", "tanh"}[w.r.IntN(5)]
		out := w.name("e")
		w.op("kind", q(fn), "operands", list(v), "result", q(out))
		return out
	case k < 7:
		t1, t2 := w.name("t"), w.name("t")
		w.op("kind", q("transpose"), "operands", list(v), "perm", "[1, 0]", "result", q(t1))
		w.op("kind", q("transpose"), "operands", list(t1), "perm", "[1, 0]", "result", q(t2))
		return t2
	default:
		red, b, out := w.name("r"), w.name("b"), w.name("s")
		w.op("kind", q("reduce"), "combiner", q("max"), "operands", list(v), "axis", "1", "result", q(red))
		w.op("kind", q("broadcast"), "operands", list(red), "shape", tile, "dims", "[1]", "result", q(b))
		w.op("kind", q("sub"), "operands", list(v, b), "result", q(out))
		return out
	}
}

func (w *writer) chain(ops int) {
	v := w.load("f32")
	for w.ops < ops-1 {
		v = w.math(v)
	}
	w.store(v)
}

// attention stacks blocks of S = Q·Kᵀ, a row softmax and O = P·V, each
// block's output feeding the next block's Q.
func (w *writer) attention(ops int) {
	qv := w.load("f16")
	for w.ops < ops-1 {
		k, v := w.load("f16"), w.load("f16")
		kt, zero, s := w.name("kt"), w.name("z"), w.name("s")
		w.op("kind", q("transpose"), "operands", list(k), "perm", "[1, 0]", "result", q(kt))
		w.op("kind", q("constant"), "result", q(zero), "shape", tile, "dtype", q("f32"))
		w.op("kind", q("mma"), "a", q(qv), "b", q(kt), "c", q(zero), "result", q(s))
		p := w.math(s)
		e := w.name("p")
		w.op("kind", q("exp2"), "operands", list(p), "result", q(e))
		ph, zero2, o := w.name("ph"), w.name("z"), w.name("o")
		w.op("kind", q("truncf"), "operands", list(e), "dtype", q("f16"), "result", q(ph))
		w.op("kind", q("constant"), "result", q(zero2), "shape", tile, "dtype", q("f32"))
		w.op("kind", q("mma"), "a", q(ph), "b", q(v), "c", q(zero2), "result", q(o))
		qv = w.name("q")
		w.op("kind", q("truncf"), "operands", list(o), "dtype", q("f16"), "result", q(qv))
	}
	w.store(qv)
}

// fanout reads one tile, applies many independent chains to it and adds
// them back together pairwise.
func (w *writer) fanout(ops int) {
	x := w.load("f32")
	var leaves []string
	for w.ops+len(leaves) < ops-1 {
		leaves = append(leaves, w.math(x))
	}
	for len(leaves) > 1 {
		var next []string
		for i := 0; i+1 < len(leaves); i += 2 {
			s := w.name("a")
			w.op("kind", q("add"), "operands", list(leaves[i], leaves[i+1]), "result", q(s))
			next = append(next, s)
		}
		if len(leaves)%2 == 1 {
			next = append(next, leaves[len(leaves)-1])
		}
		leaves = next
	}
	w.store(leaves[0])
}

// loops writes loops one after another, each carrying an accumulator
// through a chain of its body's math.
func (w *writer) loops(ops int) {
	acc := w.load("f32")
	for w.ops < ops-1 {
		arg, res, name := w.name("acc"), w.name("out"), w.name("L")
		trips := 2 + w.r.IntN(14)
		w.ops++
		// The body first, into its own buffer: the loop's yields name its
		// last value.
		outer, body := w.b, &strings.Builder{}
		w.b, w.body, w.indent = body, "op.body", "  "
		v := arg
		for n := 0; n < 2+w.r.IntN(8) && w.ops < ops-1; n++ {
			x := w.load("f32")
			s := w.name("y")
			w.op("kind", q("add"), "operands", list(v, x), "result", q(s))
			v = w.math(s)
		}
		w.b, w.body, w.indent = outer, "", ""
		fmt.Fprintf(w.b, "\n[[op]]\nkind = \"loop\"\nname = %q\ntrips = %d\niter_args = [%q]\ninits = [%q]\nyields = [%q]\nresults = [%q]\n",
			name, trips, arg, acc, v, res)
		w.b.WriteString(body.String())
		acc = res
	}
	w.store(acc)
}

// random draws a DAG: each op reads one or two values made before it.
func (w *writer) random(ops int) {
	pool := []string{w.load("f32")}
	for w.ops < ops-1 {
		switch k := w.r.IntN(10); {
		case k < 2:
			pool = append(pool, w.load("f32"))
		case k < 5:
			a, b := pool[w.r.IntN(len(pool))], pool[w.r.IntN(len(pool))]
			s := w.name("a")
			w.op("kind", q([]string{"add", "mul", "max"}[w.r.IntN(3)]), "operands", list(a, b), "result", q(s))
			pool = append(pool, s)
		default:
			pool = append(pool, w.math(pool[w.r.IntN(len(pool))]))
		}
	}
	w.store(pool[len(pool)-1])
}
