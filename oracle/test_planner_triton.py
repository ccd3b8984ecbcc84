"""The one-line hook (planner_triton.install) end to end: a Triton kernel of
oracle/kernels.py compiled on the CPU with the planner between Triton's
layout passes and the rest of make_ttgir. Needs the oracle's Python
(Triton) and Go to build the planner; skipped, saying so, without them."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

try:
    import triton  # noqa: F401
    HAVE_TRITON = True
except ImportError:
    HAVE_TRITON = False


@unittest.skipUnless(HAVE_TRITON and shutil.which("go"), "needs Triton (oracle/setup.sh) and Go")
class TestHook(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
        cls.tmp = tempfile.mkdtemp(prefix="planner-triton-test-")
        os.environ["TRITON_CACHE_DIR"] = os.path.join(cls.tmp, "cache")
        cls.planner = os.path.join(cls.tmp, "planner")
        subprocess.run(["go", "build", "-o", cls.planner, "./cmd/planner"], cwd=ROOT, check=True)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def compile(self, planner, kernel, target, keep=None):
        import planner_triton
        from kernels import KERNELS
        from triton_ttgir import gpu_target
        planner_triton.install(planner=planner, extra_args=["--trips", "16"], keep=keep)
        try:
            triton.knobs.compilation.always_compile = True
            k = KERNELS[kernel]
            return triton.compile(k.source(), target=gpu_target(target), options=k.compile_options())
        finally:
            planner_triton.uninstall()

    def test_planned_layouts_reach_the_binary(self):
        for kernel, target, binary in (("softmax", "sm80", "cubin"), ("matmul_bias_relu", "gfx942", "hsaco")):
            with self.subTest(kernel=kernel, target=target):
                keep = os.path.join(self.tmp, f"keep-{kernel}-{target}")
                c = self.compile(self.planner, kernel, target, keep)
                self.assertIn(binary, c.asm)
                self.assertGreater(len(c.asm[binary]), 0)
                name = [f for f in os.listdir(keep) if f.endswith(".planned.ttgir")]
                self.assertEqual(len(name), 1, os.listdir(keep))
                with open(os.path.join(keep, name[0])) as f:
                    planned = f.read()
                layouts = re.findall(r"^#\w+ = (#ttg\.(?:blocked|amd_mfma|nvidia_mma)<.*>)$", planned, re.M)
                self.assertTrue(layouts, "the planned module defines no register layout")
                for enc in layouts:
                    self.assertIn(enc, c.asm["ttgir"], "a layout of the plan is not in the ttgir stage's output")

    def test_planner_failure_raises(self):
        import planner_triton
        fake = os.path.join(self.tmp, "failing-planner")
        with open(fake, "w") as f:
            f.write("#!/bin/sh\necho 'kernel.ttgir:1:1: no plan' >&2\nexit 3\n")
        os.chmod(fake, 0o755)
        with self.assertRaises(Exception) as e:
            self.compile(fake, "softmax", "sm80")
        self.assertIn("no plan", str(e.exception))
        self.assertIsInstance(planner_triton.PlannerError("x"), RuntimeError)


if __name__ == "__main__":
    unittest.main()
