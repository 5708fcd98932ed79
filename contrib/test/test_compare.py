#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Tests for contrib/bench-compare.sh (+ bench_compare.py), contrib/merge-results.py,
contrib/results-from-markdown.py and contrib/bench-report.sh (+ bench_report_plot.py),
on JSON files under contrib/test/data/ (a real measured run and a -sanity-check run
of bench_bitcoin, schema sha256bench-results version 1) and runs made from them with
fixed multiplicative noise. Plain unittest, no network, no build, a few seconds.
Ends with "compare tests: N passed, M failed"."""
import copy
import json
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
CONTRIB = os.path.dirname(HERE)
TOP = os.path.dirname(CONTRIB)
DATA = os.path.join(HERE, "data")
ANALYSE = os.path.join(CONTRIB, "bench_compare.py")
BENCH_COMPARE = os.path.join(CONTRIB, "bench-compare.sh")
MERGE = os.path.join(CONTRIB, "merge-results.py")
FROM_MD = os.path.join(CONTRIB, "results-from-markdown.py")
COMPARE_PLOT = os.path.join(CONTRIB, "bench_compare_plot.py")
ZEN3_MD = os.path.join(TOP, "doc", "results", "2026-11-22-amd-epyc-zen3.md")
ZEN4_JSON = os.path.join(TOP, "doc", "results", "2026-11-23-amd-epyc-zen4.json")
CHECK_ORDER = os.path.join(CONTRIB, "check-order.py")
COMPARE = os.path.join(CONTRIB, "compare.py")
REPORT = os.path.join(CONTRIB, "bench_report.py")
REPORT_PLOT = os.path.join(CONTRIB, "bench_report_plot.py")
CODE_ORDER = os.path.join(TOP, "build-aux", "code-order.py")


def measured():
    with open(os.path.join(DATA, "run-measured.json"), encoding="utf-8") as f:
        return json.load(f)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, **kw)


def scaled(doc, factor_of, rng, noise=0.01):
    """A copy of doc with every ok row's ns multiplied by factor_of(row) and by 1 +- noise."""
    d = copy.deepcopy(doc)
    for r in d["results"]:
        if r["status"] == "ok":
            f = factor_of(r) * (1 + rng.uniform(-noise, noise))
            for k in ("median_ns", "min_ns", "max_ns"):
                r[k] *= f
            r["samples_ns"] = [x * f for x in r["samples_ns"]]
    return d


class OneLineError:
    def assertOneLineError(self, p, code=2, text=None):
        self.assertEqual(p.returncode, code, p.stdout + p.stderr)
        self.assertNotIn("Traceback", p.stderr)
        lines = [x for x in p.stderr.splitlines() if x.strip()]
        self.assertEqual(len(lines), 1, p.stderr)
        if text:
            self.assertIn(text, lines[0])


