#!/usr/bin/env python3
"""Census of how the planner does on other compilers' own test kernels.

The kernels are lit test files of upstream compilers (Triton's
test/TritonGPU, MLIR's test/Dialect/XeGPU, IREE's codegen tests) that the
user gathers outside this repository. They are the user's, read here for
facts only: they are not the repository's, and none is ever committed.

Each file is split at its `// -----` lines (as `-split-input-file` does)
into kernels, one a split. Each kernel is written to a temporary file with
the suffix the planner reads it by (.ttgir for Triton, .mlir otherwise),
padded with blank lines so that a position the planner names is the line
of the upstream file, and `PLANNER solve FILE` runs on it. A Triton kernel
whose module names no target (ttg.target) is given one with --target,
from its encodings (amd_mfma: gfx942, amd_wmma: gfx1100, 64 threads a
warp: gfx942, nvidia_mma version 3: sm_90, version 5 or tensor memory:
sm_100) or the file's RUN line (an AMD pass: gfx942), else sm_80. An XeGPU
or IREE kernel runs as it is, or with --mlir-target auto a kernel whose IR
names no target is given one (the RUN line's --iree-gpu-test-target, pvc
for XeGPU, sm_80 for subgroup_size 32, else gfx942), and one whose IR
states no workgroup size is given --subgroups (the largest sg_layout, else
workgroup_size over subgroup_size, else 1).

Each kernel is then
  planned          the planner exits 0;
  refused by name  it exits otherwise with a FILE:LINE:COL message;
  other            a crash, a panic, the time limit (20 s), or a message
                   with no position.
Refusals are grouped by their message with numbers, %names, @names, file
paths and quoted names stripped to placeholders (op names such as
tt.dot_scaled are kept) and the insides of types and attributes
(tensor<...>, #ttg.blocked<...>) elided; the most common are printed with
their counts and one example kernel each, in a table for each source
(triton, xegpu, iree). --json prints the same, and every kernel's outcome,
for machines. The planner runs one kernel at a time, niced, with
GOMAXPROCS=1 unless the environment sets it, to keep the machine light.

The source of a file is the name of a folder on its path (triton, xegpu
or iree), else guessed from its text.

    python3 oracle/census.py --planner /tmp/planner /tmp/upstream/*/*.mlir
"""

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

SOURCES = ("triton", "xegpu", "iree")
SPLIT = "// -----"
TIMEOUT_S = 20.0
TOP = 10

# An op name: dialect.op, kept whole when a message is normalised.
OP_NAME = re.compile(r"\b[a-z_][a-z0-9_]*\.[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)*\b")
POSITION = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+):\s*(?P<msg>.*)$")


def source_of(path, text):
    """triton, xegpu or iree: a folder of that name on the path, else the text's dialects."""
    parts = os.path.normpath(os.path.abspath(path)).split(os.sep)[:-1]
    for part in reversed(parts):
        if part.lower() in SOURCES:
            return part.lower()
    if re.search(r"\btt\.func\b|#ttg\.|#triton_gpu\.", text):
        return "triton"
    if "xegpu." in text:
        return "xegpu"
    return "iree"


def split_kernels(text):
    """The splits of a file: (first line, 1-based; text) for each, as -split-input-file cuts them."""
    kernels, start, lines = [], 1, []
    for number, line in enumerate(text.splitlines(keepends=True), start=1):
        if line.rstrip("\r\n").rstrip() == SPLIT:
            kernels.append((start, "".join(lines)))
            start, lines = number + 1, []
        else:
            lines.append(line)
    kernels.append((start, "".join(lines)))
    return [(s, k) for s, k in kernels if k.strip()]


