"""Runs Triton's own TTGIR and the planner's, compiled, on an NVIDIA GPU:
checks that both compute the same result on the same random inputs, and
times them. Writes docs/timed.json, which oracle/compiled.py reads into
docs/compiled.md's ranking of the two sides.

Three steps, because the GPU is on another machine than the compilers:

    export PLANNER_ORACLE_PYTHON=$(oracle/setup.sh)
    "$PLANNER_ORACLE_PYTHON" oracle/timed.py prepare BUNDLE    # here: compile both sides to PTX
    python3 oracle/timed.py run BUNDLE > BUNDLE/results.json   # on the GPU machine (CuPy)
    "$PLANNER_ORACLE_PYTHON" oracle/timed.py store BUNDLE [--out docs/timed.json]

prepare takes every NVIDIA row of docs/compiled.md (testdata/triton's and
examples/ttgir's files whose ttg.target is cuda:NN), writes the planner's
TTGIR (planner solve --format mlir, built here), compiles both sides with
triton.compile from the ttgir stage for the file's target, as
oracle/compiled.py does, and keeps each side's PTX with a manifest of the
kernel's name, warps, shared memory, parameters and the workload below.

run needs only Python, NumPy and CuPy. It loads each PTX with the CUDA
driver (cuModuleLoadData JIT-compiles it for the GPU at hand: PTX written
for sm_80 runs on an sm_90 part, so the sm_80 rows are timed on the same
chip as the sm_90 rows, not on an A100), fills every buffer with the same
random data for both sides, runs each side once and compares every buffer
afterwards, then times each side in alternating rounds with CUDA events.

store keeps, for each row and side, the time and the digest of the PTX that
was timed (compiled.ptx_digest): compiled.py shows a time only beside the
very PTX it compiles itself, so a time never outlives the code it measured.
"""

import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

SIDES = ("triton", "planner")
DEFAULT_OUT = "docs/timed.json"

# The workload of each kernel: the grid, the scalar arguments by name, and the
# elements every pointer argument's buffer holds. Chosen so that every address
# a program forms stays inside its buffers (the kernels' own offsets, read from
# each file: e.g. examples' attention adds program_id(y) * 65536 elements and
# loops to 1024 rows of 64) and the grid fills the GPU's 132 SMs at least once.
WORKLOADS = {
    "testdata/triton/flash_attention": {
        "grid": (256, 1, 1), "elements": 16384 * 64,
        "values": {"seq_len": 16384, "stride_row": 64, "sm_scale": 0.125}},
    "testdata/triton/layernorm": {
        "grid": (8192, 1, 1), "elements": 65536 * 256,
        "values": {"n_rows": 65536, "n_cols": 256, "stride": 256, "eps": 1e-5}},
    "testdata/triton/matmul_bias_relu": {
        "grid": (64, 64, 1), "elements": 4096 * 4096,
        "values": {"M": 4096, "N": 4096, "K": 4096, "stride_am": 4096, "stride_bk": 4096, "stride_cm": 4096}},
    "testdata/triton/softmax": {
        "grid": (16384, 1, 1), "elements": 65536 * 512,
        "values": {"n_rows": 65536, "n_cols": 512, "in_stride": 512, "out_stride": 512}},
    "testdata/triton/transpose": {
        "grid": (128, 128, 1), "elements": 8192 * 8192,
        "values": {"M": 8192, "N": 8192, "in_stride": 8192, "out_stride": 8192}},
    "examples/ttgir/chained_dots": {
        "grid": (1024, 1, 1), "elements": 1024 * 128 * 64, "values": {}},
    "examples/ttgir/flash_attention_fwd": {
        "grid": (16, 32, 1), "elements": 32 * 65536,
        "values": {"sm_scale": 0.125, "stride_qm": 64, "stride_kn": 64, "stride_vk": 64, "stride_om": 64}},
    "examples/ttgir/layernorm": {
        "grid": (4096, 1, 1), "elements": 4096 * 16 * 256,
        "values": {"stride": 256, "eps": 1e-5}},
    "examples/ttgir/matmul_bias_relu": {
        "grid": (32 * 32, 1, 1), "elements": 4096 * 4096,
        "values": {"M": 4096, "N": 4096, "stride_am": 4096, "stride_bk": 4096, "stride_cm": 4096}},
    "examples/ttgir/softmax": {
        "grid": (8192, 1, 1), "elements": 8192 * 8 * 512,
        "values": {"input_row_stride": 512, "output_row_stride": 512, "n_cols": 512}},
    "examples/ttgir/transpose_smem": {
        "grid": (64, 64, 1), "elements": 4096 * 4096,
        "values": {"in_stride": 4096, "out_stride": 4096}},
}


