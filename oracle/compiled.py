"""Writes docs/compiled.md: Triton's own TTGIR and the planner's, compiled
side by side by Triton, with static counts from the compiled code.

    export PLANNER_ORACLE_PYTHON=$(oracle/setup.sh)
    "$PLANNER_ORACLE_PYTHON" oracle/compiled.py [--out docs/compiled.md] [--only NAME] [--runs N]
        [--trips N] [--rest-passes] [--keep DIR]

Run from the repository root. The inputs are testdata/triton/*.ttgir
(Triton's TTGIR after its layout passes, each with its .ttir beside it)
and examples/ttgir/*.ttgir (hand-written, no .ttir). For each file:
the planner (built here with go build) writes its TTGIR (solve --format
mlir) and prices the input's own layouts (solve --compare input --format
json); triton.compile compiles both TTGIRs from the ttgir stage for the
file's ttg.target, with a fresh cache; asmcount.py counts the compiled
code; and the solve is timed next to Triton's layout passes on the TTIR
(triton_stages.layout_passes), median of --runs runs each.

--only NAME keeps the files whose name (without .ttgir) is NAME or
contains it, and then writes to standard output unless --out is given, so
that a partial run does not shrink the doc. --keep DIR keeps each side's
TTGIR, PTX or AMDGCN and ptxas report there, named by the input's path
with / as - (testdata-triton-softmax_sm80.triton.ptx, so that the two
directories' files of one name stay apart). --trips N (16) is the
planner's --trips: the trip count of a loop whose bounds are not constants.
--rest-passes runs Triton's make_ttgir passes after the layout passes
(triton_stages.rest_passes: pipelining and the rest) on both sides before
compiling them.
"""

import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import asmcount  # noqa: E402
import judge  # noqa: E402
import sassregs  # noqa: E402

COMMAND = 'export PLANNER_ORACLE_PYTHON=$(oracle/setup.sh); "$PLANNER_ORACLE_PYTHON" oracle/compiled.py'
SIDES = ("triton", "planner")
DEFAULT_OUT = "docs/compiled.md"
REST_OUT = "docs/compiled-rest-passes.md"
DEFAULTS = {"runs": 5, "trips": 16, "rest": False, "keep": None, "out": DEFAULT_OUT}

# ------------------------------------------------------------- the inputs


def inputs(root):
    """[(name, ttgir path, ttir path or None)]: testdata/triton's files (with
    their .ttir where it exists), then examples/ttgir's, each sorted."""
    out = []
    for folder in ("testdata/triton", "examples/ttgir"):
        d = os.path.join(root, folder)
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            if f.endswith(".ttgir"):
                ttir = os.path.join(d, f[:-len(".ttgir")] + ".ttir")
                out.append((f"{folder}/{f[:-len('.ttgir')]}", os.path.join(d, f),
                            ttir if os.path.exists(ttir) else None))
    return out


def selected(rows, only):
    """The rows whose short name is only or contains it (all when only is None)."""
    if not only:
        return rows
    return [r for r in rows if only == os.path.basename(r[0]) or only in r[0]]


def module_int(text, attr, default):
    """An integer module attribute ("ttg.num-warps" = 4 : i32) of a TTGIR text."""
    m = re.search(r'"?' + re.escape(attr) + r'"?\s*=\s*(\d+)', text)
    return int(m.group(1)) if m else default


# ------------------------------------------------------------- the planner


def build_planner(root, tmp):
    exe = os.path.join(tmp, "planner")
    subprocess.run(["go", "build", "-o", exe, "./cmd/planner"], cwd=root, check=True)
    return exe


def first_line(text):
    """The first line that says what went wrong: one with "error:" if any,
    from that word on, else the first non-empty line; at most 200 chars."""
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    for l in lines:
        if "error:" in l:
            head, rest = l.split("error:", 1)
            at = re.search(r":(\d+):(\d+)\)?:\s*$", head)
            l = (f"line {at.group(1)}:{at.group(2)}: " if at else "") + "error:" + rest
            break
    else:
        l = lines[0] if lines else "(no message)"
    return l[:200]


def planner_solve(exe, path, out_path, runs, trips):
    """Writes the planner's TTGIR for path to out_path; returns
    {"ok", "message", "seconds" (each run's wall time)}."""
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        p = subprocess.run([exe, "solve", path, "--trips", str(trips), "--format", "mlir"],
                           capture_output=True, text=True)
        times.append(time.perf_counter() - t0)
        if p.returncode != 0:
            return {"ok": False, "message": first_line(p.stderr or p.stdout), "seconds": times}
    with open(out_path, "w") as f:
        f.write(p.stdout)
    return {"ok": True, "message": "", "seconds": times}


def planner_compare(exe, path, trips):
    """The plan's JSON with --compare input (docs/json.md), or None with the
    planner's first error line."""
    p = subprocess.run([exe, "solve", path, "--trips", str(trips), "--compare", "input", "--format", "json"],
                       capture_output=True, text=True)
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        return None, first_line(p.stderr)
    if p.returncode != 0 or "compare" not in doc:
        errs = doc.get("errors") or []
        msg = errs[0].get("message", "") if errs else doc.get("message", "") or p.stderr
        return None, first_line(f"{doc.get('status', 'error')}: {msg}")
    return doc, ""


