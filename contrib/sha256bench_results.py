# SPDX-License-Identifier: MIT
"""Reads a bench_bitcoin -output-json file (schema "sha256bench-results", version 1)
and checks its shape, so the contrib tools fail with one clear line instead of a
traceback or a silent wrong answer. Every problem raises ResultsError."""
import json
import math
import os
import signal
import sys

# Far above any results file (a full run is ~100 KB), and read no further: a
# device such as /dev/zero or a runaway file is refused, not read into memory.
MAX_BYTES = 64 << 20
SCHEMA = "sha256bench-results"
VERSION = 1
MODES = ("measured", "sanity-check")
STATUSES = ("ok", "not run", "failed")


class ResultsError(Exception):
    pass


def _kind(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, list):
        return "a list"
    if isinstance(v, dict):
        return "an object"
    return repr(v)


def _need(obj, key, where, types, what):
    if not isinstance(obj, dict) or key not in obj:
        raise ResultsError(f"{where}: missing key '{key}'")
    v = obj[key]
    if not isinstance(v, types) or isinstance(v, bool) and bool not in types:
        raise ResultsError(f"{where}.{key} is {_kind(v)}, expected {what}")
    return v


def positive_number(obj, key, where):
    v = obj.get(key) if isinstance(obj, dict) else None
    if key not in obj:
        raise ResultsError(f"{where}: missing key '{key}'")
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v <= 0:
        raise ResultsError(f"{where}.{key} is {_kind(v)}, expected a positive number")
    return float(v)


def _no_constant(name):
    raise ValueError(f"{name} is not a number (bench_bitcoin writes null where it has none)")


def _finite(text):
    v = float(text)
    if not math.isfinite(v):
        raise ValueError(f"{text} is out of range for a number")
    return v


def _int(text):
    # Beyond 64 bits no field means anything, and a float() of it would overflow later.
    if len(text.lstrip("-")) > 19:
        raise ValueError(f"the integer {text[:20]}... ({len(text)} digits) is out of range for a number")
    return int(text)


def _unique(pairs):
    obj = {}
    for k, v in pairs:
        if k in obj:
            raise ValueError(f"duplicate key {k!r} in one object (which one counts?)")
        obj[k] = v
    return obj


def read_json(path):
    """The parsed file. NaN, Infinity, numbers beyond a double and an object
    with the same key twice are errors: each would pass a check and then print
    as nan or inf, or silently hide one of two values."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read(MAX_BYTES + 1)
    except (OSError, UnicodeDecodeError) as e:
        raise ResultsError(f"cannot read {path}: {e}")
    except MemoryError:
        raise ResultsError(f"cannot read {path}: out of memory")
    if len(text) > MAX_BYTES:
        raise ResultsError(f"{path} is larger than {MAX_BYTES >> 20} MiB: not a results file (a full run is ~100 KB)")
    try:
        return json.loads(text, parse_constant=_no_constant, parse_float=_finite, parse_int=_int,
                          object_pairs_hook=_unique)
    except ValueError as e:
        raise ResultsError(f"{path} is not valid JSON: {e}")
    except RecursionError:
        raise ResultsError(f"{path} is not a results file: its JSON is nested too deeply to read")
    except MemoryError:
        raise ResultsError(f"cannot read {path}: out of memory")


def converted_source(data, path):
    """What a file was converted from ("markdown"), or None for bench_bitcoin's own output."""
    if not isinstance(data, dict) or "converted_from" not in data:
        return None
    c = data["converted_from"]
    if not isinstance(c, str) or not c.strip():
        raise ResultsError(f"{path}.converted_from is {json.dumps(c)}, expected the format the file was converted "
                           "from (contrib/results-from-markdown.py writes \"markdown\")")
    return c


def load(path):
    """Returns the parsed document after checking the fields the tools use."""
    return check(read_json(path), path)


