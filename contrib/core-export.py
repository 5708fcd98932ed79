#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write this project's kernels as Bitcoin Core source files.

    contrib/core-export.py --out=DIR [--list]

For each exported kernel, DIR/<path in Core's tree> gets one self-contained
C++ file in Core's style: Core's licence header, the kernel file's own
description, its compiler pragmas, then its source with every project header
it includes inlined once (src/crypto/sha256_kernels.h, the project's kernel
table, is left out), and the exported functions themselves, renamed to what
Core's dispatch calls, in Core's namespace; then, the same way, the code of any
other project source an exported function comes from (the CPU model's probes:
compat/cpu_probes.cpp; with the kernel file's `#pragma GCC optimize` reset
before it, as that source is compiled without); all inside the preprocessor
guard Core's build defines for that instruction set. File-local functions that no exported
function reaches are left behind with the project's other kernels. Nothing is
written by hand: the files are this tree's kernels as they are, so what Core
runs is what the project's row of the same name runs, tests and benchmarks
(src/test/cli-tests.sh compiles both and compares their instructions). --list
prints "<core path>\t<project sources>\t<project kernel>\t<Core function>\t<defines>\t<flags>"
per file and writes nothing (<project sources>: the kernel's file first, then
any other the file takes functions from, separated by spaces).

    contrib/core-export.py --same-code CORE_PATH CORE_OBJECT PROJECT_OBJECT...

compares the instructions (objdump -d, addresses and symbol names left out) of
every exported function in CORE_OBJECT (the file CORE_PATH, compiled), and of
the functions of that file it calls or jumps to, with those of the project's
function it comes from in the PROJECT_OBJECT that defines it (the two sources
of a commutative vector operation, and of a cmp or test read only for
equality, taken in either order: GCC orders them by its numbering of values,
which the file's other functions change; the project
sources of --list in that order, each compiled with the same compiler and
flags): "same code: ..." and exit 0, or the first difference and exit 1.