def priced(conversions):
    """[(label, kind, cost)] of a conversions list (docs/json.md)."""
    return [(f"%{c['value']} -> {c['consumer']} ({c['operand']})", c["kind"], c["cost"]) for c in conversions]


# ------------------------------------------------------------- Triton


def compile_job(job):
    """In a child process (judge.run_child): compiles job["file"] from the
    ttgir stage for its ttg.target and counts the compiled code."""
    import triton
    from triton import knobs
    knobs.compilation.always_compile = True
    text = open(job["file"]).read()
    name, target = judge.target_of(text, None)
    path = job["file"]
    if job.get("rest"):
        path = after_rest_passes(path, text, target, job["tmp"])
    kernel = triton.compile(path, target=target)
    verdict = {"file": job["file"], "ok": True, "stage": "", "message": "", "target": name,
               "shared": kernel.metadata.shared}
    keep = job.get("keep")
    if target.backend == "cuda":
        ptx = kernel.asm["ptx"]
        verdict["counts"] = asmcount.ptx_counts(ptx)
        log = ptxas_report(ptx, target.arch, job["tmp"])
        verdict["resources"] = asmcount.ptxas_resources(log)
        verdict["ptx_sha"] = ptx_digest(ptx)
        verdict["live"] = most_live(ptx, job["tmp"])
        code, ext = ptx, "ptx"
    else:
        code, ext, log = kernel.asm["amdgcn"], "amdgcn", ""
        verdict["counts"] = asmcount.amdgcn_counts(code)
        verdict["resources"] = asmcount.amdgcn_resources(code)
    if keep:
        base = os.path.join(keep, job["keep_as"])
        for suffix, text in ((ext, code), ("ptxas.txt", log)):
            if text:
                with open(f"{base}.{suffix}", "w") as f:
                    f.write(text)
    return verdict


def parsed_options(backend, text):
    """The backend's options for a TTGIR or TTIR module: its warps and CTAs
    from the TTGIR's attributes, the rest Triton's defaults."""
    return backend.parse_options({"num_warps": module_int(text, "ttg.num-warps", 4),
                                  "num_ctas": module_int(text, "ttg.num-ctas", 1)})


def after_rest_passes(path, text, target, tmp):
    """Runs Triton's make_ttgir passes after the layout passes
    (triton_stages.rest_passes: loop fusion, pipelining, prefetch,
    reduce_data_duplication, ...) on the TTGIR at path; returns the path of
    the module it writes."""
    from triton._C.libtriton import ir
    from triton.compiler.compiler import make_backend
    from triton_stages import rest_passes
    backend = make_backend(target)
    ctx = ir.context()
    ir.load_dialects(ctx)
    backend.load_dialects(ctx)
    mod = ir.parse_mlir_module(path, ctx)
    mod.context = ctx  # as triton.compile does for IR it parses (triton/compiler/compiler.py)
    rest_passes(mod, target, parsed_options(backend, text))
    out = os.path.join(tmp, "rest." + os.path.basename(path))
    with open(out, "w") as f:
        f.write(mod.str())
    return out


def most_live(ptx, tmp):
    """The most general registers live at once in ptxas's SASS of ptx
    (oracle/sassregs.py); None where nvdisasm cannot read the cubin."""
    src = os.path.join(tmp, "live.ptx")
    with open(src, "w") as f:
        f.write(ptx)
    _, _, live, _, _ = sassregs.analyse(src)
    return live


def ptx_digest(ptx):
    """A short digest of PTX's code: its .file lines and the debug sections
    after the code (which spell the source's path) are left out, so that
    the same code compiled from another folder has the same digest."""
    import hashlib
    lines = []
    for l in ptx.splitlines():
        if l.lstrip().startswith(".section"):
            break
        if not l.lstrip().startswith(".file"):
            lines.append(l)
    body = "\n".join(lines)
    return hashlib.sha256(body.encode()).hexdigest()[:16]


def ptxas_report(ptx, arch, tmp):
    """ptxas -v's report on ptx, run as Triton's make_cubin runs it
    (triton/backends/nvidia/compiler.py in triton 3.9.0: the ptxas of
    get_ptxas(arch), -lineinfo -v --regAllocOptLevel=2
    --gpu-name=sm_arch_from_capability(arch))."""
    from triton.backends.nvidia.compiler import get_ptxas, sm_arch_from_capability
    src = os.path.join(tmp, "k.ptx")
    with open(src, "w") as f:
        f.write(ptx)
    p = subprocess.run([get_ptxas(arch).path, "-lineinfo", "-v", "--regAllocOptLevel=2",
                        f"--gpu-name={sm_arch_from_capability(arch)}", src, "-o", src + ".cubin"],
                       capture_output=True, text=True, check=True)
    return p.stderr + p.stdout


