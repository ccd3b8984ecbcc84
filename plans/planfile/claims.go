package planfile

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"planner/model"
	"planner/plans"
	"planner/tomlio"
)

// Statuses are the statuses a plan file may claim: "optimal" (the search
// proved no plan costs less: lower_bound = cost), "feasible" (a limit
// stopped the proof: lower_bound < cost) and "greedy" (the greedy
// baseline's plan, the search having none better).
var Statuses = []string{"optimal", "feasible", "greedy"}

// Locate turns an error of the replay of the plan Rebuild read into one
// at the plan file's keys: a plans.VerifyError at the first part of the
// plan it involves, with the others related. Other errors are returned
// prefixed with the plan file.
func (pf *File) Locate(err error) error {
	ve, ok := err.(*plans.VerifyError)
	if !ok {
		if _, positioned := model.Errors(err); positioned {
			return err
		}
		return fmt.Errorf("%s: %v", pf.File, err)
	}
	var at []model.Pos
	for _, w := range ve.At {
		for _, p := range pf.where(w) {
			if !slices.Contains(at, p) {
				at = append(at, p)
			}
		}
	}
	if len(at) == 0 {
		return fmt.Errorf("%s: %v", pf.File, err)
	}
	return model.ErrorList{{Pos: at[0], Code: model.CodeNotReplayed, Index: -1, Msg: ve.Error(), Related: at[1:]}}
}

// KeyError is a claim of the plan's top level that a replay refutes: at
// key, with the keys related.
func (pf *File) KeyError(key, msg string, related ...string) error {
	e := &model.Error{Pos: keyPos(pf.root, key), Code: model.CodeNotReplayed, Field: key, Index: -1, Msg: msg}
	for _, k := range related {
		e.Related = append(e.Related, keyPos(pf.root, k))
	}
	return model.ErrorList{e}
}

// where is where the plan file writes part w of the plan: a value's
// exact layout, a use's required layout (its value's, when the plan
// converts nothing for it), a key of an op (or of the plan, with no op),
// or a buffer's placement keys.
func (pf *File) where(w plans.Where) []model.Pos {
	switch {
	case w.Value != "":
		if t := pf.values[w.Value]; t != nil {
			return []model.Pos{keyPos(t, "exact")}
		}
	case w.Use != [3]string{}:
		if t := pf.convs[w.Use]; t != nil {
			if w.Key != "" {
				return []model.Pos{keyPos(t, w.Key), keyPos(t, "required")}
			}
			return []model.Pos{keyPos(t, "required")}
		}
		return pf.where(plans.Where{Value: w.Use[0]})
	case w.Op != "":
		if t := pf.ops[w.Op]; t != nil && (w.Key == "" || t.Has(w.Key)) {
			return []model.Pos{t.Pos(w.Key)}
		}
	case w.Buffer != "":
		if t := pf.buffers[w.Buffer]; t != nil {
			return choicePositions(t, "buffers.*", t.Pos(""))
		}
	case w.Key != "":
		return []model.Pos{keyPos(pf.root, w.Key)}
	}
	return nil
}

// keyPos is where key is written in t, or t itself when it lacks it.
func keyPos(t *tomlio.Table, key string) model.Pos {
	if t.Has(key) {
		return t.Pos(key)
	}
	return t.Pos("")
}

// choicePositions lists where t (a table at pattern path) writes its
// choices and layouts, or just at when it writes none.
func choicePositions(t *tomlio.Table, path string, at model.Pos) []model.Pos {
	var out []model.Pos
	for _, k := range keysOf(path) {
		if key, _ := keyAt(join(path, k)); (key.Check == Choice || key.Check == Layout) && t.Has(k) {
			out = append(out, t.Pos(k))
		}
	}
	if len(out) == 0 {
		out = append(out, at)
	}
	return out
}

// CheckClaims compares every claim of the plan file (the keys Keys marks
// Claim) with the plan the replay builds again from the file's choices
// (again, as Write writes it), and checks the claims no rebuild makes:
// the status is one of Statuses, the lower bound lies from 0 to the cost,
// and equals it exactly when the status is optimal. Every difference is
// reported at its key, with the choices of the same table related.
func (pf *File) CheckClaims(again *plans.Plan) error {
	root := pf.root
	errs := model.ErrorList{}
	bad := func(t *tomlio.Table, key, format string, args ...any) *model.Error {
		e := &model.Error{Pos: keyPos(t, key), Code: model.CodeNotReplayed, Field: key, Index: -1, Msg: fmt.Sprintf(format, args...)}
		errs = append(errs, e)
		return e
	}
	status, _ := root.String("status", false)
	lower, _ := root.Int("lower_bound", false)
	switch {
	case !slices.Contains(Statuses, status):
		bad(root, "status", "status: expected one of %s, found %q", strings.Join(Statuses, ", "), status)
	case lower < 0 || int64(lower) > again.Cost:
		bad(root, "lower_bound", "lower_bound: expected a bound from 0 to the plan's cost %d, found %d", again.Cost, lower).Related = []model.Pos{root.Pos("cost")}
	case status == "optimal" && int64(lower) != again.Cost:
		bad(root, "lower_bound", "lower_bound: the plan claims optimal, which needs lower_bound = cost %d, found %d", again.Cost, lower).Related = []model.Pos{root.Pos("status")}
	case status == "feasible" && int64(lower) == again.Cost:
		bad(root, "status", "status: lower_bound %d equals the cost, which proves the plan optimal, and the status says %q", lower, status).Related = []model.Pos{root.Pos("lower_bound")}
	}
	copied := *again
	copied.File, copied.GraphHash, copied.Status, copied.LowerBound = pf.Graph, pf.GraphHash, status, int64(lower)
	var b bytes.Buffer
	if err := Write(&b, &copied); err != nil {
		return err
	}
	doc, err := tomlio.Parse(pf.File+" (replayed)", b.Bytes())
	if err != nil {
		return fmt.Errorf("%s: the replayed plan does not read back: %v", pf.File, err)
	}
	c := &comparer{bad: bad, notation: keyPos(root, "notation")}
	c.table(root, doc.Root(), "", nil)
	errs.Sort()
	return errs.Err()
}