Exit status: 0 written (or the same code); 1 different code; 2 a source is
missing or not in the expected shape, or bad arguments (one line on stderr,
nothing written)."""
import os
import re
import subprocess
import sys

PROG = "core-export.py"
TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(TOP, "src")


class ExportError(Exception):
    pass


# What goes to Core: functions of the project's <source> (each pair: the
# project's name, Core's name in <namespace>; the first is the kernel; a third
# element names another project source the function comes from), in <path>,
# compiled where Core's build defines every macro of <defines> (and gives the
# file <flags>). Every other function of those sources with external linkage
# (the project's other kernels and probes) stays behind, and so do the headers
# of <source> that <headers> does not name (a kernel file holds every kernel of
# its instruction set; Core's file gets the technique of its kernel only).
EXPORTS = [
    {
        "path": "src/crypto/sha256_avx512.cpp",
        "source": "crypto/sha256_avx512.cpp",
        "headers": ["crypto/sha256_lanes_avx512.h"],
        "namespace": "sha256d64_avx512",
        "functions": [("sha256::kernel::avx512_16way_d64", "Transform_16way")],
        "defines": ["ENABLE_AVX512"],
        "flags": "-mavx512f -mavx512bw -mavx512vl",
        "summary": "SHA256D64 on sixteen inputs at once, in the 32-bit lanes of AVX-512 registers.",
    },
    {
        "path": "src/crypto/sha256_x86_shani_4way.cpp",
        "source": "crypto/sha256_x86_shani.cpp",
        "headers": ["crypto/sha256_x86_shani_ring.h"],
        "namespace": "sha256d64_x86_shani",
        # The CPU model's probe too: Core's dispatch takes four streams where they pay off.
        "functions": [("sha256::kernel::shani_4way_d64", "Transform_4way"),
                      ("cpu::detail::MeasureShaniOverlap", "MeasureOverlap", "compat/cpu_probes.cpp")],
        "defines": ["ENABLE_SSE41", "ENABLE_X86_SHANI"],
        "flags": "-msse4.1 -msha",
        "summary": "SHA256D64 on four inputs at once with the Intel SHA extensions, four interleaved streams.",
    },
    {
        "path": "src/crypto/sha256_avx512_multi.cpp",
        "source": "crypto/sha256_avx512.cpp",
        "headers": ["crypto/sha256_lanes_avx512.h", "crypto/sha256_lanes_avx512_x2.h", "crypto/sha256_lanes_avx512_jobs.h"],
        "namespace": "sha256_avx512_multi",
        # The CPU model's probe too: Core's dispatch takes 32 lanes where 512-bit adds are deep.
        "functions": [("sha256::kernel::avx512_16way_jobs", "Jobs_16way"),
                      ("sha256::kernel::avx512_16way_hash32", "Hash32_16way"),
                      ("sha256::kernel::avx512_32way_jobs", "Jobs_32way"),
                      ("sha256::kernel::avx512_32way_hash32", "Hash32_32way"),
                      ("cpu::detail::MeasureAvx512AddDepth", "MeasureAddDepth", "compat/cpu_probes.cpp")],
        "defines": ["ENABLE_AVX512"],
        "flags": "-mavx512f -mavx512bw -mavx512vl",
        "summary": "Many messages at once in the 32-bit lanes of AVX-512 registers, one message a lane: job kernels.",
    },
    {
        "path": "src/crypto/sha256_x86_shani_multi.cpp",
        "source": "crypto/sha256_x86_shani.cpp",
        "headers": ["crypto/sha256_x86_shani_streams.h", "crypto/sha256_x86_shani_jobs.h"],
        "namespace": "sha256_x86_shani_multi",
        "functions": [("sha256::kernel::shani_2way_intrinsics_jobs", "Jobs_2way"),
                      ("sha256::kernel::shani_4way_intrinsics_jobs", "Jobs_4way")],
        "defines": ["ENABLE_SSE41", "ENABLE_X86_SHANI"],
        "flags": "-msse4.1 -msha",
        "summary": "Many messages at once with the Intel SHA extensions, two or four interleaved streams: job kernels.",
    },
    {
        "path": "src/crypto/sha256_x86_shani_5way.cpp",
        "source": "crypto/sha256_x86_shani.cpp",
        "headers": ["crypto/sha256_x86_shani_stagger.h"],
        "namespace": "sha256d64_x86_shani",
        "functions": [("sha256::kernel::shani_5way_d64_batch", "Transform_5way_batches")],
        "defines": ["ENABLE_SSE41", "ENABLE_X86_SHANI"],
        "flags": "-msse4.1 -msha",
        "summary": "SHA256D64 on batches of five inputs with the Intel SHA extensions, five streams in staggered halves.",
    },
    {
        "path": "src/crypto/sha256_avx512_32way.cpp",
        "source": "crypto/sha256_avx512.cpp",
        "headers": ["crypto/sha256_lanes_avx512.h", "crypto/sha256_lanes_avx512_x2.h"],
        "namespace": "sha256d64_avx512",
        "functions": [("sha256::kernel::avx512_32way_d64_batch", "Transform_32way_batches")],
        "defines": ["ENABLE_AVX512"],
        "flags": "-mavx512f -mavx512bw -mavx512vl",
        "summary": "SHA256D64 on batches of 32 inputs in two sets of AVX-512 lanes, each schedule beside another group's rounds.",
    },
]

# Headers that go to Core as files of their own, at these paths, written from
# the project's header of the same name: an exported file keeps its #include.
HEADERS = [
    {
        "path": "src/crypto/sha256_jobs.h",
        "source": "crypto/sha256_jobs.h",
        "summary": "The interface of the multi-buffer job kernels (SHA256DMulti).",
    },
]
KEPT = {h["source"]: h["path"][len("src/"):] for h in HEADERS}

# Project headers that may be inlined; any other project include is an error
# (it would pull the project's own API into Core).
INLINED = {"crypto/sha256_constants.h", "crypto/sha256_lanes.h", "crypto/sha256_lanes_avx512.h",
           "crypto/sha256_lanes_avx512_x2.h", "crypto/sha256_lanes_avx512_x3.h", "crypto/sha256_lanes_avx512_jobs.h",
           "crypto/sha256_lanes_avx512_merkle.h",
           "crypto/sha256_x86_shani_ring.h",
           "crypto/sha256_x86_shani_stagger.h", "crypto/sha256_x86_shani_streams.h", "crypto/sha256_x86_shani_jobs.h"}
# Left out: the project's kernel table and API, its CPU model, and its
# counting of lane kernels' operations (the bench's floor).
LEFT_OUT = {"crypto/sha256_kernels.h", "crypto/sha256_internal.h", "compat/cpu_model.h", "crypto/sha256_lanes_count.h"}
# The line that opens the #if around a source's code, whose #endif ends the
# file: Core's guard (<defines>) takes the place of both.
GUARDS = {"#ifdef SHA256_KERNELS_X86", "#if defined(__x86_64__) && !defined(DISABLE_OPTIMIZED_SHA256)"}

CORE_HEADER = """// Copyright (c) 2026 The Bitcoin Core developers
// Distributed under the MIT software license, see the accompanying
// file COPYING or http://www.opensource.org/licenses/mit-license.php.
//
// {summary}
// Generated by sha256bench's contrib/core-export.py from its {source}
// and the headers that file includes; change those, not this file.
"""

INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]')
GUARD_IFNDEF = re.compile(r"^#ifndef (SHA256BENCH_\w+_H)\s*$")


def read(rel):
    path = os.path.join(SRC, rel)
    try:
        with open(path, encoding="utf-8") as f:
            return f.read().split("\n")
    except OSError as e:
        raise ExportError(f"cannot read {path}: {e.strerror}")


def strip_header(lines, rel):
    """A header's lines without its SPDX line and include guard."""
    out = [l for l in lines if not l.startswith("// SPDX-License-Identifier")]
    idx = [i for i, l in enumerate(out) if GUARD_IFNDEF.match(l)]
    if not idx:
        raise ExportError(f"src/{rel}: no SHA256BENCH_..._H include guard")
    i = idx[0]
    name = GUARD_IFNDEF.match(out[i]).group(1)
    if i + 1 >= len(out) or out[i + 1].strip() != f"#define {name}":
        raise ExportError(f"src/{rel}: the line after '#ifndef {name}' is not '#define {name}'")
    last = max(j for j, l in enumerate(out) if l.strip())
    if not out[last].startswith("#endif"):
        raise ExportError(f"src/{rel}: does not end with the include guard's #endif")
    return out[:i] + out[i + 2:last]