def layout_passes_job(job):
    """In a child process: Triton's layout passes (triton_stages.layout_passes)
    on the parsed TTIR, job["runs"] times, each on a fresh parse; the seconds
    each pass run took (the parse not counted)."""
    from triton._C.libtriton import ir
    from triton.compiler.compiler import make_backend
    from triton_stages import layout_passes
    text = open(job["ttgir"]).read()
    _, target = judge.target_of(text, None)
    backend = make_backend(target)
    options = parsed_options(backend, text)
    seconds = []
    for _ in range(job["runs"]):
        ctx = ir.context()
        ir.load_dialects(ctx)
        backend.load_dialects(ctx)
        mod = ir.parse_mlir_module(job["file"], ctx)
        mod.context = ctx  # as triton.compile does for IR it parses (triton/compiler/compiler.py)
        t0 = time.perf_counter()
        layout_passes(mod, target, options)
        seconds.append(time.perf_counter() - t0)
    return {"file": job["file"], "ok": True, "stage": "", "message": "", "target": "", "seconds": seconds}


def have_stage(name):
    """Whether oracle/triton_stages.py is there and defines name."""
    try:
        import triton_stages
    except ImportError:
        return False
    return hasattr(triton_stages, name)


# ------------------------------------------------------------- one row


def measure(name, ttgir, ttir, exe, tmp, cfg):
    """Everything one row of the table says about one input file."""
    short = os.path.basename(name)
    kept = name.replace("/", "-")  # the name of the files --keep keeps
    text = open(ttgir).read()
    row = {"name": name, "short": short, "target": judge.target_of(text, None)[0], "has_ttir": bool(ttir)}
    mine = os.path.join(tmp, short + ".planner.ttgir")
    runs, keep = cfg["runs"], cfg["keep"]
    solve = planner_solve(exe, ttgir, mine, runs, cfg["trips"])
    row["planner_seconds"] = statistics.median(solve["seconds"])
    doc, why = planner_compare(exe, ttgir, cfg["trips"])
    row["compare"] = doc and doc["compare"]
    row["plan_conversions"] = doc and doc["conversions"]
    row["plan_registers"] = doc and doc["registers"]["peak"]
    row["plan_estimate"] = doc and doc["registers"].get("estimate")
    row["reserved"] = (doc and doc["registers"].get("reserved_registers")) or 0
    row["compare_error"] = why
    row["cvt"] = {"triton": asmcount.count_convert_layouts(text)}
    files = {"triton": ttgir}
    if solve["ok"]:
        row["cvt"]["planner"] = asmcount.count_convert_layouts(open(mine).read())
        files["planner"] = mine
        if keep:
            shutil.copy(mine, os.path.join(keep, kept + ".planner.ttgir"))
    row["compiled"] = {}
    for side in SIDES:
        if side not in files:
            row["compiled"][side] = {"ok": False, "message": "has no TTGIR: planner solve refused the file: "
                                     + solve["message"].replace(ROOT + "/", "")}
            continue
        v = judge.run_child(compile_job, {"file": files[side], "tmp": tmp, "keep": keep,
                                         "keep_as": f"{kept}.{side}", "rest": cfg["rest"]})
        if not v["ok"]:
            v["message"] = "did not compile: " + first_line(v["message"].replace(tmp + "/", ""))
        row["compiled"][side] = v
    row["triton_seconds"] = None
    if ttir and have_stage("layout_passes"):
        v = judge.run_child(layout_passes_job, {"file": ttir, "ttgir": ttgir, "runs": runs})
        if v["ok"]:
            row["triton_seconds"] = statistics.median(v["seconds"])
        else:
            row["triton_error"] = first_line(v["message"])
    return row


# ------------------------------------------------------------- the doc

# (key, heading): the compiled counts compared, fewer being better.
COUNTS = (("smem_load", "shared loads"), ("smem_store", "shared stores"), ("shuffle", "shuffles"),
          ("barrier", "CTA barriers"), ("warp_barrier", "warp barriers"))


def pair(a, b):
    """One cell with Triton's value and the planner's."""
    return f"{a} / {b}"


def side_value(row, side, fn):
    """fn of a side's compiled verdict, or "—" where it did not compile."""
    v = row["compiled"][side]
    return fn(v) if v.get("ok") else "—"


def registers(v):
    r = v["resources"]
    if "registers" in r:
        return str(r["registers"])
    return f"v{r.get('vgpr', '?')} a{r.get('agpr', '?')} s{r.get('sgpr', '?')}"


def spills(v):
    r = v["resources"]
    if "registers" in r:
        return str(r["spill_stores"] + r["spill_loads"])
    return str(r.get("scratch", 0))


def barriers(v):
    c = v["counts"]
    return f"{c['barrier']}+{c['warp_barrier']}w" if c["warp_barrier"] else str(c["barrier"])