class AnalysisTests(unittest.TestCase, OneLineError):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.doc = measured()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def write_pairs(self, n, head_factor=lambda r: 1.0, noise=0.01, seed=1, edit_head=None):
        rng = random.Random(seed)
        for i in range(1, n + 1):
            base = scaled(self.doc, lambda r: 1.0, rng, noise)
            head = scaled(self.doc, head_factor, rng, noise)
            if edit_head:
                edit_head(head)
            for side, d in (("base", base), ("head", head)):
                with open(os.path.join(self.tmp, f"pair-{i:02d}-{side}.json"), "w") as f:
                    json.dump(d, f)

    def analyse(self, *args):
        return run([sys.executable, ANALYSE, *args, "--json=" + os.path.join(self.tmp, "c.json"), self.tmp])

    def verdicts(self):
        with open(os.path.join(self.tmp, "c.json")) as f:
            return {r["name"]: r for r in json.load(f)["rows"]}

    def test_same_binary_no_change_on_every_row(self):
        self.write_pairs(12)
        p = self.analyse()
        self.assertEqual(p.returncode, 0, p.stderr)
        rows = self.verdicts()
        self.assertGreaterEqual(len(rows), 20)
        self.assertEqual({r["verdict"] for r in rows.values()}, {"no change"})
        self.assertIn("| benchmark | BASE | HEAD | change % | 95% interval | verdict |", p.stdout)
        self.assertIn("method:", p.stdout)
        self.assertIn(self.doc["machine"]["cpu"], p.stdout)

    def test_pairs_for_a_row_count(self):
        # What callers (core-patch.sh) check --pairs against before building: 2/2^K <= 0.05/N.
        for n, k in ((1, 6), (3, 7), (4, 8), (28, 11)):
            p = run([sys.executable, ANALYSE, f"--pairs-for={n}"])
            self.assertEqual((p.returncode, p.stdout), (0, f"{k}\n"), p.stderr)
        for bad in ("0", "x", "", "1001"):
            self.assertOneLineError(run([sys.executable, ANALYSE, f"--pairs-for={bad}"]), 2, "--pairs-for")

    def test_clock_line_names_only_the_clocks_measured(self):
        # Core's bench (core-patch.sh --ab) measures no TSC: say nothing of it rather than "TSC ? GHz".
        self.doc["machine"]["tsc_ghz"] = 2.596
        self.write_pairs(12)
        self.assertIn("GHz, TSC 2.596 GHz", self.analyse().stdout)
        del self.doc["machine"]["tsc_ghz"]
        self.write_pairs(12)
        p = self.analyse()
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(f"core {self.doc['machine']['core_ghz']} GHz\n", p.stdout)
        self.assertNotIn("TSC", p.stdout)

    def test_names_cannot_split_a_row(self):
        evil = "SHA256_1M/a|b\n| forged | 1 | 2 |"
        for r in self.doc["results"]:
            if r["name"] == "SHA256_1M/basic":
                r["name"] = evil
        self.write_pairs(12)
        p = self.analyse("--base-label=main|x", "--head-label=HEAD\n### forged")
        self.assertEqual(p.returncode, 0, p.stderr)
        lines = p.stdout.splitlines()
        self.assertFalse([x for x in lines if x.startswith(("| forged", "### forged"))], p.stdout)
        rows = [x for x in lines if x.startswith("|")]
        self.assertEqual({len(re.split(r"(?<!\\)\|", x)) for x in rows}, {8}, rows)  # 6 cells each
        self.assertIn("| SHA256_1M/a\\|b\\x0a\\| forged \\| 1 \\| 2 \\| |", p.stdout)

    def test_slowdown_of_one_impl_only(self):
        self.write_pairs(12, head_factor=lambda r: 1.10 if r["impl"] == "basic" else 1.0)
        p = self.analyse()
        self.assertEqual(p.returncode, 0, p.stderr)
        for name, r in self.verdicts().items():
            want = "slower" if r["impl"] == "basic" else "no change"
            self.assertEqual(r["verdict"], want, name)
            if want == "slower":
                self.assertGreater(r["low_pct"], 0)
                self.assertAlmostEqual(r["change_pct"], 10, delta=2)

    def plot_python(self):
        """A python3 with matplotlib, as bench-compare.sh picks it (PATH, else Debian's)."""
        for py in (sys.executable, "/usr/bin/python3"):
            if os.path.exists(py) and run([py, "-c", "import matplotlib"]).returncode == 0:
                return py
        self.fail("no python3 with matplotlib (contrib/install-deps.sh installs python3-matplotlib)")

    def test_chart_of_a_comparison(self):
        self.write_pairs(12, head_factor=lambda r: 1.10 if r["impl"] == "basic" else 1.0)
        self.assertEqual(self.analyse().returncode, 0)
        png = os.path.join(self.tmp, "compare.png")
        p = run([self.plot_python(), COMPARE_PLOT, os.path.join(self.tmp, "c.json"), png, "main", "patch"])
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(png, "rb") as f:
            data = f.read()
        self.assertTrue(data.startswith(b"\x89PNG\r\n\x1a\n"))
        self.assertGreater(len(data), 20000)
        self.assertFalse(os.path.exists(png + ".tmp.png"))
        # A file without compared rows is one line of error, and no chart.
        bad = os.path.join(self.tmp, "bad.json")
        with open(bad, "w") as f:
            json.dump({"rows": []}, f)
        p = run([self.plot_python(), COMPARE_PLOT, bad, os.path.join(self.tmp, "bad.png")])
        self.assertOneLineError(p, 2, "nothing to draw")
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "bad.png")))

    def test_speedup(self):
        self.write_pairs(12, head_factor=lambda r: 0.9 if r["name"].startswith("SHA256_64B/") else 1.0)
        self.analyse()
        for name, r in self.verdicts().items():
            self.assertEqual(r["verdict"], "faster" if name.startswith("SHA256_64B/") else "no change", name)

    def test_below_threshold_is_no_change(self):
        # A consistent 0.5% slowdown with almost no noise: the interval excludes 0, the change is under 1%.
        self.write_pairs(12, head_factor=lambda r: 1.005, noise=0.0005)
        self.analyse()
        rows = self.verdicts().values()
        self.assertTrue(all(r["low_pct"] > 0 for r in rows))
        self.assertEqual({r["verdict"] for r in rows}, {"no change"})
        self.analyse("--threshold=0.2")
        self.assertEqual({r["verdict"] for r in self.verdicts().values()}, {"slower"})

    def test_the_method_line_leaves_out_the_per_pair_placement(self):
        # bench-compare.sh gives each pair its own -place: pair 1's is not the run's option.
        def placed(d):
            d["options"] = dict(d.get("options") or {}, place=1040, rounds=3)
        self.write_pairs(12, edit_head=placed)
        p = self.analyse()
        method = next(l for l in p.stdout.splitlines() if l.startswith("- method:"))
        self.assertIn("rounds=3", method)
        self.assertNotIn("place", method)

    def test_fail_above(self):
        self.write_pairs(12, head_factor=lambda r: 1.10 if r["impl"] == "basic" else 1.0)
        p = self.analyse("--fail-above=5")
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("FAIL (--fail-above=5)", p.stdout)
        self.assertIn("SHA256_1M/basic", p.stdout.split("FAIL")[1])
        p = self.analyse("--fail-above=20")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("OK (--fail-above=20)", p.stdout)

    def test_deterministic(self):
        self.write_pairs(12, head_factor=lambda r: 1.03)
        a, b = self.analyse(), self.analyse()
        self.assertEqual(a.stdout, b.stdout)

    def test_rows_not_run_are_listed(self):
        def drop(head):
            for r in head["results"]:
                if r["name"] == "SHA256_1K/avx":
                    r.update(status="not run", reason="avx hidden")
                    for k in list(r):
                        if k.endswith("_ns") or k in ("mb_per_s", "speed_pct", "cycles_per_byte"):
                            del r[k]
            head["results"] = [r for r in head["results"] if r["name"] != "SHA256_64B/shani"]
        self.write_pairs(12, edit_head=drop)
        p = self.analyse()
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("- SHA256_1K/avx (SHA256, 1024-byte messages): not run on HEAD: avx hidden", p.stdout)
        self.assertIn("- SHA256_64B/shani (SHA256, 64-byte messages): absent from HEAD", p.stdout)
        self.assertIn("2 not compared", p.stdout)
        self.assertNotIn("SHA256_1K/avx", self.verdicts())

    def write_shared_pairs(self, n, shared, both=False):
        """n pairs with every row on a core alone (loop reading 1.0), but SHA256_1K/avx in the pairs
        listed in `shared`: HEAD's row there ran on a shared core (2.0) and 40% slower, and with both=True
        BASE's as well."""
        rng = random.Random(3)
        for i in range(1, n + 1):
            docs = {"base": scaled(self.doc, lambda r: 1.0, rng), "head": scaled(self.doc, lambda r: 1.0, rng)}
            for side, d in docs.items():
                for r in d["results"]:
                    if r["status"] != "ok":
                        continue
                    r["loop_iteration_cycles"] = 1.0
                    if r["name"] == "SHA256_1K/avx" and i in shared and (side == "head" or both):
                        r["loop_iteration_cycles"] = 2.0
                        for k in ("median_ns", "min_ns", "max_ns"):
                            r[k] *= 1.4
                with open(os.path.join(self.tmp, f"pair-{i:02d}-{side}.json"), "w") as f:
                    json.dump(d, f)

    def test_pairs_with_a_shared_core_on_one_side_are_left_out(self):
        # The 6 of 20 pairs whose HEAD row ran 40% slower on a shared core would move the row's change
        # and widen its interval; left out, the row is measured by the 14 pairs that ran alike.
        self.write_shared_pairs(20, shared={2, 5, 8, 11, 14, 17})
        p = self.analyse()
        self.assertEqual(p.returncode, 0, p.stderr)
        row = self.verdicts()["SHA256_1K/avx"]
        self.assertEqual((row["verdict"], row["pairs_used"]), ("no change", 14), row)
        self.assertLess(abs(row["change_pct"]), 1.5, row)
        self.assertLess(row["high_pct"] - row["low_pct"], 4, row)
        self.assertIn("Shared core: SHA256_1K/avx without 6 of 20 pairs (in each, one side's row ran while another "
                      "hardware thread used the core", p.stdout)
        self.assertEqual({r["pairs_used"] for n, r in self.verdicts().items() if n != "SHA256_1K/avx"}, {20})

    def test_a_row_left_with_too_few_pairs_is_not_compared(self):
        self.write_shared_pairs(12, shared={1, 2, 3, 4, 5})
        p = self.analyse()
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("SHA256_1K/avx", self.verdicts())
        self.assertRegex(p.stdout, r"- SHA256_1K/avx \(SHA256, 1024-byte messages\): a shared core on one side only in "
                                   r"5 of 12 pairs; the 7 left are fewer than the \d+ needed")

    def test_nothing_compared_because_of_a_shared_core_says_so(self):
        # BASE built before the loop reading (none), HEAD on a shared core in every pair: no row
        # is left, and the message says why, not "no benchmark ran on both sides".
        rng = random.Random(5)
        for i in range(1, 13):
            for side in ("base", "head"):
                d = scaled(self.doc, lambda r: 1.0, rng)
                for r in d["results"]:
                    r.pop("loop_iteration_cycles", None)
                    if side == "head" and r["status"] == "ok":
                        r["loop_iteration_cycles"] = 2.0
                with open(os.path.join(self.tmp, f"pair-{i:02d}-{side}.json"), "w") as f:
                    json.dump(d, f)
        self.assertOneLineError(self.analyse(), text="nothing to compare: ")
        self.assertRegex(self.analyse().stderr, r"row\(s\) left with too few pairs \(first: .*: a shared core on one "
                                                r"side only in 12 of 12 pairs")

    def test_pairs_shared_on_both_sides_are_kept(self):
        self.write_shared_pairs(12, shared={1, 2, 3, 4, 5}, both=True)
        p = self.analyse()
        self.assertEqual(p.returncode, 0, p.stderr)
        row = self.verdicts()["SHA256_1K/avx"]
        self.assertEqual((row["verdict"], row["pairs_used"]), ("no change", 12), row)
        self.assertNotIn("Shared core:", p.stdout)

    def test_sanity_check_refused(self):
        self.write_pairs(12)
        shutil.copy(os.path.join(DATA, "run-sanity.json"), os.path.join(self.tmp, "pair-03-head.json"))
        self.assertOneLineError(self.analyse(), text="sanity-check")

    def test_too_few_pairs(self):
        self.write_pairs(5)
        self.assertOneLineError(self.analyse(), text="at least 6")
        # 28 rows at once need 11 pairs for family-wise 95% intervals.
        shutil.rmtree(self.tmp)
        os.mkdir(self.tmp)
        self.write_pairs(8)
        self.assertOneLineError(self.analyse(), text="need at least 11 pairs")

    def test_missing_side_and_bad_shapes(self):
        self.write_pairs(12)
        os.remove(os.path.join(self.tmp, "pair-07-base.json"))
        self.assertOneLineError(self.analyse(), text="pair 07 has no base run")
        self.write_pairs(12)
        bad = copy.deepcopy(self.doc)
        bad["results"][3]["median_ns"] = None
        with open(os.path.join(self.tmp, "pair-02-head.json"), "w") as f:
            json.dump(bad, f)
        self.assertOneLineError(self.analyse(), text="median_ns is null")
        with open(os.path.join(self.tmp, "pair-02-head.json"), "w") as f:
            f.write("[1, 2]")
        self.assertOneLineError(self.analyse(), text="top level is a list")
        with open(os.path.join(self.tmp, "pair-02-head.json"), "w") as f:
            f.write("{")
        self.assertOneLineError(self.analyse(), text="not valid JSON")

    def test_bad_options(self):
        self.write_pairs(12)
        for opt in ("--fail-above=nan", "--fail-above=-1", "--threshold=abc", "--bogus"):
            self.assertOneLineError(self.analyse(opt))
        self.assertOneLineError(run([sys.executable, ANALYSE, os.path.join(self.tmp, "nope")]), text="not a directory")

    def test_signed_rank_critical_values(self):
        sys.path.insert(0, CONTRIB)
        import bench_compare
        # Published two-sided 5% critical values of the signed-rank statistic are C - 1.
        for n, c in ((6, 1), (7, 3), (8, 4), (10, 9), (15, 26), (20, 53), (30, 138), (50, 435)):
            self.assertEqual(bench_compare.signed_rank_critical(n, 0.05), c, n)
        self.assertEqual(bench_compare.signed_rank_critical(5, 0.05), 0)
        self.assertEqual(bench_compare.min_pairs(0.05 / 28), 11)


