#!/usr/bin/env python3
"""Warm resolve and cold probe against the external commands they stand for.

    bench/warm.py --cudadeps build/bin/cudadeps [--reps 30]

Runs, interleaved in one loop so that machine load hits all of them alike:
  nvcc      `nvcc --version` of the real toolkit (--nvcc, default
            /usr/local/cuda/bin/nvcc): the yardstick of a pre-build hook
  resolve   `cudadeps resolve examples/qwen35-training/cudadeps.toml`, warm
            (the probe cache filled by one run before timing)
  start     `cudadeps --version`: the process start alone
  probe     `cudadeps probe --refresh` (cold: every probe runs again)
and, for the cold probe, every external command the probe runs (found once
with strace -f when strace is installed), each timed alone the same way.
Prints medians, the ratios (goal: warm resolve <= 3x nvcc --version) and
each command's peak RSS (GNU time). --toolkits DIR:DIR... puts more toolkits on
PATH for a second probe measurement (several toolkits, with a cache of its own
so that the warm resolve stays warm).
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import peak_rss, run_child  # noqa: E402


def external_commands(argv, env):
    """The argv of every program argv runs (strace -f -e execve), in the
    order they started. One trace file per process (-ff), so that the calls
    of concurrent threads are never split across lines."""
    with tempfile.TemporaryDirectory(prefix="cudadeps-strace-") as d:
        r = subprocess.run(["strace", "-f", "-ff", "-ttt", "-qq",
                            "-e", "trace=execve", "-e", "signal=none",
                            "-o", os.path.join(d, "t")] + argv,
                           env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
        if r.returncode not in (0, 1):
            return []
        found = []
        for name in os.listdir(d):
            for line in open(os.path.join(d, name), errors="replace"):
                m = re.search(r'^([0-9.]+) execve\("([^"]+)", \[(.*?)\]',
                              line)
                if not m or "= 0" not in line.rsplit(")", 1)[-1]:
                    continue
                args = re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(3))
                if os.path.realpath(m.group(2)) == os.path.realpath(argv[0]):
                    continue
                found.append((float(m.group(1)), [m.group(2)] + args[1:]))
        return [cmd for _, cmd in sorted(found)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cudadeps", default="build/bin/cudadeps")
    ap.add_argument("--nvcc", default="/usr/local/cuda/bin/nvcc")
    ap.add_argument("--project",
                    default="examples/qwen35-training/cudadeps.toml")
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--toolkits", default="",
                    help="colon-separated bin/ dirs of more toolkits for a "
                         "several-toolkit probe")
    a = ap.parse_args()
    exe = os.path.abspath(a.cudadeps)
    env = dict(os.environ)
    cache = tempfile.mkdtemp(prefix="cudadeps-warm-")
    env["XDG_CACHE_HOME"] = cache  # a cache of its own, filled below
    runs = {
        "nvcc --version": [a.nvcc, "--version"],
        "resolve (warm)": [exe, "resolve", a.project],
        "--version (process start)": [exe, "--version"],
        "probe --refresh": [exe, "probe", "--refresh"],
    }
    envs = {k: env for k in runs}
    probes = ["probe --refresh"]
    if a.toolkits:
        many = dict(env)
        many["PATH"] = a.toolkits + ":" + env.get("PATH", "")
        # A cache of its own: its answers (another $PATH) must not replace
        # the ones the warm resolve uses.
        many["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="cudadeps-warm-tk-")
        runs["probe --refresh (+toolkits)"] = [exe, "probe", "--refresh"]
        envs["probe --refresh (+toolkits)"] = many
        probes.append("probe --refresh (+toolkits)")
    subprocess.run(runs["resolve (warm)"], env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    # The external commands of each probe run, each timed alone with that
    # run's environment; a probe's ratio is against its own slowest one.
    externals = {}
    for p in probes:
        try:
            externals[p] = external_commands(runs[p], envs[p])
        except FileNotFoundError:
            print("strace not installed: external commands not timed")
            break
        for cmd in externals[p]:
            key = "  ext: " + " ".join(cmd)
            if key not in runs:
                runs[key] = cmd
                envs[key] = envs[p]
    times = {k: [] for k in runs}
    rss = {k: 0.0 for k in runs}
    # with the warm resolve after the probe --refresh that refilled the cache
    order = list(runs)
    for _ in range(a.reps):
        for k in order:
            code, secs, _, peak = run_child_env(runs[k], envs[k])
            times[k].append(secs)
            rss[k] = max(rss[k], peak)
    for k in order:
        exact = peak_rss(runs[k], 60, envs[k])
        if exact is not None:
            rss[k] = exact
    base = statistics.median(times["nvcc --version"])
    print("%-60s %10s %8s %10s" % ("command", "median", "x nvcc", "peak RSS"))
    for k in order:
        m = statistics.median(times[k])
        name = k if len(k) <= 60 else k[:29] + "..." + k[-28:]
        print("%-60s %8.1f ms %7.2fx %7.1f MiB" % (name, m * 1000, m / base,
                                                  rss[k]))
    for p, cmds in externals.items():
        if not cmds:
            continue
        keys = ["  ext: " + " ".join(c) for c in cmds]
        slow = max(keys, key=lambda k: statistics.median(times[k]))
        print("%s / slowest external command it runs (%d commands; %s): "
              "%.2fx" % (p, len(cmds), slow.strip()[5:],
                         statistics.median(times[p]) /
                         statistics.median(times[slow])))
    return 0


def run_child_env(argv, env):
    old = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    try:
        return run_child(argv, 60)
    finally:
        os.environ.clear()
        os.environ.update(old)


if __name__ == "__main__":
    sys.exit(main())
