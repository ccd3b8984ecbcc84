package ir

import (
	"fmt"
	"strings"
)

// opRow is one IR op the reader knows, declared once: its name, its custom
// syntax (a form in the language syntax.go states, or a parse function
// where the language cannot say it: regions, symbol names, positions that
// mix constants and values), and its arity, which the generic form may
// get wrong. The front ends attach what each op builds by the same name
// (mlir/vector's handlers, mlir/ttgir's), and their tests hold each to the rows.
type opRow struct {
	name    string
	form    string       // the custom syntax; "" where parse reads it
	types   string       // the constraints on the types the form does not state
	results string       // the results' names, comma-separated, in order
	parse   customParser // a syntax no form states
	// in and out are the operands the op takes at least and the results it
	// gives; anyArity where the reader does not check them.
	in, out int
	syntax  *form
}

// anyArity marks a row whose operand and result counts are not checked.
const anyArity = -1

// row declares an op written in a form.
func row(name, form, types, results string, in, out int) opRow {
	return opRow{name: name, form: form, types: types, results: results, in: in, out: out}
}

// custom declares an op whose syntax a parse function reads.
func custom(name string, parse customParser, in, out int) opRow {
	return opRow{name: name, parse: parse, in: in, out: out}
}

// The forms several ops share (their ODS assembly formats: arith's
// ArithOps.td and math's MathOps.td for the element-wise ops, vector's
// VectorOps.td).
const (
	binaryForm  = "$lhs `,` $rhs fastmath? overflow? attr-dict `:` type($result)"
	binaryTypes = "lhs, rhs: result"
	unaryForm   = "$operand fastmath? attr-dict `:` type($result)"
	ternaryForm = "$a `,` $b `,` $c fastmath? attr-dict `:` type($result)"
	castForm    = "$in rounding? fastmath? attr-dict `:` type($in) `to` type($out)"
	toForm      = "$source attr-dict `:` type($source) `to` type($result)"
)