def flatten(lines, rel, seen, system, only=None):
    """lines with project includes inlined once and system includes collected in
    `system`; where `only` is given, the project headers it does not name are left out."""
    out = []
    for line in lines:
        m = INCLUDE.match(line)
        if not m:
            out.append(line)
            continue
        inc = m.group(1)
        if inc in LEFT_OUT or only is not None and inc in INLINED | set(KEPT) and inc not in only:
            continue
        if inc in KEPT:
            if f"<{KEPT[inc]}>" not in system:
                system.append(f"<{KEPT[inc]}>")
            continue
        if inc in INLINED:
            if inc not in seen:
                seen.add(inc)
                out.extend(flatten(strip_header(read(inc), inc), inc, seen, system))
            continue
        if "/" in inc or inc.endswith(".h") and not inc.endswith("intrin.h"):
            raise ExportError(f"src/{rel}: includes <{inc}>, which is neither a standard header nor one "
                              f"{PROG} may inline")
        if inc not in system:
            system.append(inc)
    return out


DEFINITION = r"^(\w[\w:]*) {name}(\(.*\))\s*$"


def split_function(lines, qualified, rel):
    """(lines without the definition of `qualified`, its return type, parameter list, body lines)."""
    pattern = re.compile(DEFINITION.format(name=re.escape(qualified)))
    start = [i for i, l in enumerate(lines) if pattern.match(l)]
    if len(start) != 1:
        raise ExportError(f"src/{rel}: {len(start)} definitions of '{qualified}(' at the start of a line, "
                          "expected 1")
    i = start[0]
    m = pattern.match(lines[i])
    if i + 1 >= len(lines) or lines[i + 1] != "{":
        raise ExportError(f"src/{rel}: '{qualified}' must be '<type> {qualified}(...)' on one line, then '{{'")
    depth, j = 0, i + 1
    for j in range(i + 1, len(lines)):
        depth += lines[j].count("{") - lines[j].count("}")
        if depth == 0:
            break
    else:
        raise ExportError(f"src/{rel}: unbalanced braces after '{qualified}'")
    body = lines[i + 2:j]
    # Drop the definition and the comment lines right above it.
    k = i
    while k > 0 and lines[k - 1].startswith("//"):
        k -= 1
    return lines[:k] + lines[j + 1:], m.group(1), m.group(2), body


