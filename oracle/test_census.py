"""oracle/census.py on two small kernels written for it, one that plans and
one the planner refuses by name, split from one file as -split-input-file
splits it; and its message normalisation. The end-to-end test builds the
planner with `go build` and is skipped, saying so, without Go."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import census  # noqa: E402

COPY = """#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.target" = "cuda:80", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @copy(%src: !tt.ptr<f32>, %dst: !tt.ptr<f32>) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %s = tt.splat %src : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %p = tt.addptr %s, %r : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %x = tt.load %p : tensor<128x!tt.ptr<f32>, #blocked>
    %d = tt.splat %dst : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %q = tt.addptr %d, %r : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    tt.store %q, %x : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
"""

# The same kernel with an op no reader knows in place of its load.
UNKNOWN_OP = COPY.replace("tt.load %p", "tt.frobnicate %p")


class TestPure(unittest.TestCase):
    def test_split(self):
        text = "a\n// -----\nb\nc\n// -----   \n\n// -----\nd\n"
        self.assertEqual(census.split_kernels(text), [(1, "a\n"), (3, "b\nc\n"), (8, "d\n")])

    def test_normalise_keeps_op_names(self):
        got = census.normalise('%arg3 of "foo" in /tmp/x/k.mlir: tensor<16x32xf16, #ttg.blocked<{order = [1, 0]}>> '
                               'meets tt.dot_scaled and "ttng.tc_gen5_mma" at @kernel_7, 12 times')
        self.assertEqual(got, '%<v> of "<name>" in <path>: tensor<…> meets tt.dot_scaled and "ttng.tc_gen5_mma" '
                              'at @<f>, N times')

    def test_triton_target(self):
        self.assertEqual(census.triton_target('"ttg.target" = "cuda:90"', "")[0], None)
        self.assertEqual(census.triton_target("#ttg.amd_mfma<{}>", "")[0], "gfx942")
        self.assertEqual(census.triton_target("versionMajor = 3", "")[0], "sm_90")
        self.assertEqual(census.triton_target("", "// RUN: triton-opt --tritonamdgpu-x")[0], "gfx942")
        self.assertEqual(census.triton_target("", "")[0], "sm_80")

    def test_source(self):
        self.assertEqual(census.source_of("/a/xegpu/f.mlir", ""), "xegpu")
        self.assertEqual(census.source_of("/a/f.mlir", "tt.func @k"), "triton")
        self.assertEqual(census.source_of("/a/f.mlir", "vector.contract"), "iree")


@unittest.skipUnless(shutil.which("go"), "needs Go to build the planner")
class TestCensus(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="planner-census-test-")
        cls.planner = os.path.join(cls.tmp, "planner")
        subprocess.run(["go", "build", "-o", cls.planner, "./cmd/planner"], cwd=ROOT, check=True)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_one_planned_one_refused(self):
        folder = os.path.join(self.tmp, "triton")
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, "two.mlir")
        with open(path, "w") as f:
            f.write(COPY + "\n// -----\n\n" + UNKNOWN_OP)
        records = census.census(self.planner, [path])
        self.assertEqual([(r["kernel"], r["status"]) for r in records], [(1, "planned"), (2, "refused")])
        refused = records[1]
        self.assertTrue(refused["message"].startswith("tt.frobnicate is not understood"), refused["message"])
        self.assertEqual(refused["lines"][0], COPY.count("\n") + 3)

        s = census.summary(records)["triton"]
        self.assertEqual((s["kernels"], s["planned"], s["refused_by_name"], s["other"]), (2, 1, 1, 0))
        self.assertEqual(s["top_refusals"][0]["count"], 1)
        self.assertEqual(s["top_refusals"][0]["example"]["kernel"], path + "#2")

        out = subprocess.run([sys.executable, os.path.join(HERE, "census.py"), "--planner", self.planner,
                              "--json", path], check=True, capture_output=True, text=True).stdout
        self.assertEqual(json.loads(out)["summary"]["all"]["planned"], 1)


if __name__ == "__main__":
    unittest.main()
