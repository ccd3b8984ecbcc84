"""Writes testdata/triton/: each kernel of oracle/kernels.py compiled by Triton
for sm_80, sm_90 and gfx942, as TTIR and as TTGIR with Triton's own layout
choice before pipelining (oracle/triton_stages.layout_passes).

    $PLANNER_ORACLE_PYTHON oracle/triton_ttgir.py [--out testdata/triton] [KERNEL...]

Each kernel goes through triton.compile(ASTSource(...), target=GPUTarget(...))
with a stages hook (triton.knobs.runtime.add_stages_inspection_hook, called
by the backend's add_stages in triton/backends/*/compiler.py) whose ttgir
stage records the TTIR it is given, runs layout_passes, records that, and
then runs rest_passes, so that each kernel is also compiled on to the end
(cubin, or hsaco on AMD) as Triton would compile it: a kernel Triton itself
cannot compile is reported here, not written. No GPU is needed.

The files are <kernel>_<target>.ttir and <kernel>_<target>.ttgir, printed
by Triton's printer with their locations (the source lines of
oracle/kernels.py, as paths relative to the repository), under a first
comment line naming this command.
"""

import os
import re
import sys
import tempfile

os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

TARGETS = {
    "sm80": ("cuda", 80, 32),
    "sm90": ("cuda", 90, 32),
    "gfx942": ("hip", "gfx942", 64),
}

HEADER = "// made by oracle/triton_ttgir.py (triton {version}, {what}): $PLANNER_ORACLE_PYTHON oracle/triton_ttgir.py\n"


def gpu_target(name):
    from triton.backends.compiler import GPUTarget
    return GPUTarget(*TARGETS[name])


def module_text(mod):
    """The module as Triton's printer writes it, with its locations (what
    Triton's cache holds), the kernel file's absolute path made relative to
    the repository, and Triton's own sources' (triton/language/...) to the
    package, so that the files do not name this machine."""
    import triton
    site = os.path.dirname(os.path.dirname(os.path.abspath(triton.__file__)))
    return mod.str().replace(ROOT + "/", "").replace(site + "/", "")


def compile_stages(kernel, target_name):
    """Compiles kernel for the target; returns (ttir, ttgir) texts."""
    import triton
    from triton import knobs
    from triton_stages import layout_passes, rest_passes
    target = gpu_target(target_name)
    seen = {}

    def hook(*args):
        if not args:
            return "planner-triton-ttgir", "1"
        backend, stages, options, language, _capability = args

        def ttgir(mod, metadata):
            seen["ttir"] = module_text(mod)
            layout_passes(mod, backend.target, options)
            seen["ttgir"] = module_text(mod)
            return rest_passes(mod, backend.target, options, metadata)

        stages["ttgir"] = ttgir

    old = knobs.runtime.add_stages_inspection_hook
    knobs.runtime.add_stages_inspection_hook = hook
    knobs.compilation.always_compile = True
    try:
        triton.compile(kernel.source(), target=target, options=kernel.compile_options())
    finally:
        knobs.runtime.add_stages_inspection_hook = old
    return seen["ttir"], seen["ttgir"]


def main(argv):
    out = os.path.join(ROOT, "testdata", "triton")
    names = []
    args = list(argv[1:])
    while args:
        a = args.pop(0)
        if a == "--out":
            out = args.pop(0)
        else:
            names.append(a)
    import triton
    from kernels import KERNELS
    os.makedirs(out, exist_ok=True)
    os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="triton-cache-"))
    failed = 0
    for name in names or KERNELS:
        kernel = KERNELS[name]
        for tname in TARGETS:
            base = os.path.join(out, f"{name}_{tname}")
            try:
                ttir, ttgir = compile_stages(kernel, tname)
            except Exception as e:  # reported, and the run goes on
                failed += 1
                print(f"{name} {tname}: Triton cannot compile it: {type(e).__name__}: {e}", file=sys.stderr)
                continue
            for ext, text, what in (("ttir", ttir, "TTIR"), ("ttgir", ttgir, "TTGIR after layout_passes")):
                with open(f"{base}.{ext}", "w") as f:
                    f.write(HEADER.format(version=triton.__version__, what=what))
                    f.write(text)
            print(f"{name} {tname}: {base}.ttir, {base}.ttgir")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