def workload_of(name):
    """The workload of a row (testdata/triton/flash_attention_sm80 ->
    testdata/triton/flash_attention): its name without the target suffix."""
    base = re.sub(r"_(sm\d+|gfx\d+)$", "", name)
    return WORKLOADS.get(base)


# ------------------------------------------------------------- prepare (here)


def signature(text):
    """[(name, type)] of the public tt.func's arguments: type is "ptr:f16",
    "i32", "f32"."""
    m = re.search(r"tt\.func public @\w+\((.*?)\)\s*attributes", text, re.S)
    if not m:
        raise ValueError("no public tt.func")
    out = []
    for a in re.finditer(r"%(\w+):\s*(!tt\.ptr<(\w+)>|i32|f32|i64)", m.group(1)):
        out.append((a.group(1), "ptr:" + a.group(3) if a.group(3) else a.group(2)))
    return out


def ptx_job(job):
    """In a child process: compiles job["file"] from the ttgir stage for its
    target; the PTX and what launching it needs."""
    import judge
    import triton
    from triton import knobs
    knobs.compilation.always_compile = True
    text = open(job["file"]).read()
    _, target = judge.target_of(text, None)
    k = triton.compile(job["file"], target=target)
    md = k.metadata
    return {"ok": True, "stage": "", "message": "", "target": "", "ptx": k.asm["ptx"], "kernel": md.name,
            "num_warps": md.num_warps, "shared": md.shared,
            "global_scratch_size": getattr(md, "global_scratch_size", 0) or 0,
            "global_scratch_align": getattr(md, "global_scratch_align", 1) or 1,
            "profile_scratch_size": getattr(md, "profile_scratch_size", 0) or 0}


def prepare(bundle):
    import compiled
    import judge
    os.makedirs(bundle, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="planner-timed-")
    os.environ["TRITON_CACHE_DIR"] = os.path.join(tmp, "triton-cache")
    rows = []
    try:
        exe = compiled.build_planner(ROOT, tmp)
        for name, ttgir, _ in compiled.inputs(ROOT):
            text = open(ttgir).read()
            if 'ttg.target = "cuda:' not in text:
                continue
            work = workload_of(name)
            if work is None:
                sys.stderr.write(f"timed.py: {name}: no workload, skipped\n")
                continue
            sys.stderr.write(f"timed.py: {name}\n")
            short = os.path.basename(name)
            mine = os.path.join(tmp, short + ".planner.ttgir")
            solve = compiled.planner_solve(exe, ttgir, mine, 1, 16)
            row = {"name": name, "target": judge.target_of(text, None)[0], "args": signature(text),
                   "workload": work, "sides": {}}
            files = {"triton": ttgir}
            if solve["ok"]:
                files["planner"] = mine
            for side, path in files.items():
                v = judge.run_child(ptx_job, {"file": path})
                if not v.get("ok"):
                    row["sides"][side] = {"ok": False, "message": compiled.first_line(v.get("message", ""))}
                    continue
                ptx_name = f"{name.replace('/', '.')}.{side}.ptx"
                with open(os.path.join(bundle, ptx_name), "w") as f:
                    f.write(v.pop("ptx"))
                v["ptx"] = ptx_name
                v["sha"] = compiled.ptx_digest(open(os.path.join(bundle, ptx_name)).read())
                row["sides"][side] = v
            rows.append(row)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    with open(os.path.join(bundle, "manifest.json"), "w") as f:
        json.dump({"revision": revision(), "rows": rows}, f, indent=1)
    return 0


def revision():
    p = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=ROOT, capture_output=True, text=True)
    return p.stdout.strip()


# ------------------------------------------------------------- run (GPU machine)


