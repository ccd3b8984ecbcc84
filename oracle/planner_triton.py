"""Plan every Triton kernel's layouts with the planner, in one line:

    import planner_triton
    planner_triton.install(planner="planner", extra_args=["--trips", "16"])

After install, each kernel Triton compiles (triton.compile, or a @triton.jit
launch) has its ttgir stage replaced by

    layout_passes (oracle/triton_stages.py: Triton's own layout choice)
    -> the module written to a temporary NAME.ttgir
    -> planner solve NAME.ttgir --format mlir EXTRA_ARGS...
    -> the planned module parsed back in the same MLIR context
    -> rest_passes (pipelining and the rest of Triton's make_ttgir)

so that everything after (LLVM IR, PTX and cubin, or AMDGCN and hsaco) is
compiled from the planner's layouts. The planner must be able to plan the
kernel: a loop whose trip count is known only at run time needs --trips N
in extra_args (the count its body is priced at). A planner that fails
raises PlannerError with its message; nothing falls back silently.

How the hook is called (triton 3.9.0): triton.compile calls
knobs.runtime.add_stages_inspection_hook() with no arguments and adds the
(key, hash) pair it returns to the kernel's cache key
(triton/compiler/compiler.py, compile); the backend's add_stages calls it
with (backend, stages, options, language, capability) after filling stages,
where it may replace a stage (triton/backends/nvidia/compiler.py and
triton/backends/amd/compiler.py, add_stages). The key names the planner
binary's contents and the arguments, so a kernel planned by another planner
or with other arguments is compiled again, not taken from the cache.

    $PLANNER_ORACLE_PYTHON oracle/planner_triton.py --planner ./planner [--target sm80] [KERNEL]
    $PLANNER_ORACLE_PYTHON oracle/planner_triton.py --planner ./planner --all

compiles a kernel of oracle/kernels.py (matmul_bias_relu by default) for
the target with the hook installed, on the CPU, and shows the ttgir stage's
layouts and the binary's size; --all compiles every kernel for sm80, sm90
and gfx942 so, one line each.
"""

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


class PlannerError(RuntimeError):
    """The planner could not plan a kernel: its message, as it printed it."""


_installed = None


def install(planner="planner", extra_args=(), keep=None):
    """Sets triton.knobs.runtime.add_stages_inspection_hook so that every
    Triton kernel compiled from now on goes through the planner. planner is
    the planner binary (a path, or a name on PATH); extra_args are added to
    `planner solve FILE --format mlir`; keep, a folder, receives each
    kernel's TTGIR before and after planning (NAME.ttgir, NAME.planned.ttgir).
    Returns the hook."""
    global _installed
    from triton import knobs
    hook = PlannerHook(planner, list(extra_args), keep)
    knobs.runtime.add_stages_inspection_hook = hook
    _installed = hook
    return hook


def uninstall():
    """Removes the hook install set (Triton's stages are its own again)."""
    global _installed
    from triton import knobs
    if _installed is not None and knobs.runtime.add_stages_inspection_hook is _installed:
        knobs.runtime.add_stages_inspection_hook = None
    _installed = None


class PlannerHook:
    """The stages hook: called with no arguments for the cache key, and with
    (backend, stages, options, language, capability) to replace the ttgir
    stage of a Triton (not Gluon) kernel."""

    def __init__(self, planner, extra_args, keep):
        path = shutil.which(planner) or planner
        if not os.path.isfile(path):
            raise PlannerError(f"no planner binary at {planner!r} (build one: go build -o planner ./cmd/planner)")
        self.planner = os.path.abspath(path)
        self.extra_args = extra_args
        self.keep = keep

    def __call__(self, *args):
        if not args:
            return self.cache_key()
        backend, stages, options, language, _capability = args
        from triton.backends.compiler import Language
        if language != Language.TRITON or "ttgir" not in stages:
            return
        stages["ttgir"] = lambda src, metadata: self.make_ttgir(src, metadata, backend.target, options)

    def cache_key(self):
        h = hashlib.sha256()
        with open(self.planner, "rb") as f:
            h.update(f.read())
        h.update("\0".join(self.extra_args).encode())
        digest = h.hexdigest()
        return f"-planner-{digest}", digest

    def make_ttgir(self, mod, metadata, target, options):
        from triton._C.libtriton import ir
        from triton_stages import layout_passes, rest_passes
        layout_passes(mod, target, options)
        name = metadata.get("name") or mod.get_entry_func_name() or "kernel"
        with tempfile.TemporaryDirectory(prefix="planner-triton-") as tmp:
            src = os.path.join(tmp, f"{name}.ttgir")
            out = os.path.join(tmp, f"{name}.planned.ttgir")
            with open(src, "w") as f:
                f.write(mod.str())
            planned = plan_file(self.planner, src, self.extra_args)
            with open(out, "w") as f:
                f.write(planned)
            if self.keep:
                os.makedirs(self.keep, exist_ok=True)
                shutil.copy(src, os.path.join(self.keep, os.path.basename(src)))
                shutil.copy(out, os.path.join(self.keep, os.path.basename(out)))
            context = mod.context
            new = ir.parse_mlir_module(out, context)
            new.context = context  # as triton.compiler.compiler.parse does
        return rest_passes(new, target, options, metadata)


