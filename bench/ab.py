#!/usr/bin/env python3
"""Two cudadeps builds timed side by side on one command line.

    bench/ab.py [--runs 20] OLD_EXE NEW_EXE -- resolve W/P/cudadeps.toml ...

Runs the two executables with the same arguments, alternating (OLD NEW, then
NEW OLD, ...) so that machine load hits both alike, each with a load and probe
cache of its own (XDG_CACHE_HOME in a temporary directory, filled by one
untimed run: builds that share one load cache rewrite it in turn). Prints, per
executable, the medians of wall time, user and system CPU and minor page
faults (from wait4), and the fastest wall time; then NEW's speed-up by the
medians, and round by round: the median of each round's OLD/NEW ratio (the two
ran back to back, under the same load) with a 90% bootstrap interval, "within
noise" where that interval holds 1.00x. The executables' output is discarded;
a run that fails is reported.
"""

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time


def run(argv, env):
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    return code, (wall, usage.ru_utime, usage.ru_stime, usage.ru_minflt)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=20,
                    help="timed runs of each executable (default 20)")
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("args", nargs=argparse.REMAINDER,
                    help="the cudadeps arguments, after --")
    a = ap.parse_args()
    args = a.args[1:] if a.args[:1] == ["--"] else a.args
    exes = [a.old, a.new]
    with tempfile.TemporaryDirectory(prefix="cudadeps-ab-") as tmp:
        envs = [dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, str(k)))
                for k in range(2)]
        for exe, env in zip(exes, envs):
            run([exe] + args, env)  # fills its caches
        samples = [[], []]
        for i in range(a.runs):
            order = (0, 1) if i % 2 == 0 else (1, 0)
            for k in order:
                code, sample = run([exes[k]] + args, envs[k])
                if code not in (0, 1):
                    sys.exit("%s exited with %d" % (exes[k], code))
                samples[k].append(sample)
    med = []
    for exe, s in zip(exes, samples):
        m = [statistics.median(x[j] for x in s) for j in range(4)]
        med.append(m[0])
        print("%-40s wall %7.1f ms  user %6.1f ms  sys %6.1f ms  faults %7.0f"
              "  (fastest %.1f ms)" % (exe, m[0] * 1e3, m[1] * 1e3, m[2] * 1e3,
                                       m[3], min(x[0] for x in s) * 1e3))
    print("new / old wall (medians): %.2fx faster" % (med[0] / med[1]))
    # Each round ran both back to back: its ratio is measured under one load.
    # The median of those ratios, and where it falls when the rounds are
    # drawn again (a bootstrap, seeded: the same samples give the same
    # interval); an interval around 1.00x says the difference is noise.
    pairs = [o[0] / n[0] for o, n in zip(samples[0], samples[1])]
    rng = random.Random(0)
    boots = sorted(statistics.median(rng.choices(pairs, k=len(pairs)))
                   for _ in range(2000))
    lo, hi = boots[len(boots) // 20], boots[len(boots) - 1 - len(boots) // 20]
    print("new / old wall, round by round: %.2fx (median of %d), 90%% interval "
          "%.2f-%.2fx%s" % (statistics.median(pairs), len(pairs), lo, hi,
                           ", within noise" if lo <= 1.0 <= hi else ""))


if __name__ == "__main__":
    main()