def other_definitions(lines):
    """Names of the functions with external linkage a project source defines at file scope."""
    return [m.group(1) for m in (re.match(r"^\w[\w:]* ((?:sha256|cpu)::[\w:]+)\(", l) for l in lines) if m]


LOCAL_DEFINITION = re.compile(r"^(?:\[\[[^\]]*\]\]\s*)?(?:[\w:<>]+[\s*&]+)+(\w+)\(.*\)\s*$")


def prune_local(lines, bodies):
    """lines without the file-local functions (a definition at the start of a
    line, '{' on the next) that neither the rest of lines nor `bodies` name."""
    while True:
        for i, line in enumerate(lines):
            m = LOCAL_DEFINITION.match(line)
            if not m or line.startswith(("return", "else")) or i + 1 >= len(lines) or lines[i + 1] != "{":
                continue
            name = m.group(1)
            rest, _, _, _ = split_local(lines, i)
            used = re.compile(r"\b" + re.escape(name) + r"\b")
            code = [l.split("//")[0] for l in rest + bodies]  # a comment naming it is no use
            if not any(used.search(l) for l in code):
                lines = rest
                break
        else:
            return lines


def split_local(lines, i):
    """split_function for the definition at line i."""
    depth, j = 0, i + 1
    for j in range(i + 1, len(lines)):
        depth += lines[j].count("{") - lines[j].count("}")
        if depth == 0:
            break
    k = i
    while k > 0 and (lines[k - 1].startswith("//") or lines[k - 1].startswith("template <")):
        k -= 1
    return lines[:k] + lines[j + 1:], None, None, lines[i + 2:j]


def sources_of(spec):
    """The project sources of an export, the kernel's first, and the functions each gives."""
    out = {spec["source"]: []}
    for f in spec["functions"]:
        out.setdefault(f[2] if len(f) > 2 else spec["source"], []).append(f)
    return out


def residue(rel, functions):
    """(the file's leading comment, its code without the exported and other
    external functions and without what only they used, the exported functions
    as (ret, core name, params, body)) of one project source."""
    lines = read(rel)
    exported = []
    for f in functions:
        lines, ret, params, body = split_function(lines, f[0], rel)
        exported.append((ret, f[1], params, body))
    # Everything else the file defines for the project stays behind.
    for name in other_definitions(lines):
        lines = split_function(lines, name, rel)[0]
    # The file's own #if (SHA256_KERNELS_X86, or the probes' x86 condition) ... #endif becomes Core's guard.
    opened = [i for i, l in enumerate(lines) if l.strip() in GUARDS]
    if not opened:
        raise ExportError(f"src/{rel}: none of {sorted(GUARDS)} around the code")
    del lines[opened[0]]
    last = max(i for i, l in enumerate(lines) if l.strip())
    if lines[last].strip() != "#endif":
        raise ExportError(f"src/{rel}: does not end with the #endif of its guard")
    lines = lines[:last]
    # Leading comment (the file's description) and the rest.
    n = 0
    while n < len(lines) and (lines[n].startswith("//") or not lines[n].strip()):
        n += 1
    description = [l for l in lines[:n] if not l.startswith("// SPDX-License-Identifier")]
    rest = prune_local(lines[n:], [l for e in exported for l in e[3]])
    return description, rest, exported


