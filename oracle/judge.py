"""The real compilers as judges of what the planner writes.

    judge.py ttgir [--no-compile] [--target cuda:80] [--keep DIR] FILE...
    judge.py iree FILE...
    judge.py ttgir --jobs -      (a JSON list of jobs on standard input)

ttgir: each file is parsed and verified in Triton's own MLIR context with
Triton's dialects and the target backend's loaded (triton._C.libtriton.ir
parse_mlir_module, which runs MLIR's verifier), then compiled from the
ttgir stage by triton.compile for its target: "cuda:80" and "cuda:90" to
PTX and a cubin through the ptxas the wheel ships, "hip:gfx942" to
AMDGCN. The target is the module's ttg.target, or the job's when given.

iree: each file is parsed and verified in IREE's own context
(iree.compiler.ir), with IREE's dialects registered and unregistered
dialects refused.

The verdicts are one JSON list on standard output, one object per job:
{"file", "ok", "stage" ("parse", "compile" or "" when ok), "message",
"target"}, and with --keep the compiled assembly and ptxas's report in DIR.
Each job runs in a child process of its own, so that a crash of the
compiler is that job's verdict, not the end of the run.
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
        m = re.search(r'ttg\.target\s*=\s*"([^"]+)"', text)
        if not m:
            raise ValueError("the module has no ttg.target and the job names none")
        name = m.group(1)
    backend, arch = name.split(":")[:2]
    if backend == "cuda":
        return name, GPUTarget("cuda", int(arch), 32)
    if backend == "hip":
        return name, GPUTarget("hip", arch, 64)
    raise ValueError(f"unknown target {name!r}: want cuda:NN or hip:gfxNNN")


def judge_ttgir(job):
    path = job["file"]
    text = open(path).read()
    verdict = {"file": path, "ok": False, "stage": "parse", "message": "", "target": ""}
    name, target = target_of(text, job.get("target"))
    verdict["target"] = name
    from triton._C.libtriton import ir
    from triton.compiler.compiler import make_backend
    backend = make_backend(target)
    ctx = ir.context()
    ir.load_dialects(ctx)
    backend.load_dialects(ctx)
    ir.parse_mlir_module(path, ctx)  # parses and verifies; raises on either
    if not job.get("compile", True):
        verdict.update(ok=True, stage="")
        return verdict
    verdict["stage"] = "compile"
    import triton
    from triton import knobs
    knobs.compilation.always_compile = True
    kernel = triton.compile(path, target=target)
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


def judge_iree(job):
    path = job["file"]
    verdict = {"file": path, "ok": False, "stage": "parse", "message": "", "target": "iree"}
    from iree.compiler import ir
    with ir.Context() as ctx:
        ctx.allow_unregistered_dialects = False
        module = ir.Module.parse(open(path).read())
        if not module.operation.verify():
            raise ValueError("the module does not verify")
    verdict.update(ok=True, stage="")
    return verdict


def run_child(judge, job):
    """Runs judge(job) in a child process; its stderr (the compiler's
    diagnostics) becomes the message of a failed verdict."""
    rfd, wfd = os.pipe()
    errlog = tempfile.TemporaryFile()
    pid = os.fork()
    if pid == 0:
        os.close(rfd)
        os.dup2(errlog.fileno(), 2)
        os.dup2(errlog.fileno(), 1)
        try:
            verdict = judge(job)
        except BaseException as e:  # every failure is the job's verdict
            verdict = {"file": job["file"], "ok": False, "stage": getattr(e, "stage", ""),
                       "message": f"{type(e).__name__}: {e}", "target": job.get("target") or ""}
            if not str(e).strip():
                verdict["message"] += "\n" + traceback.format_exc()
        with os.fdopen(wfd, "w") as w:
            json.dump(verdict, w)
        os._exit(0)
    os.close(wfd)
    with os.fdopen(rfd) as r:
        out = r.read()
    _, status = os.waitpid(pid, 0)
    errlog.seek(0)
    diag = errlog.read().decode("utf-8", "replace")
    if out:
        verdict = json.loads(out)
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


def main(argv):
    if len(argv) < 2 or argv[1] not in ("ttgir", "iree"):
        sys.stderr.write(__doc__)
        return 2
    kind, args = argv[1], argv[2:]
    compile_, target, keep, files, jobs = True, None, None, [], None
    while args:
        a = args.pop(0)
        if a == "--no-compile":
            compile_ = False
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
        jobs = [{"file": f, "target": target, "compile": compile_, "keep": keep} for f in files]
    judge = judge_ttgir if kind == "ttgir" else judge_iree
    verdicts = [run_child(judge, job) for job in jobs]
    json.dump(verdicts, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