def triton_target(kernel, run_lines):
    """The --target to give a Triton kernel whose module names none (None when it names one), and why."""
    if re.search(r'"?(ttg|triton_gpu)\.target"?\s*=', kernel):
        return None, "the module's"
    if "amd_mfma" in kernel:
        return "gfx942", "amd_mfma encoding"
    if "amd_wmma" in kernel:
        return "gfx1100", "amd_wmma encoding"
    if re.search(r'threads-per-warp"?\s*=\s*64', kernel):
        return "gfx942", "64 threads a warp"
    if re.search(r"versionMajor\s*=\s*5|ttng\.tmem|tensor_memory", kernel):
        return "sm_100", "mma version 5 / tensor memory"
    if re.search(r"versionMajor\s*=\s*3|warp_group_dot", kernel):
        return "sm_90", "mma version 3"
    if re.search(r"amdgpu|gfx9|hip:", run_lines):
        return "gfx942", "an AMD pass on the RUN line"
    return "sm_80", "default"


def mlir_target(kernel, run_lines, source):
    """The --target --mlir-target auto gives an MLIR kernel whose IR names none (None when it names one), and why."""
    if re.search(r"#iree_gpu\.target<|\bchip\s*=", kernel):
        return None, "the IR's"
    m = re.search(r"iree-gpu-test-target=([\w:]+)", run_lines)
    if m:
        return m.group(1).split(":")[0], "the RUN line"
    if source == "xegpu":
        return "pvc", "XeGPU"
    if re.search(r"subgroup_size\s*=\s*32\b", kernel):
        return "sm_80", "subgroup_size 32"
    return "gfx942", "default"


def mlir_subgroups(kernel):
    """The --subgroups --mlir-target auto gives an MLIR kernel whose IR states no workgroup size (None when it states one)."""
    if re.search(r"translation_info<[^>]*workgroup_size|known_block_size", kernel):
        return None
    sg = [product_of(m.group(1)) for m in re.finditer(r"sg_layout\s*=\s*\[([\d,\s]+)\]", kernel)]
    if sg:
        return max(sg)
    wg = re.search(r"workgroup_size\s*=\s*\[([\d,\s]+)\]", kernel)
    lanes = re.search(r"subgroup_size\s*=\s*(\d+)", kernel)
    if wg and lanes:
        return max(1, product_of(wg.group(1)) // int(lanes.group(1)))
    return 1


def product_of(numbers):
    """The product of the integers in a text such as "2, 4"."""
    p = 1
    for n in re.findall(r"\d+", numbers):
        p *= int(n)
    return p


def collapse_types(m):
    """Each tensor<...>, vector<...>, memref<...>, memdesc or tensor_desc type, and #dialect.attr<...>, as NAME<…>."""
    out, i = [], 0
    head = re.compile(r"(?:!?[a-z_]+\.)?(?:tensor|vector|memref|memdesc|tensor_desc)<|#[a-z_]+\.[a-z_]+<")
    while True:
        h = head.search(m, i)
        if not h:
            out.append(m[i:])
            return "".join(out)
        out.append(m[i:h.end()])
        depth, j = 1, h.end()
        while j < len(m) and depth:
            depth += {"<": 1, ">": -1}.get(m[j], 0)
            j += 1
        if depth:  # unbalanced: leave the rest as it is
            out.append(m[h.end():])
            return "".join(out)
        out.append("…>")
        i = j


def normalise(message):
    """A refusal's message with its particulars stripped, so that like refusals group together."""
    m = collapse_types(message.strip())
    m = re.sub(r"(?<![\w.])(?:/[^\s:,;()'\"]+)+", "<path>", m)
    m = re.sub(r"(['\"`])([^'\"`]*)\1",
               lambda q: q.group(0) if OP_NAME.fullmatch(q.group(2)) else q.group(1) + "<name>" + q.group(1), m)
    m = re.sub(r"%[\w.$#-]+", "%<v>", m)
    m = re.sub(r"@[\w.$-]+", "@<f>", m)
    kept = []

    def keep(op):
        kept.append(op.group(0))
        return chr(0xE000 + len(kept) - 1)  # a private-use character: no digit for the next step to strip

    m = OP_NAME.sub(keep, m)
    m = re.sub(r"\d+", "N", m)
    m = re.sub("[\uE000-\uF8FF]", lambda k: kept[ord(k.group(0)) - 0xE000], m)
    return re.sub(r"\s+", " ", m)


def run_planner(planner, path, target, timeout, subgroups=None):
    """Run `planner solve PATH [--target T] [--subgroups N]`: (exit code or None on timeout, standard error)."""
    command = [planner, "solve", path]
    if target:
        command += ["--target", target]
    if subgroups:
        command += ["--subgroups", str(subgroups)]
    env = dict(os.environ)
    env.setdefault("GOMAXPROCS", "1")
    try:
        p = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           timeout=timeout, env=env,
                           preexec_fn=(lambda: os.nice(10)) if hasattr(os, "nice") else None)
    except subprocess.TimeoutExpired as e:
        return None, (e.stderr or b"").decode("utf-8", "replace")
    return p.returncode, p.stderr.decode("utf-8", "replace")