def ptx_params(ptx, kernel):
    """The .param types of kernel's .entry in ptx, in order (u64, u32, f32, ...)."""
    m = re.search(r"\.entry\s+" + re.escape(kernel) + r"\s*\((.*?)\)", ptx, re.S)
    if not m:
        raise ValueError(f"no .entry {kernel} in the PTX")
    return re.findall(r"\.param\s+\.(\w+)", m.group(1))


def loadable(ptx, max_version):
    """ptx with its .version lowered to what the driver reads, where it is newer."""
    m = re.search(r"^\.version (\d+)\.(\d+)", ptx, re.M)
    if m and (int(m.group(1)), int(m.group(2))) > max_version:
        ptx = ptx[:m.start()] + ".version %d.%d" % max_version + ptx[m.end():]
    return ptx


def run(bundle):
    import cupy as cp
    import numpy as np
    manifest = json.load(open(os.path.join(bundle, "manifest.json")))
    dev = cp.cuda.Device(0)
    props = cp.cuda.runtime.getDeviceProperties(0)
    out = {"revision": manifest["revision"], "gpu": props["name"].decode(),
           "driver": cp.cuda.runtime.driverGetVersion(), "rows": []}
    for row in manifest["rows"]:
        sys.stderr.write(f"timed.py run: {row['name']}\n")
        res = {"name": row["name"], "target": row["target"], "sides": {}}
        try:
            res.update(run_row(cp, np, bundle, row))
        except Exception as e:  # one row's failure is reported, not fatal
            res["error"] = f"{type(e).__name__}: {e}"[:300]
        out["rows"].append(res)
        cp.get_default_memory_pool().free_all_blocks()
    dev.synchronize()
    json.dump(out, sys.stdout, indent=1)
    return 0


def run_row(cp, np, bundle, row):
    work = row["workload"]
    grid = tuple(work["grid"])
    n = work["elements"]
    programs = grid[0] * grid[1] * grid[2]
    rng = cp.random.default_rng(2026)
    init = []
    for name, typ in row["args"]:
        if typ.startswith("ptr:"):
            dt = {"f16": np.float16, "f32": np.float32, "bf16": np.float16, "i32": np.int32}[typ[4:]]
            init.append((name, rng.uniform(-1.0, 1.0, n, dtype=np.float32).astype(dt)))
    kernels = {}
    for side, v in row["sides"].items():
        if not v.get("ok"):
            continue
        ptx = open(os.path.join(bundle, v["ptx"])).read()
        err = None
        for version in ((9, 9), (9, 0), (8, 8), (8, 7)):
            try:
                path = os.path.join(bundle, f".{v['ptx']}.{version[0]}{version[1]}.ptx")
                with open(path, "w") as f:
                    f.write(loadable(ptx, version))
                mod = cp.RawModule(path=path)
                fn = mod.get_function(v["kernel"])
                break
            except Exception as e:  # the driver refuses a PTX version it does not read
                err = e
        else:
            raise RuntimeError(f"{side}: the driver loads no version of its PTX: {err}")
        if v["shared"] > 48 * 1024:
            raise ValueError(f"{side}: {v['shared']} bytes of shared memory: over the 48 KiB a launch "
                             "gets without the opt-in attribute, which this runner does not set")
        kernels[side] = (fn, v, ptx_params(ptx, v["kernel"]))
    results, buffers = {}, {}
    for side, (fn, v, params) in kernels.items():
        bufs = [(name, a.copy()) for name, a in init]
        args = launch_args(cp, np, row, v, params, bufs, programs)
        fn(grid, (32 * v["num_warps"], 1, 1), args, shared_mem=v["shared"])
        cp.cuda.Device(0).synchronize()
        buffers[side] = bufs
        results[side] = {"params": len(params)}
    check = {}
    if len(buffers) == 2:
        for (name, a), (_, b) in zip(buffers["triton"], buffers["planner"]):
            x, y = a.astype(cp.float32), b.astype(cp.float32)
            same_nan = bool(cp.all(cp.isnan(x) == cp.isnan(y)))
            x, y = cp.nan_to_num(x, nan=0.0), cp.nan_to_num(y, nan=0.0)
            diff = float(cp.max(cp.abs(x - y)))
            scale = float(cp.max(cp.abs(x)))
            changed = bool(cp.any(a != dict(init)[name]))
            check[name] = {"max_abs_diff": diff, "max_abs": scale, "same_nan": same_nan, "written": changed}
    # timing: alternate the sides, ROUNDS rounds of LAUNCHES launches each
    rounds, launches = 15, 10
    times = {s: [] for s in kernels}
    live = {}
    for side, (fn, v, params) in kernels.items():
        live[side] = launch_args(cp, np, row, v, params, buffers[side], programs)
        for _ in range(3):
            fn(grid, (32 * v["num_warps"], 1, 1), live[side], shared_mem=v["shared"])
    cp.cuda.Device(0).synchronize()
    for r in range(rounds):
        order = list(kernels) if r % 2 == 0 else list(reversed(list(kernels)))
        for side in order:
            fn, v, _ = kernels[side]
            start, stop = cp.cuda.Event(), cp.cuda.Event()
            start.record()
            for _ in range(launches):
                fn(grid, (32 * v["num_warps"], 1, 1), live[side], shared_mem=v["shared"])
            stop.record()
            stop.synchronize()
            times[side].append(cp.cuda.get_elapsed_time(start, stop) * 1000.0 / launches)
    for side in kernels:
        results[side]["us"] = statistics.median(times[side])
        results[side]["us_min"] = min(times[side])
        results[side]["us_max"] = max(times[side])
    return {"sides": results, "check": check, "grid": list(grid)}