def conversion_sums(row):
    """(Triton's, the planner's): the model's prices of the input's
    conversions and of the plan's, summed, with their number."""
    if not row["compare"]:
        return "—", "—"
    t = priced(row["compare"].get("conversions", []))
    p = priced(row["plan_conversions"] or [])
    mine = f"{sum(c for _, _, c in p)} ({len(p)})"
    if "no_plan" in row["compare"]:
        return "no plan", mine
    return f"{sum(c for _, _, c in t)} ({len(t)})", mine


def model_costs(row):
    """The model's cost of the input's own layouts and of the plan."""
    c = row["compare"]
    if not c:
        return "—"
    return pair("no plan" if "no_plan" in c else c["baseline_cost"], c["cost"])


def model_registers(row):
    """The model's register estimate per lane, as ptxas holds registers
    where they are plentiful (docs/json.md, registers.estimate): the
    input's own layouts (compare.baseline_estimate) / the plan's; each
    with the floor the budget is checked at after it where that is lower
    (compare.baseline_registers, registers.peak)."""
    c = row["compare"]
    if not c:
        return "—"

    def cell(estimate, floor):
        if estimate is None:
            return "—" if floor is None else str(floor)
        return str(estimate) if floor is None or floor >= estimate else f"{estimate} ({floor})"
    return pair(cell(c.get("baseline_estimate"), c.get("baseline_registers")),
                cell(row.get("plan_estimate"), row["plan_registers"]))


def live_cell(v):
    """The most registers live at once in a compiled NVIDIA kernel, "—"
    elsewhere or where nvdisasm could not read it."""
    live = v.get("live")
    return "—" if live is None else str(live)


def within(model, compiled, tolerance=0.15):
    """Whether a model figure is within tolerance of a compiled one."""
    return compiled > 0 and abs(model - compiled) <= tolerance * compiled


def register_agreement(rows):
    """One sentence: of the NVIDIA kernels' sides, how many have the
    model's register peak within 15% of ptxas's count, and, less the
    registers the target says ptxas counts and never names (the plan's
    registers.reserved_registers), of the most live at once."""
    counted = near_count = near_live = with_live = 0
    for r in rows:
        c = r["compare"]
        if not c or "registers" not in (r["compiled"]["triton"].get("resources") or {}):
            continue
        for side, model in (("triton", c.get("baseline_estimate", c.get("baseline_registers"))),
                            ("planner", r.get("plan_estimate") or r["plan_registers"])):
            v = r["compiled"][side]
            if not v.get("ok") or not isinstance(model, int):
                continue
            counted += 1
            near_count += within(model, v["resources"]["registers"])
            if v.get("live"):
                with_live += 1
                near_live += within(model - r.get("reserved", 0), v["live"])
    return (f"On NVIDIA the model's register estimate is within 15% of ptxas's count in {near_count} of the "
            f"{counted} compiled sides, and, less the registers ptxas reserves, within 15% of the most "
            f"registers live at once in {near_live} of {with_live}.")


def ms(seconds):
    return "—" if seconds is None else f"{seconds * 1000:.1f}"


def table_row(row):
    t, p = conversion_sums(row)
    cells = [f"`{row['name']}`", row["target"]]
    cells.append(pair(*[("yes" if row["compiled"][s].get("ok") else "no") for s in SIDES]))
    cells.append(pair(row["cvt"]["triton"], row["cvt"].get("planner", "—")))
    cells.append(model_costs(row))
    cells.append(pair(t, p))
    for key, _ in COUNTS[:3]:
        cells.append(pair(*[side_value(row, s, lambda v, k=key: str(v["counts"][k])) for s in SIDES]))
    cells.append(pair(*[side_value(row, s, barriers) for s in SIDES]))
    cells.append(pair(*[side_value(row, s, registers) for s in SIDES]))
    cells.append(pair(*[side_value(row, s, live_cell) for s in SIDES]))
    cells.append(model_registers(row))
    cells.append(pair(*[side_value(row, s, spills) for s in SIDES]))
    cells.append(pair(*[side_value(row, s, lambda v: str(v["shared"])) for s in SIDES]))
    cells.append(ms(row["triton_seconds"]))
    cells.append(ms(row["planner_seconds"]))
    ratio = "—"
    if row["triton_seconds"]:
        ratio = f"{row['planner_seconds'] / row['triton_seconds']:.1f}"
    cells.append(ratio)
    return "| " + " | ".join(str(c) for c in cells) + " |"


HEADINGS = ("kernel", "target", "compiles", "`convert_layout` ops", "model cost",
            "conversions priced: sum (n)", "shared loads", "shared stores", "shuffles", "barriers",
            "registers", "live at once", "model registers", "spill bytes", "shared bytes", "Triton layout passes ms",
            "planner solve ms", "planner / Triton time")