type comparer struct {
	bad func(t *tomlio.Table, key, format string, args ...any) *model.Error
	// notation is where the plan names the notation its layout strings
	// are written in.
	notation model.Pos
}

// table compares table t (at pattern path) of the plan file with the
// same table of the replayed plan, r; related are the choices the
// claims of t are made from.
func (c *comparer) table(t, r *tomlio.Table, path string, related []model.Pos) {
	if path != "" {
		related = append(slices.Clip(related), choicePositions(t, path, t.Pos(""))...)
	}
	for _, k := range keysOf(path) {
		if key, ok := keyAt(join(path, k+"[]")); ok {
			c.array(t, r, k, key.Path, related)
			continue
		}
		switch key, _ := keyAt(join(path, k)); key.Check {
		case Table:
			c.named(t, r, k, join(path, k), related)
		case Claim:
			c.claim(t, r, k, related)
		}
	}
}

// named compares key k of t, a table or a table of named entries, at
// pattern path.
func (c *comparer) named(t, r *tomlio.Table, k, path string, related []model.Pos) {
	st, ok := sub(t, k)
	rt, rok := sub(r, k)
	if !ok || !rok {
		return // the reader reported a missing table
	}
	if _, entries := keyAt(join(path, "*")); !entries {
		c.table(st, rt, path, related)
		return
	}
	for _, name := range st.Keys() {
		et, ok := sub(st, name)
		rt2, rok := sub(rt, name)
		if ok && rok {
			c.table(et, rt2, join(path, "*"), related)
		}
	}
}

func sub(t *tomlio.Table, k string) (*tomlio.Table, bool) {
	if !t.Has(k) {
		return nil, false
	}
	v, _ := t.Raw(k)
	if _, ok := v.(map[string]any); !ok {
		return nil, false
	}
	return t.Sub(k, false)
}

// array compares the entries of an array of tables, key k of t, with
// the replayed plan's, matched by their identity keys.
func (c *comparer) array(t, r *tomlio.Table, k, path string, related []model.Pos) {
	var ids []string
	for _, name := range keysOf(path) {
		if key, _ := keyAt(join(path, name)); key.Check == Identity {
			ids = append(ids, name)
		}
	}
	id := func(et *tomlio.Table) string {
		var parts []string
		for _, name := range ids {
			v, _ := et.Raw(name)
			parts = append(parts, fmt.Sprint(v))
		}
		return strings.Join(parts, "\x00")
	}
	what := map[string]string{"conversions": "conversion", "accesses": "access"}[k]
	if what == "" {
		what = "entry of " + k
	}
	describe := func(et *tomlio.Table) string {
		var parts []string
		for _, name := range ids {
			v, _ := et.Raw(name)
			parts = append(parts, fmt.Sprintf("%s %v", name, v))
		}
		return strings.Join(parts, ", ")
	}
	list, _ := peek(t, k)
	replayed, _ := peek(r, k)
	byID := map[string]*tomlio.Table{}
	for _, rt := range replayed {
		byID[id(rt)] = rt
	}
	seen := map[string]model.Pos{}
	for _, et := range list {
		if first, twice := seen[id(et)]; twice {
			c.bad(et, "", "the plan lists this %s twice (%s)", what, describe(et)).Related = []model.Pos{first}
			continue
		}
		seen[id(et)] = et.Pos("")
		rt, ok := byID[id(et)]
		if !ok {
			var at []model.Pos
			for _, name := range ids[1:] {
				at = append(at, keyPos(et, name))
			}
			c.bad(et, ids[0], "the replay makes no such %s (%s)", what, describe(et)).Related = at
			continue
		}
		c.table(et, rt, path, related)
	}
	for _, rt := range replayed {
		if _, listed := seen[id(rt)]; !listed {
			c.bad(t, "", "the plan leaves out the %s the replay makes (%s)", what, describe(rt)).Related = related
		}
	}
}

func peek(t *tomlio.Table, k string) ([]*tomlio.Table, bool) {
	if !t.Has(k) {
		return nil, false
	}
	return t.TableArray(k)
}

// claim compares claim k of t with the replayed plan's.
func (c *comparer) claim(t, r *tomlio.Table, k string, related []model.Pos) {
	if k == "layout" || k == "notation" {
		related = append(slices.Clip(related), c.notation) // a layout string, written in the plan's notation
	}
	got, has := t.Raw(k)
	want, replayed := r.Raw(k)
	switch {
	case !has && !replayed:
	case !replayed:
		c.bad(t, k, "%s: the replay writes no %s here", k, k).Related = related
	case !has:
		c.bad(t, "", "missing key %q: the replay gives %s", k, show(want)).Related = related
	case show(got) != show(want):
		c.bad(t, k, "%s: the plan says %s, the replay gives %s", k, show(got), show(want)).Related = related
	}
}

// show writes a TOML value as the plan file does.
func show(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("%q", x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = show(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return fmt.Sprint(v)
}