class ScriptTests(unittest.TestCase, OneLineError):
    """bench-compare.sh's own checks, all before any build."""

    def sh(self, *args, **kw):
        return run([BENCH_COMPARE, "--cache=" + self.tmp, *args], **kw)

    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_usage_errors(self):
        for args, text in ((["HEAD"], "usage"), (["HEAD", "HEAD", "-output-json=x.json"], "writes each run's JSON"),
                           (["HEAD", "HEAD", "-sanity-check"], "measured timings"),
                           (["--pairs=3", "HEAD", "HEAD"], "--pairs=3"), (["--budget=x", "HEAD", "HEAD"], "--budget=x"),
                           (["--fail-above=nan", "HEAD", "HEAD"], "--fail-above=nan"),
                           (["--frobnicate", "HEAD", "HEAD"], "unknown option"),
                           (["HEAD", "HEAD", "extra"], "unexpected argument"),
                           (["HEAD", "HEAD", "-filter=a b"], "spaces"),
                           (["-rounds=3 -sanity-check", "no-such-revision", "HEAD"], "spaces")):
            self.assertOneLineError(self.sh(*args), text=text)

    def test_unknown_revision_is_named(self):
        self.assertOneLineError(self.sh("no-such-revision-xyz", "HEAD"), text="'no-such-revision-xyz' is not a commit")

    def assertNothingBuilt(self, cache):
        built = [d for d in os.listdir(cache) if d != "runs"] if os.path.isdir(cache) else []
        self.assertEqual(built, [], "a build started before the error")

    def fake_tool(self, name, script):
        """An executable `name` running the sh script, in a directory returned for PATH."""
        fakebin = os.path.join(self.tmp, "bin")
        os.makedirs(fakebin, exist_ok=True)
        with open(os.path.join(fakebin, name), "w") as f:
            f.write("#!/bin/sh\n" + script)
        os.chmod(os.path.join(fakebin, name), 0o755)
        return fakebin

    def fake_repo(self):
        """A one-commit repository whose build fails at once (its autogen.sh makes no configure)."""
        repo = os.path.join(self.tmp, "repo")
        os.mkdir(repo)
        with open(os.path.join(repo, "autogen.sh"), "w") as f:
            f.write("#!/bin/sh\nexit 1\n")
        os.chmod(os.path.join(repo, "autogen.sh"), 0o755)
        git = ["git", "-C", repo, "-c", "user.name=t", "-c", "user.email=t@localhost", "-c", "commit.gpgsign=false"]
        for cmd in (["init", "-q"], ["add", "autogen.sh"], ["commit", "-q", "-m", "fails to build"]):
            self.assertEqual(run(git + cmd).returncode, 0)
        return repo

    def test_everything_is_checked_before_any_build(self):
        repo = self.fake_repo()
        cache = os.path.join(self.tmp, "cache")
        full = os.path.join(self.tmp, "full")
        os.mkdir(full)
        open(os.path.join(full, "old-run.json"), "w").close()
        a_file = os.path.join(self.tmp, "a-file")
        open(a_file, "w").close()
        cases = [(["HEAD", "no-such-revision"], "'no-such-revision' is not a commit"),
                 (["--out=" + full, "HEAD", "HEAD"], f"--out={full} is not empty"),
                 (["--out=" + a_file, "HEAD", "HEAD"], "is not a directory"),
                 (["--out=" + os.path.join(a_file, "sub"), "HEAD", "HEAD"], "cannot create it")]
        # An empty value is a mistake, not the default; a bad BASE makes the old order fail fast.
        for opt in ("--pairs=", "--out=", "--budget=", "--fail-above=", "--threshold=", "--cache=", "--repo=", "--jobs="):
            cases.append(([opt, "no-such-revision", "HEAD"], f"{opt}: needs a value"))
        for args, text in cases:
            with self.subTest(args):
                p = run([BENCH_COMPARE, "--cache=" + cache, "--repo=" + repo, *args])
                self.assertOneLineError(p, text=text)
                self.assertNothingBuilt(cache)
        self.assertEqual(os.listdir(full), ["old-run.json"])

    def test_shuffle_code_without_gold_is_refused_before_any_build(self):
        # A C++ compiler that cannot link with -fuse-ld=gold (no ld.gold): one line, nothing built.
        fakebin = self.fake_tool("nogold++", "case \"$*\" in *--version*) echo 'nogold++ (fake) 1' ;;\n"
                                 "*) echo \"collect2: fatal error: cannot find 'ld'\" >&2; exit 1 ;; esac\n")
        cache = os.path.join(self.tmp, "cache")
        env = dict(os.environ, PATH=fakebin + os.pathsep + os.environ["PATH"], CXX="nogold++")
        p = run([BENCH_COMPARE, "--cache=" + cache, "--repo=" + self.fake_repo(), "--shuffle-code", "HEAD", "HEAD"],
                env=env)
        self.assertOneLineError(p, text="--shuffle-code needs 'nogold++ -fuse-ld=gold' to link")
        self.assertIn("cannot find 'ld'", p.stderr)
        self.assertNothingBuilt(cache)

    def test_a_cache_path_autotools_refuse_is_refused_before_any_build(self):
        for name, text in (("c ache", "a space"), ("c$", "a '$'"), ('c"', "a double quote")):
            with self.subTest(name):
                cache = os.path.join(self.tmp, name)
                p = run([BENCH_COMPARE, "--cache=" + cache, "HEAD", "HEAD"])
                self.assertOneLineError(p, text=f"cannot build in the cache directory {cache}: its path has {text}")
                self.assertFalse(os.path.exists(cache))

    def test_not_a_repository_is_named(self):
        p = self.sh("--repo=" + self.tmp, "HEAD", "HEAD")
        self.assertOneLineError(p, text=f"--repo={self.tmp}: not a git repository")

    def test_an_out_directory_it_made_is_removed_when_the_build_fails(self):
        out = os.path.join(self.tmp, "new-out")
        p = self.sh("--repo=" + self.fake_repo(), "--out=" + out, "HEAD", "HEAD")
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("autogen.sh failed", p.stderr)
        self.assertFalse(os.path.exists(out))

    def building_repo(self, bench):
        """A one-commit repository whose build takes no time: its configure writes a
        src/Makefile that copies the shell script `bench` as bench/bench_bitcoin."""
        repo = os.path.join(self.tmp, "brepo")
        os.mkdir(repo)
        files = {
            "autogen.sh": "#!/bin/sh\ncp configure.in configure && chmod +x configure\n",
            "configure.in": "#!/bin/sh\nsrc=$(cd \"$(dirname \"$0\")\" && pwd)\nmkdir -p src\n"
                            "printf 'bench/bench_bitcoin:\\n\\tmkdir -p bench && cp %s/fake-bench $@\\n' \"$src\" > src/Makefile\n",
            "fake-bench": bench,
        }
        for name, text in files.items():
            with open(os.path.join(repo, name), "w") as f:
                f.write(text)
            os.chmod(os.path.join(repo, name), 0o755)
        git = ["git", "-C", repo, "-c", "user.name=t", "-c", "user.email=t@localhost", "-c", "commit.gpgsign=false"]
        for cmd in (["init", "-q"], ["add", "."], ["commit", "-q", "-m", "builds a fake bench"]):
            self.assertEqual(run(git + cmd).returncode, 0)
        return repo

    def measuring_repo(self, body):
        """building_repo with a fake bench that runs the sh lines `body`, then writes a measured
        run's JSON (the fixture of measured()) where -output-json says."""
        fixture = os.path.join(self.tmp, "measured.json")
        with open(fixture, "w") as f:
            json.dump(measured(), f)
        return self.building_repo("#!/bin/sh\n" + body + "for a; do case \"$a\" in -output-json=*) cp '%s' "
                                  "\"${a#-output-json=}\" ;; esac; done\nexit 0\n" % fixture)

    def test_an_invalid_filter_is_refused_before_any_build(self):
        cache = os.path.join(self.tmp, "cache")
        p = run([BENCH_COMPARE, "--cache=" + cache, "--repo=" + self.fake_repo(), "HEAD", "HEAD", "-filter=("])
        self.assertOneLineError(p, text="-filter=( is not a valid regular expression")
        self.assertNothingBuilt(cache)

    def test_a_filter_matching_nothing_leaves_no_run_directory(self):
        # bench_bitcoin -list refuses the filter (as a run does): refused before
        # any run, and no run directory is left behind.
        repo = self.building_repo("#!/bin/sh\ncase \"$*\" in *-list*) echo 'Error: -filter=zzz matches no benchmark "
                                  "(see -list)' >&2; exit 1 ;; esac\nexit 3\n")
        cache = os.path.join(self.tmp, "cache")
        p = run([BENCH_COMPARE, "--cache=" + cache, "--repo=" + repo, "HEAD", "HEAD", "-filter=zzz"])
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("refuses the options", p.stderr.strip().splitlines()[-1])
        self.assertIn("matches no benchmark", p.stderr.strip().splitlines()[-1])
        runs = os.path.join(cache, "runs")
        self.assertEqual(os.listdir(runs) if os.path.isdir(runs) else [], [], "a run directory was left behind")

    def test_a_build_made_with_another_compiler_or_flags_is_not_reused(self):
        repo = self.building_repo("#!/bin/sh\necho 'Error: stop here' >&2\nexit 1\n")
        cache = os.path.join(self.tmp, "cache")
        fakebin = os.path.join(self.tmp, "bin")
        def compiler(version):
            self.fake_tool("g++", f"echo 'g++ (fake) {version}'\n")
        def base_line(**env):
            e = dict(os.environ, PATH=fakebin + os.pathsep + os.environ["PATH"])
            for k in ("CC", "CXX", "CPPFLAGS", "CXXFLAGS", "LDFLAGS"):
                e.pop(k, None)
            e.update(env)
            p = run([BENCH_COMPARE, "--cache=" + cache, "--repo=" + repo, "HEAD", "HEAD"], env=e)
            self.assertEqual(p.returncode, 2, p.stderr)
            return next(x for x in p.stderr.splitlines() if x.startswith("bench-compare.sh: BASE "))
        compiler("1.0")
        self.assertIn("building in", base_line())
        self.assertIn("cached build", base_line())
        for env in ({"CXXFLAGS": "-O1"}, {"CPPFLAGS": "-DX"}, {"LDFLAGS": "-s"}, {"CC": "cc"}):
            with self.subTest(env):
                self.assertIn("building in", base_line(**env))
                self.assertIn("cached build", base_line(**env))
        compiler("2.0")  # the same command, another compiler version
        self.assertIn("building in", base_line())

    def test_every_run_is_of_a_fresh_copy_of_its_binary(self):
        # A binary's page-cache placement stays with its file, so every measured
        # run executes a copy made for it (ab_fresh), removed after it. The fake
        # marks the file it runs from: a file run twice would show a mark.
        log = os.path.join(self.tmp, "runs.log")
        repo = self.measuring_repo("case \"$*\" in *-list*) exit 0 ;; esac\n"
                                   "marks=$(grep -c '^# ran$' \"$0\")\necho '# ran' >> \"$0\"\n"
                                   "echo \"$0 $marks\" >> '%s'\n" % log)
        out = os.path.join(self.tmp, "out")
        p = run([BENCH_COMPARE, "--cache=" + os.path.join(self.tmp, "cache"), "--repo=" + repo, "--budget=1",
                 "--out=" + out, "HEAD", "HEAD"])
        self.assertIn(p.returncode, (0, 1), p.stderr)
        with open(log) as f:
            runs = [line.split() for line in f.read().splitlines()]
        pairs = len([n for n in os.listdir(out) if n.endswith("-base.json")])
        self.assertGreaterEqual(pairs, 2)
        self.assertEqual(len(runs), 2 * pairs, "one logged run a side and pair")
        for path, marks in runs:
            self.assertEqual(os.path.dirname(path), out, "a run of the cached binary itself")
            self.assertEqual(marks, "0", "a copy was run twice")
        self.assertEqual([n for n in os.listdir(out) if n.startswith(".run-")], [], "a copy was left behind")

    def placed_runs(self, knows_place):
        """bench-compare.sh on a fake bench that logs each measured run's arguments; it takes
        -place or, like a build from before it, refuses it. Returns the pairs' runs and compare.md."""
        log = os.path.join(self.tmp, "runs.log")
        refuse = "" if knows_place else "*-place*) echo 'Error: unknown option' >&2; exit 1 ;; "
        repo = self.measuring_repo("case \"$*\" in %s*-list*) exit 0 ;; esac\n"
                                   "for a; do case \"$a\" in -output-json=*) out=${a#-output-json=} ;; esac; done\n"
                                   "echo \"$(basename \"$out\") $*\" >> '%s'\n" % (refuse, log))
        out = os.path.join(self.tmp, "out")
        p = run([BENCH_COMPARE, "--cache=" + os.path.join(self.tmp, "cache"), "--repo=" + repo, "--pairs=11",
                 "--out=" + out, "HEAD", "HEAD"])
        self.assertIn(p.returncode, (0, 1), p.stderr)
        runs = {}
        with open(log) as f:
            for line in f.read().splitlines():
                name, *args = line.split()
                pair, side = name.split("-")[1], name.split("-")[2].split(".")[0]
                runs.setdefault(pair, {})[side] = [a for a in args if a.startswith("-place")]
        with open(os.path.join(out, "compare.md")) as f:
            return runs, f.read()

    def test_both_sides_of_a_pair_place_their_outputs_alike_and_each_pair_anew(self):
        runs, md = self.placed_runs(True)
        self.assertEqual(len(runs), 11)
        offsets = []
        for pair, sides in sorted(runs.items()):
            self.assertEqual(sides["base"], sides["head"], f"pair {pair}")
            self.assertEqual(len(sides["base"]), 1, sides)
            offsets.append(int(sides["base"][0].split("=")[1]))
        self.assertEqual(len(set(offsets)), 11, offsets)
        self.assertTrue(all(o % 16 == 0 and 0 <= o < 4096 for o in offsets), offsets)
        self.assertIn("Placement: each row's output started at the same offset in a page on both sides of a pair "
                      f"(bench_bitcoin -place), pairs 1 to 11: {', '.join(map(str, offsets))} bytes.", md)
        # Without --shuffle-code the code's layout is one a side, and the table says so.
        self.assertIn("Code placement: each side linked once, its code laid out the same way in every pair", md)

    def test_a_build_without_place_runs_unplaced_and_the_table_says_so(self):
        runs, md = self.placed_runs(False)
        self.assertEqual(len(runs), 11)
        self.assertTrue(all(s["base"] == [] and s["head"] == [] for s in runs.values()), runs)
        self.assertRegex(md, r"Placement: none; BASE \(.*\) and HEAD \(.*\) built without bench_bitcoin -place")

    def test_cpu_pins_the_runs_not_what_comes_before(self):
        log = os.path.join(self.tmp, "cpus.log")
        # The fake logs the CPUs it may use in each run and in the option check that follows the
        # builds (-list): pinned for the first, not for the second (nor for the builds before it).
        repo = self.measuring_repo("w=run; case \"$*\" in *-list*) w=list ;; esac\n"
                                   "grep Cpus_allowed_list /proc/self/status | sed \"s/^/$w /\" >> '%s'\n"
                                   "[ $w = run ] || exit 0\n" % log)
        allowed = sorted(os.sched_getaffinity(0))
        cpu = allowed[-1]
        p = run([BENCH_COMPARE, "--cache=" + os.path.join(self.tmp, "cache"), "--repo=" + repo, "--pairs=11",
                 f"--cpu={cpu}", "--out=" + os.path.join(self.tmp, "out"), "HEAD", "HEAD"])
        self.assertIn(p.returncode, (0, 1), p.stderr)
        with open(log) as f:
            lines = f.read().splitlines()
        runs = [l for l in lines if l.startswith("run ")]
        self.assertEqual(len(runs), 22)
        self.assertEqual(set(runs), {f"run Cpus_allowed_list:\t{cpu}"})
        with open("/proc/self/status") as f:
            mine = next(l for l in f if l.startswith("Cpus_allowed_list")).strip()
        self.assertEqual({l for l in lines if l.startswith("list ")}, {"list " + mine})
        self.assertIn(f"on CPU {cpu}", p.stderr)

    def failing_run(self, how):
        """bench-compare.sh on a fake bench whose third measured run (pair 2's first) ends as `how`
        says; returns the process."""
        count = os.path.join(self.tmp, "count")
        repo = self.measuring_repo("case \"$*\" in *-list*) exit 0 ;; esac\n"
                                   "echo x >> '%s'\n[ \"$(wc -l < '%s')\" -ne 3 ] || { %s; }\n" % (count, count, how))
        return run([BENCH_COMPARE, "--cache=" + os.path.join(self.tmp, "cache"), "--repo=" + repo, "--pairs=11",
                    "--out=" + os.path.join(self.tmp, "out"), "HEAD", "HEAD"])

    def test_a_failed_run_stops_the_comparison_naming_its_pair_status_place_and_message(self):
        p = self.failing_run("echo '[t] round 1/3 ...' >&2; echo 'Error: 1 benchmark(s) produced a wrong result: "
                             "R/x (digests differ)' >&2; echo '[t] after' >&2; exit 1")
        self.assertEqual(p.returncode, 2, p.stderr)
        last = p.stderr.strip().splitlines()[-1]
        self.assertRegex(last, r"bench_bitcoin failed in pair 02 \(exit 1, -place=2080\): Error: 1 benchmark\(s\) "
                         r"produced a wrong result: R/x \(digests differ\) \(output: .*/pair-02-(base|head)\.err\)$")

    def test_a_run_killed_by_a_signal_says_which(self):
        p = self.failing_run("kill -SEGV $$")
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("bench_bitcoin failed in pair 02 (killed by signal 11, -place=2080): ", p.stderr.strip().splitlines()[-1])

    def test_a_cpu_the_process_may_not_use_is_refused_before_any_build(self):
        bad = max(os.sched_getaffinity(0)) + 1
        for v in (str(bad), "x", "-1"):
            with self.subTest(v):
                cache = os.path.join(self.tmp, "c" + v)
                p = run([BENCH_COMPARE, "--cache=" + cache, "--repo=" + self.fake_repo(), f"--cpu={v}", "HEAD", "HEAD"])
                self.assertOneLineError(p, text=f"--cpu={v}: expected one of the CPUs this process may use")
                self.assertNothingBuilt(cache)
                shutil.rmtree(os.path.join(self.tmp, "repo"))

    def test_place_by_hand_is_refused(self):
        self.assertOneLineError(self.sh("HEAD", "HEAD", "-place=16"), text="places each row's output itself")

    def test_an_emulated_run_is_refused_for_that_reason_only(self):
        doc = measured()
        doc["machine"]["emulated"] = "qemu (test)"
        fixture = os.path.join(self.tmp, "emulated.json")
        with open(fixture, "w") as f:
            json.dump(doc, f)
        repo = self.building_repo("#!/bin/sh\nfor a; do case \"$a\" in -output-json=*) cp '%s' \"${a#-output-json=}\" ;; "
                                  "esac; done\nexit 0\n" % fixture)
        p = run([BENCH_COMPARE, "--cache=" + os.path.join(self.tmp, "cache"), "--repo=" + repo, "HEAD", "HEAD"])
        self.assertEqual(p.returncode, 2, p.stderr)
        last = p.stderr.strip().splitlines()[-1]
        self.assertIn("ran on an emulated CPU", last)
        self.assertNotIn("schema", last)

    def test_build_failure_names_the_revision_and_log(self):
        repo = os.path.join(self.tmp, "repo")
        os.mkdir(repo)
        # autogen.sh makes a configure whose Makefile cannot build the bench.
        with open(os.path.join(repo, "autogen.sh"), "w") as f:
            f.write("#!/bin/sh\nprintf '#!/bin/sh\\nmkdir -p src && printf \"bench/bench_bitcoin:\\\\n\\\\t"
                    "@echo compiler error here; exit 1\\\\n\" > src/Makefile\\n' > configure\nchmod +x configure\n")
        os.chmod(os.path.join(repo, "autogen.sh"), 0o755)
        git = ["git", "-C", repo, "-c", "user.name=t", "-c", "user.email=t@localhost", "-c", "commit.gpgsign=false"]
        for cmd in (["init", "-q"], ["add", "autogen.sh"], ["commit", "-q", "-m", "broken"]):
            self.assertEqual(run(git + cmd).returncode, 0)
        p = self.sh("--repo=" + repo, "--jobs=1", "HEAD", "WORKTREE")
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertNotIn("Traceback", p.stderr)
        last = p.stderr.strip().splitlines()[-1]
        self.assertIn("BASE HEAD (", last)
        self.assertIn("failed to build; log: ", last)
        log = last.split("log: ")[1]
        with open(log) as f:
            self.assertIn("compiler error here", f.read())
        # Not marked as built: a second attempt builds again (and fails again), never a stale success.
        p = self.sh("--repo=" + repo, "--jobs=1", "HEAD", "WORKTREE")
        self.assertIn("failed to build", p.stderr)