// coreRows are the ops of the builtin, func, scf, arith, math, vector,
// memref, gpu, affine, IREE, XeGPU and matrix dialects the reader knows
// (llvm-project at LLVM 19, the ops' .td files under
// mlir/include/mlir/Dialect; IREE's VectorExtOps.td for to_layout).
func coreRows() []opRow {
	rows := []opRow{
		custom("builtin.module", parseModuleOp, anyArity, anyArity),
		custom("func.func", parseFuncOp, anyArity, anyArity),
		custom("func.return", parseReturnLike, anyArity, anyArity),
		custom("scf.yield", parseReturnLike, anyArity, anyArity),
		custom("scf.for", parseForOp, anyArity, anyArity),
		custom("scf.while", parseWhileOp, anyArity, anyArity),
		custom("scf.condition", parseConditionOp, anyArity, anyArity),
		custom("arith.constant", parseConstantOp, 0, 1),
		row("arith.negf", unaryForm, "operand: result", "result", 1, 1),
		row("arith.cmpf", "ident($predicate) `,` $lhs `,` $rhs fastmath? attr-dict `:` type($lhs)", "rhs: lhs; result: i1(lhs)", "result", 2, 1),
		row("arith.cmpi", "ident($predicate) `,` $lhs `,` $rhs attr-dict `:` type($lhs)", "rhs: lhs; result: i1(lhs)", "result", 2, 1),
		custom("arith.select", parseSelectOp, 3, 1),
		row("math.fma", ternaryForm, "a, b, c: result", "result", 3, 1),
		row("vector.fma", ternaryForm, "a, b, c: result", "result", 3, 1),
		custom("vector.transfer_read", parseTransferRead, 1, 1),
		custom("vector.transfer_write", parseTransferWrite, 2, 0),
		row("vector.load", "$base `[` $indices* `]` attr-dict `:` type($base) `,` type($result)", "indices: index", "result", 1, 1),
		row("vector.store", "$valueToStore `,` $base `[` $indices* `]` attr-dict `:` type($base) `,` type($valueToStore)", "indices: index", "", 2, 0),
		row("vector.contract", "attr-dict! $lhs `,` $rhs `,` $acc attr-dict `:` type($lhs) `,` type($rhs) `into` type($acc)", "result: acc", "result", 3, 1),
		custom("vector.multi_reduction", parseMultiReduction, 2, 1),
		custom("vector.reduction", parseReduction, 1, 1),
		row("vector.broadcast", toForm, "", "result", 1, 1),
		row("vector.shape_cast", toForm, "", "result", 1, 1),
		row("vector.transpose", "$vector `,` ints($permutation) attr-dict `:` type($vector) `to` type($result)", "", "result", 1, 1),
		custom("vector.extract", parseExtract, 1, 1),
		custom("vector.insert", parseInsert, 2, 1),
		// The masks and indices (VectorOps.td: CreateMaskOp, ConstantMaskOp, StepOp).
		row("vector.create_mask", "$operands* attr-dict `:` type($result)", "operands: index", "result", 1, 1),
		row("vector.constant_mask", "ints($mask_dim_sizes) attr-dict `:` type($result)", "", "result", 0, 1),
		row("vector.step", "attr-dict `:` type($result)", "", "result", 0, 1),
		row("vector.splat", "$input attr-dict `:` type($aggregate)", "input: elem(aggregate)", "aggregate", 1, 1),
		custom("memref.alloc", parseAlloc, 0, 1),
		custom("memref.alloca", parseAlloc, 0, 1),
		row("memref.dealloc", "$memref attr-dict `:` type($memref)", "", "", 1, 0),
		row("gpu.barrier", "attr-dict", "", "", 0, 0),
		custom("gpu.thread_id", parseGPUIndex, 0, 1),
		custom("gpu.block_id", parseGPUIndex, 0, 1),
		custom("gpu.block_dim", parseGPUIndex, 0, 1),
		custom("affine.apply", parseAffineApply, 0, 1),
		custom("iree_vector_ext.to_layout", parseToLayout, 1, 1),
		custom("iree_vector_ext.transfer_gather", parseTransferGather, 2, 1),
		custom("gpu.module", parseGPUModule, anyArity, anyArity),
		custom("gpu.func", parseFuncOp, anyArity, anyArity),
		custom("gpu.return", parseReturnLike, anyArity, anyArity),
		custom("xegpu.create_nd_tdesc", parseCreateNdDesc, 1, 1),
		custom("xegpu.update_nd_offset", parseUpdateNdOffset, 1, 1),
		custom("xegpu.load_nd", parseLoadNd, 1, 1),
		custom("xegpu.store_nd", parseStoreNd, 2, 0),
		custom("xegpu.prefetch_nd", parsePrefetchNd, anyArity, anyArity),
		row("xegpu.dpas", "$lhs `,` $rhs (`,` $acc)? attr-dict `:` type($lhs) `,` type($rhs) (`,` type($acc))? `->` type($result)", "", "result", 2, 1),
		custom("xegpu.convert_layout", parseConvertLayout, 1, 1),
		custom("gpu.subgroup_mma_load_matrix", parseMMALoad, 1, 1),
		custom("gpu.subgroup_mma_store_matrix", parseMMAStore, 2, 0),
		row("gpu.subgroup_mma_compute", "$opA `,` $opB `,` $opC attr-dict `:` type($opA) `,` type($opB) `->` type($res)", "opC: res", "res", 3, 1),
		custom("gpu.subgroup_mma_constant_matrix", parseMMAConstant, 1, 1),
		custom("gpu.subgroup_mma_elementwise", parseMMAElementwise, 1, 1),
		custom("nvgpu.ldmatrix", parseMMALoad, 1, 1),
		custom("nvgpu.mma.sync", parseMmaSync, 3, 1),
		custom("amdgpu.mfma", parseMfma, 3, 1),
	}
	for _, n := range arithBinary {
		rows = append(rows, row("arith."+n, binaryForm, binaryTypes, "result", 2, 1))
	}
	for _, n := range arithCasts {
		rows = append(rows, row("arith."+n, castForm, "", "out", 1, 1))
	}
	for _, n := range mathUnary {
		rows = append(rows, row("math."+n, unaryForm, "operand: result", "result", 1, 1))
	}
	for _, n := range mathBinary {
		rows = append(rows, row("math."+n, binaryForm, binaryTypes, "result", 2, 1))
	}
	return rows
}

