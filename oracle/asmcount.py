"""Static counts over compiled GPU code: PTX, AMDGCN, ptxas's report and
TTGIR. Every count is of instructions as they are written in the text (a
loop body counts once), not of instructions executed.

Each function takes text and returns numbers; none runs a compiler.
"""

import re

# ---------------------------------------------------------------- TTGIR


def strip_mlir_comment(line):
    """The line without a trailing // comment (one outside a string)."""
    quoted = False
    for i, ch in enumerate(line):
        if ch == '"':
            quoted = not quoted
        elif ch == "/" and not quoted and line.startswith("//", i):
            return line[:i]
    return line


# An op's name in the pretty form (`= ttg.convert_layout %x`) or the
# generic form (`"ttg.convert_layout"(%x)`).
_CONVERT = re.compile(r'(?:^|[\s=])"?ttg\.convert_layout"?(?=[\s(])')


def count_convert_layouts(ttgir):
    """The number of ttg.convert_layout ops in a TTGIR module's text."""
    return sum(len(_CONVERT.findall(strip_mlir_comment(l))) for l in ttgir.splitlines())


# ---------------------------------------------------------------- PTX


def ptx_statements(ptx):
    """The opcodes of a PTX text's instructions, one per statement, in order:
    comments, directives (.reg, .loc, ...), labels, braces and guard
    predicates (@%p1, @!%p1) dropped. Inline assembly that Triton emits
    between `// begin inline asm` and `// end inline asm` is PTX like the
    rest and counts the same."""
    out = []
    for line in ptx.splitlines():
        line = line.split("//", 1)[0]
        for stmt in line.split(";"):
            stmt = stmt.strip().lstrip("{}").strip()
            if not stmt or stmt.startswith(".") or stmt.startswith("}"):
                continue
            if re.match(r"^[$\w.]+:(?!:)", stmt):  # a label (not ld.shared::cta), maybe with an instruction after it
                stmt = stmt.split(":", 1)[1].strip()
                if not stmt:
                    continue
            if stmt.startswith("@"):
                parts = stmt.split(None, 1)
                if len(parts) < 2:
                    continue
                stmt = parts[1]
            op = stmt.split(None, 1)[0]
            if re.match(r"^[a-z][a-z0-9_.:]*$", op):
                out.append(op)
    return out


def ptx_class(op):
    """What a PTX opcode is for the table: "smem_load", "smem_store",
    "shuffle", "barrier", "warp_barrier" or None.

    PTX ISA (NVIDIA, "Parallel Thread Execution ISA", Data Movement and
    Conversion Instructions): ld/st with the .shared state space (.shared,
    .shared::cta) access shared memory; ldmatrix loads and stmatrix stores
    matrix fragments from and to shared memory (ldmatrix from sm_75,
    stmatrix from sm_90); shfl.sync exchanges registers between the lanes
    of a warp. Parallel Synchronization and Communication Instructions:
    bar.sync / barrier.sync (and their .red and .arrive forms) synchronise
    the threads of a CTA; bar.warp.sync only those of one warp."""
    parts = op.split(".")
    head = parts[0]
    spaces = {p.split("::")[0] for p in parts[1:]}
    if head == "ldmatrix":
        return "smem_load"
    if head == "stmatrix":
        return "smem_store"
    if head == "ld" and "shared" in spaces:
        return "smem_load"
    if head == "st" and "shared" in spaces:
        return "smem_store"
    if head == "shfl":
        return "shuffle"
    if head in ("bar", "barrier"):
        return "warp_barrier" if "warp" in parts[1:2] else "barrier"
    return None


def ptx_counts(ptx):
    """{"smem_load", "smem_store", "shuffle", "barrier", "warp_barrier"}:
    the static count of each class of instruction in a PTX text."""
    counts = dict.fromkeys(("smem_load", "smem_store", "shuffle", "barrier", "warp_barrier"), 0)
    for op in ptx_statements(ptx):
        c = ptx_class(op)
        if c:
            counts[c] += 1
    return counts


def ptxas_resources(log):
    """{"registers", "spill_stores", "spill_loads", "stack"} in bytes (but
    registers) from `ptxas -v`'s report ("Used N registers", "N bytes
    stack frame, N bytes spill stores, N bytes spill loads"); summed over
    the entry functions it reports (Triton's modules have one)."""
    res = {"registers": 0, "spill_stores": 0, "spill_loads": 0, "stack": 0}
    for n in re.findall(r"Used (\d+) registers", log):
        res["registers"] += int(n)
    for key, pat in (("stack", r"(\d+) bytes stack frame"),
                     ("spill_stores", r"(\d+) bytes spill stores"),
                     ("spill_loads", r"(\d+) bytes spill loads")):
        for n in re.findall(pat, log):
            res[key] += int(n)
    return res


