"""Unit tests of sassregs on a small nvdisasm listing (python -m unittest discover oracle)."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sassregs  # noqa: E402

# The shape of nvdisasm -c -lrm narrow output: a column a register
# (R0, R1, ...), ^ written, v read for the last time, : live.
LISTING = """
                                                                          // |   # 0123456 | # 0123456 |
        /*0000*/                   MOV R1, c[0x0][0x28] ;                 // |  1  ^      |
        /*0010*/                   S2R R0, SR_TID.X ;                     // |  2 ^:      |
        /*0020*/                   CS2R R4, SRZ ;                         // |  4 ::  ^^  |
        /*0030*/               @P0 LDG.E.64 R4, [R2.64] ;                 // |  4 ::  xx  |
        /*0040*/                   P2R R6, PR, RZ, 0x1 ;                  // |  5 ::  ::^ |
        /*0050*/                   FADD R5, R4, R5 ;                      // |  4 ::  v^: |
        /*0060*/                   EXIT ;                                 // |            |
"""


class SassRegsTest(unittest.TestCase):
    def test_rows(self):
        rows = sassregs.life_rows(LISTING)
        self.assertEqual(len(rows), 7)
        self.assertEqual(rows[3][:3], ("0030", "@P0 LDG.E.64 R4, [R2.64]", 4))

    def test_peak_and_kinds(self):
        live, row, kinds = sassregs.peak(sassregs.life_rows(LISTING))
        self.assertEqual(live, 5)
        self.assertEqual(row[0], "0040")
        # R0 the thread's index and R1 the stack pointer (index), R4:R5
        # loaded by the LDG.E.64, R6 a saved predicate.
        self.assertEqual(kinds, {"index": 2, "loaded": 2, "predicate": 1})

    def test_named(self):
        # The GPR section's header numbers R0 to R6; the predicates'
        # section after it is not counted.
        self.assertEqual(sassregs.named(LISTING), 7)
        self.assertEqual(sassregs.named("no header"), 0)

    def test_target(self):
        self.assertEqual(sassregs.target_of(".version 8.8\n.target sm_90a\n"), "sm_90a")


if __name__ == "__main__":
    unittest.main()