class CodeOrderTests(unittest.TestCase, OneLineError):
    """build-aux/code-order.py: the order of a pair's functions for bench-compare.sh --shuffle-code."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def objects(self, name, functions, flags=("-ffunction-sections",)):
        """A directory holding one object with the extern "C" functions named, compiled with flags."""
        d = os.path.join(self.tmp, name)
        os.makedirs(d)
        src = os.path.join(d, "f.cpp")
        with open(src, "w") as f:
            f.write("".join(f'extern "C" int {fn}(int x) {{ return x * {i + 3} + {len(fn)}; }}\n'
                            for i, fn in enumerate(functions)))
        p = run(["g++", "-O1", "-c", *flags, "-o", os.path.join(d, "f.o"), src])
        self.assertEqual(p.returncode, 0, p.stderr)
        return d

    def order(self, seed, *dirs):
        p = run([CODE_ORDER, str(seed), *dirs])
        self.assertEqual(p.returncode, 0, p.stderr)
        return p.stdout.splitlines()

    def test_shared_functions_keep_one_relative_order_and_each_seed_draws_a_new_one(self):
        shared = [f"shared_{i}" for i in range(12)]
        base = self.objects("base", shared + ["only_base_a", "only_base_b"])
        head = self.objects("head", ["only_head"] + shared)
        seen = set()
        for seed in range(1, 6):
            b, h = self.order(seed, base), self.order(seed, head)
            self.assertEqual(sorted(b), sorted(".text." + f for f in shared + ["only_base_a", "only_base_b"]))
            self.assertEqual(sorted(h), sorted(".text." + f for f in shared + ["only_head"]))
            common = [n for n in b if n in h]
            self.assertEqual(common, [n for n in h if n in b], f"seed {seed}: the sides order shared functions apart")
            self.assertEqual(self.order(seed, base), b, f"seed {seed}: not the same order twice")
            seen.add(tuple(common))
        self.assertEqual(len(seen), 5, "two seeds drew the same order")

    def test_objects_without_function_sections_are_refused(self):
        d = self.objects("plain", ["f", "g"], flags=())
        p = run([CODE_ORDER, "1", d])
        self.assertOneLineError(p, text="no .text.* section under")

    def test_usage(self):
        for args, text in (([], "usage"), (["1"], "usage"), (["", self.tmp], "usage"),
                           (["1", os.path.join(self.tmp, "none")], "not a directory")):
            with self.subTest(args):
                self.assertOneLineError(run([CODE_ORDER, *args]), text=text)


class MergeTests(unittest.TestCase, OneLineError):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.a = os.path.join(DATA, "run-measured.json")
        other = measured()
        other["machine"].update(cpu="Other CPU", family=25, model=97, stepping=2)
        other["commit"] = "abc1234"
        for r in other["results"]:  # avx clearly ahead of sse4 here, the reverse of the measured run
            if r["impl"] == "avx" and r["status"] == "ok":
                r["speed_pct"] = 150.0
        self.b = os.path.join(self.tmp, "other.json")
        with open(self.b, "w") as f:
            json.dump(other, f)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def merge(self, *paths):
        return run([sys.executable, MERGE, *paths])

    def test_tables_columns_rankings_disagreements(self):
        p = self.merge(self.a, self.b)
        self.assertEqual(p.returncode, 0, p.stderr)
        doc = measured()
        for table in {r["table"] for r in doc["results"]}:
            self.assertIn(f"\n## {table}\n", p.stdout)
        self.assertIn("| implementation | M1 speed% | M1 cycles/byte | M2 speed% | M2 cycles/byte |", p.stdout)
        self.assertIn("| M2 | Other CPU |", p.stdout)
        self.assertIn("- M1: ", p.stdout)
        self.assertRegex(p.stdout, r"Where the machines disagree about the order \([1-9][0-9]* pair\(s\) compared\):")
        self.assertRegex(p.stdout, r"- [a-z0-9_]+ vs avx: .* avx ahead on M2")
        row = next(r for r in doc["results"] if r["name"] == "SHA256_1M/shani")
        self.assertIn(f"| shani | {row['speed_pct']:.1f} | {row['cycles_per_byte']:.2f} |", p.stdout)

    def test_tables_counted_in_units_add_cycles_per_unit(self):
        doc = measured()
        d64 = "SHA256D64, 1024 inputs of 64 bytes"
        for name, ns in (("basic", 550e3), ("shani_4way", 43e3)):
            r = dict(next(x for x in doc["results"] if x["status"] == "ok"))
            r.update(table=d64, name="SHA256D64_1024/" + name, impl=name, family="d64", baseline=name == "basic",
                     bytes_per_op=65536, median_ns=ns, cycles_per_op=ns * 3.7, cycles_per_byte=ns * 3.7 / 65536,
                     speed_pct=550e3 / ns * 100, unit="input", units_per_op=1024, cycles_per_unit=ns * 3.7 / 1024)
            doc["results"].append(r)
        c = os.path.join(self.tmp, "d64.json")
        with open(c, "w") as f:
            json.dump(doc, f)
        p = self.merge(self.a, c)
        self.assertEqual(p.returncode, 0, p.stderr)
        table = p.stdout.split(f"\n## {d64}\n")[1].split("\n## ")[0]
        self.assertIn("| implementation | M1 speed% | M1 cycles/byte | M1 cycles/input | M2 speed% | M2 cycles/byte | "
                      "M2 cycles/input |", table)
        self.assertIn("|---|---:|---:|---:|---:|---:|---:|", table)
        # Only M2 has the table: M1's three cells are dashes, M2's cycles per input = 43000 ns x 3.7 / 1024.
        self.assertIn("| shani_4way | — | — | — | 1279.1 | 2.43 | 155 |", table)
        # A table counted in bytes only keeps two columns a machine.
        self.assertIn("| implementation | M1 speed% | M1 cycles/byte | M2 speed% | M2 cycles/byte |", p.stdout)

    def test_same_order_agrees(self):
        # A second machine 10% slower on every row: the same order.
        other = measured()
        other["machine"]["cpu"] = "Slower CPU"
        for r in other["results"]:
            if r["status"] == "ok":
                r["cycles_per_byte"] *= 1.1
        c = os.path.join(self.tmp, "slower.json")
        with open(c, "w") as f:
            json.dump(other, f)
        p = self.merge(self.a, c)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertRegex(p.stdout, r"The machines agree about the order \([1-9][0-9]* pair\(s\) compared\)\.")
        self.assertNotIn("disagree", p.stdout)

    def keep_rows(self, name, impls, change=None):
        doc = measured()
        doc["machine"]["cpu"] = name
        doc["results"] = [r for r in doc["results"] if r["impl"] in impls]
        for r in doc["results"]:
            if change:
                change(r)
        path = os.path.join(self.tmp, name + ".json")
        with open(path, "w") as f:
            json.dump(doc, f)
        return path

    def test_no_pair_ranked_on_two_machines_is_not_agreement(self):
        # The machines share only the 100% row: no pair of rows was ranked on both,
        # so there is no order to agree or disagree about.
        a = self.keep_rows("A", {"basic", "sse4"})
        b = self.keep_rows("B", {"basic", "avx"})
        p = self.merge(a, b)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("agree about the order", p.stdout)
        self.assertIn("no pair of rows was measured on two machines, so no order was compared", p.stdout)

    def test_rows_labelled_with_each_machines_pick_are_one_row(self):
        # The AutoDetect row's label carries the machine's pick ("autodetect (x)"):
        # keyed by its benchmark name, it is one row compared across machines.
        def label(pick):
            def change(r):
                if r["impl"] == "shani":
                    r["impl"] = f"autodetect ({pick})"
                    r["name"] = r["name"].split("/")[0] + "/autodetect"
            return change
        a = self.keep_rows("A", {"basic", "sse4", "shani"}, label("shani"))
        b = self.keep_rows("B", {"basic", "sse4", "shani"}, label("sse4"))
        p = self.merge(a, b)
        self.assertEqual(p.returncode, 0, p.stderr)
        table = p.stdout.split("\n## ")[2]
        self.assertIn("| autodetect (shani: M1; sse4: M2) | ", table)
        self.assertNotIn("| autodetect (shani) |", table)
        self.assertRegex(table, r"- M1: autodetect > sse4 > basic")
        self.assertRegex(table, r"agree about the order \(3 pair\(s\) compared\)")

    def test_deterministic(self):
        self.assertEqual(self.merge(self.a, self.b).stdout, self.merge(self.a, self.b).stdout)

    def test_bad_input(self):
        def write(name, content):
            path = os.path.join(self.tmp, name)
            with open(path, "w") as f:
                f.write(content if isinstance(content, str) else json.dumps(content))
            return path
        doc = measured()
        null_speed = copy.deepcopy(doc)
        null_speed["results"][0]["speed_pct"] = None
        str_cpb = copy.deepcopy(doc)
        str_cpb["results"][2]["cycles_per_byte"] = "2.0"
        no_results = copy.deepcopy(doc)
        del no_results["results"]
        cases = [
            ([os.path.join(self.tmp, "missing.json")], "cannot read"),
            ([write("list.json", [1])], "top level is a list"),
            ([write("trunc.json", "{\"schema\": ")], "not valid JSON"),
            ([write("null.json", null_speed)], "speed_pct is null"),
            ([write("str.json", str_cpb)], "cycles_per_byte is a string"),
            ([write("nores.json", no_results)], "missing key 'results'"),
            ([os.path.join(DATA, "run-sanity.json")], "sanity-check"),
            ([], "no file given"),
            ([self.a, self.a], "twice"),
            (["--bogus", self.a], "unknown option"),
        ]
        for args, text in cases:
            self.assertOneLineError(self.merge(*args), text=text)

    def write(self, name, doc):
        path = os.path.join(self.tmp, name)
        with open(path, "w") as f:
            f.write(doc if isinstance(doc, str) else json.dumps(doc))
        return path

    def converted(self):
        p = run([sys.executable, FROM_MD, ZEN3_MD])
        self.assertEqual(p.returncode, 0, p.stderr)
        return json.loads(p.stdout)

    def test_files_that_add_nothing_are_refused(self):
        """A file whose rows add nothing to the document is an error, never a silent success."""
        cases = {}
        for what, base in (("measured", measured()), ("converted", self.converted())):
            d = copy.deepcopy(base)
            d["results"] = []
            cases[f"{what}: empty results"] = (d, "'results' is empty")
            d = copy.deepcopy(base)
            for r in d["results"]:
                r.update(status="not run", reason="CPU lacks sha-ni")
            cases[f"{what}: every row not run"] = (d, "no row was measured")
            d = copy.deepcopy(base)
            d["results"].append(dict(d["results"][0], name="other name"))
            cases[f"{what}: a row twice"] = (d, "results[28] repeats")
        d = measured()
        d["results"].append(copy.deepcopy(d["results"][3]))
        cases["measured: a name twice"] = (d, "results[28] repeats the name")
        text = json.dumps(measured())
        cases["a key twice"] = (text.replace('"mode": "measured"', '"mode": "measured", "mode": "sanity-check"', 1),
                                "duplicate key 'mode'")
        for what, (doc, want) in cases.items():
            with self.subTest(what):
                self.assertOneLineError(self.merge(self.a, self.write("bad.json", doc)), text=want)
        # The same run under another name (a copy, or the same JSON re-indented) is one machine, not two.
        for what, doc in (("copy", open(self.a).read()), ("re-indented", json.dumps(measured(), indent=4))):
            with self.subTest(what):
                self.assertOneLineError(self.merge(self.a, self.write("copy.json", doc)), text="holds the same run as")

    def test_converted_files_get_the_same_checks(self):
        for value in (False, "", None, 1):
            with self.subTest(converted_from=value):
                d = self.converted()
                d["converted_from"] = value
                self.assertOneLineError(self.merge(self.a, self.write("conv.json", d)), text="converted_from is")
        d = self.converted()
        d["machine"]["emulated"] = "SHA256BENCH_EMULATED=qemu"
        self.assertOneLineError(self.merge(self.a, self.write("conv.json", d)), text="emulated CPU")
        d = self.converted()
        d["results"][0]["status"] = "great"
        self.assertOneLineError(self.merge(self.a, self.write("conv.json", d)), text="status is 'great'")

    def test_nan_and_infinity_are_refused(self):
        def with_row(key, value, row=0):
            d = measured()
            d["results"][row][key] = value
            return d
        ok_row = next(i for i, r in enumerate(measured()["results"]) if r["status"] == "ok")
        cases = {"NaN cycles/byte": with_row("cycles_per_byte", float("nan"), ok_row),
                 "Infinity speed%": with_row("speed_pct", float("inf"), ok_row),
                 "-Infinity cycles/unit": with_row("cycles_per_unit", float("-inf"), ok_row),
                 "1e999": json.dumps(measured()).replace('"speed_pct": 100.0', '"speed_pct": 1e999', 1)}
        d = measured()
        d["machine"]["core_ghz"] = float("nan")
        cases["NaN clock"] = d
        for what, doc in cases.items():
            with self.subTest(what):
                p = self.merge(self.a, self.write("nan.json", doc))
                self.assertOneLineError(p, text="not valid JSON")
                self.assertEqual(p.stdout, "")
        # cycles per unit that is no positive number is an error, not a dash or a negative cell.
        self.assertOneLineError(self.merge(self.a, self.write("neg.json", with_row("cycles_per_unit", -5, ok_row))),
                                text="cycles_per_unit is -5")

    def test_converted_file_elsewhere_says_so(self):
        conv = self.write("conv.json", self.converted())
        for name, cmd in (("check-order.py", [CHECK_ORDER, conv]), ("compare.py", [COMPARE, self.a, conv]),
                          ("bench_compare.py", [ANALYSE, "--validate", self.a, conv])):
            with self.subTest(name):
                p = run([sys.executable, *cmd])
                self.assertOneLineError(p, text="conv.json: converted file (from markdown")
                self.assertIn("no medians to compare", p.stderr)

    def test_names_cannot_split_rows_or_headings(self):
        evil = "avx|x\n## forged heading"
        doc = measured()
        for r in doc["results"]:
            if r["impl"] == "avx":
                r["impl"] = evil
                r["name"] = r["name"].split("/")[0] + "/" + evil
        doc["results"][0]["table"] = "T|1\n| forged | row |"
        p = self.merge(self.a, self.write("evil.json", doc))
        self.assertEqual(p.returncode, 0, p.stderr)
        lines = p.stdout.splitlines()
        self.assertNotIn("## forged heading", lines)
        self.assertFalse([x for x in lines if x.startswith("| forged")], p.stdout)
        # Every table row has as many cells as its header.
        width = None
        for line in lines:
            if not line.startswith("|"):
                width = None
                continue
            cells = len(re.split(r"(?<!\\)\|", line))
            width = width or cells
            self.assertEqual(cells, width, line)
        self.assertIn("| avx\\|x\\x0a## forged heading |", p.stdout)

    def test_converted_markdown(self):
        p = run([sys.executable, FROM_MD, ZEN3_MD])
        self.assertEqual(p.returncode, 0, p.stderr)
        doc = json.loads(p.stdout)
        self.assertEqual(doc["converted_from"], "markdown")
        self.assertEqual(doc["machine"]["family"], 25)
        self.assertNotIn("stepping", doc["machine"])
        rows = {(r["table"], r["impl"]): r for r in doc["results"]}
        r = rows[("SHA256, 1000000-byte messages", "basic")]
        self.assertEqual((r["avg_ns"], r["cycles_per_byte"], r["speed_pct"]), (2998000.0, 9.45, 100.0))
        self.assertNotIn("median_ns", r)
        self.assertNotIn("samples_ns", r)
        self.assertEqual(rows[("SHA256D (double SHA-256) of 32 bytes", "openssl")]["speed_pct"], 60.1)
        self.assertEqual(len(doc["results"]), 28)  # the forced-OpenSSL table is not a timing table
        conv = os.path.join(self.tmp, "zen3.json")
        with open(conv, "w") as f:
            f.write(p.stdout)
        m = self.merge(self.a, conv)
        self.assertEqual(m.returncode, 0, m.stderr)
        self.assertIn("converted from markdown", m.stdout)
        bad = os.path.join(self.tmp, "bad.md")
        with open(bad, "w") as f:
            f.write("# nothing here\n")
        self.assertOneLineError(run([sys.executable, FROM_MD, bad]), text="no table")


class NoTraceback(unittest.TestCase):
    """No Python tool of the project ends in a traceback, whatever its input or output:
    each class of failure is one line on stderr (or, for a reader that stopped reading,
    the quiet death by SIGPIPE of any Unix tool)."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.report_dir = os.path.join(self.tmp, "report")
        os.mkdir(self.report_dir)
        shutil.copy(os.path.join(DATA, "run-measured.json"), os.path.join(self.report_dir, "main.json"))
        with open(os.path.join(self.report_dir, "main.md"), "w") as f:
            f.write("CPU: test\n\n### SHA256, 64-byte messages\n")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def writing_tools(self):
        """Every tool that writes to stdout, with arguments that make it succeed."""
        m = os.path.join(DATA, "run-measured.json")
        return {"check-order.py": [CHECK_ORDER, ZEN4_JSON], "compare.py": [COMPARE, m, ZEN4_JSON],
                "merge-results.py": [MERGE, m, ZEN4_JSON], "results-from-markdown.py": [FROM_MD, ZEN3_MD],
                "bench_compare.py": [ANALYSE, "--validate", m, ZEN4_JSON], "bench_report.py": [REPORT, self.report_dir]}

    def assert_one_line(self, p, *texts):
        self.assertNotEqual(p.returncode, 0, p.stdout)
        self.assertNotIn("Traceback", p.stderr)
        self.assertNotIn("Exception ignored", p.stderr)
        lines = [x for x in p.stderr.splitlines() if x.strip()]
        self.assertEqual(len(lines), 1, p.stderr)
        for t in texts:
            self.assertIn(t, lines[0])

    def test_closed_stdout_ends_quietly(self):
        for name, cmd in self.writing_tools().items():
            with self.subTest(name):
                r, w = os.pipe()
                os.close(r)  # the reader is gone before the first line (| head that has had enough)
                try:
                    p = subprocess.run([sys.executable, *cmd], stdout=w, stderr=subprocess.PIPE, text=True, timeout=60)
                finally:
                    os.close(w)
                self.assertEqual(p.stderr, "")
                self.assertEqual(p.returncode, -signal.SIGPIPE)

    def test_full_disk_is_one_line(self):
        if not os.path.exists("/dev/full"):
            self.skipTest("no /dev/full")
        # Buffered (the refusal comes at the last flush) and unbuffered (at the first write);
        # check-order.py's input here holds contradictions, so its refused output is a verdict's.
        for unbuffered in ("", "1"):
            env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
            if unbuffered:
                env["PYTHONUNBUFFERED"] = unbuffered
            for name, cmd in self.writing_tools().items():
                with self.subTest(name, unbuffered=unbuffered):
                    with open("/dev/full", "w") as full:
                        p = subprocess.run([sys.executable, *cmd], stdout=full, stderr=subprocess.PIPE, text=True,
                                           timeout=60, env=env)
                    self.assert_one_line(p, "No space left on device")
                    self.assertEqual(p.returncode, 2, p.stderr)

    def test_hostile_json_is_one_line(self):
        def write(name, text, mode="w"):
            path = os.path.join(self.tmp, name)
            with open(path, mode) as f:
                f.write(text)
            return path
        doc = measured()
        doc["results"][0]["median_ns"] = 10 ** 30
        inputs = {"nested 100000 deep": write("deep.json", "[" * 100000 + "]" * 100000),
                  "a 5000-digit integer": write("digits.json", '{"schema": ' + "9" * 5000 + "}"),
                  "an integer beyond a double's exponent": write("big.json", json.dumps(doc).replace(
                      "1000000000000000000000000000000", "1" + "0" * 400, 1)),
                  "not UTF-8": write("latin1.json", b'{"schema": "\xff"}', "wb"),
                  "endless (/dev/zero)": "/dev/zero"}
        m = os.path.join(DATA, "run-measured.json")

        def limit_memory():  # the old reader took /dev/zero until memory ran out
            resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
        for what, path in inputs.items():
            report = os.path.join(self.tmp, "r")
            os.makedirs(report, exist_ok=True)
            for f in ("main.json",):
                target = os.path.join(report, f)
                if os.path.lexists(target):
                    os.remove(target)
                os.symlink(path, target)
            for name, cmd in {"check-order.py": [CHECK_ORDER, path], "compare.py": [COMPARE, m, path],
                              "merge-results.py": [MERGE, m, path], "bench_compare.py": [ANALYSE, "--validate", m, path],
                              "bench_report.py": [REPORT, report], "bench_report_plot.py": [REPORT_PLOT, path, "x.png"],
                              "bench_compare_plot.py": [COMPARE_PLOT, path, "x.png"]}.items():
                with self.subTest(f"{name}: {what}"):
                    p = subprocess.run([sys.executable, *cmd], capture_output=True, text=True, timeout=60,
                                       cwd=self.tmp, preexec_fn=limit_memory)
                    self.assert_one_line(p)
                    self.assertEqual(p.returncode, 2)

    def test_an_unexpected_failure_is_one_line(self):
        # The entry point every tool runs through turns even a bug into one line and exit status 2.
        code = ("import sys; sys.path.insert(0, sys.argv[1]); from sha256bench_results import run_tool; "
                "run_tool('some-tool', lambda: {}['no such key'])")
        p = run([sys.executable, "-c", code, CONTRIB])
        self.assert_one_line(p, "some-tool: internal error", "KeyError")
        self.assertEqual(p.returncode, 2)


