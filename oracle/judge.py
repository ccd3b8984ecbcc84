"""The real compilers as judges of what the planner writes.

    judge.py ttgir [--no-compile] [--accelerate] [--target cuda:80] [--keep DIR] FILE...
    judge.py iree FILE...
    judge.py ttgir --jobs -      (a JSON list of jobs on standard input)

ttgir: each file is parsed and verified in Triton's own MLIR context with
Triton's dialects and the target backend's loaded (triton._C.libtriton.ir
parse_mlir_module, which runs MLIR's verifier), then compiled from the
ttgir stage by triton.compile for its target: "cuda:80" and "cuda:90" to
PTX and a cubin through the ptxas the wheel ships, "hip:gfx942" to
AMDGCN. The target is the module's ttg.target, or the job's when given.
A module with tensor descriptor loads or stores is compiled after
make_ttgir's TMA lowering (lower_descriptors). With --accelerate (a
job's "accelerate"), the module is compiled after the part of
make_ttgir from AccelerateMatmul on (accelerated): for a TTGIR as it
stands before Triton chooses its dots' instructions, such as a
tt.dot_scaled on blocked tensors for cuda:100, whose block-scaled
product only AccelerateMatmul makes (tcgen05, or the decomposition into
a tt.dot) and which no stage after ttgir lowers.

iree: each file is parsed and verified in IREE's own context
(iree.compiler.ir), with IREE's dialects registered and unregistered
dialects refused.

The verdicts are one JSON list on standard output, one object per job:
{"file", "ok", "stage" ("parse", "compile" or "" when ok), "message",
"target"}, and with --keep the compiled assembly and ptxas's report in DIR.
Each job runs in a child process of its own, so that a crash of the
compiler is that job's verdict, not the end of the run; as many at once
as there are CPUs (PLANNER_ORACLE_JOBS says otherwise).
"""

import json
import os
import re
import sys
import tempfile
import traceback

# Triton 3.9 warns once per process when this is unset; its default (fusion on) is kept.
os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")


def target_of(text, given):
    """The GPUTarget of a TTGIR module: the given one, else its ttg.target."""
    from triton.backends.compiler import GPUTarget
    name = given
    if not name:
        # The key as Triton prints it (ttg.target) or quoted, as
        # Triton's own lit tests write it ("ttg.target").
        m = re.search(r'"?(?:ttg|triton_gpu)\.target"?\s*=\s*"([^"]+)"', text)
        if not m:
            raise ValueError("the module has no ttg.target and the job names none")
        name = m.group(1)
    backend, arch = name.split(":")[:2]
    if backend == "cuda":
        return name, GPUTarget("cuda", int(arch), 32)
    if backend == "hip":
        # gfx10 and later (RDNA) run Triton's kernels in wave32, CDNA in
        # wave64 (triton/backends/amd/compiler.py, HIPOptions.__post_init__).
        major = int(arch[3:-2]) if arch.startswith("gfx") and arch[3:-2].isdigit() else 9
        return name, GPUTarget("hip", arch, 32 if major >= 10 else 64)
    raise ValueError(f"unknown target {name!r}: want cuda:NN or hip:gfxNNN")


def lower_descriptors(ctx, mod, path, text, target):
    """The file to compile from the ttgir stage: path itself, or, for a
    module that accesses memory through tensor descriptors
    (tt.descriptor_load, tt.descriptor_store) on NVIDIA, the module after
    make_ttgir's TMA lowering (add_tma_lowering, which make_ttgir runs for
    capability 9 and later, after the layout passes the planner reads
    behind), written to a file of its own: the stages after ttgir lower
    only the TMA copies that pass makes of them."""
    if target.backend != "cuda" or not re.search(r"\btt\.descriptor_(load|store)\b", text):
        return path
    from triton._C.libtriton import ir, nvidia
    pm = ir.pass_manager(ctx)
    nvidia.passes.ttnvgpuir.add_tma_lowering(pm)
    pm.run(mod, "tma_lowering")
    out = os.path.join(tempfile.mkdtemp(prefix="judge-tma-"), os.path.basename(path))
    with open(out, "w") as f:
        f.write(str(mod))
    return out


def accelerated(ctx, mod, path, text, target):
    """The file to compile for a module as it stands before Triton's
    AccelerateMatmul: the module after that pass and the rest of
    make_ttgir's layout passes (remove_layout_conversions,
    optimize_dot_operands; triton_stages._nvidia_layout) and its passes
    after them (triton_stages.rest_passes), written to a file of its own."""
    from triton._C.libtriton import ir, passes
    from triton.compiler.compiler import make_backend
    from triton_stages import rest_passes
    pm = ir.pass_manager(ctx)
    passes.ttgpuir.add_accelerate_matmul(pm)
    passes.ttgpuir.add_remove_layout_conversions(pm)
    passes.ttgpuir.add_optimize_dot_operands(pm, target.backend != "cuda" or int(target.arch) >= 80)
    pm.run(mod, "accelerate_matmul")
    mod.context = ctx  # as triton.compile does for IR it parses (triton/compiler/compiler.py)
    m = re.search(r'"?ttg\.num-warps"?\s*=\s*(\d+)', text)
    rest_passes(mod, target, make_backend(target).parse_options({"num_warps": int(m.group(1)) if m else 4}))
    out = os.path.join(tempfile.mkdtemp(prefix="judge-accelerated-"), os.path.basename(path))
    with open(out, "w") as f:
        f.write(mod.str())
    return out