def comparison(row):
    """One sentence: where the planner's compiled kernel has fewer and where
    more of each counted thing than Triton's own."""
    t, p = row["compiled"]["triton"], row["compiled"]["planner"]
    if not t.get("ok") or not p.get("ok"):
        bad = [f"{'Triton' if s == 'triton' else 'the planner'}'s side" for s in SIDES
               if not row["compiled"][s].get("ok")]
        return "no comparison: " + " and ".join(bad) + " has no compiled kernel."
    better, worse, same = [], [], []
    for key, what in COUNTS:
        a, b = t["counts"][key], p["counts"][key]
        (better if b < a else worse if b > a else same).append(f"{what} {a} → {b}" if a != b else what)
    for what, fn in (("registers", reg_number), ("spill bytes", lambda v: int(spills(v)))):
        a, b = fn(t), fn(p)
        (better if b < a else worse if b > a else same).append(f"{what} {a} → {b}" if a != b else what)
    parts = []
    if better:
        parts.append("fewer " + ", ".join(better))
    if worse:
        parts.append("more " + ", ".join(worse))
    if same:
        parts.append("the same " + ", ".join(same))
    verdict = "better" if better and not worse else "worse" if worse and not better else \
        "mixed" if better else "the same"
    return f"{verdict}: the planner's kernel has " + "; ".join(parts) + "."


def verdict(row):
    """"better", "worse", "mixed", "the same", or None where a side did not compile."""
    if not all(row["compiled"][s].get("ok") for s in SIDES):
        return None
    return comparison(row).split(":", 1)[0]


def tally(rows):
    """One paragraph: the inputs this run read and how the rows compare."""
    by = {}
    for r in rows:
        by.setdefault(verdict(r), []).append(r)
    folders = {}
    for r in rows:
        folders[os.path.dirname(r["name"])] = folders.get(os.path.dirname(r["name"]), 0) + 1
    read = ", ".join(f"{n} from `{f}/`" for f, n in folders.items())
    absent = [f for f in ("testdata/triton", "examples/ttgir") if f not in folders]
    text = f"This run read {len(rows)} files: {read}"
    if absent:
        text += " (" + ", ".join(f"`{f}/` had none" for f in absent) + ")"
    both = len(rows) - len(by.get(None, []))
    text += (f". Both sides compiled in {both}; by the compiled counts the planner's kernel is better in "
             f"{len(by.get('better', []))}, worse in {len(by.get('worse', []))}, mixed in "
             f"{len(by.get('mixed', []))} and the same in {len(by.get('the same', []))}; "
             f"{len(by.get(None, []))} have a side that did not compile (row by row below).")
    return text


def reg_number(v):
    r = v["resources"]
    return r["registers"] if "registers" in r else r.get("vgpr", 0) + r.get("agpr", 0)


def conversion_details(row):
    """The model's price of each conversion, Triton's side then the planner's."""
    if not row["compare"]:
        return [f"  - planner solve --compare input refused the file: {row['compare_error']}"]
    lines = []
    if "no_plan" in row["compare"]:
        lines.append("  - the input's own layouts have no plan in the model: "
                     + row["compare"]["no_plan"].replace(ROOT + "/", ""))
    for who, convs in (("the input's (Triton's side)", row["compare"].get("conversions", [])),
                       ("the planner's", row["plan_conversions"])):
        items = priced(convs)
        body = "; ".join(f"{label}: {kind} {cost}" for label, kind, cost in items) or "none"
        lines.append(f"  - {who}: {body}")
    return lines


# ------------------------------------------------------------- three rankings

TIMED = "docs/timed.json"
SAME_BAND = 0.03  # a time within 3% of the other side's is "the same" (round-to-round spread is ~1%)


def load_timings(root):
    """docs/timed.json (oracle/timed.py store), or None where there is none."""
    path = os.path.join(root, TIMED)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def model_says(row):
    """"better", "worse", "the same" for the planner's plan against the input's
    own layouts by the model's costs; None without a comparison."""
    c = row["compare"]
    if not c:
        return None
    if "no_plan" in c:
        return "better"
    return "better" if c["cost"] < c["baseline_cost"] else "worse" if c["cost"] > c["baseline_cost"] else "the same"


def timing(row, timings):
    """(Triton's µs, the planner's µs, check) measured on the very PTX this
    run compiled for each side, or None where the stored times are of other
    code or absent."""
    if not timings:
        return None
    t = next((r for r in timings["rows"] if r["name"] == row["name"]), None)
    if not t or len(t.get("sides", {})) != 2:
        return None
    for side in SIDES:
        v = row["compiled"][side]
        if not v.get("ok") or v.get("ptx_sha") != t["sides"][side]["sha"]:
            return None
    return t["sides"]["triton"]["us"], t["sides"]["planner"]["us"], t.get("check", {})


def clock_says(ratio):
    return "better" if ratio < 1 - SAME_BAND else "worse" if ratio > 1 + SAME_BAND else "the same"


def same_result(check):
    """Whether both sides wrote the same values (within f16 rounding), and the
    largest difference over the buffers the kernel wrote."""
    diffs = [c["max_abs_diff"] for c in check.values() if c["written"]]
    ok = all(c["same_nan"] and c["max_abs_diff"] <= 1e-2 * max(1.0, c["max_abs"]) for c in check.values())
    return ok, max(diffs) if diffs else 0.0


