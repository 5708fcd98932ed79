#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Tests for contrib/check-order.py, contrib/compare.py and contrib/bench-report.sh
on hand-made bench_bitcoin -output-json files (schema sha256bench-results,
version 1) and a stand-in bench_bitcoin; for core-patch.sh's A/B rows that did
not run their kernel (contrib/core-series/core_bench_json.py on Core-shaped
fixtures) and its refusals on a stand-in Core tree.
Ends with "tools tests: N passed, M failed"."""
import copy
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

CONTRIB = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHECK_ORDER = os.path.join(CONTRIB, "check-order.py")
COMPARE = os.path.join(CONTRIB, "compare.py")
BENCH_REPORT = os.path.join(CONTRIB, "bench-report.sh")

# A stand-in bench_bitcoin: rejects what the real one rejects, otherwise prints a
# table per selected size and writes a schema-v1 JSON whose tables follow -filter.
FAKE_BENCH = r"""#!/usr/bin/env python3
import json, os, re, sys
sizes = {"1M": "SHA256, 1000000-byte messages", "1K": "SHA256, 1024-byte messages"}
impls = [("fast_shani", ["sha-ni", "sse4.1", "ssse3"]), ("wide_avx2", ["avx2", "bmi2"]),
         ("old_ssse3", ["ssse3"]), ("portable", [])]
flt, out = ".*", None
for a in sys.argv[1:]:
    if a.startswith("-filter="): flt = a[8:]
    elif a.startswith("-output-json="): out = a[13:]
    elif a.startswith("-rounds="):
        if a[8:] == "0": sys.exit(print("Error: -rounds=0: expected a number of rounds from 1 to 1000", file=sys.stderr) or 1)
    else: sys.exit(print("Error: unknown option " + a, file=sys.stderr) or 1)
try: rx = re.compile(flt)
except re.error: sys.exit(print("Error: -filter=" + flt + " is not a valid regular expression", file=sys.stderr) or 1)
cap = os.environ.get("OPENSSL_ia32cap")
path = {":~0x20000000": "avx2+bmi", ":~0x20000128": "ssse3"}.get(cap, "x86_64" if cap else "sha-ni")
results = []
print("CPU: test CPU\nOpenSSL reference: OpenSSL 3, path " + path + " (test)")
for tag, table in sizes.items():
    rows = [(n, needs) for n, needs in impls + [("openssl", None)] if rx.search("SHA256_%s/%s" % (tag, n))]
    if not rows: continue
    print("\n### " + table + "\n\n| Impl | median | speed% |")
    for i, (n, needs) in enumerate(rows):
        print("| %s | %d ns | %d |" % (n, 10 * (i + 1), 100 + i))
        results.append({"table": table, "name": "SHA256_%s/%s" % (tag, n), "impl": n, "family": "transform",
            "baseline": n == "portable", "status": "ok", "reason": "", "bytes_per_op": 64, "samples_ns": [10.0],
            "median_ns": 10.0 * (i + 1), "min_ns": 10.0, "max_ns": 10.0, "spread_pct": 0.0, "mb_per_s": 6.4,
            "cycles_per_byte": 1.5 + i, "cycles_per_op": 96.0, "speed_pct": 100.0 + i, "best_batch_cycles_per_byte": 1.0})
if not results: sys.exit(print("Error: -filter=" + flt + " matches no benchmark", file=sys.stderr) or 1)
doc = {"schema": "sha256bench-results", "version": 1, "mode": "measured", "date": "2026-11-22T12:00:00Z",
       "commit": "test", "machine": {}, "build": {}, "options": {},
       "implementations": [{"family": "transform", "name": n, "needs": needs, "built": True, "supported": True,
                            "selected": i == 0, "why_not": "", "technique": "t"} for i, (n, needs) in enumerate(impls)],
       "results": results}