// The element-wise ops of arith and math, by custom form.
var (
	arithBinary = []string{"addf", "subf", "mulf", "divf", "remf", "maximumf", "minimumf", "maxnumf", "minnumf",
		"addi", "subi", "muli", "divsi", "divui", "remsi", "remui", "ceildivsi", "ceildivui", "floordivsi",
		"maxsi", "maxui", "minsi", "minui", "andi", "ori", "xori", "shli", "shrsi", "shrui"}
	arithCasts = []string{"extf", "truncf", "extsi", "extui", "trunci", "sitofp", "uitofp", "fptosi", "fptoui",
		"bitcast", "index_cast", "index_castui"}
	mathUnary = []string{"exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "cbrt", "tanh", "tan",
		"sin", "cos", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "erf", "erfc", "absf", "absi",
		"ceil", "floor", "round", "roundeven", "trunc", "ctlz", "cttz", "ctpop"}
	mathBinary = []string{"powf", "atan2", "copysign", "ipowi", "fpowi"}
)

// opRows are every op the reader knows, by name; built once from the
// row tables, each form compiled.
var opRows map[string]*opRow

func init() { opRows = indexRows(append(coreRows(), ttgirRows()...)) }

// indexRows compiles each row's form and indexes the rows by name. A
// row that states its syntax wrongly is a defect of the table, found at
// start-up (and by TestOpRows) rather than on some input.
func indexRows(rows []opRow) map[string]*opRow {
	out := make(map[string]*opRow, len(rows))
	for i := range rows {
		r := &rows[i]
		if err := r.compile(); err != nil {
			panic(fmt.Sprintf("mlir: the row of %s: %v", r.name, err))
		}
		if _, dup := out[r.name]; dup {
			panic(fmt.Sprintf("mlir: %s has two rows", r.name))
		}
		out[r.name] = r
	}
	return out
}

// compile makes the row's form ready to read.
func (r *opRow) compile() error {
	if !strings.Contains(r.name, ".") {
		return fmt.Errorf("the name is not dialect.op")
	}
	if (r.form == "") == (r.parse == nil) {
		return fmt.Errorf("a row has a form or a parse function, not both or neither")
	}
	if r.parse != nil {
		return nil
	}
	var results []string
	if r.results != "" {
		for _, n := range strings.Split(r.results, ",") {
			results = append(results, strings.TrimSpace(n))
		}
	}
	f, err := compileForm(r.form, r.types, results)
	if err != nil {
		return err
	}
	if r.out != anyArity && r.out != len(results) {
		return fmt.Errorf("the row gives %d result(s) but its form names %d", r.out, len(results))
	}
	r.syntax = f
	return nil
}

// read reads the op's custom syntax after its name and returns its result
// types.
func (r *opRow) read(p *parser, op *Op) []Type {
	if r.parse != nil {
		return r.parse(p, op)
	}
	return p.readForm(op, r.syntax)
}

// HasRow reports whether the op named name has a row: its custom syntax
// is read.
func HasRow(name string) bool {
	_, ok := opRows[name]
	return ok
}

// ArityOf is the operands an op takes at least and the results it gives,
// where its row states them.
func ArityOf(name string) (in, out int, ok bool) {
	r, known := opRows[name]
	if !known || r.in == anyArity {
		return 0, 0, false
	}
	return r.in, r.out, true
}