def rank_row(row, timings):
    """One row of the ranking table, and the verdict the model is judged by
    (the clock's where there is one, else the counts' unless mixed)."""
    m, c = model_says(row), verdict(row)
    t = timing(row, timings)
    cells = [f"`{row['name']}`", row["target"], model_costs(row), m or "—", c or "—"]
    judge_by = None
    if t:
        ratio = t[1] / t[0]
        ok, diff = same_result(t[2])
        cells += [f"{t[0]:.1f} / {t[1]:.1f} ({ratio:.2f})", clock_says(ratio),
                  ("yes" if ok else "**no**") + f" ({diff:.3g})"]
        judge_by = clock_says(ratio)
    else:
        cells += ["not timed" if row["target"].startswith("hip") else "not timed at this code", "—", "—"]
        if c in ("better", "worse", "the same"):
            judge_by = c
    agree = "—" if m is None or judge_by is None else ("yes" if m == judge_by else "**no**")
    cells.append(agree)
    return "| " + " | ".join(str(x) for x in cells) + " |", m, judge_by


RANK_HEADINGS = ("kernel", "target", "model cost", "model says", "counts say", "time µs: Triton / planner (ratio)",
                 "clock says", "same result (max abs diff)", "model agrees")


def ranking(rows, root):
    """The section ranking each row's two sides three ways."""
    timings = load_timings(root)
    where = (f"`{TIMED}` (`oracle/timed.py`: {timings['gpu']}, driver {timings['driver']}, measured at "
             f"revision `{timings['revision']}`; {timings['method']})") if timings else f"`{TIMED}` (absent)"
    out = ["", "## Ranked three ways", "",
           "Each row says whether the planner's side is better, worse or the same as Triton's by three "
           "judges: **the model** (the plan's cost against the input's own layouts, the model cost column), "
           "**the compiled counts** (the verdict of Row by row below: better or worse only when every count "
           "agrees, else mixed) and **the clock**: both sides' compiled kernels run on a GPU, from " + where +
           ". A time is shown only where the PTX this run compiled is the PTX that was timed (same digest, "
           "`compiled.ptx_digest`); else \"not timed at this code\". The clock calls a side better or worse "
           f"beyond {SAME_BAND:.0%}. The sm_80 rows' PTX is compiled by the driver for the GPU at hand (an "
           "sm_90 part), so their times rank two sm_80 programs on Hopper, not on an A100. \"same result\" "
           "compares every buffer after one launch of each side on the same random inputs (difference at most "
           "1% of the largest value). The model is judged by the clock where there is a time, else by the "
           "counts unless they are mixed.", "",
           "| " + " | ".join(RANK_HEADINGS) + " |", "|" + "---|" * len(RANK_HEADINGS)]
    judged = agreed = 0
    for r in rows:
        line, m, j = rank_row(r, timings)
        out.append(line)
        if m and j:
            judged += 1
            agreed += m == j
    out += ["", f"The model ranks the two sides as its judge does in {agreed} of the {judged} rows that have one."]
    return out


def versions(root):
    import triton
    from triton.backends.nvidia.compiler import get_ptxas_version
    rev = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=root, capture_output=True,
                         text=True).stdout.strip()
    ptxas = {a: next((l for l in get_ptxas_version(a).splitlines() if "release" in l), "?").strip()
             for a in (80, 90)}
    return triton.__version__, rev, ptxas


def command(cfg):
    """The command that regenerates this doc: COMMAND with the options that
    differ from their defaults."""
    extra = []
    if cfg["rest"]:
        extra.append("--rest-passes")
    if cfg["trips"] != DEFAULTS["trips"]:
        extra.append(f"--trips {cfg['trips']}")
    if cfg["runs"] != DEFAULTS["runs"]:
        extra.append(f"--runs {cfg['runs']}")
    if cfg["out"] and cfg["out"] != DEFAULT_OUT:
        extra.append(f"--out {cfg['out']}")
    return " ".join([COMMAND] + extra)


def rest_sentence(rest):
    if rest:
        return ("Before that, Triton's remaining make_ttgir passes (`rest_passes` of `oracle/triton_stages.py`: "
                "loop fusion, software pipelining, prefetch, reduce_data_duplication, reordering) run on both "
                "sides (`--rest-passes`), as `triton.compile` of the Python kernel would run them; the "
                "`convert_layout` counts are still of the files before them.")
    return ("Triton's make_ttgir passes after the layout passes (pipelining, prefetch, a last "
            "remove_layout_conversions, reduce_data_duplication: `rest_passes` of `oracle/triton_stages.py`) run "
            "on neither side, though `triton.compile` of the Python kernel would run them; `--rest-passes` runs "
            "them on both (`" + command(dict(DEFAULTS, rest=True, out=REST_OUT)) + "` writes that table), "
            "and the two tables can differ much: read both.")


