#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Where Bitcoin Core's block benchmarks spend their time, unpatched and
patched: the share of SHA-256 by caller, and the rest, from `perf script`.

    core_profile.py table --base=DIR --head=DIR [--base-label=L] [--head-label=L] BENCH...

Each DIR holds, for each benchmark BENCH, BENCH.script (`perf script -F
comm,tid,time,event,ip,sym` of `perf record -e cpu-clock --call-graph
dwarf` around one bench_bitcoin run of BENCH alone) and BENCH.json (that
run's -output-json). Only samples taken inside the benchmark's timed loop
count (a frame of nanobench's Bench::run); set-up is left out. A sample is
given to the first class its call stack matches:

- transaction hashing: under CTransaction::ComputeHash or
  ComputeWitnessHash (unpatched Core serializes each transaction again into
  a HashWriter there), or under TransactionHasher or SHA256DMulti (the
  series: the txids and wtxids of many transactions at once);
- Merkle roots: under ComputeMerkleRoot (BlockMerkleRoot,
  BlockWitnessMerkleRoot, SHA256D64);
- SHA-256, other: any other stack whose innermost frame is SHA-256 code
  (a block header, CSHA256 elsewhere);
- the rest: everything else, with its largest innermost functions named.

The table gives each class's share of the samples and, from the run's own
median time per block, its time per block; the time per block of both sides
comes from the profiled runs themselves (perf slows them a little), so
compare the A/B table for speed and this one for where the time goes.

Exit: 0 table printed; 2 a file is missing or holds no sample of the
benchmark's loop (one line on stderr)."""
import json
import os
import re
import sys

PROG = "core_profile.py"

CLASSES = [
    ("transaction hashing", re.compile(r"CTransaction::Compute(Witness)?Hash|CMutableTransaction::GetHash|"
                                       r"TransactionHasher::|\bSHA256DMulti\b|DoubleSHA256Jobs")),
    ("Merkle roots", re.compile(r"ComputeMerkleRoot|BlockMerkleRoot|BlockWitnessMerkleRoot")),
]
SHA256_CODE = re.compile(r"sha256|SHA256|CSHA256|TransformD64|Transform_\d+way")
IN_LOOP = re.compile(r"nanobench::Bench::run<")
REST_NAMED = 5


class ProfileError(Exception):
    pass


def samples(path):
    """The call stacks (innermost frame first, symbol names only) of `path`."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError as e:
        raise ProfileError(f"cannot read {path}: {e.strerror}")
    stacks = []
    for block in text.split("\n\n"):
        lines = [l for l in block.split("\n") if l.strip()]
        if not lines or ":" not in lines[0]:
            continue
        frames = []
        for l in lines[1:]:
            parts = l.strip().split(None, 1)
            frames.append(re.sub(r"\+0x[0-9a-f]+$", "", parts[1]) if len(parts) == 2 else "[unknown]")
        stacks.append(frames)
    return stacks


def classify(stacks):
    """{class: count}, {innermost function of the rest: count}, samples in the loop."""
    counts = {name: 0 for name, _ in CLASSES}
    counts["SHA-256, other"] = 0
    counts["the rest"] = 0
    rest = {}
    total = 0
    for frames in stacks:
        if not any(IN_LOOP.search(f) for f in frames):
            continue
        total += 1
        for name, pattern in CLASSES:
            if any(pattern.search(f) for f in frames):
                counts[name] += 1
                break
        else:
            leaf = frames[0] if frames else "[unknown]"
            if SHA256_CODE.search(leaf):
                counts["SHA-256, other"] += 1
            else:
                counts["the rest"] += 1
                rest[leaf] = rest.get(leaf, 0) + 1
    return counts, rest, total


def seconds_per_op(path):
    try:
        with open(path, encoding="utf-8") as f:
            results = json.load(f)["results"]
        r = results[0]
        return float(r["median(elapsed)"]) / float(r.get("batch", 1) or 1)
    except (OSError, ValueError, KeyError, IndexError, TypeError) as e:
        raise ProfileError(f"{path}: no median time per op ({e})")


def side(directory, bench):
    stacks = samples(os.path.join(directory, bench + ".script"))
    counts, rest, total = classify(stacks)
    if total == 0:
        raise ProfileError(f"{os.path.join(directory, bench + '.script')}: no sample inside the benchmark's loop "
                           "(perf script of a run with --call-graph dwarf expected)")
    return counts, rest, total, seconds_per_op(os.path.join(directory, bench + ".json"))


def short(name):
    name = re.sub(r"\(.*", "", name)
    name = re.sub(r"<.*>", "<...>", name)
    return name if len(name) <= 60 else name[:57] + "..."


def table(base_dir, head_dir, base_label, head_label, benches):
    out = []
    for bench in benches:
        b = side(base_dir, bench)
        h = side(head_dir, bench)
        out.append(f"#### {bench}\n")
        out.append(f"| where | {base_label}: share | µs/block | {head_label}: share | µs/block |")
        out.append("|---|---:|---:|---:|---:|")
        classes = [name for name, _ in CLASSES] + ["SHA-256, other", "the rest"]
        for name in classes:
            cells = []
            for counts, _, total, spo in (b, h):
                share = counts[name] / total
                cells += [f"{100 * share:.1f}%", f"{share * spo * 1e6:.0f}"]
            label = name if name == "the rest" else f"SHA-256: {name}" if not name.startswith("SHA") else name
            out.append(f"| {label} | " + " | ".join(cells) + " |")
        out.append(f"| **all** (samples: {b[2]}, {h[2]}) | 100% | {b[3] * 1e6:.0f} | 100% | {h[3] * 1e6:.0f} |")
        for title, (_, rest, total, _) in ((base_label, b), (head_label, h)):
            top = sorted(rest.items(), key=lambda kv: -kv[1])[:REST_NAMED]
            named = ", ".join(f"{short(k)} {100 * v / total:.1f}%" for k, v in top)
            out.append(f"\nThe rest, {title}: {named or 'nothing'}.")
        out.append("")
    return "\n".join(out)


def main(argv):
    if not argv or argv[0] != "table":
        raise ProfileError("usage: core_profile.py table --base=DIR --head=DIR [--base-label=L] [--head-label=L] BENCH...")
    base = head = None
    base_label, head_label = "BASE", "HEAD"
    benches = []
    for a in argv[1:]:
        if a.startswith("--base="):
            base = a[len("--base="):]
        elif a.startswith("--head="):
            head = a[len("--head="):]
        elif a.startswith("--base-label="):
            base_label = a[len("--base-label="):]
        elif a.startswith("--head-label="):
            head_label = a[len("--head-label="):]
        elif a.startswith("-"):
            raise ProfileError(f"unknown option '{a}'")
        else:
            benches.append(a)
    if not base or not head or not benches:
        raise ProfileError("table needs --base=DIR, --head=DIR and at least one benchmark name")
    print(table(base, head, base_label, head_label, benches))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except ProfileError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        sys.exit(2)
    except BrokenPipeError:
        sys.exit(1)