def plan_file(planner, path, extra_args=()):
    """`planner solve PATH --format mlir EXTRA_ARGS`: the planned module's
    text; PlannerError with the planner's message where it fails."""
    cmd = [planner, "solve", path, "--format", "mlir", *extra_args]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        msg = (r.stderr or r.stdout).strip()
        raise PlannerError(f"{' '.join(cmd)} failed (exit {r.returncode}):\n{msg}")
    return r.stdout


def _all(planner):
    """Compiles every kernel of oracle/kernels.py for every target of
    triton_ttgir.py with the hook installed; one line each; 1 if any fails."""
    import triton
    from kernels import KERNELS
    from triton_ttgir import TARGETS, gpu_target
    failed = 0
    install(planner=planner, extra_args=["--trips", "16"])
    triton.knobs.compilation.always_compile = True
    try:
        for name, kernel in KERNELS.items():
            for target in TARGETS:
                try:
                    c = triton.compile(kernel.source(), target=gpu_target(target), options=kernel.compile_options())
                    binary = "cubin" if "cubin" in c.asm else "hsaco"
                    print(f"{name} {target}: ok, {binary} of {len(c.asm[binary])} bytes")
                except Exception as e:  # each kernel's verdict, and the run goes on
                    failed += 1
                    print(f"{name} {target}: FAILED: {type(e).__name__}: {e}")
    finally:
        uninstall()
    return 1 if failed else 0


def _demo(argv):
    """Compiles one kernel with the hook installed; prints what it shows.
    --all compiles every kernel for every target instead."""
    import re
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
    os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="triton-cache-"))
    planner, target, kernel_name, every = "planner", "sm80", "matmul_bias_relu", False
    args = list(argv[1:])
    while args:
        a = args.pop(0)
        if a == "--planner":
            planner = args.pop(0)
        elif a == "--target":
            target = args.pop(0)
        elif a == "--all":
            every = True
        else:
            kernel_name = a
    if every:
        return _all(planner)
    import triton
    from kernels import KERNELS
    from triton_ttgir import gpu_target
    kernel = KERNELS[kernel_name]
    keep = tempfile.mkdtemp(prefix="planner-triton-keep-")
    install(planner=planner, extra_args=["--trips", "16"], keep=keep)
    try:
        triton.knobs.compilation.always_compile = True
        compiled = triton.compile(kernel.source(), target=gpu_target(target), options=kernel.compile_options())
    finally:
        uninstall()
    binary = "cubin" if "cubin" in compiled.asm else "hsaco"
    name = kernel.fn.__name__
    before = open(os.path.join(keep, f"{name}.ttgir")).read()
    planned = open(os.path.join(keep, f"{name}.planned.ttgir")).read()
    encodings = lambda text: sorted(set(re.findall(r"^#\w+ = #ttg\.\w+<.*>$", text, re.M)))
    print(f"{name} for {target}: {binary} of {len(compiled.asm[binary])} bytes")
    print(f"the ttgir stage's input and output kept in {keep}")
    print("Triton's layouts (layout_passes):")
    for e in encodings(before):
        print("  " + e)
    print("the planner's layouts (what the ttgir stage went on with):")
    for e in encodings(planned):
        print("  " + e)
    ttgir = compiled.asm["ttgir"]
    shown = [e.split(" = ", 1)[1] for e in encodings(planned) if "shared" not in e]
    missing = [e for e in shown if e not in ttgir]
    print(f"the ttgir stage's output {'holds every' if not missing else 'lacks some of the'} planner's register layouts"
          + ("" if not missing else ": " + ", ".join(missing)))
    return 0


if __name__ == "__main__":
    sys.exit(_demo(sys.argv))