def document(rows, root, cfg):
    runs, trips = cfg["runs"], cfg["trips"]
    tv, rev, ptxas = versions(root)
    out = [
        "# The planner's TTGIR and Triton's own, compiled",
        "",
        "Generated; do not edit. Regenerate from the repository root with",
        "",
        "```sh",
        command(cfg),
        "```",
        "",
        f"(`oracle/compiled.py`; triton {tv}; the planner at git revision `{rev}`, built by the script "
        f"with `go build`; ptxas as Triton runs it: {ptxas[80]} for sm_80, {ptxas[90]} for sm_90.)",
        "",
        "Each row is one TTGIR file: `testdata/triton/<kernel>_<target>.ttgir`, Triton's own TTGIR "
        "after its layout passes (`layout_passes` of `oracle/triton_stages.py`) with the TTIR it came "
        "from beside it, and `examples/ttgir/*.ttgir`, written by hand as Triton prints after "
        "accelerate-matmul (no TTIR). In each cell **Triton's value comes first, the planner's second**: "
        "Triton's side is the file as it is; the planner's is what `planner solve FILE --format mlir` "
        "writes. Both are compiled by `triton.compile` from the ttgir stage for the file's `ttg.target` "
        "(sm_80 and sm_90 to PTX and a cubin, gfx942 to AMDGCN), with always_compile set and a fresh "
        "cache. " + rest_sentence(cfg["rest"]) + " The planner runs with `--trips " + str(trips) + "`: a loop whose bounds are not "
        "constants (the testdata kernels' K and sequence loops) is priced at " + str(trips) + " trips "
        "(docs/mlir.md); loops with constant bounds keep theirs.",
        "",
        "**Counts are static**: instructions as they are written in the compiled code (PTX, or AMDGCN), "
        "so a loop body counts once, however many times it runs. They are counted by `oracle/asmcount.py` "
        "(tested by `oracle/test_asmcount.py`).",
        "",
        "| column | what it counts |",
        "|---|---|",
        "| compiles | whether `triton.compile` compiled the side; where not, the first error line is below the table |",
        "| `convert_layout` ops | `ttg.convert_layout` ops in the side's TTGIR. The planner's count includes the "
        "conversions that only rename a layout (docs/triton.md, What is written), which move nothing |",
        "| model cost | the planner's cost model: the input's own layouts priced (`compare.baseline_cost` of "
        "`planner solve FILE --compare input --format json`) / the plan's cost (`compare.cost`); \"no plan\" where "
        "the input's own layouts exceed the model's limits (`compare.no_plan`, docs/triton.md) |",
        "| conversions priced | the **sum** of the model's prices of the conversions, and their number: Triton's "
        "side the input's own conversions (`compare.conversions`), the planner's the plan's (`conversions`); "
        "each listed below the table |",
        "| shared loads | PTX `ld.shared*`, `ldmatrix`; AMDGCN `ds_read*`, `ds_load*` |",
        "| shared stores | PTX `st.shared*`, `stmatrix`; AMDGCN `ds_write*`, `ds_store*` |",
        "| shuffles | PTX `shfl.sync`; AMDGCN `ds_bpermute`, `ds_permute`, `ds_swizzle` and VALU instructions with a "
        "DPP control (`quad_perm`, `row_shr`, `row_bcast`, ...) or a `_dpp` opcode |",
        "| barriers | CTA-wide barriers: PTX `bar.sync`, `barrier.sync` (and their `.red`, `.arrive` forms), "
        "AMDGCN `s_barrier`; `+Nw` adds PTX's `bar.warp.sync`, which waits for one warp's lanes only (in the "
        "PTX here it sits between the shared stores and loads of a layout conversion) |",
        "| registers | NVIDIA: ptxas -v's \"Used N registers\" per thread; AMD: the code object's `.vgpr_count`, "
        "`.agpr_count`, `.sgpr_count` (as vN aN sN) |",
        "| live at once | NVIDIA: the most general registers live at one instruction of ptxas's SASS "
        "(oracle/sassregs.py: the same PTX assembled by the wheel's ptxas-blackwell and read with nvdisasm "
        "--print-life-ranges). ptxas's count is 2 more than the registers its SASS names, which are never fewer "
        "than this; the difference is registers its allocation leaves unused. — on AMD, or where nvdisasm "
        "refuses the cubin (it reads no kernel of 255 registers) |",
        "| model registers | the planner's register model, 32-bit registers per lane (docs/graphs.md, Registers): "
        "the input's own layouts (`compare.baseline_estimate`) / the plan's (`registers.estimate`), the peak as ptxas "
        "holds registers where they are plentiful (every row's address formed ahead, the loads outside loops issued early, an mma's operands loaded "
        "whole, the shared-memory addresses of loops and a reduction's partial results kept, conversions' copies "
        "and in-loop addresses, the coordinates masks are formed from), and in parentheses "
        "where lower the floor the budget is checked at (`compare.baseline_registers`, `registers.peak`; where the "
        "input's layouts exceed the budget, the peak they hold with spilling allowed); on NVIDIA both count the "
        "tensors' values and what model/held.go's rules say the compiled code holds besides them (global "
        "addresses, per-row offsets and bases of the loads and stores in loops, loop counters and run-time bounds, "
        "the masks a lane holds beyond the 5 it keeps in predicate registers, the stack pointer and thread index, the 2 "
        "registers ptxas counts and never names), not the addresses of conversions outside loops or what ptxas's "
        "schedule adds beyond these; on AMD the values only |",
        "| spill bytes | NVIDIA: ptxas -v's spill stores plus spill loads, in bytes; AMD: "
        "`.private_segment_fixed_size`, the scratch bytes per lane |",
        "| shared bytes | the shared memory (LDS) the compiled kernel allocates, Triton's `metadata.shared` |",
        "| Triton layout passes ms | Triton's own layout passes (`layout_passes` in `oracle/triton_stages.py`) on "
        f"the parsed TTIR, median of {runs} runs in this process (parsing not counted); — for the examples, "
        "which have no TTIR |",
        "| planner solve ms | the wall time of the `planner solve FILE --format mlir` process (reading, solving, "
        f"writing), median of {runs} runs, in the same run |",
        "| planner / Triton time | the two times' ratio |",
        "",
        "Sources for what each instruction does: NVIDIA's *Parallel Thread Execution ISA* (Data Movement "
        "and Conversion Instructions: `ld`, `st`, `ldmatrix`, `stmatrix`, `shfl.sync`; Parallel Synchronization "
        "and Communication Instructions: `bar`/`barrier`, `bar.warp.sync`); AMD's *AMD Instinct MI300 ISA "
        "Reference Guide* (CDNA3: LDS instructions `DS_READ`/`DS_WRITE`, `DS_PERMUTE_B32`, `DS_BPERMUTE_B32`, "
        "`DS_SWIZZLE_B32`; Data Parallel Processing; `S_BARRIER`); LLVM's *AMDGPUUsage* (the code object "
        "metadata keys); the ptxas flags are those of `make_cubin` in `triton/backends/nvidia/compiler.py` "
        "(triton 3.9.0).",
        "",
        "Not counted: `cp.async` and TMA copies into shared memory ("
        + ("which pipelining adds, on both sides alike" if cfg["rest"] else
           "the TTGIR here is before pipelining, and has none") + "), wgmma's reads of shared memory through descriptors (sm_90's `warp_group_dot` operands), "
        "`mbarrier` operations and `v_readlane`/`v_readfirstlane`.",
        "",
        "| " + " | ".join(HEADINGS) + " |",
        "|" + "---|" * len(HEADINGS),
    ]
    out += [table_row(r) for r in rows]
    out += ["", tally(rows) + " " + register_agreement(rows)]
    out += ["", "## Row by row", "",
            "Where the planner's compiled kernel is better or worse than Triton's own, by the compiled "
            "counts above (shared loads and stores, shuffles, CTA and warp barriers, registers, spill bytes; fewer is "
            "better), and the model's price of each conversion (`%value -> consumer (operand): mechanism "
            "cost`).", ""]
    for r in rows:
        out.append(f"- `{r['name']}` ({r['target']}): {comparison(r)}")
        for s in SIDES:
            if not r["compiled"][s].get("ok"):
                out.append(f"  - {'Triton' if s == 'triton' else 'the planner'}'s side "
                           f"{r['compiled'][s]['message']}")
        if r.get("triton_error"):
            out.append(f"  - Triton's layout passes failed: {r['triton_error']}")
        out += conversion_details(r)
    out += ranking(rows, root)
    return "\n".join(out) + "\n"