def block(namespace, functions):
    """The exported functions, (ret, Core's name, params, body) each, in Core's namespace."""
    out = [f"namespace {namespace} {{"]
    for n, (ret, core, params, body) in enumerate(functions):
        out += ([""] if n else []) + [f"{ret} {core}{params}", "{"] + body + ["}"]
    return out + [f"}} // namespace {namespace}"]


def export(spec):
    rel = spec["source"]
    by_source = sources_of(spec)
    system = []
    parts = {src: residue(src, fns) for src, fns in by_source.items()}
    description, rest, _ = parts[rel]
    flat = flatten(rest, rel, set(), system, spec.get("headers"))
    # The kernel's pragmas (an `optimize` for its kernels) must not reach the
    # code of the other sources, compiled in the project without them.
    pragmas = [l for l in rest if l.startswith("#pragma GCC optimize")]
    seen = set()
    others = []
    for src, (_, code, functions) in parts.items():
        if src == rel:
            continue
        if pragmas:
            others += ["", "#if defined(__GNUC__) && !defined(__clang__) && defined(__OPTIMIZE__)",
                       "#pragma GCC reset_options", "#endif"]
        others += [""] + flatten(code, src, seen, system) + [""] + block(spec["namespace"], functions)
    exported = parts[rel][2]
    out = [CORE_HEADER.format(summary=spec["summary"], source="src/" + rel).rstrip("\n")]
    out += ["//"] + [("//" + l[2:]) if l.startswith("//") else l for l in description if l.strip()]
    guard = " && ".join(f"defined({d})" for d in spec["defines"])
    out += ["", f"#if {guard}", ""]
    # Pragmas that precede the includes stay first (they apply to what follows).
    while flat and (flat[0].startswith("#if") or flat[0].startswith("#pragma") or flat[0].startswith("#endif")
                    or not flat[0].strip()):
        out.append(flat.pop(0))
    kept = [h for h in system if h.startswith("<")]
    out += [f"#include {h}" for h in kept] + ([""] if kept else [])
    out += [f"#include <{h}>" for h in system if not h.startswith("<")] + [""]
    out += flat + [""] + block(spec["namespace"], exported) + others
    out += ["", f"#endif // {guard}", ""]
    text = "\n".join(out)
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text


def export_header(spec):
    """A project header as a Core header: Core's licence header, the header's
    own description, Core's include guard, the rest as it is."""
    rel = spec["source"]
    lines = read(rel)
    n = 0
    while n < len(lines) and lines[n].startswith("//"):
        n += 1
    description = [l for l in lines[:n] if not l.startswith("// SPDX-License-Identifier")]
    body = strip_header(lines[n:], rel)
    for line in body:
        m = INCLUDE.match(line)
        if m and ("/" in m.group(1) or m.group(1).endswith(".h")):
            raise ExportError(f"src/{rel}: includes <{m.group(1)}>; an exported header includes standard headers only")
    guard = "BITCOIN_" + re.sub(r"[^A-Z0-9]", "_", spec["path"][len("src/"):].upper())
    out = [CORE_HEADER.format(summary=spec["summary"], source="src/" + rel).rstrip("\n")]
    out += ["//"] + description
    out += ["", f"#ifndef {guard}", f"#define {guard}"] + body + [f"#endif // {guard}", ""]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out))


def symbol(obj, qualified):
    """The mangled name of the function `qualified` (namespaces::name) defined in obj."""
    try:
        r = subprocess.run(["nm", "--defined-only", obj], capture_output=True, text=True)
        names = [l.split()[-1] for l in r.stdout.splitlines() if len(l.split()) == 3]
        d = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True)
    except OSError as e:
        raise ExportError(f"cannot run nm or c++filt: {e.strerror}")
    if r.returncode != 0:
        raise ExportError(f"nm {obj}: {r.stderr.strip().splitlines()[-1] if r.stderr.strip() else 'failed'}")
    found = [m for m, dm in zip(names, d.stdout.splitlines()) if dm.startswith(qualified + "(")]
    if len(found) != 1:
        raise ExportError(f"{obj}: {len(found)} definitions of {qualified}, expected 1")
    return found[0]


