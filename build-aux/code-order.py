#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The order in which a relinked bench_bitcoin lays out its functions, for one
pair of contrib/bench-compare.sh --shuffle-code.

    build-aux/code-order.py SEED DIR...

Prints the name of every code section (.text.<function>, from -ffunction-sections)
in the objects and static archives under the DIRs, one a line, sorted by
SHA-256(SEED, name): an ordering file for ld.gold --section-ordering-file.

Why: on some CPUs a kernel's row moves by a percent or two with where its code
lies relative to the functions it calls (doc/ab-testing.md). A build links once,
so that placement would weigh on one side of every pair. A new SEED each pair
draws a new placement; and since a name's key depends only on the SEED and the
name, two builds that share functions (BASE and HEAD) lay the shared ones out
in the same relative order in a pair, whatever else either build has.
Exit: 0, 2 on a usage error or when no code section is found."""
import hashlib
import os
import subprocess
import sys


def section_names(dirs):
    files = []
    for top in dirs:
        for root, _, names in os.walk(top):
            files += [os.path.join(root, n) for n in sorted(names) if n.endswith((".o", ".a"))]
    found = set()
    # readelf -SW lists every member of an archive too; a section's name is the
    # word after its [index].
    for i in range(0, len(files), 200):
        out = subprocess.run(["readelf", "-SW"] + files[i:i + 200], capture_output=True, text=True).stdout
        for line in out.splitlines():
            words = line.replace("[ ", "[").split()
            if len(words) > 1 and words[0].startswith("[") and words[1].startswith(".text."):
                found.add(words[1])
    return found


def order(seed, names):
    return sorted(names, key=lambda n: (hashlib.sha256(f"{seed}\0{n}".encode()).digest(), n))


def main(argv):
    if len(argv) < 3 or not argv[1]:
        print("code-order.py: usage: code-order.py SEED DIR...", file=sys.stderr)
        return 2
    for d in argv[2:]:
        if not os.path.isdir(d):
            print(f"code-order.py: {d}: not a directory", file=sys.stderr)
            return 2
    names = section_names(argv[2:])
    if not names:
        print(f"code-order.py: no .text.* section under {' '.join(argv[2:])} (built without -ffunction-sections?)",
              file=sys.stderr)
        return 2
    sys.stdout.write("".join(n + "\n" for n in order(argv[1], names)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
