#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""No comment under src/ carries a measured cycle count or percentage.

    measured_numbers_check.py SRC_DIR

Comments state the mechanism and the decision and may point to a log entry
of doc/results/, where the measured numbers live (dated, per machine): a
number of cycles or a percentage in a comment would rot there as the code and
the machines change. Reads every source file under SRC_DIR (C++, assembly,
shell, Python, automake; Makefile.in is generated and left out) and prints
each comment line that has a number followed by "cycle(s)" or "%", as
"path:line: text". Exit 0 when there is none, 1 otherwise, 2 on bad
arguments (one line on stderr)."""
import os
import re
import sys

EXTENSIONS = {".cpp": "//", ".h": "//", ".asm": ";", ".inc": ";", ".sh": "#", ".py": "#", ".am": "#",
              ".include": "#"}
MEASURED = re.compile(r"\d[\d.,]*\s*(?:core\s+)?cycles?\b|\d[\d.]*%(?![\w])")
# A comment, where the marker is not inside a string: code, then the marker.
STRING = re.compile(r'"(?:[^"\\]|\\.)*"' "|'(?:[^'\\\\]|\\\\.)*'")


def comment_of(line, marker):
    """The comment text of a line ("" for none), strings blanked first."""
    code = STRING.sub('""', line)
    at = code.find(marker)
    return "" if at < 0 else code[at + len(marker):]


def scan(top):
    found = []
    for root, dirs, files in os.walk(top):
        dirs.sort()
        for name in sorted(files):
            ext = os.path.splitext(name)[1]
            if ext not in EXTENSIONS or name == "Makefile.in":
                continue
            path = os.path.join(root, name)
            marker = EXTENSIONS[ext]
            in_block = False
            with open(path, encoding="utf-8", errors="replace") as f:
                for n, line in enumerate(f, 1):
                    text = comment_of(line, marker)
                    if marker == "//":  # and /* ... */ blocks
                        if in_block or "/*" in line:
                            text += " " + line
                        in_block = (in_block or "/*" in line) and "*/" not in line
                    if MEASURED.search(text):
                        found.append(f"{os.path.relpath(path, os.path.dirname(top))}:{n}: {line.strip()}")
    return found


def main(argv):
    if len(argv) != 1 or not os.path.isdir(argv[0]):
        print("usage: measured_numbers_check.py SRC_DIR", file=sys.stderr)
        return 2
    found = scan(os.path.abspath(argv[0]))
    for f in found:
        print(f)
    print(f"{len(found)} comment lines with a measured number (cycles or %)" if found else
          "no comment carries a cycle count or a percentage")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