BRANCH = re.compile(r"^(?:call|jmp)\w*\s+[0-9a-f]+ <([^>+]+)(?:\+0x[0-9a-f]+)?>")
# A three-operand vector operation whose two sources commute (AT&T order:
# source 2, source 1, destination; no opmask), and a comparison whose only
# reader asks for equality: GCC orders their sources by its own numbering of
# values, which the other functions of the file change, so the same source
# compiled beside other kernels can swap them.
COMMUTATIVE = re.compile(r"^(v(?:padd[bwdq]|pmull[wd]|pand[dq]?|por[dq]?|pxor[dq]?|pcmpeq[bwdq]|pmin[su][bwdq]|pmax[su][bwdq])) "
                         r"([^,{}]+),([^,{}]+),([^,{}]+)$")
SYMMETRIC = re.compile(r"^(cmp[bwlq]?|test[bwlq]?) ([^,]+),([^,]+)$")
EQUALITY = re.compile(r"^(?:j|set|cmov)n?[ez]\b")
FLAGS_READER = re.compile(r"^(?:j(?!mp)\w+|set\w+|cmov\w+|adc\w*|sbb\w*|rc[lr]\w*|pushf\w*)\b")


def instructions(obj, symbol, calls=None):
    """The instructions of `symbol` in `obj`; the functions it calls or jumps to are added to `calls`."""
    try:
        r = subprocess.run(["objdump", "-d", "--no-show-raw-insn", f"--disassemble={symbol}", obj],
                           capture_output=True, text=True)
    except OSError as e:
        raise ExportError(f"cannot run objdump: {e.strerror}")
    if r.returncode != 0:
        raise ExportError(f"objdump {obj}: {r.stderr.strip().splitlines()[-1] if r.stderr.strip() else 'failed'}")
    out, addrs, targets = [], [], []
    for line in r.stdout.splitlines():
        m = re.match(r"^\s*([0-9a-f]+):\s+(.*)$", line)
        if not m:
            continue
        insn = re.sub(r"\s*#.*$", "", m.group(2))   # objdump's comments name addresses and symbols
        b = BRANCH.match(insn)
        if calls is not None and b and b.group(1) != symbol and b.group(1) not in calls:
            calls.append(b.group(1))
        t = re.match(r"^j\w*\s+([0-9a-f]+) <", insn)
        addrs.append(int(m.group(1), 16))
        targets.append(int(t.group(1), 16) if t else None)
        insn = re.sub(r"<[^>]*>", "<>", insn)         # so do branch targets
        insn = re.sub(r"\b[0-9a-f]+ <>", "<>", insn)
        out.append(" ".join(insn.split()))
    if not out:
        raise ExportError(f"{obj}: no function {symbol}")
    index = {a: k for k, a in enumerate(addrs)}
    return canonical(out, [index.get(t) if t is not None else None for t in targets])


def canonical(insns, targets=None):
    """insns with the two sources of each commutative vector operation and of
    each test, and of each cmp whose flags only an equality test reads (the next
    instruction is je/jne, sete/setne or cmove/cmovne, and neither the one after
    it nor, for a jump, the one at its target, `targets[i]` (an index in insns,
    or None: outside them), reads flags), in one order; every other instruction
    as it is."""
    targets = targets or [None] * len(insns)
    out = []
    for i, insn in enumerate(insns):
        m = COMMUTATIVE.match(insn)
        if m:
            a, b = sorted((m.group(2), m.group(3)))
            insn = f"{m.group(1)} {a},{b},{m.group(4)}"
        m = SYMMETRIC.match(insn)
        if m and (m.group(1).startswith("test") or equality_only(insns, targets, i)):
            a, b = sorted((m.group(2), m.group(3)))
            insn = f"{m.group(1)} {a},{b}"
        out.append(insn)
    return out


def equality_only(insns, targets, i):
    """Whether only an equality test reads the flags that instruction i sets."""
    if i + 1 >= len(insns) or not EQUALITY.match(insns[i + 1]):
        return False
    after = [i + 2]
    if insns[i + 1].startswith("j"):
        after.append(targets[i + 1])
    return all(k is not None and k < len(insns) and not FLAGS_READER.match(insns[k]) for k in after)