# A stand-in bench_bitcoin for bench-report.sh: serves the measured fixture's rows that match
# -filter, rejects unknown options like the real one, and logs each call.
FAKE_BENCH = r"""#!/usr/bin/env python3
import json, os, re, sys
with open(os.environ["FAKE_LOG"], "a") as f:
    f.write(" ".join(sys.argv[1:]) + "\n")
doc = json.load(open(os.environ["FAKE_DATA"]))
flt, out = ".*", None
for a in sys.argv[1:]:
    if a.startswith("-filter="): flt = a[8:]
    elif a.startswith("-output-json="): out = a[13:]
    elif a.startswith("-rounds=") or a.startswith("-min-time="): pass
    else: sys.exit(print("Error: unknown option " + a, file=sys.stderr) or 1)
doc["results"] = [r for r in doc["results"] if re.search(flt, r["name"])]
if not doc["results"]: sys.exit(print("Error: -filter matches no benchmark", file=sys.stderr) or 1)
print("CPU: " + doc["machine"]["cpu"] + "\nOpenSSL reference: test, path sha-ni (test)")
for t in dict.fromkeys(r["table"] for r in doc["results"]):
    print("\n### " + t + "\n\n| Impl | speed% |\n|---|---:|")
    for r in doc["results"]:
        if r["table"] == t: print("| %s | %.1f |" % (r["impl"], r.get("speed_pct", 0)))
if out: json.dump(doc, open(out, "w"))
"""


