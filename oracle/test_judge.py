"""oracle/judge.py's reading of a module's target: the ttg.target key as
Triton prints it and quoted, as Triton's lit tests write it. Needs the
oracle's Triton (GPUTarget); skipped, saying so, without it."""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import judge  # noqa: E402

try:
    import triton.backends.compiler  # noqa: F401
    HAVE_TRITON = True
except ImportError:
    HAVE_TRITON = False


@unittest.skipUnless(HAVE_TRITON, "the oracle's Triton is not installed (oracle/setup.sh)")
class TestTargetOf(unittest.TestCase):
    def test_spellings(self):
        for text, name, arch, lanes in [
            ('module attributes {ttg.target = "cuda:80", "ttg.num-warps" = 4 : i32}', "cuda:80", 80, 32),
            ('module attributes {"ttg.target" = "cuda:90", "ttg.num-warps" = 4 : i32}', "cuda:90", 90, 32),
            ('module attributes {"ttg.target" = "hip:gfx942", "ttg.num-warps" = 4 : i32}', "hip:gfx942", "gfx942", 64),
        ]:
            got, target = judge.target_of(text, None)
            self.assertEqual(got, name)
            self.assertEqual((target.arch, target.warp_size), (arch, lanes))

    def test_given_target_wins(self):
        got, _ = judge.target_of('module attributes {"ttg.target" = "cuda:90"}', "cuda:80")
        self.assertEqual(got, "cuda:80")

    def test_no_target(self):
        with self.assertRaises(ValueError):
            judge.target_of('module attributes {"ttg.num-warps" = 4 : i32}', None)


if __name__ == "__main__":
    unittest.main()