# ------------------------------------------------------------- main


def main(argv):
    cfg = dict(DEFAULTS)
    out, only = None, None
    args = list(argv[1:])
    while args:
        a = args.pop(0)
        if a == "--out":
            out = args.pop(0)
        elif a == "--only":
            only = args.pop(0)
        elif a == "--runs":
            cfg["runs"] = int(args.pop(0))
        elif a == "--trips":
            cfg["trips"] = int(args.pop(0))
        elif a == "--rest-passes":
            cfg["rest"] = True
        elif a == "--keep":
            cfg["keep"] = os.path.abspath(args.pop(0))
        else:
            sys.stderr.write(__doc__)
            return 2
    if out is None and not only:
        out = DEFAULT_OUT
    cfg["out"] = out
    if cfg["rest"] and not have_stage("rest_passes"):
        sys.stderr.write("compiled.py: --rest-passes needs oracle/triton_stages.py's rest_passes\n")
        return 2
    tmp = tempfile.mkdtemp(prefix="planner-compiled-")
    os.environ["TRITON_CACHE_DIR"] = os.path.join(tmp, "triton-cache")
    if cfg["keep"]:
        os.makedirs(cfg["keep"], exist_ok=True)
    try:
        exe = build_planner(ROOT, tmp)
        todo = selected(inputs(ROOT), only)
        if not todo:
            sys.stderr.write(f"compiled.py: no input matches {only!r}\n")
            return 1
        rows = []
        for name, ttgir, ttir in todo:
            sys.stderr.write(f"compiled.py: {name}\n")
            rows.append(measure(name, ttgir, ttir, exe, tmp, cfg))
        text = document(rows, ROOT, cfg)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if out:
        with open(os.path.join(ROOT, out), "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