def same_code(core_path, core_obj, *project_objs):
    spec = next((e for e in EXPORTS if e["path"] == core_path), None)
    if spec is None:
        raise ExportError(f"--same-code: {core_path} is not an exported file (see --list)")
    sources = list(sources_of(spec))
    if len(project_objs) != len(sources):
        raise ExportError(f"--same-code {core_path}: {len(sources)} project objects expected "
                          f"({', '.join('src/' + s for s in sources)}), got {len(project_objs)}")
    said = []
    for f in spec["functions"]:
        project, core = f[0], f[1]
        project_obj = project_objs[sources.index(f[2] if len(f) > 2 else spec["source"])]
        calls_a, calls_b = [], []
        a = instructions(core_obj, symbol(core_obj, f"{spec['namespace']}::{core}"), calls_a)
        b = instructions(project_obj, symbol(project_obj, project), calls_b)
        # What the function calls in its own file (a kernel the compiler kept out
        # of line) is compared too, by name and code; calls out of the file have
        # no code here and must only have the same names.
        done, n = set(), len(a)
        while True:
            for i, (x, y) in enumerate(zip(a, b)):
                if x != y:
                    print(f"different code: {core}, instruction {n - len(a) + i + 1}: Core's {x!r}, the project's {y!r}")
                    return 1
            if len(a) != len(b):
                print(f"different code: {len(a)} instructions in Core's {core}, {len(b)} in the project's {project}")
                return 1
            if calls_a != calls_b:
                print(f"different code: Core's {core} calls {calls_a}, the project's {project} {calls_b}")
                return 1
            todo = [c for c in calls_a if c not in done]
            if not todo:
                break
            callee = todo[0]
            done.add(callee)
            try:
                a = instructions(core_obj, callee, calls_a)
            except ExportError:
                a = None
            try:
                b = instructions(project_obj, callee, calls_b)
            except ExportError:
                b = None
            if (a is None) != (b is None):
                print(f"different code: {callee} is defined in only one of the two objects")
                return 1
            a, b = a or [], b or []
            n += len(a)
        said.append(f"{spec['namespace']}::{core} is {project} ({n} instructions)")
    print("same code: " + "; ".join(said))
    return 0


def main(argv):
    out_dir = None
    listing = False
    if argv[:1] == ["--same-code"]:
        if len(argv) < 4:
            raise ExportError("usage: --same-code CORE_PATH CORE_OBJECT PROJECT_OBJECT...")
        return same_code(*argv[1:])
    for a in argv:
        if a.startswith("--out="):
            out_dir = a[len("--out="):]
            if not out_dir:
                raise ExportError("--out= needs a directory")
        elif a == "--list":
            listing = True
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            raise ExportError(f"unknown argument '{a}' (expected --out=DIR or --list)")
    if listing:
        for h in HEADERS:
            print(f"{h['path']}\tsrc/{h['source']}\t-\t-\t-\t-")
        for e in EXPORTS:
            kernel, core = e["functions"][0][:2]
            srcs = " ".join("src/" + src for src in sources_of(e))
            print(f"{e['path']}\t{srcs}\t{kernel}\t{e['namespace']}::{core}"
                  f"\t{' '.join(e['defines'])}\t{e['flags']}")
        return 0
    if out_dir is None:
        raise ExportError("missing --out=DIR")
    files = {e["path"]: export(e) for e in EXPORTS}  # every file made before any is written
    files.update({h["path"]: export_header(h) for h in HEADERS})
    # A comment's pointer to the measured runs names whose doc/results it is.
    files = {path: re.sub(r"(?<!sha256bench's )\bdoc/results/", "sha256bench's doc/results/", text)
             for path, text in files.items()}
    for path, text in files.items():
        dest = os.path.join(out_dir, path)
        try:
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            tmp = dest + ".tmp"
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, dest)
        except OSError as e:
            raise ExportError(f"cannot write {dest}: {e.strerror}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except ExportError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(1)
