package planner

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"planner/mlir"
	"planner/plans"
)

// A module of several functions is planned function by function: each
// is read into its own graph and solved on its own, and the plans are
// written back into the one text in turn, each leaving the others and
// the aliases they use as written (docs/mlir.md, "Several functions").

// Functions lists the functions with a body of a kernel in MLIR (its
// text data, named name), in the order they are written: those
// SolveFunctions plans. MLIR that does not parse is an error at its
// file:line:col.
func Functions(name string, data []byte) ([]string, error) {
	m, err := mlir.Parse(name, data)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, f := range mlir.Funcs(m) {
		if len(f.Regions) > 0 && len(f.Regions[0].Blocks) > 0 {
			names = append(names, mlir.FuncName(f))
		}
	}
	return names, nil
}

// FuncResult is one function's answer in a module's.
type FuncResult struct {
	Func string
	*Result
}

// SolveFunctions solves each function with a body of a kernel in MLIR,
// read as opt.Input says (its Func is set to each in turn; one it names
// already is the only one solved), as SolveText solves one. A function
// with nothing to lay out has an empty plan that says so. The first error
// reading a function is the error.
func (pl *Planner) SolveFunctions(ctx context.Context, name string, data []byte, opt Options) ([]FuncResult, error) {
	fns := []string{opt.Input.Func}
	if opt.Input.Func == "" {
		var err error
		if fns, err = Functions(name, data); err != nil {
			return nil, err
		}
	}
	var out []FuncResult
	for _, fn := range fns {
		o := opt
		o.Input.Func = fn
		res, err := pl.SolveText(ctx, name, data, o)
		if err != nil {
			return nil, err
		}
		out = append(out, FuncResult{Func: fn, Result: res})
	}
	return out, nil
}

// WriteMLIRFunctions writes the kernel in MLIR whose functions res holds
// the answers for (SolveFunctions of the text data, named name, solved
// with opt) back with every plan in it: each written in turn into the
// text the one before made, as WriteMLIR writes one, so that a function's
// edits and new aliases leave the other functions and the aliases they
// use byte for byte. A plan names the ops it places by their lines, which
// a plan written before moves: each function after the first written is
// solved again, with opt, on the text as it then stands (its own text is
// as read, so its plan is the same). A function with nothing to lay out
// is left as written; one without a plan is an error.
func (pl *Planner) WriteMLIRFunctions(ctx context.Context, w io.Writer, name string, data []byte, opt Options, res []FuncResult) error {
	if err := CanWriteMLIR(name); err != nil {
		return err
	}
	text := data
	for _, r := range res {
		if r.Result == nil || r.Plan == nil {
			return fmt.Errorf("%s: @%s has no plan to write", name, r.Func)
		}
		if Empty(r.Plan) {
			continue
		}
		o := opt
		o.Input.Func = r.Func
		now := r.Result
		if !bytes.Equal(text, data) {
			var err error
			if now, err = pl.SolveText(ctx, name, text, o); err != nil {
				return err
			}
			if now.Plan == nil || now.Plan.Cost != r.Plan.Cost {
				return fmt.Errorf("%s: @%s solved again after the functions before it were written has another answer (%s)", name, r.Func, now.Why)
			}
		}
		var b bytes.Buffer
		if err := pl.WriteMLIR(&b, name, text, o.Input, now); err != nil {
			return err
		}
		text = b.Bytes()
	}
	_, err := w.Write(text)
	return err
}

// Empty reports whether a plan lays out nothing: its kernel has no op
// that reads or makes a vector or tensor.
func Empty(p *plans.Plan) bool {
	return len(p.Values) == 0 && len(p.Ops) == 0 && p.Cost == 0
}