def launch_args(cp, np, row, v, params, bufs, programs):
    """The kernel's arguments: the function's own, in order, then a scratch
    buffer for each further pointer parameter Triton appends (its global and
    profile scratch)."""
    values = row["workload"]["values"]
    ptrs = iter(bufs)
    args = []
    for name, typ in row["args"]:
        if typ.startswith("ptr:"):
            args.append(next(ptrs)[1])
        elif typ == "i32":
            args.append(np.int32(values[name]))
        elif typ == "i64":
            args.append(np.int64(values[name]))
        else:
            args.append(np.float32(values[name]))
    extra = params[len(args):]
    sizes = [v["global_scratch_size"], v["profile_scratch_size"]]
    for i, p in enumerate(extra):
        if p != "u64":
            raise ValueError(f"parameter {len(args) + i} is .{p}: expected a scratch pointer")
        per = sizes[i] if i < len(sizes) else 0
        args.append(cp.zeros(max(1 << 20, per * programs), dtype=cp.uint8))
    return args


# ------------------------------------------------------------- store (here)


def store(bundle, out):
    """docs/timed.json from the bundle's manifest and the GPU's results.json."""
    manifest = json.load(open(os.path.join(bundle, "manifest.json")))
    results = json.load(open(os.path.join(bundle, "results.json")))
    timed = {r["name"]: r for r in results["rows"]}
    rows = []
    for m in manifest["rows"]:
        r = timed.get(m["name"], {})
        row = {"name": m["name"], "target": m["target"], "grid": m["workload"]["grid"], "sides": {}}
        if r.get("error"):
            row["error"] = r["error"]
        for side, v in m["sides"].items():
            t = r.get("sides", {}).get(side)
            if v.get("ok") and t:
                row["sides"][side] = {"sha": v["sha"], "us": round(t["us"], 2), "us_min": round(t["us_min"], 2),
                                      "us_max": round(t["us_max"], 2)}
        if r.get("check"):
            row["check"] = r["check"]
        rows.append(row)
    doc = {"revision": manifest["revision"], "gpu": results["gpu"], "driver": results["driver"],
           "method": "median over 15 alternating rounds of 10 launches, CUDA events; PTX loaded "
                     "by the driver (JIT for the GPU at hand); inputs uniform in [-1, 1]",
           "rows": rows}
    with open(os.path.join(ROOT, out), "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")
    return 0



def main(argv):
    if len(argv) >= 3 and argv[1] == "prepare":
        return prepare(os.path.abspath(argv[2]))
    if len(argv) >= 3 and argv[1] == "run":
        return run(os.path.abspath(argv[2]))
    if len(argv) >= 3 and argv[1] == "store":
        out = DEFAULT_OUT
        if "--out" in argv:
            out = argv[argv.index("--out") + 1]
        return store(os.path.abspath(argv[2]), out)
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