if out: json.dump(doc, open(out, "w"))
"""


# What the test rows need: the fastest needs the most, as in the real registry, so
# that AutoDetect could face every choice between them (a row needing nothing above
# another would be picked wherever both run, and check-order.py would not judge them).
NEEDS = {"zeta_fast": ["sha-ni", "sse4.1"], "mid": ["avx2"], "fast": ["sha-ni"]}


def impl(name, family="transform", needs=None):
    return {"family": family, "name": name, "needs": NEEDS.get(name, []) if needs is None else needs, "built": True,
            "supported": True, "selected": False, "why_not": "", "technique": "test row"}


def row(impl_name, median_ns, table="SHA256, 64-byte messages", family="transform"):
    return {"table": table, "name": f"T/{impl_name}", "impl": impl_name, "family": family,
            "baseline": impl_name == "slowest", "status": "ok", "reason": "", "bytes_per_op": 64,
            "samples_ns": [median_ns] * 3, "median_ns": median_ns, "min_ns": median_ns, "max_ns": median_ns,
            "spread_pct": 0.0, "mb_per_s": 64e3 / median_ns, "cycles_per_byte": median_ns / 64,
            "cycles_per_op": median_ns, "speed_pct": 100.0, "best_batch_cycles_per_byte": median_ns / 64}


def document(order, timings, mode="measured"):
    """order: registry names, preferred first; timings: {name: median ns} of the rows that ran."""
    return {"schema": "sha256bench-results", "version": 1, "mode": mode,
            "date": "2026-11-22T12:00:00Z", "commit": "test",
            "machine": {"arch": "x86_64", "cpu": "test", "features": []},
            "build": {"compiler": "c++", "cxxflags": "", "cppflags": "", "assembler": "none", "openssl": "no"},
            "options": {"filter": ".*", "min_time_ms": 500, "rounds": 3},
            "implementations": [impl(n) for n in order],
            "results": [row(n, t) for n, t in timings.items()]}


class ToolCase(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, obj):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            f.write(obj if isinstance(obj, str) else json.dumps(obj))
        return path

    def run_tool(self, tool, *args):
        p = subprocess.run([sys.executable, tool, *args], capture_output=True, text=True)
        return p.returncode, p.stdout, p.stderr

    def assert_one_line_error(self, rc, err, prog, want):
        self.assertNotEqual(rc, 0)
        self.assertNotIn("Traceback", err)
        lines = [l for l in err.splitlines() if l.strip()]
        self.assertEqual(len(lines), 1, f"expected one error line, got: {err!r}")
        self.assertTrue(lines[0].startswith(prog), lines[0])
        self.assertIn(want, lines[0])


# Names no script knows: the order must come from the file's implementations list.
ORDER = ["zeta_fast", "mid", "alpha_slow"]


class CheckOrder(ToolCase):
    def check(self, doc, *extra):
        return self.run_tool(CHECK_ORDER, self.write("r.json", doc), *extra)

    def test_consistent_run_passes_with_registry_order_from_file(self):
        rc, out, err = self.check(document(ORDER, {"zeta_fast": 10.0, "mid": 20.0, "alpha_slow": 40.0}))
        self.assertEqual(rc, 0, out + err)
        self.assertIn("consistent with this machine", out)
        self.assertIn("3 pair(s) compared", out)

    def test_contradiction_is_flagged(self):
        rc, out, err = self.check(document(ORDER, {"zeta_fast": 50.0, "mid": 20.0, "alpha_slow": 40.0}))
        self.assertEqual(rc, 1, out + err)
        self.assertIn("registry prefers zeta_fast over mid", out)
        self.assertIn("registry prefers zeta_fast over alpha_slow", out)

    def test_registry_order_not_alphabetical_or_literal(self):
        # The same timings judged under the reversed registry contradict it.
        rc, out, _ = self.check(document(list(reversed(ORDER)), {"zeta_fast": 10.0, "mid": 20.0, "alpha_slow": 40.0}))
        self.assertEqual(rc, 1)
        self.assertIn("registry prefers alpha_slow over mid", out)

    def test_extra_registry_row_is_compared(self):
        order = ["fast", "basic_alias", "basic"]
        rc, out, err = self.check(document(order, {"fast": 10.0, "basic_alias": 100.0, "basic": 30.0}))
        self.assertEqual(rc, 1, out + err)
        self.assertIn("registry prefers basic_alias over basic", out)

    def test_rows_outside_the_registry_are_not_judged(self):
        doc = document(ORDER, {"zeta_fast": 10.0, "mid": 20.0})
        doc["results"].append(row("openssl", 1.0))
        rc, out, err = self.check(doc)
        self.assertEqual(rc, 0, out + err)

    def test_single_row_is_nothing_to_compare(self):
        rc, _, err = self.check(document(ORDER, {"mid": 20.0}))
        self.assertEqual(rc, 2)
        self.assert_one_line_error(rc, err, "check-order.py", "nothing to compare")

    def test_rows_in_separate_tables_are_nothing_to_compare(self):
        doc = document(ORDER, {})
        doc["results"] = [row("zeta_fast", 10.0, table="A"), row("mid", 20.0, table="B")]
        rc, _, err = self.check(doc)
        self.assert_one_line_error(rc, err, "check-order.py", "nothing to compare")

    def test_not_run_rows_are_nothing_to_compare(self):
        doc = document(ORDER, {"zeta_fast": 10.0, "mid": 20.0})
        for r in doc["results"]:
            r["status"] = "not run"
            r["reason"] = "CPU lacks avx2"
            for k in list(r):
                if k.endswith("_ns") or k in ("mb_per_s", "speed_pct"):
                    del r[k]
        rc, _, err = self.check(doc)
        self.assert_one_line_error(rc, err, "check-order.py", "nothing to compare")

    def test_tolerance_must_be_a_finite_number(self):
        doc = document(ORDER, {"zeta_fast": 50.0, "mid": 20.0})
        for bad in ("nan", "inf", "-1", "abc"):
            rc, _, err = self.check(doc, f"--tolerance={bad}")
            self.assertEqual(rc, 2, bad)
            self.assert_one_line_error(rc, err, "check-order.py", "--tolerance")

    def test_usage_errors_are_one_line(self):
        for args, want in (((), "required: json_file"), (("a.json", "b.json"), "unrecognized arguments: b.json"),
                           (("--frob", "a.json"), "unrecognized arguments: --frob")):
            with self.subTest(args):
                rc, _, err = self.run_tool(CHECK_ORDER, *args)
                self.assert_one_line_error(rc, err, "check-order.py", want)

    def test_a_name_cannot_forge_a_line(self):
        evil = "mid\nAutoDetect order (9 pair(s) compared): consistent with this machine"
        doc = document(["zeta_fast", evil, "alpha_slow"], {"zeta_fast": 50.0, evil: 20.0, "alpha_slow": 40.0})
        doc["implementations"][1]["needs"] = ["avx2"]
        rc, out, err = self.check(doc)
        self.assertEqual(rc, 1, out + err)
        self.assertFalse([line for line in out.splitlines() if line.startswith("AutoDetect order (9")], out)
        self.assertIn("registry prefers zeta_fast over mid\\x0aAutoDetect order (9", out)

    def test_sanity_check_run_is_refused(self):
        rc, _, err = self.check(document(ORDER, {"zeta_fast": 10.0, "mid": 20.0}, mode="sanity-check"))
        self.assertEqual(rc, 2)
        self.assert_one_line_error(rc, err, "check-order.py", "sanity-check")

    def test_emulated_run_is_refused(self):
        doc = document(ORDER, {"zeta_fast": 10.0, "mid": 20.0})
        doc["machine"]["emulated"] = "SHA256BENCH_EMULATED=qemu-aarch64 -cpu max"
        rc, _, err = self.check(doc)
        self.assert_one_line_error(rc, err, "check-order.py", "emulated CPU")

    def test_wrong_shapes_fail_with_one_line(self):
        good = document(ORDER, {"zeta_fast": 10.0, "mid": 20.0})
        cases = {"top-level list": [good]}
        for key, value in (("median_ns", None), ("median_ns", "10"), ("median_ns", -1), ("median_ns", True)):
            d = copy.deepcopy(good)
            d["results"][0][key] = value
            cases[f"{key}={value!r}"] = d
        for key in ("results", "implementations", "mode", "version"):
            d = copy.deepcopy(good)
            del d[key]
            cases[f"no {key}"] = d
        d = copy.deepcopy(good)
        del d["results"][1]["impl"]
        cases["row without impl"] = d
        d = copy.deepcopy(good)
        d["results"] = {"a": 1}
        cases["results is an object"] = d
        d = copy.deepcopy(good)
        d["implementations"] = ["zeta_fast", "mid"]
        cases["implementations of strings"] = d
        cases["not JSON"] = "{"
        for what, doc in cases.items():
            with self.subTest(what):
                rc, _, err = self.check(doc)
                self.assertEqual(rc, 2, what)
                self.assert_one_line_error(rc, err, "check-order.py", "r.json")

    def test_missing_file(self):
        rc, _, err = self.run_tool(CHECK_ORDER, os.path.join(self.tmp.name, "absent.json"))
        self.assert_one_line_error(rc, err, "check-order.py", "cannot read")


RESULTS = os.path.join(os.path.dirname(CONTRIB), "doc", "results")
SHANI_RUNS = {"zen4": os.path.join(RESULTS, "2026-11-23-amd-epyc-zen4.json"),
              "sapphire rapids": os.path.join(RESULTS, "2026-11-22-intel-xeon-sapphire-rapids.json")}
TXIDS = "txids of a block: SHA256D of 3000 transactions"


class CheckOrderShani(ToolCase):
    """The multi-buffer 1-way rows run CSHA256 with the selected transform (SHA-NI on these
    machines): a SHA-NI row above them is AutoDetect's pick wherever they run, so their
    pairs are no choice AutoDetect faces, and must not be judged as one."""

    def committed(self, which):
        with open(SHANI_RUNS[which], encoding="utf-8") as f:
            return json.load(f)

    def check(self, doc):
        return self.run_tool(CHECK_ORDER, self.write("r.json", doc))

    def test_committed_sha_ni_runs_judge_only_choices_autodetect_faces(self):
        for which in SHANI_RUNS:
            with self.subTest(which):
                rc, out, err = self.run_tool(CHECK_ORDER, SHANI_RUNS[which])
                self.assertIn(rc, (0, 1), err)
                orders = [line for line in out.splitlines() if "ORDER:" in line]
                self.assertFalse([line for line in orders if "oneway" in line], out)
                self.assertRegex(out, r"not judged: .*sse41_4lane vs oneway.* is listed above and picked wherever both run")
                self.assertIn("oneway_shani, oneway run(s) CSHA256 with the selected transform shani", out)
        # Sapphire Rapids measured every judged choice the registry's way.
        rc, out, err = self.run_tool(CHECK_ORDER, SHANI_RUNS["sapphire rapids"])
        self.assertEqual(rc, 0, out + err)
        self.assertIn("consistent with this machine", out)
        # Zen 4: two real ones beyond 5%, on choices a CPU can face (AVX without AVX2; both SHA-NI D64 rows).
        rc, out, _ = self.run_tool(CHECK_ORDER, SHANI_RUNS["zen4"])
        self.assertEqual(rc, 1)
        self.assertEqual(sorted(line.split(",")[0].strip() for line in out.splitlines() if "ORDER:" in line),
                         ["ORDER: registry prefers avx over sse4", "ORDER: registry prefers shani_4way over shani_3way"])

    def test_an_inverted_judged_pair_is_still_flagged(self):
        doc = self.committed("sapphire rapids")
        for r in doc["results"]:
            if r["table"] == TXIDS and r["impl"] in ("sse41_4lane", "oneway"):
                r["median_ns"] = 1000.0  # faster than avx2_8lane and avx512_16lane
        rc, out, err = self.check(doc)
        self.assertEqual(rc, 1, out + err)
        self.assertIn("ORDER: registry prefers avx2_8lane over sse41_4lane", out)
        # A 1-way row is judged where AutoDetect does face it: no row above avx512_16lane.
        self.assertIn("ORDER: registry prefers avx512_16lane over oneway", out)

    def multi_doc(self, oneway_extra):
        doc = document(["t_shani", "t_basic"], {"t_shani": 10.0, "t_basic": 40.0})
        doc["implementations"][0].update(needs=["sha-ni"], selected=True)
        rows = [("m_shani", ["sha-ni"], 10.0), ("m_avx2", ["avx2"], 40.0), ("oneway", [], 12.0), ("m_portable", [], 80.0)]
        for name, needs, ns in rows:
            doc["implementations"].append(impl(name, family="multi", needs=needs))
            doc["results"].append(row(name, ns, table=TXIDS, family="multi"))
        doc["implementations"][-2].update(oneway_extra)
        return doc

    def test_uses_transform_counts_the_selected_transforms_needs(self):
        # Without the field or the technique text, oneway is a row needing nothing: m_avx2 is judged against it.
        rc, out, err = self.check(self.multi_doc({}))
        self.assertEqual(rc, 1, out + err)
        self.assertIn("registry prefers m_avx2 over oneway", out)
        for extra in ({"uses_transform": True}, {"technique": "CSHA256 per message with the selected transform"}):
            with self.subTest(extra):
                rc, out, err = self.check(self.multi_doc(extra))
                self.assertEqual(rc, 0, out + err)
                self.assertIn("m_avx2 vs oneway", out.split("not judged: ")[1])
                self.assertIn("(m_shani is listed above and picked wherever both run)", out)
                self.assertIn("consistent with this machine", out)
        # No transform marked selected: what oneway ran is unknown, so its pairs are not judged.
        doc = self.multi_doc({"uses_transform": True})
        doc["implementations"][0]["selected"] = False
        rc, out, err = self.check(doc)
        self.assertEqual(rc, 0, out + err)
        self.assertIn("m_avx2 vs oneway, oneway vs m_portable (the selected transform is unknown)", out)
        # A row above that this build lacks is never AutoDetect's pick: the choice is judged again.
        doc = self.multi_doc({"uses_transform": True})
        doc["implementations"][2]["built"] = False
        rc, out, _ = self.check(doc)
        self.assertEqual(rc, 1)
        self.assertIn("registry prefers m_avx2 over oneway", out)
        # Where the file has the field, it decides; the technique's words do not.
        doc = self.multi_doc({"technique": "CSHA256 per message with the selected transform"})
        doc["implementations"][2]["uses_transform"] = False
        rc, out, _ = self.check(doc)
        self.assertEqual(rc, 1)
        self.assertIn("registry prefers m_avx2 over oneway", out)

    def test_registry_fields_of_the_wrong_type_fail_with_one_line(self):
        cases = {"uses_transform": ({"uses_transform": "yes"}, "uses_transform is 'yes'"),
                 "needs": ({"needs": "avx2"}, "needs is 'avx2'"), "built": ({"built": 1}, "built is 1")}
        for what, (extra, want) in cases.items():
            with self.subTest(what):
                rc, _, err = self.check(self.multi_doc(extra))
                self.assert_one_line_error(rc, err, "check-order.py", want)
        doc = self.multi_doc({})
        doc["implementations"][1]["selected"] = True
        rc, _, err = self.check(doc)
        self.assert_one_line_error(rc, err, "check-order.py", "2 transforms are marked selected")


class Compare(ToolCase):
    def compare(self, a, b):
        return self.run_tool(COMPARE, self.write("a.json", a), self.write("b.json", b))

    def test_two_runs_are_compared(self):
        rc, out, err = self.compare(document(ORDER, {"mid": 20.0}), document(ORDER, {"mid": 10.0}))
        self.assertEqual(rc, 0, err)
        self.assertIn("| T/mid | 3200.0 | 6400.0 | 2.000 |", out)

    def test_nothing_in_common_is_an_error(self):
        rc, _, err = self.compare(document(ORDER, {"mid": 20.0}), document(ORDER, {"zeta_fast": 10.0}))
        self.assertEqual(rc, 2)
        self.assert_one_line_error(rc, err, "compare.py", "nothing to compare")

    def test_sanity_check_run_is_refused(self):
        for which in (0, 1):
            docs = [document(ORDER, {"mid": 20.0}), document(ORDER, {"mid": 10.0})]
            docs[which]["mode"] = "sanity-check"
            rc, _, err = self.compare(*docs)
            self.assertEqual(rc, 2)
            self.assert_one_line_error(rc, err, "compare.py", "sanity-check")

    def test_wrong_shapes_fail_with_one_line(self):
        good = document(ORDER, {"mid": 20.0})
        bad = {"top-level list": [good], "string number": copy.deepcopy(good), "null number": copy.deepcopy(good),
               "missing name": copy.deepcopy(good), "no results": copy.deepcopy(good)}
        bad["string number"]["results"][0]["mb_per_s"] = "3200"
        bad["null number"]["results"][0]["mb_per_s"] = None
        del bad["missing name"]["results"][0]["name"]
        del bad["no results"]["results"]
        for what, doc in bad.items():
            with self.subTest(what):
                rc, _, err = self.compare(good, doc)
                self.assertEqual(rc, 2, what)
                self.assert_one_line_error(rc, err, "compare.py", "b.json")

    def test_the_same_run_twice_is_refused(self):
        doc = document(ORDER, {"mid": 20.0, "zeta_fast": 10.0})
        a = self.write("a.json", doc)
        copies = {"the same path": a, "a copy": self.write("copy.json", json.dumps(doc)),
                  "re-indented": self.write("indented.json", json.dumps(doc, indent=2))}
        for what, b in copies.items():
            with self.subTest(what):
                rc, out, err = self.run_tool(COMPARE, a, b)
                self.assert_one_line_error(rc, err, "compare.py", "hold the same run")
                self.assertEqual(out, "")

    def test_names_cannot_split_a_table_row(self):
        evil = "a|b\n| forged | 1 | 2 | 3 |"
        rc, out, err = self.run_tool(COMPARE, self.write("a|1.json", document(ORDER, {evil: 20.0})),
                                     self.write("b.json", document(ORDER, {evil: 10.0})))
        self.assertEqual(rc, 0, err)
        rows = [line for line in out.splitlines() if line.startswith("|")]
        self.assertEqual(len(rows), 3, out)  # header, separator, the one row
        for line in rows:
            self.assertEqual(len(re.split(r"(?<!\\)\|", line)), 6, line)  # 4 cells between 5 unescaped pipes
        self.assertIn("| T/a\\|b\\x0a\\| forged \\| 1 \\| 2 \\| 3 \\| | 3200.0 | 6400.0 | 2.000 |", out)

    def test_wrong_argument_count(self):
        rc, _, err = self.run_tool(COMPARE, self.write("a.json", document(ORDER, {"mid": 1.0})))
        self.assert_one_line_error(rc, err, "compare.py", "expected two files")


class BenchReport(ToolCase):
    def report(self, *args):
        bench_dir = os.path.join(self.tmp.name, "build", "src", "bench")
        os.makedirs(bench_dir, exist_ok=True)
        fake = os.path.join(bench_dir, "bench_bitcoin")
        with open(fake, "w") as f:
            f.write(FAKE_BENCH)
        os.chmod(fake, 0o755)
        p = subprocess.run(["sh", BENCH_REPORT, os.path.join(self.tmp.name, "build"), *args], capture_output=True,
                           text=True, cwd=self.tmp.name)
        return p.returncode, p.stdout, p.stderr

    def test_bench_errors_reach_the_user(self):
        for bad, want in (("-bogus", "unknown option -bogus"), ("-rounds=0", "-rounds=0"),
                          ("-filter=(", "not a valid regular expression")):
            with self.subTest(bad):
                rc, _, err = self.report(bad)
                self.assertNotEqual(rc, 0)
                self.assert_one_line_error(rc, err, "bench-report.sh", want)

    def test_output_files_are_refused_not_lost(self):
        for opt in ("-output-json=u.json", "-output-csv=u.csv"):
            with self.subTest(opt):
                rc, out, err = self.report(opt)
                self.assertNotEqual(rc, 0)
                self.assert_one_line_error(rc, err, "bench-report.sh", "writes the results itself")
                self.assertFalse(os.path.exists(os.path.join(self.tmp.name, opt.split("=")[1])))

    def test_titles_follow_the_filter(self):
        rc, out, err = self.report("-filter=SHA256_1K/")
        self.assertEqual(rc, 0, err)
        self.assertIn("SHA256, 1024-byte messages", out)
        self.assertNotIn("1000000-byte", out)
        self.assertNotIn("1 MB", out)

    def test_openssl_paths_matched_by_needed_features(self):
        rc, out, err = self.report()
        self.assertEqual(rc, 0, err)
        forced = [line for line in out.splitlines() if line.startswith("| SHA256, 1000000") and "`" in line]
        pairs = {(line.split("|")[3].strip(), line.split("|")[6].strip()) for line in forced}
        self.assertIn(("avx2+bmi", "wide_avx2"), pairs)
        self.assertIn(("ssse3", "old_ssse3"), pairs)
        self.assertIn(("x86_64", "portable"), pairs)
        self.assertNotIn(("ssse3", "fast_shani"), pairs)
        self.assertNotIn("1024-byte", "\n".join(forced))  # without -filter, forced runs use the 1 MB table


class ExtraRow(ToolCase):
    """ci/extra-row.sh: a build without the binary, or a binary that fails, is one clear
    FAIL line each, not a Python traceback inside them."""
    SCRIPT = os.path.join(os.path.dirname(CONTRIB), "ci", "extra-row.sh")

    def run_script(self, build):
        p = subprocess.run(["sh", self.SCRIPT, build], capture_output=True, text=True, timeout=120)
        return p.returncode, p.stdout + p.stderr

    def test_missing_binary(self):
        rc, out = self.run_script(os.path.join(self.tmp.name, "no-build"))
        self.assertNotEqual(rc, 0)
        self.assertNotIn("Traceback", out)
        lines = out.splitlines()
        self.assertEqual(len(lines), 2, out)  # one FAIL naming the binary, and the count
        self.assertTrue(lines[0].startswith("FAIL: "), out)
        self.assertIn(f"{self.tmp.name}/no-build/src/bench/bench_bitcoin", lines[0])
        self.assertEqual(lines[1], "extra-row: 0 passed, 1 failed")

    def test_failing_binary(self):
        bench_dir = os.path.join(self.tmp.name, "build", "src", "bench")
        os.makedirs(bench_dir)
        with open(os.path.join(bench_dir, "bench_bitcoin"), "w") as f:
            f.write("#!/bin/sh\necho 'Error: this bench is broken' >&2\nexit 1\n")
        os.chmod(os.path.join(bench_dir, "bench_bitcoin"), 0o755)
        rc, out = self.run_script(os.path.join(self.tmp.name, "build"))
        self.assertNotEqual(rc, 0)
        self.assertNotIn("Traceback", out)
        self.assertIn("this bench is broken", out)  # why, in the bench's own words
        self.assertRegex(out.rstrip().splitlines()[-1], r"^extra-row: 0 passed, [1-9][0-9]* failed$", out)


class CoreAbNotRun(ToolCase):
    """core-patch.sh --ab on a CPU without a row's feature: Core's SHA256AutoDetect(mask)
    falls back silently, and bench_bitcoin names what it gave. A row whose string lacks
    what its name claims is "not run" with the reason, never compared (fixtures in
    bench_bitcoin -output-json's shape, as Core writes them; no Core build needed)."""
    CONVERT = os.path.join(CONTRIB, "core-series", "core_bench_json.py")
    ANALYSE = os.path.join(CONTRIB, "bench_compare.py")
    FALLBACK = "sse4(1way),sse41(4way)"  # what qemu -cpu Nehalem gives for every mask

    def core_json(self, name, bench, impl, ns):
        doc = {"results": [{"name": f"{bench} using the '{impl}' SHA256 implementation" if impl else bench,
                            "median(elapsed)": ns * 1e-9 * 1024, "batch": 1024, "unit": "byte"}]}
        return self.write(name, doc)

    def side(self, pair, side, impls, scale, loops=None):
        """One side's converted JSON: impls maps bench -> Core's implementation string; loops maps
        bench -> the text of its .loop file (core-patch.sh's one-add loop before and after the run)."""
        files = [self.core_json(f"raw-{pair}-{side}-{b}.json", b, impl, 100.0 * scale * (1 + 0.01 * (pair % 3)))
                 for b, impl in impls.items()]
        for b, text in (loops or {}).items():
            with open(os.path.join(self.tmp.name, f"raw-{pair}-{side}-{b}.loop"), "w") as f:
                f.write(text)
        out = os.path.join(self.runs, f"pair-{pair:02d}-{side}.json")
        cross = ["--cross=SHA256D64_1024_AVX512=SHA256D64_1024_AVX2"]
        p = subprocess.run([sys.executable, self.CONVERT, "convert", f"--side={side}", "--label=" + side,
                            "--compiler=c++", "--core-ghz=3.0", *cross, "--out=" + out, *files],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(out) as f:
            return json.load(f)

    def setUp(self):
        super().setUp()
        self.runs = os.path.join(self.tmp.name, "runs")
        os.mkdir(self.runs)

    def test_the_summary_line_counts_the_runs_read_shared(self):
        # core-patch.sh --ab's last line: each run's larger reading, at the threshold or more is shared.
        files = []
        for i, text in enumerate(("1.01 1.03", "1.25 1.0", "0.99 2.5", "1.1 1.249")):
            files.append(os.path.join(self.tmp.name, f"raw-{i}-base-MerkleRoot.loop"))
            with open(files[-1], "w") as f:
                f.write(text + "\n")
        p = subprocess.run([sys.executable, self.CONVERT, "loops", "--cpu=3", *files], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout.strip(), "Every run on CPU 3. The one-add loop before and after each of the 4 runs "
                         "read 1.03-2.50 core cycles an iteration; 2 run(s) at 1.25 or more ran on a shared core "
                         "(doc/benchmarking.md, \"Shared core\").")
        for bad in (["--cpu=3"], [files[0]], ["--cpu=3", files[0][:-5] + "-absent.loop"], ["--cpu=3", "x.json"]):
            with self.subTest(bad=bad):
                p = subprocess.run([sys.executable, self.CONVERT, "loops", *bad], capture_output=True, text=True)
                self.assertEqual(p.returncode, 2, p.stdout)
                self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)

    def test_rows_whose_kernel_did_not_run_are_not_compared(self):
        base = {"SHA256D64_1024_AVX2": self.FALLBACK + ",avx2(8way)", "SHA256D64_1024_SHANI": self.FALLBACK + ",avx2(8way)",
                "MerkleRoot": ""}
        # HEAD's AVX-512 row fell back to AVX2 (no AVX-512 here): its own row and the cross row did not run.
        head = dict(base, SHA256D64_1024_AVX512=self.FALLBACK + ",avx2(8way)")
        for i in range(1, 9):
            b = self.side(i, "base", base, 1.0)
            h = self.side(i, "head", head, 1.3)  # HEAD "slower" everywhere: a verdict would be drawn if compared
        status = {r["name"].split(" (")[0]: (r["status"], r.get("reason", "")) for r in h["results"]}
        self.assertEqual(status["SHA256D64_1024_AVX512"][0], "not run")
        self.assertIn("no avx512(16way) on this CPU", status["SHA256D64_1024_AVX512"][1])
        self.assertEqual(status["SHA256D64_1024_AVX512 vs SHA256D64_1024_AVX2"][0], "not run")
        self.assertEqual(status["SHA256D64_1024_SHANI"][0], "not run")
        self.assertIn("'sse4(1way),sse41(4way),avx2(8way)'", status["SHA256D64_1024_SHANI"][1])
        self.assertEqual(status["SHA256D64_1024_AVX2"][0], "ok")
        self.assertEqual(status["MerkleRoot"][0], "ok")
        self.assertEqual({r["name"].split(" (")[0]: r["status"] for r in b["results"]}["SHA256D64_1024_SHANI"], "not run")
        p = subprocess.run([sys.executable, self.ANALYSE, self.runs], capture_output=True, text=True)
        self.assertIn(p.returncode, (0, 1), p.stderr)
        table = [l for l in p.stdout.splitlines() if l.startswith("| ")]
        for bench in ("SHA256D64_1024_SHANI", "SHA256D64_1024_AVX512"):
            self.assertFalse([l for l in table if bench in l], f"{bench} was compared:\n{p.stdout}")
        self.assertRegex(p.stdout, r"- SHA256D64_1024_SHANI \(ns/byte\) .*: not run on BASE: Core's SHA256AutoDetect "
                                   r"gave 'sse4\(1way\),sse41\(4way\),avx2\(8way\)' for SHA256D64_1024_SHANI: no x86_shani")
        self.assertRegex(p.stdout, r"- SHA256D64_1024_AVX512 vs SHA256D64_1024_AVX2 \(ns/byte\) .*: not run on HEAD")
        self.assertIn("Summary: 0 faster, 2 slower, 0 no change, 3 not compared.", p.stdout)

    def test_loop_readings_beside_a_run_reach_its_rows(self):
        impls = {"SHA256D64_1024_AVX2": "x86_shani(1way,2way),avx2(8way)", "MerkleRoot": ""}
        h = self.side(1, "head", impls, 1.0, loops={"SHA256D64_1024_AVX2": "1.02 1.61\n"})
        loop = {r["name"].split(" (")[0]: r.get("loop_iteration_cycles") for r in h["results"]}
        self.assertEqual(loop["SHA256D64_1024_AVX2"], 1.61)  # the larger of before and after
        self.assertIsNone(loop["MerkleRoot"])  # no .loop file: no reading
        for bad in ("1.0\n", "1.0 x\n", "0 1.0\n", "1.0 2.0 3.0\n"):
            with open(os.path.join(self.tmp.name, "raw-2-head-MerkleRoot.loop"), "w") as f:
                f.write(bad)
            raw = self.core_json("raw-2-head-MerkleRoot.json", "MerkleRoot", "", 100.0)
            p = subprocess.run([sys.executable, self.CONVERT, "convert", "--side=head", "--core-ghz=3.0",
                                "--out=" + os.path.join(self.runs, "x.json"), raw], capture_output=True, text=True)
            self.assertEqual(p.returncode, 2, bad)
            self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)
            self.assertIn("raw-2-head-MerkleRoot.loop: expected two one-add loop readings", p.stderr)

    def test_pairs_whose_sides_disagree_on_a_shared_core_leave_the_row(self):
        impls = {"SHA256D64_1024_AVX2": "x86_shani(1way,2way),avx2(8way)", "MerkleRoot": ""}
        for i in range(1, 11):
            self.side(i, "base", impls, 1.0, loops={b: "1.0 1.01" for b in impls})
            # Pairs 3 and 7: HEAD's Merkle run had a shared core and took 40% longer.
            shared = i in (3, 7)
            self.side(i, "head", impls, 1.0, loops={"SHA256D64_1024_AVX2": "1.0 1.0",
                                                     "MerkleRoot": "1.0 1.9" if shared else "1.0 1.0"})
            if shared:
                path = os.path.join(self.runs, f"pair-{i:02d}-head.json")
                with open(path) as f:
                    doc = json.load(f)
                for r in doc["results"]:
                    if r["name"].startswith("MerkleRoot"):
                        r["median_ns"] *= 1.4
                with open(path, "w") as f:
                    json.dump(doc, f)
        p = subprocess.run([sys.executable, self.ANALYSE, "--json=" + os.path.join(self.tmp.name, "c.json"), self.runs],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("Shared core: MerkleRoot (ns/byte) without 2 of 10 pairs", p.stdout)
        with open(os.path.join(self.tmp.name, "c.json")) as f:
            used = {r["name"].split(" (")[0]: (r["pairs_used"], r["verdict"]) for r in json.load(f)["rows"]}
        self.assertEqual(used["MerkleRoot"], (8, "no change"))
        self.assertEqual(used["SHA256D64_1024_AVX2"], (10, "no change"))

    def test_rows_whose_kernel_ran_are_compared(self):
        impls = {"SHA256D64_1024_AVX2": "x86_shani(1way,2way),avx2(8way)", "SHA256D64_1024_SHANI": "x86_shani(1way,2way)"}
        for i in range(1, 9):
            self.side(i, "base", impls, 1.0)
            self.side(i, "head", dict(impls, SHA256D64_1024_AVX512="x86_shani(1way,2way),avx2(8way),avx512(16way)"), 1.0)
        p = subprocess.run([sys.executable, self.ANALYSE, self.runs], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("| SHA256D64_1024_SHANI (ns/byte) |", p.stdout)
        self.assertIn("| SHA256D64_1024_AVX512 vs SHA256D64_1024_AVX2 (ns/byte) |", p.stdout)
        # Only HEAD's own AVX-512 row is left out, for the reason it always is (BASE has none).
        self.assertIn("3 no change, 1 not compared.", p.stdout)
        self.assertIn("- SHA256D64_1024_AVX512 (ns/byte) (Core bench_bitcoin): absent from BASE", p.stdout)


class CorePatchRefusals(ToolCase):
    """contrib/core-patch.sh never writes into the Core tree and stops on a failed copy.
    A stand-in Core tree (the files core-patch.sh checks for, none the series applies
    to): every refusal here comes before the series would fail to apply (exit 1)."""
    SCRIPT = os.path.join(CONTRIB, "core-patch.sh")
    FILES = {"CMakeLists.txt": "project(BitcoinCore VERSION 0)\n", "cmake/introspection.cmake": "",
             "src/crypto/sha256.cpp": "", "src/crypto/sha256.h": "", "src/crypto/CMakeLists.txt": "",
             "src/bench/crypto_hash.cpp": "", "src/test/crypto_tests.cpp": ""}

    def setUp(self):
        super().setUp()
        self.root = os.path.realpath(self.tmp.name)
        self.core = os.path.join(self.root, "core")
        for name, text in self.FILES.items():
            path = os.path.join(self.core, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
        self.sibling = os.path.join(self.root, "sibling")
        os.mkdir(self.sibling)

    def listing(self):
        return sorted(os.path.relpath(os.path.join(d, n), self.core)
                      for d, dirs, files in os.walk(self.core) for n in dirs + files)

    def core_patch(self, *args, cwd=None, env=None):
        e = dict(os.environ)
        e.update(env or {})
        p = subprocess.run(["sh", self.SCRIPT, *args], capture_output=True, text=True, cwd=cwd or self.sibling,
                           env=e, timeout=600)
        return p.returncode, p.stderr

    def assert_refused_before_work(self, args, want, cwd=None, env=None):
        before = self.listing()
        rc, err = self.core_patch(*args, cwd=cwd, env=env)
        lines = [l for l in err.splitlines() if l.strip() and not l.startswith("install-deps.sh:")]
        self.assertEqual(rc, 2, err)
        self.assertEqual(len(lines), 1, err)
        self.assertIn(want, lines[0])
        self.assertNotIn("exporting the kernels", err)  # refused before any work
        self.assertEqual(self.listing(), before, "the Core tree changed")

    def test_out_or_cache_or_tmp_inside_the_tree_by_any_path(self):
        link = os.path.join(self.root, "link-to-core")
        os.symlink(self.core, link)
        inside = "inside the Core tree"
        cases = [
            (["--core=../core", "--out=../core/TREE/series"], "--out=", None),     # ".." from a sibling
            (["--core=" + link, "--out=" + os.path.join(self.core, "series")], "--out=", None),  # --core via a symlink
            (["--core=" + self.core, "--out=" + os.path.join(link, "series")], "--out=", None),   # --out via a symlink
            (["--core=" + self.core, "--out=" + os.path.join(self.root, "x", "..", "link-to-core", "new", "..", "s")],
             "--out=", None),
            (["--core=" + self.core, "--out=" + os.path.join(self.root, "out"), "--ab",
              "--cache=" + os.path.join(link, ".abcache")], "--cache=", None),
            (["--core=" + self.core, "--out=" + os.path.join(self.root, "out")], "temporary directory",
             {"TMPDIR": os.path.join(self.core, "tmp")}),
        ]
        for args, what, env in cases:
            with self.subTest(args=args, env=env):
                self.assert_refused_before_work(args, inside, env=env)
                self.assertFalse(os.path.exists(os.path.join(self.root, "out")))

    def test_a_cpu_the_process_may_not_use_is_refused_before_any_build(self):
        allowed = sorted(os.sched_getaffinity(0))
        out = os.path.join(self.root, "out")
        cache = os.path.join(self.root, "cache")
        for cpu in (str(max(allowed) + 1), "x", "-1", "1.5"):
            with self.subTest(cpu=cpu):
                self.assert_refused_before_work(["--core=" + self.core, "--out=" + out, "--ab", "--cache=" + cache,
                                                 "--cpu=" + cpu],
                                                f"--cpu={cpu}: expected one of the CPUs this process may use "
                                                f"({' '.join(map(str, allowed))})")
                self.assertFalse(os.path.exists(out))
                self.assertFalse(os.path.exists(cache))

    def test_out_under_a_regular_file_is_refused_at_once_with_the_reason(self):
        afile = os.path.join(self.root, "afile")
        open(afile, "w").close()
        self.assert_refused_before_work(["--core=" + self.core, "--out=" + os.path.join(afile, "sub", "series")],
                                        f"{afile} is in the way and is not a directory")

    def test_a_failed_copy_stops_the_run_naming_the_file(self):
        # A tar whose create side fails after writing its archive, as on an unreadable
        # or vanished file (as root nothing is unreadable, so the failure is injected).
        fakebin = os.path.join(self.root, "bin")
        os.mkdir(fakebin)
        real = subprocess.run(["sh", "-c", "command -v tar"], capture_output=True, text=True).stdout.strip()
        with open(os.path.join(fakebin, "tar"), "w") as f:
            f.write(f"#!/bin/sh\ncase \" $* \" in *' -cf '*) '{real}' \"$@\"; "
                    "echo 'tar: ./src/crypto/sha256.cpp: Cannot open: Permission denied' >&2; exit 2 ;; esac\n"
                    f"exec '{real}' \"$@\"\n")
        os.chmod(os.path.join(fakebin, "tar"), 0o755)
        out = os.path.join(self.root, "out")
        rc, err = self.core_patch("--core=" + self.core, "--out=" + out,
                                  env={"PATH": fakebin + os.pathsep + os.environ["PATH"]})
        self.assertEqual(rc, 2, err)
        last = err.strip().splitlines()[-1]
        self.assertIn("cannot copy", last)
        self.assertIn("./src/crypto/sha256.cpp: Cannot open", last)
        self.assertFalse(os.path.exists(out))

    def test_a_build_directory_named_with_a_space_is_left_out_cleanly(self):
        # It was word-split into two --exclude words: tar failed on the second
        # (ignored) and copied the build. Now the copy succeeds and reaches the
        # series, which does not apply to this stand-in tree (exit 1).
        os.makedirs(os.path.join(self.core, "build dir"))
        open(os.path.join(self.core, "build dir", "CMakeCache.txt"), "w").close()
        rc, err = self.core_patch("--core=" + self.core, "--out=" + os.path.join(self.root, "out"))
        self.assertEqual(rc, 1, err)
        self.assertFalse([l for l in err.splitlines() if l.startswith("tar:")], err)
        self.assertNotIn("cannot copy", err)
        self.assertIn("does not apply", err)



class AbHonestyVerify(ToolCase):
    """contrib/test/ab_honesty_verify.py: the verdicts ab-honesty.sh expects of
    bench-compare.sh, on hand-made compare.json files."""
    VERIFY = os.path.join(CONTRIB, "test", "ab_honesty_verify.py")

    def doc(self, *rows):
        impls = [{"family": "transform", "name": "basic", "needs": []},
                 {"family": "transform", "name": "shani", "needs": ["sha-ni"]},
                 {"family": "fixed", "name": "basic", "needs": []}]
        return {"implementations": impls, "not_compared": [],
                "rows": [{"name": f"SHA256_{n}/{'fixed_' if fam == 'fixed' else ''}{impl}", "family": fam, "impl": impl,
                          "verdict": verdict, "change_pct": pct, "low_pct": pct - 2, "high_pct": pct + 2}
                         for n, fam, impl, verdict, pct in rows]}

    def verify(self, doc, mode):
        retry = os.path.join(self.tmp.name, "retry")
        if os.path.exists(retry):
            os.remove(retry)
        rc, out, err = self.run_tool(self.VERIFY, self.write("compare.json", doc), mode, retry)
        if not os.path.exists(retry):
            return rc, out + err, None
        with open(retry) as f:
            return rc, out + err, f.read()

    SLOW = ("1M", "transform", "basic", "slower", 130.0)
    SAME = ("1M", "transform", "shani", "no change", 0.4)

    def test_the_expected_verdicts_pass(self):
        self.assertEqual(self.verify(self.doc(self.SLOW, self.SAME), "portable")[0], 0)
        self.assertEqual(self.verify(self.doc(self.SAME), "none")[0], 0)

    def test_any_change_fails_the_self_comparison(self):
        rc, out, retry = self.verify(self.doc(self.SAME, ("64B", "transform", "shani", "slower", 3.5)), "none")
        self.assertEqual(rc, 1, out)
        self.assertIn("SHA256_64B/shani slower", out)
        # The portable rows get no allowance either: both sides are one binary.
        rc, out, retry = self.verify(self.doc(self.SAME, ("1M", "transform", "basic", "faster", -22.3)), "none")
        self.assertEqual((rc, retry), (1, r"^(SHA256_1M/basic)$"), out)
        # The second look is checked as "none" again: the same change fails it.
        self.assertEqual(self.verify(self.doc(("1M", "transform", "basic", "faster", -20.0)), "none")[0], 1)
        self.assertEqual(self.verify(self.doc(("1M", "transform", "basic", "no change", -3.0)), "none")[0], 0)

    def test_the_self_comparison_gets_a_second_look_at_one_or_two_rows(self):
        one = ("64B", "transform", "shani", "slower", 3.5)
        two = ("D64B", "fixed", "basic", "faster", -22.29)
        rc, out, retry = self.verify(self.doc(self.SAME, one, two), "none")
        self.assertEqual((rc, retry), (1, r"^(SHA256_64B/shani|SHA256_D64B/fixed_basic)$"), out)
        # A portable row reading "no change" is right here, not undecided: no second look for it.
        rc, out, retry = self.verify(self.doc(("1M", "transform", "basic", "no change", 4.0), one), "none")
        self.assertEqual((rc, retry), (1, r"^(SHA256_64B/shani)$"), out)
        # Three changed rows at once: no second look.
        rows = [(f"{n}B", "transform", "shani", "slower", 4.0) for n in (32, 64, 80)]
        rc, out, retry = self.verify(self.doc(self.SAME, *rows), "none")
        self.assertEqual((rc, retry), (1, None), out)
        # Nothing wrong, nothing to look at again.
        rc, out, retry = self.verify(self.doc(self.SAME), "none")
        self.assertEqual((rc, retry), (0, None), out)

    def test_a_portable_row_not_found_slower_fails(self):
        for pct in (-40.0, -5.0):  # the drift allowance is not for the portable rows
            rc, out, retry = self.verify(self.doc(("1M", "transform", "basic", "faster", pct), self.SAME), "portable")
            self.assertEqual((rc, retry), (1, None), out)
        # Undecided (no change, positive estimate): a second look at just that row.
        rc, out, retry = self.verify(self.doc(("1M", "transform", "basic", "no change", 60.0), self.SAME), "portable")
        self.assertEqual((rc, retry), (1, r"^(SHA256_1M/basic)$"), out)

    def test_a_row_sharing_the_name_is_not_expected_slower(self):
        # The fixed family's basic row runs other code than the portable transform.
        rc, out, _ = self.verify(self.doc(self.SLOW, ("D64B", "fixed", "basic", "slower", 60.0)), "portable")
        self.assertEqual(rc, 1, out)
        self.assertIn("SHA256_D64B/fixed_basic slower", out)

    def test_drift_between_two_builds_is_reported_not_wrong(self):
        # A CI run read SHA256_D64B/fixed_basic +5.28% [+4.09, +7.21] (code byte-identical).
        rc, out, _ = self.verify(self.doc(self.SLOW, ("D64B", "fixed", "basic", "slower", 5.28)), "portable")
        self.assertEqual(rc, 0, out)
        self.assertIn("drift under 10%: SHA256_D64B/fixed_basic slower (+5.28%", out)
        rc, out, _ = self.verify(self.doc(self.SLOW, ("D64B", "fixed", "basic", "faster", -9.5)), "portable")
        self.assertEqual(rc, 0, out)

    def test_a_change_beyond_the_drift_fails_after_a_second_look(self):
        big = ("80B", "transform", "shani", "slower", 12.0)
        rc, out, retry = self.verify(self.doc(self.SLOW, big), "portable")
        self.assertEqual((rc, retry), (1, r"^(SHA256_80B/shani)$"), out)
        self.assertEqual(self.verify(self.doc(big), "portable-again")[0], 1)
        # Three such rows at once: no second look.
        rows = [(f"{n}B", "transform", "shani", "slower", 15.0) for n in (32, 64, 80)]
        rc, out, retry = self.verify(self.doc(self.SLOW, *rows), "portable")
        self.assertEqual((rc, retry), (1, None), out)

    def test_bad_input_is_one_line(self):
        rc, out, err = self.run_tool(self.VERIFY, self.write("x.json", "{"), "none")
        self.assert_one_line_error(rc, err, "ab_honesty_verify.py", "x.json")
        rc, out, err = self.run_tool(self.VERIFY, self.write("x.json", {}), "sideways")
        self.assert_one_line_error(rc, err, "ab_honesty_verify.py", "usage")


    def layout(self, lines, pairs):
        rc, out, err = self.run_tool(self.VERIFY, "--layout", self.write("code-layout.txt", "".join(
            f"{n:02d} {side} {digest}\n" for n, side, digest in lines)), str(pairs))
        return rc, out, err

    def test_code_placement_one_layout_a_pair_a_new_one_each_pair(self):
        good = [(n, side, f"d{n}") for n in (1, 2, 3) for side in (("base", "head") if n % 2 else ("head", "base"))]
        rc, out, _ = self.layout(good, 3)
        self.assertEqual(rc, 0, out)
        self.assertIn("3 pairs, 3 layouts, each the same on both sides", out)
        cases = {"the sides ran different layouts": [(1, "base", "d1"), (1, "head", "x")] + good[2:],
                 "a layout repeated": [(n, s, "d") for n, s, _ in good],
                 "no head run": good[:1] + good[2:],
                 "runs of pairs beyond 3": good + [(4, "base", "d4"), (4, "head", "d4")]}
        for text, lines in cases.items():
            with self.subTest(text):
                rc, out, _ = self.layout(lines, 3)
                self.assertEqual(rc, 1, out)
                self.assertIn(text, out)
        rc, out, err = self.run_tool(self.VERIFY, "--layout", self.write("bad.txt", "01 base\n"), "1")
        self.assert_one_line_error(rc, err, "ab_honesty_verify.py", "ValueError")


class SharedCoreThreshold(unittest.TestCase):
    """One threshold for a shared core, written twice: bench_bitcoin's (src/bench/bench.h) and
    bench_compare.py's, which core_bench_json.py imports for core-patch.sh --ab's summary line.
    The two must agree, and the shell script must not carry a third copy."""

    def test_the_copies_agree(self):
        top = os.path.dirname(CONTRIB)
        with open(os.path.join(top, "src", "bench", "bench.h"), encoding="utf-8") as f:
            bench = re.findall(r"constexpr double SHARED_CORE_LOOP = ([0-9.]+);", f.read())
        with open(os.path.join(CONTRIB, "bench_compare.py"), encoding="utf-8") as f:
            compare = re.findall(r"^SHARED_CORE_LOOP = ([0-9.]+)$", f.read(), re.M)
        self.assertEqual(len(bench), 1, bench)
        self.assertEqual(len(compare), 1, compare)
        self.assertEqual(float(bench[0]), float(compare[0]))
        with open(os.path.join(CONTRIB, "core-patch.sh"), encoding="utf-8") as f:
            self.assertNotIn(compare[0], f.read())


class CoreExportCanonical(unittest.TestCase):
    """contrib/core-export.py --same-code's instruction forms: the sources of a
    commutative operation, and of a comparison read only for equality, in one
    order; everything else as objdump printed it."""

    @classmethod
    def setUpClass(cls):
        import importlib.util
        spec = importlib.util.spec_from_file_location("core_export", os.path.join(CONTRIB, "core-export.py"))
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        cls.canonical = staticmethod(mod.canonical)

    def same(self, a, b, targets=None):
        return self.canonical(a, targets) == self.canonical(b, targets)

    def test_commutative_sources_in_either_order(self):
        self.assertTrue(self.same(["vpaddd %zmm7,%zmm16,%zmm7"], ["vpaddd %zmm16,%zmm7,%zmm7"]))
        self.assertTrue(self.same(["vpxord %zmm1,%zmm2,%zmm3"], ["vpxord %zmm2,%zmm1,%zmm3"]))
        self.assertTrue(self.same(["test %eax,%edx"], ["test %edx,%eax"]))

    def test_other_operands_keep_their_order(self):
        self.assertFalse(self.same(["vpsubd %zmm7,%zmm16,%zmm7"], ["vpsubd %zmm16,%zmm7,%zmm7"]))
        self.assertFalse(self.same(["vpaddd %zmm7,%zmm16,%zmm7"], ["vpaddd %zmm7,%zmm16,%zmm8"]))
        self.assertFalse(self.same(["vpaddd %zmm7,%zmm16,%zmm7{%k1}"], ["vpaddd %zmm16,%zmm7,%zmm7{%k1}"]))
        self.assertFalse(self.same(["vpternlogd $0x96,%zmm1,%zmm2,%zmm3"], ["vpternlogd $0x96,%zmm2,%zmm1,%zmm3"]))

    def test_cmp_read_only_for_equality(self):
        jne = ["cmp %rsi,%rax", "jne <>", "nop"]
        self.assertTrue(self.same(jne, ["cmp %rax,%rsi", "jne <>", "nop"], [None, 0, None]))
        # An ordered test, a second reader after it or at the jump's target, or
        # a target outside the function: the order stays.
        self.assertFalse(self.same(["cmp %rsi,%rax", "ja <>", "nop"], ["cmp %rax,%rsi", "ja <>", "nop"], [None, 0, None]))
        self.assertFalse(self.same(["cmp %rsi,%rax", "jne <>", "jb <>"], ["cmp %rax,%rsi", "jne <>", "jb <>"], [None, 0, None]))
        self.assertFalse(self.same(["cmp %rsi,%rax", "jne <>", "nop", "cmovb %rax,%rdx"],
                                   ["cmp %rax,%rsi", "jne <>", "nop", "cmovb %rax,%rdx"], [None, 3, None, None]))
        self.assertFalse(self.same(jne, ["cmp %rax,%rsi", "jne <>", "nop"], [None, None, None]))


class InstallDepsTests(unittest.TestCase):
    """contrib/install-deps.sh's package sets: --all (what CI installs) holds every
    package of the other two, and --core what core-patch.sh and Core's build run."""

    def sets(self):
        with open(os.path.join(CONTRIB, "install-deps.sh"), encoding="utf-8") as f:
            text = f.read()
        body = text.split("<<'EOF_PKGS'\n", 1)[1].split("\nEOF_PKGS", 1)[0]
        sets = {}
        for line in body.splitlines():
            words = line.split("#", 1)[0].split()
            if words:
                self.assertGreater(len(words), 1, f"a package without a set: {line!r}")
                for name in words[1:]:
                    self.assertIn(name, ("bench", "all", "core"), line)
                    sets.setdefault(name, set()).add(words[0])
        return sets

    def test_all_holds_every_other_set(self):
        s = self.sets()
        self.assertLessEqual(s["bench"], s["all"])
        self.assertLessEqual(s["core"], s["all"])

    def test_core_has_what_core_patch_and_cores_build_run(self):
        # git and python3 (the series), a compiler (the clock probe, Core's build),
        # and what Core's CMake finds: cmake, pkg-config (libevent), Boost, libevent.
        self.assertLessEqual({"build-essential", "git", "python3", "pkg-config", "cmake", "libboost-dev",
                              "libevent-dev"}, self.sets()["core"])

if __name__ == "__main__":
    result = unittest.main(exit=False, verbosity=2).result
    # A test with failing subtests counts once.
    bad = {getattr(t, "test_case", t).id() for t, _ in result.failures + result.errors}
    bad |= {t.id() for t in result.unexpectedSuccesses} | {t.id() for t, _ in result.skipped}
    passed = result.testsRun - len(bad)
    print(f"tools tests: {passed} passed, {len(bad)} failed")
    sys.exit(0 if not bad and result.testsRun > 0 else 1)