def classify(code, stderr, path, timeout=TIMEOUT_S):
    """planned, refused or other, and the message: the positioned line for a refusal, else a short reason."""
    if code == 0:
        return "planned", ""
    if code is None:
        return "other", "time limit (%g s)" % timeout
    if "panic:" in stderr or "goroutine " in stderr or code < 0 or code > 5:
        first = next((l for l in stderr.splitlines() if l.strip()), "")
        return "other", "crash (exit %d): %s" % (code, first[:200])
    base = os.path.basename(path)
    stderr = stderr.replace(path, base)
    for line in stderr.splitlines():
        m = POSITION.match(line.strip())
        if m and os.path.basename(m.group("path")) == base:
            return "refused", m.group("msg")
    first = next((l for l in stderr.splitlines() if l.strip()), "")
    return "other", "no position (exit %d): %s" % (code, first[:200])


def census(planner, files, timeout=TIMEOUT_S, log=None, mlir_targets="none"):
    """Every kernel of the files through the planner: a list of records, one a kernel."""
    records = []
    with tempfile.TemporaryDirectory(prefix="planner-census-") as tmp:
        for file in files:
            with open(file, encoding="utf-8", errors="replace") as f:
                text = f.read()
            source = source_of(file, text)
            run_lines = "\n".join(l for l in text.splitlines() if "RUN:" in l)
            splits = split_kernels(text)
            for index, (start, kernel) in enumerate(splits, start=1):
                subgroups = None
                if source == "triton":
                    target, why = triton_target(kernel, run_lines)
                elif mlir_targets == "auto":
                    target, why = mlir_target(kernel, run_lines, source)
                    subgroups = mlir_subgroups(kernel)
                elif mlir_targets != "none":
                    target, why = mlir_targets, "--mlir-target"
                else:
                    target, why = None, "as it is"
                suffix = ".ttgir" if source == "triton" else ".mlir"
                name = "%s.k%d%s" % (os.path.splitext(os.path.basename(file))[0], index, suffix)
                path = os.path.join(tmp, name)
                with open(path, "w", encoding="utf-8") as f:
                    f.write("\n" * (start - 1) + kernel)
                code, stderr = run_planner(planner, path, target, timeout, subgroups)
                status, message = classify(code, stderr, path, timeout)
                end = start + kernel.count("\n") - 1
                records.append({
                    "source": source, "file": file, "kernel": index, "kernels_in_file": len(splits),
                    "lines": [start, max(start, end)], "target": target, "target_from": why,
                    "subgroups": subgroups,
                    "status": status, "exit": code, "message": message,
                    "group": normalise(message) if status == "refused" else "",
                })
                if log:
                    log("%-8s %s#%d (lines %d-%d)%s" % (status, file, index, start, max(start, end),
                                                        (": " + message[:120]) if message else ""))
    return records


