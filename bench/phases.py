#!/usr/bin/env python3
"""Where a `cudadeps resolve` spends its instructions, by phase and file.

    bench/phases.py --cudadeps build/bin/cudadeps [--baseline OLD] W/P ...

W/P is a problem directory as `bench/compare.py --work W` writes it
(cudadeps.toml, facts.toml, registry/). For each executable and problem: one
run fills a load cache of its own (XDG_CACHE_HOME in a temporary directory),
then one run under `valgrind --tool=callgrind` counts the instructions of a
warm `resolve --format json`; the two outputs must be the same bytes (a
resolve is deterministic). Prints the total, the instructions of each phase
(every call of its function, with its callees: phases overlap and do not
sum to the total), and the ten source files whose code runs the most
instructions (self cost). With --baseline, also whether both executables
printed the same bytes, and the ratio of their totals.

Instruction counts, unlike times, repeat exactly for the same executable,
inputs and environment, whatever else the machine is doing. Needs valgrind
(callgrind_annotate comes with it).
"""

import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import problems as P  # noqa: E402

# (label, pattern of the demangled function name): a phase is every call of
# that function, wherever it is called from (the provider's dependencies and
# choosing versions count in the solve, in pruning and in the queries alike),
# with its callees. Where callgrind lists a function once per source file it
# saw code of, the largest of those counts is the function's.
PHASES = [
    ("resolve: the whole decision", r"\bcudadeps::resolve\("),
    ("the solve", r"::Solver<.*>::solve\(\)"),
    ("pruning dead versions", r"::Solver<.*>::prune\(\)"),
    ("the provider's dependencies", r"FactProvider::(numberedD|d)ependencies\("),
    ("ruling pruned versions out", r"::Solver<.*>::rulePrunedOut\(\)"),
    ("choosing versions", r"::Solver<.*>::choosePackageVersion\(\)"),
    ("the queries (why not the newest)", r"::Solver<.*>::query\("),
    ("the reasons written from them", r"\breasonsOf\("),
    ("writing the output", r"cli::print(Json|Text)\("),
]

LINE = re.compile(r"^\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(.*)$")


def annotate(out_file, inclusive):
    argv = ["callgrind_annotate", "--threshold=100",
            "--inclusive=" + ("yes" if inclusive else "no"), out_file]
    text = subprocess.run(argv, check=True, capture_output=True,
                          text=True).stdout
    # The function table alone: from the header naming "file:function" to
    # the next rule (the annotated source that follows repeats counts).
    rows = []
    lines = text.splitlines()
    start = next((k for k, line in enumerate(lines)
                  if line.rstrip().endswith("file:function")), len(lines))
    for line in lines[start + 2:]:
        if not line.strip() or line.startswith("--"):
            break
        m = LINE.match(line)
        if m:
            rows.append((int(m.group(1).replace(",", "")), m.group(2)))
    return text, rows


def split_place(place):
    """'file:function [object]' -> (file, function)."""
    place = re.sub(r" \[[^\]]*\]$", "", place)
    if ":" not in place:
        return "", place
    file, func = place.split(":", 1)
    return file, func


def measure(exe, problem, tmp, tag):
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, tag, "cache"))
    project, facts, registry = P.cudadeps_paths(problem)
    args = ["resolve", project, "--facts", facts, "--registry", registry,
            "--format", "json"]
    first = subprocess.run([exe] + args, env=env, capture_output=True)
    if first.returncode not in (0, 1):
        sys.exit("%s exited with %d on %s:\n%s" % (
            exe, first.returncode, problem, first.stderr.decode()[-2000:]))
    out_file = os.path.join(tmp, tag, "callgrind.out")
    counted = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out_file,
         exe] + args, env=env, capture_output=True)
    if counted.stdout != first.stdout:
        sys.exit("%s printed other bytes under callgrind on %s"
                 % (exe, problem))
    text, rows = annotate(out_file, inclusive=True)
    total = re.search(r"^\s*([\d,]+)\s+\(100\.0%\)\s+PROGRAM TOTALS",
                      text, re.M)
    total = int(total.group(1).replace(",", "")) if total else 0
    phases = []
    for label, pattern in PHASES:
        best = 0
        for count, place in rows:
            if re.search(pattern, split_place(place)[1]):
                best = max(best, count)
        phases.append((label, best))
    _, self_rows = annotate(out_file, inclusive=False)
    by_file = collections.Counter()
    for count, place in self_rows:
        file = split_place(place)[0]
        by_file[os.path.basename(file) or "(unknown)"] += count
    return total, phases, by_file, first.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cudadeps", default="build/bin/cudadeps")
    ap.add_argument("--baseline", help="another cudadeps executable, "
                    "measured on the same problems")
    ap.add_argument("--files", type=int, default=10,
                    help="how many source files to list (default 10)")
    ap.add_argument("problems", nargs="+",
                    help="problem directories written by compare.py --work")
    a = ap.parse_args()
    for tool in ("valgrind", "callgrind_annotate"):
        if not shutil.which(tool):
            sys.exit("phases.py needs %s (apt install valgrind)" % tool)
    exes = [("cudadeps", a.cudadeps)]
    if a.baseline:
        exes.append(("baseline", a.baseline))
    with tempfile.TemporaryDirectory(prefix="cudadeps-phases-") as tmp:
        for number, problem in enumerate(a.problems):
            if not os.path.isfile(P.cudadeps_paths(problem)[0]):
                sys.exit("%s: not a problem directory (no cudadeps.toml)"
                         % problem)
            print("%s" % os.path.basename(os.path.normpath(problem)))
            results = {}
            for name, exe in exes:
                tag = "%d-%s" % (number, name)
                os.makedirs(os.path.join(tmp, tag))
                results[name] = measure(exe, problem, tmp, tag)
            total, phases, by_file, out = results["cudadeps"]
            print("  %-42s %14s" % ("instructions (callgrind Ir)",
                                     "{:,}".format(total)))
            if a.baseline:
                btotal, _, _, bout = results["baseline"]
                print("  %-42s %14s  (%.3fx cudadeps'; output %s)" % (
                    "baseline", "{:,}".format(btotal),
                    btotal / total if total else 0,
                    "the same bytes" if bout == out else "DIFFERENT"))
            for label, count in phases:
                print("  %-42s %14s  %5.1f%%" % (
                    label, "{:,}".format(count),
                    100.0 * count / total if total else 0))
            print("  by source file (self):")
            for file, count in by_file.most_common(a.files):
                print("    %-40s %14s  %5.1f%%" % (
                    file, "{:,}".format(count),
                    100.0 * count / total if total else 0))
            print()


if __name__ == "__main__":
    main()