class ReportTests(unittest.TestCase, OneLineError):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.build = os.path.join(self.tmp, "build")
        os.makedirs(os.path.join(self.build, "src", "bench"))
        fake = os.path.join(self.build, "src", "bench", "bench_bitcoin")
        with open(fake, "w") as f:
            f.write(FAKE_BENCH)
        os.chmod(fake, 0o755)
        self.log = os.path.join(self.tmp, "calls.log")
        self.data = os.path.join(DATA, "run-measured.json")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def report(self, *args, data=None):
        env = dict(os.environ, FAKE_LOG=self.log, FAKE_DATA=data or self.data)
        return run([os.path.join(CONTRIB, "bench-report.sh"), self.build, *args], cwd=self.tmp, env=env)

    def calls(self):
        if not os.path.exists(self.log):
            return []
        with open(self.log) as f:
            return f.read().splitlines()

    def test_writes_report_md_and_png(self):
        out = os.path.join(self.tmp, "out")
        p = self.report("--out=" + out, "-filter=SHA256_(1K|64B)/")
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(os.path.join(out, "report.md")) as f:
            md = f.read()
        self.assertEqual(md, p.stdout)
        self.assertIn("![speed% per implementation, error bars from the rounds](report.png)", md)
        self.assertIn("- commit: `49cc190`", md)
        with open(os.path.join(out, "report.png"), "rb") as f:
            png = f.read()
        self.assertTrue(png.startswith(b"\x89PNG\r\n\x1a\n"))
        self.assertGreater(len(png), 20000)
        self.assertEqual([x for x in os.listdir(out) if x.startswith(".")], [])  # no temporary file left
        # Titles follow the filter: the tables that ran, nothing about 1 MB.
        self.assertIn("### SHA256, 1024-byte messages", md)
        self.assertNotIn("1000000-byte", md)

    def test_chart_panels_follow_the_json(self):
        sys.path.insert(0, CONTRIB)
        import bench_report_plot
        from sha256bench_results import load
        doc = load(self.data)
        groups = bench_report_plot.panels(doc, self.data)
        self.assertEqual([t for t, _ in groups], list(dict.fromkeys(r["table"] for r in doc["results"])))
        for _, bars in groups:
            for impl, speed, lo, hi, reference in bars:
                self.assertLessEqual(lo, speed)
                self.assertGreaterEqual(hi, speed)
                # Grey (a reference) exactly for the rows of the reference family, e.g. OpenSSL.
                row = next(r for r in doc["results"] if r["impl"] == impl and r["status"] == "ok")
                self.assertEqual(reference, row["family"] == "reference", impl)
            base = [b for b in bars if b[1] == 100.0]
            self.assertTrue(base, "each table has its 100% row")

    def test_options_the_script_controls_are_refused_before_running(self):
        for opt, text in (("-output-json=u.json", "writes the results itself"), ("-output-csv=u.csv", "writes the results itself"),
                          ("-sanity-check", "measured timings"), ("-list", "not a measuring option"),
                          ("--bogus", "unknown option"), ("stray", "unexpected argument"), ("--out=", "needs a directory"),
                          # word-split by the script, these passed as two options (past its own refusals)
                          ("-filter=a b", "containing spaces"), ("-filter=x -sanity-check", "containing spaces"),
                          ("-min-time=5\t-list", "containing spaces")):
            self.assertOneLineError(self.report(opt), text=text)
        self.assertEqual(self.calls(), [])
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "u.json")))

    def test_bench_errors_are_one_line(self):
        for opt in ("-bogus", "-frob=1"):
            self.assertOneLineError(self.report(opt), text="bench_bitcoin failed: Error: unknown option")
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "report.md")))

    def test_unwritable_out_is_refused_before_running(self):
        blocker = os.path.join(self.tmp, "file")
        open(blocker, "w").close()
        self.assertOneLineError(self.report("--out=" + os.path.join(blocker, "sub")))
        self.assertEqual(self.calls(), [])

    def test_missing_samples_is_an_error_not_a_bare_chart(self):
        doc = measured()
        del doc["results"][1]["samples_ns"]
        bad = os.path.join(self.tmp, "nosamples.json")
        with open(bad, "w") as f:
            json.dump(doc, f)
        self.assertOneLineError(self.report(data=bad), text="samples_ns is missing")
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "report.png")))


if __name__ == "__main__":
    result = unittest.main(exit=False, verbosity=1).result
    # A test with failing subtests counts once (failures list each subtest).
    bad = {getattr(t, "test_case", t).id() for t, _ in result.failures + result.errors}
    print(f"compare tests: {result.testsRun - len(bad)} passed, {len(bad)} failed")
    sys.exit(1 if bad or not result.wasSuccessful() else 0)