def check(data, path):
    where = path
    if not isinstance(data, dict):
        raise ResultsError(f"{where}: the top level is {_kind(data)}, expected an object (a bench_bitcoin -output-json file)")
    if data.get("schema") != SCHEMA or data.get("version") != VERSION:
        raise ResultsError(f"{where}: not a {SCHEMA} version {VERSION} file "
                           f"(schema={data.get('schema')!r}, version={data.get('version')!r})")
    source = converted_source(data, where)
    if source is not None:
        raise ResultsError(f"{where}: converted file (from {source}, by contrib/results-from-markdown.py): no medians "
                           "to compare; only contrib/merge-results.py reads it")
    mode = _need(data, "mode", where, (str,), "a string")
    if mode not in MODES:
        raise ResultsError(f"{where}.mode is {mode!r}, expected one of {', '.join(MODES)}")
    impls = _need(data, "implementations", where, (list,), "a list")
    for i, row in enumerate(impls):
        w = f"{where}: implementations[{i}]"
        if not isinstance(row, dict):
            raise ResultsError(f"{w} is {_kind(row)}, expected an object")
        _need(row, "family", w, (str,), "a string")
        _need(row, "name", w, (str,), "a string")
    results = _need(data, "results", where, (list,), "a list")
    for i, row in enumerate(results):
        w = f"{where}: results[{i}]"
        if not isinstance(row, dict):
            raise ResultsError(f"{w} is {_kind(row)}, expected an object")
        for key in ("table", "name", "impl", "family", "status"):
            _need(row, key, w, (str,), "a string")
        if row["status"] not in STATUSES:
            raise ResultsError(f"{w}.status is {row['status']!r}, expected one of {', '.join(STATUSES)}")
        if row["status"] == "ok":
            positive_number(row, "median_ns", w)
            positive_number(row, "mb_per_s", w)
    first = {}
    for i, row in enumerate(results):
        j = first.setdefault(row["name"], i)
        if j != i:
            raise ResultsError(f"{where}: results[{i}] repeats the name {row['name']!r} of results[{j}] (which one counts?)")
    return data


def save_figure(fig, path, error=ResultsError):
    """Writes a matplotlib figure to the PNG `path` whole or not at all (a
    temporary file renamed into place; a failed write leaves no file and
    raises `error` with one line), and closes the figure either way."""
    import matplotlib.pyplot as plt
    tmp = path + ".tmp.png"
    try:
        fig.savefig(tmp, dpi=110)
        os.replace(tmp, path)
    except OSError as e:
        raise error(f"cannot write {path}: {e}")
    finally:
        plt.close(fig)
        if os.path.exists(tmp):
            os.remove(tmp)


def refuse_sanity_check(data, path):
    """Timings that mean nothing: a -sanity-check run, or one on an emulated CPU."""
    if data["mode"] == "sanity-check":
        raise ResultsError(f"{path} is a -sanity-check run (each benchmark once; its timings mean nothing): "
                           "refusing to draw conclusions; run bench_bitcoin without -sanity-check")
    emulated = data["machine"].get("emulated") if isinstance(data.get("machine"), dict) else None
    if emulated:
        raise ResultsError(f"{path} ran on an emulated CPU ({emulated}): its timings are not measurements; "
                           "refusing to draw conclusions; run it on the real CPU")


def one_line(text):
    """A name from a file, on one line: control characters shown as \\xNN (a newline in a
    name must not start a line of its own, such as a forged verdict)."""
    return "".join(c if c >= " " and c != "\x7f" else f"\\x{ord(c):02x}" for c in str(text))


def md_cell(text):
    """A name from a file as one markdown table cell (or heading): on one line, its pipes
    escaped so that it cannot split the row (GFM keeps a pipe after a backslash in the cell)."""
    return one_line(text).replace("|", "\\|")


def _say(line):
    """One line on stderr; if even that cannot be written there is no one left to tell."""
    try:
        print(line, file=sys.stderr, flush=True)
    except OSError:
        pass


def run_tool(prog, main, known=()):
    """Runs main() as a command and exits with its return value, never with a
    traceback: a ResultsError (or one of `known`), a failed write to stdout (a
    full disk) or any unexpected failure is one line on stderr and exit status
    2. A reader that closes stdout early (| head) ends the run quietly, by
    SIGPIPE, as it ends any Unix tool."""
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    rc = 2
    said = False  # an error line is on stderr already, or the run was interrupted
    try:
        try:
            rc = main()
        except SystemExit as e:  # argparse: --help, or its own one-line error
            if isinstance(e.code, str):
                _say(f"{prog}: {e.code}")
                said = True
            rc = e.code if isinstance(e.code, int) else (0 if e.code is None else 2)
    except (ResultsError,) + tuple(known) as e:
        _say(f"{prog}: {e}")
        said = True
    except KeyboardInterrupt:
        rc = 130
        said = True
    except OSError as e:
        _say(f"{prog}: {e.strerror or e}" + (f": {e.filename}" if e.filename else " (writing the output)"))
        said = True
    except (RecursionError, MemoryError) as e:
        _say(f"{prog}: the input is too large or too deeply nested ({type(e).__name__})")
        said = True
    except Exception as e:
        _say(f"{prog}: internal error (a bug, please report it with the input): {type(e).__name__}: {e}")
        said = True
    try:
        sys.stdout.flush()
    except OSError as e:
        # Output held in the buffer (stdout not unbuffered) is refused only
        # now; a verdict (exit 1) whose evidence was lost is no verdict either.
        if not said:
            _say(f"{prog}: {e.strerror or e} (writing the output)")
            rc = 2
    # Not sys.exit: stdout may still hold what a full disk refused, and
    # flushing it again at shutdown would print a traceback-like warning.
    os._exit(rc if isinstance(rc, int) else 2)
