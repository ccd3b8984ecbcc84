"""Unit tests of timed.py's pure helpers (python -m unittest discover oracle);
none of them needs a GPU, Triton or the planner."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import timed  # noqa: E402

PTX = """.version 9.4
.target sm_90a
.visible .entry k(
\t.param .u64 .ptr .global .align 1 k_param_0,
\t.param .u32 k_param_1,
\t.param .f32 k_param_2,
\t.param .u64 .ptr .global .align 1 k_param_3
)
{
\tret;
}
"""


class TestHelpers(unittest.TestCase):
    def test_params(self):
        self.assertEqual(timed.ptx_params(PTX, "k"), ["u64", "u32", "f32", "u64"])
        with self.assertRaises(ValueError):
            timed.ptx_params(PTX, "other")

    def test_loadable_lowers_only_newer_versions(self):
        self.assertIn(".version 9.0\n", timed.loadable(PTX, (9, 0)))
        self.assertIn(".version 9.4\n", timed.loadable(PTX, (9, 9)))

    def test_signature(self):
        text = ("tt.func public @f(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32, %s: f32) "
                "attributes {noinline = false} {")
        self.assertEqual(timed.signature(text), [("a", "ptr:f16"), ("n", "i32"), ("s", "f32")])

    def test_every_nvidia_input_has_a_workload(self):
        root = timed.ROOT
        for folder in ("testdata/triton", "examples/ttgir"):
            for f in sorted(os.listdir(os.path.join(root, folder))):
                if not f.endswith(".ttgir"):
                    continue
                text = open(os.path.join(root, folder, f)).read()
                if 'ttg.target = "cuda:' not in text:
                    continue
                name = f"{folder}/{f[:-len('.ttgir')]}"
                work = timed.workload_of(name)
                self.assertIsNotNone(work, name)
                for arg, typ in timed.signature(text):
                    if not typ.startswith("ptr:"):
                        self.assertIn(arg, work["values"], f"{name}: no value for %{arg}")


if __name__ == "__main__":
    unittest.main()
