"""Unit tests of compiled.py's pure helpers (python -m unittest discover oracle);
none of them needs Triton or the planner."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compiled  # noqa: E402


def side(loads, stores=0, shuffles=0, barriers=0, warp=0, registers=40, spill=0):
    return {"ok": True, "shared": 0,
            "counts": {"smem_load": loads, "smem_store": stores, "shuffle": shuffles,
                       "barrier": barriers, "warp_barrier": warp},
            "resources": {"registers": registers, "spill_stores": spill, "spill_loads": 0, "stack": 0}}


class TestFirstLine(unittest.TestCase):
    def test_error_with_position(self):
        msg = ('RuntimeError: Parse MLIR file failed.\n'
               'loc("/tmp/x/k.planner.ttgir":101:13): error: \'ttng.warp_group_dot\' op WGMMA B operand')
        self.assertEqual(compiled.first_line(msg),
                         "line 101:13: error: 'ttng.warp_group_dot' op WGMMA B operand")

    def test_no_error_word(self):
        self.assertEqual(compiled.first_line("\n  k.ttgir:72:5: the trip count\nmore"), "k.ttgir:72:5: the trip count")
        self.assertEqual(compiled.first_line(""), "(no message)")


class TestComparison(unittest.TestCase):
    def test_better_worse_mixed(self):
        t = side(10, stores=4, barriers=3)
        row = {"compiled": {"triton": t, "planner": side(2, stores=4, barriers=3)}}
        self.assertTrue(compiled.comparison(row).startswith("better: "))
        row["compiled"]["planner"] = side(12, stores=4, barriers=3)
        self.assertTrue(compiled.comparison(row).startswith("worse: "))
        row["compiled"]["planner"] = side(2, stores=4, barriers=3, warp=5)
        text = compiled.comparison(row)
        self.assertTrue(text.startswith("mixed: "), text)
        self.assertIn("shared loads 10 → 2", text)
        self.assertIn("warp barriers 0 → 5", text)

    def test_a_side_that_did_not_compile(self):
        row = {"compiled": {"triton": side(1), "planner": {"ok": False, "message": "did not compile: x"}}}
        self.assertEqual(compiled.verdict(row), None)
        self.assertIn("the planner's side", compiled.comparison(row))


class TestCells(unittest.TestCase):
    def test_barriers_and_registers(self):
        self.assertEqual(compiled.barriers(side(0, barriers=12, warp=15)), "12+15w")
        self.assertEqual(compiled.barriers(side(0, barriers=3)), "3")
        amd = {"resources": {"vgpr": 110, "agpr": 0, "sgpr": 29, "scratch": 16}}
        self.assertEqual(compiled.registers(amd), "v110 a0 s29")
        self.assertEqual(compiled.spills(amd), "16")

    def test_command(self):
        cfg = dict(compiled.DEFAULTS)
        self.assertEqual(compiled.command(cfg), compiled.COMMAND)
        cfg.update(rest=True, out=compiled.REST_OUT)
        self.assertEqual(compiled.command(cfg), compiled.COMMAND + " --rest-passes --out " + compiled.REST_OUT)

    def test_module_int(self):
        text = 'module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32} {'
        self.assertEqual(compiled.module_int(text, "ttg.num-warps", 4), 8)
        self.assertEqual(compiled.module_int("module {", "ttg.num-warps", 4), 4)


class TestRanking(unittest.TestCase):
    PTX = ".version 8.8\n.target sm_80\n.visible .entry k()\n{\n\tret;\n}\n"

    def test_digest_ignores_source_paths(self):
        a = self.PTX + '\t.file\t1 "/tmp/a/k.ttgir"\n\t.section\t.debug_info\n.b8 97\n'
        b = self.PTX + '\t.file\t1 "/tmp/bb/k.ttgir"\n\t.section\t.debug_info\n.b8 98\n.b8 98\n'
        self.assertEqual(compiled.ptx_digest(a), compiled.ptx_digest(b))
        self.assertNotEqual(compiled.ptx_digest(a), compiled.ptx_digest(a.replace("ret;", "exit;")))

    def test_clock_band(self):
        self.assertEqual(compiled.clock_says(0.96), "better")
        self.assertEqual(compiled.clock_says(1.02), "the same")
        self.assertEqual(compiled.clock_says(1.08), "worse")

    def test_same_result(self):
        check = {"x": {"max_abs_diff": 0.0, "max_abs": 1.0, "same_nan": True, "written": False},
                 "y": {"max_abs_diff": 0.002, "max_abs": 2.9, "same_nan": True, "written": True}}
        self.assertEqual(compiled.same_result(check), (True, 0.002))
        check["y"]["max_abs_diff"] = 0.5
        self.assertFalse(compiled.same_result(check)[0])
        check["y"]["max_abs_diff"], check["y"]["same_nan"] = 0.0, False
        self.assertFalse(compiled.same_result(check)[0])

    def test_a_time_only_beside_the_code_it_measured(self):
        t, p = side(1), side(1)
        t["ptx_sha"], p["ptx_sha"] = "aaa", "bbb"
        row = {"name": "k", "compiled": {"triton": t, "planner": p}}
        timings = {"rows": [{"name": "k", "sides": {"triton": {"sha": "aaa", "us": 10.0},
                                                    "planner": {"sha": "bbb", "us": 8.0}}}]}
        self.assertEqual(compiled.timing(row, timings), (10.0, 8.0, {}))
        p["ptx_sha"] = "ccc"
        self.assertIsNone(compiled.timing(row, timings))
        self.assertIsNone(compiled.timing(row, None))

    def test_model_says(self):
        self.assertEqual(compiled.model_says({"compare": {"cost": 5, "baseline_cost": 7}}), "better")
        self.assertEqual(compiled.model_says({"compare": {"cost": 7, "baseline_cost": 7}}), "the same")
        self.assertEqual(compiled.model_says({"compare": {"cost": 9, "baseline_cost": 7}}), "worse")
        self.assertEqual(compiled.model_says({"compare": {"cost": 9, "no_plan": "x"}}), "better")
        self.assertIsNone(compiled.model_says({"compare": None}))


if __name__ == "__main__":
    unittest.main()


class TestRegisterAgreement(unittest.TestCase):
    def row(self, baseline, plan, triton_regs, planner_regs, live=None):
        t, p = side(0, registers=triton_regs), side(0, registers=planner_regs)
        if live:
            t["live"], p["live"] = live
        return {"compare": {"baseline_registers": baseline}, "plan_registers": plan,
                "compiled": {"triton": t, "planner": p}}

    def test_model_cell(self):
        row = {"compare": {"baseline_registers": 29, "baseline_estimate": 35}, "plan_registers": 28, "plan_estimate": 28}
        self.assertEqual(compiled.model_registers(row), "35 (29) / 28")
        self.assertEqual(compiled.model_registers({"compare": {"baseline_registers": 40}, "plan_registers": 41}),
                         "40 / 41")

    def test_within(self):
        self.assertTrue(compiled.within(85, 100))
        self.assertFalse(compiled.within(84, 100))
        self.assertTrue(compiled.within(115, 100))
        self.assertFalse(compiled.within(10, 0))

    def test_sentence(self):
        rows = [self.row(34, 28, 40, 44, live=(37, 42)), self.row(90, 90, 100, 120)]
        # 34 of 40 and 90 of 100 are within 15%, 28 of 44 and 90 of 120 are
        # not; of the most live, 34 of 37 is and 28 of 42 is not.
        self.assertEqual(compiled.register_agreement(rows),
                         "On NVIDIA the model's register estimate is within 15% of ptxas's count in 2 of the 4 "
                         "compiled sides, and, less the registers ptxas reserves, within 15% of the most "
                         "registers live at once in 1 of 2.")
        # Less 2 reserved registers, 44 is within 15% of 38 (44 - 2 = 42)
        # and 46 is not (44 > 38 * 1.15 = 43.7).
        near = self.row(44, 46, 40, 40, live=(38, 38))
        near["reserved"] = 2
        self.assertIn("live at once in 1 of 2.", compiled.register_agreement([near]))

    def test_live_cell(self):
        self.assertEqual(compiled.live_cell({"live": 37}), "37")
        self.assertEqual(compiled.live_cell({}), "—")