def summary(records, top=TOP):
    """For each source, and all: counts, the most common refusals with an example each, and the others."""
    out = collections.OrderedDict()
    for source in list(SOURCES) + ["all"]:
        rs = [r for r in records if source == "all" or r["source"] == source]
        if not rs and source != "all":
            continue
        groups = collections.OrderedDict()
        for r in rs:
            if r["status"] == "refused":
                g = groups.setdefault(r["group"], {"message": r["group"], "count": 0, "example": None})
                g["count"] += 1
                if g["example"] is None:
                    g["example"] = {"kernel": "%s#%d" % (r["file"], r["kernel"]),
                                    "lines": r["lines"], "message": r["message"]}
        ranked = sorted(groups.values(), key=lambda g: -g["count"])
        out[source] = {
            "kernels": len(rs),
            "planned": sum(r["status"] == "planned" for r in rs),
            "refused_by_name": sum(r["status"] == "refused" for r in rs),
            "other": sum(r["status"] == "other" for r in rs),
            "files": len({r["file"] for r in rs}),
            "refusal_groups": len(groups),
            "top_refusals": ranked[:top],
            "others": [{"kernel": "%s#%d" % (r["file"], r["kernel"]), "lines": r["lines"],
                        "message": r["message"]} for r in rs if r["status"] == "other"],
        }
    return out


def text_report(summ, planner, width=160, mlir_target="none"):
    lines = ["census of %s (MLIR kernels' target: %s)" % (planner, mlir_target), ""]
    lines.append("%-8s %6s %8s %8s %16s %6s" % ("source", "files", "kernels", "planned", "refused-by-name", "other"))
    for source, s in summ.items():
        lines.append("%-8s %6d %8d %8d %16d %6d" % (source, s["files"], s["kernels"], s["planned"],
                                                      s["refused_by_name"], s["other"]))
    for source, s in summ.items():
        if source == "all":
            continue
        lines += ["", "== %s: top refusals (%d kinds)" % (source, s["refusal_groups"])]
        for g in s["top_refusals"]:
            msg = g["message"] if len(g["message"]) <= width else g["message"][:width - 1] + "…"
            lines.append("%4d  %s" % (g["count"], msg))
            ex = g["example"]
            lines.append("      e.g. %s (lines %d-%d)" % (ex["kernel"], ex["lines"][0], ex["lines"][1]))
        if s["others"]:
            lines.append("   other:")
            for o in s["others"]:
                lines.append("      %s (lines %d-%d): %s" % (o["kernel"], o["lines"][0], o["lines"][1], o["message"][:width]))
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--planner", required=True, help="the planner binary")
    ap.add_argument("--json", action="store_true", help="print JSON: the summary and every kernel's outcome")
    ap.add_argument("--timeout", type=float, default=TIMEOUT_S, help="seconds a kernel may take (default 20)")
    ap.add_argument("--top", type=int, default=TOP, help="refusal groups to print per source (default 10)")
    ap.add_argument("--mlir-target", default="none",
                    help="the --target of an XeGPU or IREE kernel: none (run it as it is, the default), "
                         "auto (when its IR names none: the RUN line's, pvc for XeGPU, sm_80 for "
                         "subgroup_size 32, else gfx942; and --subgroups from sg_layout or workgroup_size, "
                         "else 1), or a target NAME for every one")
    ap.add_argument("-v", "--verbose", action="store_true", help="a line per kernel on standard error")
    ap.add_argument("files", nargs="+", help="lit test files (.mlir), split at their // ----- lines")
    a = ap.parse_args(argv)
    log = (lambda s: print(s, file=sys.stderr, flush=True)) if a.verbose else None
    records = census(os.path.abspath(a.planner), a.files, a.timeout, log, a.mlir_target)
    summ = summary(records, a.top)
    if a.json:
        json.dump({"planner": a.planner, "timeout_s": a.timeout, "mlir_target": a.mlir_target,
                   "summary": summ, "kernels": records},
                  sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(text_report(summ, a.planner, mlir_target=a.mlir_target))
    return 0


if __name__ == "__main__":
    sys.exit(main())