def judge_ttgir(job, verdict):
    path = job["file"]
    text = open(path).read()
    name, target = target_of(text, job.get("target"))
    verdict["target"] = name
    from triton._C.libtriton import ir
    from triton.compiler.compiler import make_backend
    backend = make_backend(target)
    ctx = ir.context()
    ir.load_dialects(ctx)
    backend.load_dialects(ctx)
    mod = ir.parse_mlir_module(path, ctx)  # parses and verifies; raises on either
    if not job.get("compile", True):
        verdict.update(ok=True, stage="")
        return verdict
    verdict["stage"] = "compile"
    import triton
    from triton import knobs
    knobs.compilation.always_compile = True
    if job.get("accelerate"):
        src = accelerated(ctx, mod, path, text, target)
    else:
        src = lower_descriptors(ctx, mod, path, text, target)
    kernel = triton.compile(src, target=target)
    keep = job.get("keep")
    if keep:
        os.makedirs(keep, exist_ok=True)
        base = os.path.join(keep, os.path.basename(path))
        for ext in ("ptx", "amdgcn", "ttgir", "llir"):
            if ext in kernel.asm:
                with open(f"{base}.{ext}", "w") as f:
                    f.write(kernel.asm[ext])
        meta = {k: v for k, v in kernel.metadata._asdict().items() if isinstance(v, (int, str, float, bool))}
        with open(f"{base}.meta.json", "w") as f:
            json.dump(meta, f, indent=1, sort_keys=True)
    verdict.update(ok=True, stage="")
    return verdict


def judge_iree(job, verdict):
    path = job["file"]
    verdict["target"] = "iree"
    from iree.compiler import ir
    with ir.Context() as ctx:
        ctx.allow_unregistered_dialects = False
        module = ir.Module.parse(open(path).read())
        if not module.operation.verify():
            raise ValueError("the module does not verify")
    verdict.update(ok=True, stage="")
    return verdict


def start_child(judge, job):
    """Starts judge(job, verdict) in a child process; judge marks in the
    verdict the stage it is at, and raises where the compiler refuses. The
    child writes its verdict to one file and its stderr (the compiler's
    diagnostics) to another; finish reads them."""
    out, errlog = tempfile.TemporaryFile(), tempfile.TemporaryFile()
    pid = os.fork()
    if pid == 0:
        os.dup2(errlog.fileno(), 2)
        os.dup2(errlog.fileno(), 1)
        verdict = {"file": job["file"], "ok": False, "stage": "parse", "message": "",
                   "target": job.get("target") or ""}
        try:
            judge(job, verdict)
        except BaseException as e:  # every failure is the job's verdict
            verdict["ok"] = False
            verdict["message"] = f"{type(e).__name__}: {e}"
            if not str(e).strip():
                verdict["message"] += "\n" + traceback.format_exc()
        out.write(json.dumps(verdict).encode())
        out.flush()
        os._exit(0)
    return pid, out, errlog


def finish(job, status, out, errlog):
    """The verdict of a child that ended with the wait status given."""
    out.seek(0)
    text = out.read().decode()
    errlog.seek(0)
    diag = errlog.read().decode("utf-8", "replace")
    if text:
        verdict = json.loads(text)
    else:
        verdict = {"file": job["file"], "ok": False, "stage": "crash",
                   "message": f"the compiler died (wait status {status})", "target": job.get("target") or ""}
    if not verdict["ok"]:
        # the reproducer Triton prints on a failed pass is long: keep the errors
        lines = [l for l in diag.splitlines() if "error:" in l or "note:" in l]
        if not lines:
            lines = diag.splitlines()[-20:]
        verdict["message"] = (verdict["message"] + "\n" + "\n".join(lines)).strip()
    return verdict


def run_child(fn, job):
    """Runs fn(job), which returns a verdict of its own making (any further
    keys are kept), in a child process, and waits for it: the same
    isolation for other scripts' jobs (oracle/compiled.py's)."""
    def adapter(job, verdict):
        verdict.update(fn(job))
    pid, out, errlog = start_child(adapter, job)
    _, status = os.waitpid(pid, 0)
    return finish(job, status, out, errlog)


def run_all(judge, jobs, workers):
    """Every job's verdict, in the jobs' order, with at most workers
    children at a time."""
    verdicts, running, todo = [None] * len(jobs), {}, list(enumerate(jobs))
    while todo or running:
        while todo and len(running) < workers:
            i, job = todo.pop(0)
            pid, out, errlog = start_child(judge, job)
            running[pid] = (i, out, errlog)
        pid, status = os.wait()
        if pid in running:
            i, out, errlog = running.pop(pid)
            verdicts[i] = finish(jobs[i], status, out, errlog)
    return verdicts


def main(argv):
    if len(argv) < 2 or argv[1] not in ("ttgir", "iree"):
        sys.stderr.write(__doc__)
        return 2
    kind, args = argv[1], argv[2:]
    compile_, accelerate, target, keep, files, jobs = True, False, None, None, [], None
    while args:
        a = args.pop(0)
        if a == "--no-compile":
            compile_ = False
        elif a == "--accelerate":
            accelerate = True
        elif a == "--target":
            target = args.pop(0)
        elif a == "--keep":
            keep = args.pop(0)
        elif a == "--jobs":
            src = args.pop(0)
            jobs = json.load(sys.stdin if src == "-" else open(src))
        else:
            files.append(a)
    if jobs is None:
        jobs = [{"file": f, "target": target, "compile": compile_, "accelerate": accelerate, "keep": keep} for f in files]
    judge = judge_ttgir if kind == "ttgir" else judge_iree
    workers = int(os.environ.get("PLANNER_ORACLE_JOBS") or os.cpu_count() or 1)
    verdicts = run_all(judge, jobs, workers)
    json.dump(verdicts, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
