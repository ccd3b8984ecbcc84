"""The registers ptxas's code holds: for each PTX file, the count ptxas -v
reports, the general registers its SASS names (R0 to the highest), and
the most general registers live at once, with the instruction where they
peak and what the live registers were last written by there.

    "$PLANNER_ORACLE_PYTHON" oracle/sassregs.py FILE.ptx...

Keep the PTX with oracle/compiled.py --keep DIR. Each file is assembled
for its .target by the Triton wheel's ptxas-blackwell (CUDA 13.4; the
wheel's nvdisasm, 13.1, reads its cubins but not those of the older
ptxas, 12.9, Triton uses for sm_80; their register counts for the
kernels of docs/compiled.md agree but for a few, layernorm_sm80's
planner side 54 here and 60 there), and the cubin's life ranges
are read with nvdisasm --print-life-ranges (-lrm narrow: a column a
register, CUDA Binary Utilities, "nvdisasm", "Register Life Range
Information"). ptxas's count is two more than the registers it names in
every kernel of docs/compiled.md nvdisasm reads (the target's
reserved_registers), and the registers named are at least the most live
at once; the difference is what the allocation leaves unused. The model of model/held.go is compared with
both (docs/graphs.md, Registers).
"""

import collections
import glob
import os
import re
import subprocess
import sys
import tempfile

# A SASS line with its life ranges: /*0040*/ INSTR ; // | COUNT MARKS |
LINE = re.compile(r"\s*/\*([0-9a-f]+)\*/\s+(.*?)\s*;\s*//\s*\|\s*(\d*)\s(.*?)\|")
# The destination register of an instruction (after its predicate guard).
DEST = re.compile(r"^(?:@!?U?P\w+\s+)?([A-Z0-9_.]+)\s+R(\d+)\b")
NO_DEST = ("ST", "RED", "BAR", "BRA", "ISETP", "FSETP", "HSETP2", "EXIT", "BSYNC", "BSSY", "WARPSYNC", "NOP", "DEPBAR", "LDGDEPBAR", "RET", "CALL")


def tools():
    """The wheel's ptxas-blackwell and nvdisasm."""
    import triton  # noqa: F401  (the wheel that ships them)
    here = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin")
    return os.path.join(here, "ptxas-blackwell"), os.path.join(here, "nvdisasm")


def life_rows(text):
    """[(address, instruction, live count, marks)] of nvdisasm -lrm narrow
    output: marks has a character a general register, blank where it is
    dead."""
    rows = []
    for line in text.splitlines():
        m = LINE.match(line)
        if m:
            rows.append((m.group(1), m.group(2).strip(), int(m.group(3) or 0), m.group(4)))
    return rows


# The header row that numbers the general registers' columns:
# // |   # 0123456789... | # 0123456 | ... (the GPR section first).
HEADER = re.compile(r"//\s*\|\s*#\s(\d+)\s*\|")


def named(text):
    """The general registers the SASS names, R0 to the highest: the
    columns of nvdisasm's GPR section (0 where it has none)."""
    m = HEADER.search(text)
    return len(m.group(1)) if m else 0


def width(op):
    """The 32-bit registers an instruction's destination spans."""
    if ".128" in op or op.startswith("LDSM") and op.endswith(".4"):
        return 4
    if op.startswith("HMMA") and ".F32" in op:
        return 4
    if ".64" in op or "WIDE" in op or op.startswith("LDSM") and op.endswith(".2"):
        return 2
    return 1


def kind(op, instr):
    """What a live register holds, by the instruction that last wrote it:
    loaded (from global or shared memory), value (arithmetic on data, and
    a constant written into a register: an accumulator's zero, a masked
    load's other), predicate (a mask saved with P2R), or index (integer
    arithmetic: addresses, offsets, counters and the thread's index)."""
    base = op.split(".")[0]
    if base in ("LDG", "LDS", "LDSM", "LD", "LDGSTS"):
        return "loaded"
    if base == "P2R":
        return "predicate"
    if base in ("HMMA", "IMMA", "FFMA", "FADD", "FMUL", "MUFU", "HADD2", "HFMA2", "HMUL2", "F2FP", "FMNMX", "FSEL", "SHFL", "F2F", "I2F", "F2I", "PRMT", "HMNMX2", "FSWZADD", "MOVM"):
        return "value"
    operands = instr.split(",")[1:]
    if base in ("CS2R", "MOV", "MOV32I", "IMAD") and ("SRZ" in instr or base != "IMAD" and not any(re.search(r"\bR\d+|c\[", o) for o in operands)):
        return "value"
    return "index"


def peak(rows):
    """The most general registers live at once, the row where, and the
    count of live registers by what last wrote each (kind)."""
    if not rows:
        return 0, None, {}
    k = max(range(len(rows)), key=lambda i: rows[i][2])
    last = {}
    for _, instr, _, _ in rows[:k + 1]:
        m = DEST.match(instr)
        if not m or m.group(1).startswith(NO_DEST):
            continue
        for r in range(int(m.group(2)), int(m.group(2)) + width(m.group(1))):
            last[r] = kind(m.group(1), instr)
    counts = collections.Counter(last.get(r, "index") for r, ch in enumerate(rows[k][3]) if ch != " ")
    return rows[k][2], rows[k], dict(sorted(counts.items()))


def target_of(ptx):
    """The PTX's .target (sm_90a and the like)."""
    m = re.search(r"^\s*\.target\s+(\w+)", ptx, re.M)
    return m.group(1) if m else "sm_80"


def analyse(path):
    """(ptxas's register count, registers named, most live, peak
    instruction, kinds) of one PTX file."""
    ptxas, nvdisasm = tools()
    with open(path) as f:
        arch = target_of(f.read())
    with tempfile.TemporaryDirectory() as d:
        cubin = os.path.join(d, "k.cubin")
        out = subprocess.run([ptxas, "-v", f"-arch={arch}", path, "-o", cubin], capture_output=True, text=True, check=True)
        used = re.findall(r"Used (\d+) registers", out.stdout + out.stderr)
        dis = subprocess.run([nvdisasm, "-c", "-lrm", "narrow", cubin], capture_output=True, text=True)
        if dis.returncode != 0:
            return int(used[-1]) if used else 0, None, None, None, {"nvdisasm": dis.stderr.strip().splitlines()[-1:]}
    live, row, kinds = peak(life_rows(dis.stdout))
    return int(used[-1]) if used else 0, named(dis.stdout), live, row, kinds


def main(argv):
    files = [f for a in argv for f in sorted(glob.glob(a))]
    if not files:
        print(__doc__, file=sys.stderr)
        return 2
    for f in files:
        used, names, live, row, kinds = analyse(f)
        where = f"{row[0]} {row[1][:40]}" if row else "-"
        print(f"{os.path.basename(f)}\tptxas {used}\tnamed {names}\tlive {live}\t{kinds}\tat {where}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