# ---------------------------------------------------------------- AMDGCN


def amdgcn_statements(asm):
    """(opcode, operands) of each instruction of an AMDGCN text, in order:
    `;` comments, directives, labels and the code object's YAML metadata
    (after .amdgpu_metadata) dropped."""
    out = []
    for line in asm.splitlines():
        if line.strip().startswith(".amdgpu_metadata"):
            break
        line = line.split(";", 1)[0].split("//", 1)[0].strip()
        if not line or line.startswith(".") or line.endswith(":"):
            continue
        parts = line.split(None, 1)
        if re.match(r"^[a-z][a-z0-9_]*$", parts[0]):
            out.append((parts[0], parts[1] if len(parts) > 1 else ""))
    return out


# DPP controls as the LLVM AMDGPU assembler writes them in an operand list
# (AMD "AMD Instinct MI300 ISA Reference Guide" (CDNA3), Data Parallel
# Processing: quad_perm, row_shl/shr/ror, wave_shl/rol/shr/ror, row_mirror,
# row_half_mirror, row_bcast:15/31; LLVM's AMDGPUUsage and AMDGPU asm
# syntax docs for the spelling).
_DPP = re.compile(r"\b(quad_perm|row_shl|row_shr|row_ror|wave_shl|wave_rol|wave_shr|wave_ror|"
                  r"row_mirror|row_half_mirror|row_bcast|row_share|row_xmask)\b")


def amdgcn_class(op, operands):
    """What an AMDGCN instruction is for the table, as ptx_class.

    CDNA3 ISA (AMD Instinct MI300 ISA Reference Guide), LDS instructions:
    DS_READ_* (DS_LOAD_* in later ISAs) load from and DS_WRITE_*
    (DS_STORE_*) store to LDS; DS_PERMUTE_B32, DS_BPERMUTE_B32 and
    DS_SWIZZLE_B32 move data between the lanes of a wave through the LDS
    hardware without touching LDS memory, and a DPP-modified VALU
    instruction reads another lane's register: both are counted as
    shuffles. S_BARRIER synchronises the waves of a work-group."""
    if op.startswith(("ds_read", "ds_load")):
        return "smem_load"
    if op.startswith(("ds_write", "ds_store")):
        return "smem_store"
    if op.startswith(("ds_bpermute", "ds_permute", "ds_swizzle")):
        return "shuffle"
    if op.startswith("v_") and (op.endswith("_dpp") or _DPP.search(operands)):
        return "shuffle"
    if op == "s_barrier":
        return "barrier"
    return None


def amdgcn_counts(asm):
    """As ptx_counts, for an AMDGCN text (warp_barrier is always 0)."""
    counts = dict.fromkeys(("smem_load", "smem_store", "shuffle", "barrier", "warp_barrier"), 0)
    for op, operands in amdgcn_statements(asm):
        c = amdgcn_class(op, operands)
        if c:
            counts[c] += 1
    return counts


def amdgcn_resources(asm):
    """{"vgpr", "agpr", "sgpr", "scratch", "vgpr_spill", "sgpr_spill"} from
    the code object metadata the AMDGCN text ends with (.amdgpu_metadata,
    keys .vgpr_count, .agpr_count, .sgpr_count,
    .private_segment_fixed_size (scratch bytes per lane),
    .vgpr_spill_count, .sgpr_spill_count: LLVM's AMDGPUUsage, "Code Object
    V3 Metadata" and later). A key the text lacks is absent."""
    keys = {"vgpr_count": "vgpr", "agpr_count": "agpr", "sgpr_count": "sgpr",
            "private_segment_fixed_size": "scratch", "vgpr_spill_count": "vgpr_spill",
            "sgpr_spill_count": "sgpr_spill"}
    meta = asm.split(".amdgpu_metadata", 1)[1] if ".amdgpu_metadata" in asm else ""
    res = {}
    for key, name in keys.items():
        m = re.search(r"^[\s-]*\." + key + r":\s*(\d+)", meta, re.M)
        if m:
            res[name] = int(m.group(1))
    return res
