#!/usr/bin/env python3
"""Runs cudadeps, libsolv and resolvelib side by side on generated problems.

    bench/compare.py --cudadeps build/bin/cudadeps [--sizes 200,2000] ...

For each problem (bench/problems.py: planted registries of N packages x V
versions with R root requirements, the pigeonhole and pub's complex
backtracking scenario) it writes the cudadeps encoding (a registry of
pure-Python package manifests, a project and a facts file of a synthetic
machine, so nothing is probed), then runs

  cudadeps  `cudadeps resolve` as a whole process (explanations included),
  libsolv   Debian's python3-solv (the SAT solver of dnf, zypper and mamba),
  resolvelib pip's resolver (resolvelib from PyPI, else pip._vendor's copy),

each in its own child process, checks every solution against the registry
(and against the only solution where the generator knows it is unique),
and prints the times, the ratios to cudadeps and each child's peak RSS
(GNU time's %M of one more run; wait4's, floored at this Python's size,
without /usr/bin/time). libsolv and resolvelib are timed in-process around the
solve alone (building their pool/provider is reported as "load").
A solver that is not installed is reported as missing, not skipped silently.
cudadeps runs with a load cache of its own, filled by one untimed run first
(the times are of a warm resolve, as a pre-build hook runs it). --baseline EXE
adds another cudadeps executable (an earlier build), run right after
--cudadeps on each problem, with a warm load cache of its own too.
The solvers take turns: --repeat rounds, each solver once per round (the
order turned by one each round), and the median of its rounds: the
machine's speed drifts, and ratios should compare the same moments.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import problems as P  # noqa: E402


# --- in-child solvers ----------------------------------------------------------

def load_problem(path):
    with open(path) as f:
        d = json.load(f)
    p = P.Problem(d["name"], d["versions"])
    p.packages = {n: {int(v): [tuple(x) for x in ds] for v, ds in vs.items()}
                  for n, vs in d["packages"].items()}
    p.roots = [tuple(r) for r in d["roots"]]
    return p


def save_problem(p, path):
    with open(path, "w") as f:
        json.dump({"name": p.name, "versions": p.versions,
                   "packages": p.packages, "roots": p.roots}, f)


def top_version(p):
    return max(p.versions, max(max(vs) for vs in p.packages.values()))


def solve_libsolv(p):
    import solv
    t0 = time.perf_counter()
    pool = solv.Pool()
    pool.setarch("x86_64")
    repo = pool.add_repo("bench")
    top = top_version(p)

    def dep(name, lo, hi):
        d = pool.Dep(name)
        if lo >= hi:
            return d.Rel(solv.REL_GT, pool.Dep(P.vtext(top + 1000)))
        parts = []
        if lo > 1:
            parts.append(d.Rel(solv.REL_GT | solv.REL_EQ,
                               pool.Dep(P.vtext(lo))))
        if hi <= top:
            parts.append(d.Rel(solv.REL_LT, pool.Dep(P.vtext(hi))))
        if not parts:
            return d
        if len(parts) == 1:
            return parts[0]
        return parts[0].Rel(solv.REL_WITH, parts[1])

    for name, versions in p.packages.items():
        for ver, deps in versions.items():
            s = repo.add_solvable()
            s.name = name
            s.evr = P.vtext(ver)
            s.arch = "x86_64"
            s.add_deparray(solv.SOLVABLE_PROVIDES,
                           pool.Dep(name).Rel(solv.REL_EQ, pool.Dep(s.evr)))
            for d, lo, hi in deps:
                s.add_deparray(solv.SOLVABLE_REQUIRES, dep(d, lo, hi))
    repo.internalize()
    pool.createwhatprovides()
    jobs = [pool.Job(solv.Job.SOLVER_INSTALL | solv.Job.SOLVER_SOLVABLE_PROVIDES,
                     dep(d, lo, hi).id) for d, lo, hi in p.roots]
    t1 = time.perf_counter()
    solver = pool.Solver()
    problems = solver.solve(jobs)
    sol = None
    if not problems:
        sol = {}
        for s in solver.transaction().newsolvables():
            if s.name in sol:
                return {"error": "two versions of " + s.name}
            sol[s.name] = int(s.evr.split(".")[0])
    t2 = time.perf_counter()
    return {"load": t1 - t0, "solve": t2 - t1, "solution": sol}


def resolvelib_module():
    try:
        import resolvelib
        return resolvelib, "resolvelib " + resolvelib.__version__
    except ImportError:
        from pip._vendor import resolvelib
        return resolvelib, "pip._vendor.resolvelib " + resolvelib.__version__


def solve_resolvelib(p):
    rl, _ = resolvelib_module()
    t0 = time.perf_counter()
    desc = {n: sorted(vs, reverse=True) for n, vs in p.packages.items()}

    class Provider(rl.AbstractProvider):
        def identify(self, requirement_or_candidate):
            return requirement_or_candidate[0]

        def get_preference(self, identifier, resolutions, candidates,
                           information, backtrack_causes):
            # fewest candidates first (as PubGrub and pip's heuristics do),
            # the packages of the last conflict before others
            causes = {c.requirement[0] for c in backtrack_causes}
            n = sum(1 for _ in candidates[identifier])
            return (identifier not in causes, n, identifier)

        def find_matches(self, identifier, requirements, incompatibilities):
            reqs = list(requirements[identifier])
            bad = {c[1] for c in incompatibilities[identifier]}
            return [(identifier, v) for v in desc.get(identifier, ())
                    if v not in bad and all(lo <= v < hi
                                            for _, lo, hi in reqs)]

        def is_satisfied_by(self, requirement, candidate):
            return requirement[1] <= candidate[1] < requirement[2]

        def get_dependencies(self, candidate):
            return list(p.packages[candidate[0]][candidate[1]])

    resolver = rl.Resolver(Provider(), rl.BaseReporter())
    t1 = time.perf_counter()
    try:
        result = resolver.resolve(list(p.roots), max_rounds=10 ** 7)
        sol = {n: c[1] for n, c in result.mapping.items()}
    except rl.ResolutionImpossible:
        sol = None
    t2 = time.perf_counter()
    return {"load": t1 - t0, "solve": t2 - t1, "solution": sol}


def child_main(which, path):
    p = load_problem(path)
    out = solve_libsolv(p) if which == "libsolv" else solve_resolvelib(p)
    json.dump(out, sys.stdout)


# --- parent ---------------------------------------------------------------------

def run_child(argv, timeout, env=None):
    """Runs argv; returns (exit code or None on timeout, seconds, stdout,
    peak RSS in MiB)."""
    with tempfile.TemporaryFile() as out:
        t0 = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.DEVNULL,
                                env=env)
        deadline = t0 + timeout
        while True:
            pid, status, ru = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                proc.kill()
                pid, status, ru = os.wait4(proc.pid, 0)
                return None, timeout, b"", ru.ru_maxrss / 1024
            time.sleep(0.0005)
        secs = time.perf_counter() - t0
        out.seek(0)
        return (os.waitstatus_to_exitcode(status), secs, out.read(),
                ru.ru_maxrss / 1024)


def peak_rss(argv, timeout, env=None):
    """Peak RSS in MiB of one run of argv, measured by GNU time (wait4 in
    this process would report at least this Python's own size: a forked
    child keeps its pre-exec high-water mark); None without /usr/bin/time."""
    if not os.path.exists("/usr/bin/time"):
        return None
    with tempfile.NamedTemporaryFile(mode="r") as out:
        try:
            subprocess.run(["/usr/bin/time", "-f", "%M", "-o", out.name] + argv,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           timeout=timeout, env=env)
        except subprocess.TimeoutExpired:
            return None
        text = out.read().strip().splitlines()
        return int(text[-1]) / 1024 if text and text[-1].isdigit() else None


def check(p, sol, expected):
    if sol is None:
        if p.satisfiable:
            return "FAIL: no solution reported for a satisfiable problem"
        return "ok (unsatisfiable)"
    if p.satisfiable is False:
        return "FAIL: a solution reported for an unsatisfiable problem"
    why = P.valid(p, sol)
    if why:
        return "FAIL: " + why
    if expected is not None and sol != expected:
        diff = sorted(k for k in set(sol) | set(expected)
                      if sol.get(k) != expected.get(k))
        return "FAIL: differs from the only solution at " + ", ".join(diff[:5])
    return "ok (the only solution)" if expected is not None else "ok (valid)"


def run_cudadeps(exe, p, work, repeat, timeout, cache=None, warm=True,
                 exact_rss=True):
    """cache: a load and probe cache of this executable's own (then one
    untimed run fills it first, unless warm is False: it was filled), else
    the caller's. exact_rss: measure peak RSS with one more run. The
    problem's files are in work already (P.write_cudadeps): writing them
    again would make the next run of every executable parse them again."""
    project, facts, reg = P.cudadeps_paths(work)
    argv = [exe, "resolve", project, "--facts", facts, "--registry", reg,
            "--format", "json"]
    env = None
    if cache:
        env = dict(os.environ, XDG_CACHE_HOME=cache)
        if warm and run_child(argv, timeout, env)[0] is None:
            return {"timeout": timeout, "rss": 0.0}
    times, rss, sol, code = [], 0.0, None, None
    for _ in range(repeat):
        code, secs, out, peak = run_child(argv, timeout, env)
        if code is None:
            return {"timeout": timeout, "rss": peak}
        times.append(secs)
        rss = max(rss, peak)
        if code not in (0, 1):
            return {"error": "exit %d" % code, "rss": rss}
    exact = peak_rss(argv, timeout, env) if exact_rss else None
    if exact is not None:
        rss = exact
    doc = json.loads(out)
    if code == 0:
        sol = {}
        for pkg in doc["packages"]:
            sol[pkg["name"]] = int(pkg["version"].split(".")[0])
    else:
        # unsatisfiable: every requested package reported unsatisfiable
        bad = [x for x in doc["packages"] if x["strategy"] != "unsatisfiable"]
        if bad and not p.satisfiable:
            return {"error": "exit 1 but %s resolved" % bad[0]["name"]}
    return {"time": statistics.median(times), "rss": rss, "solution": sol,
            "argv": argv}


def run_inproc(which, py, p, work, repeat, timeout, exact_rss=True):
    path = os.path.join(work, "problem.json")
    if not os.path.exists(path):
        save_problem(p, path)
    argv = [py, os.path.abspath(__file__), "--child", which, path]
    solves, loads, rss, last = [], [], 0.0, None
    for _ in range(repeat):
        code, secs, out, peak = run_child(argv, timeout)
        rss = max(rss, peak)
        if code is None:
            return {"timeout": timeout, "rss": rss}
        if code != 0:
            return {"error": "exit %d" % code, "rss": rss}
        last = json.loads(out)
        if "error" in last:
            return {"error": last["error"], "rss": rss}
        solves.append(last["solve"])
        loads.append(last["load"])
    exact = peak_rss(argv, timeout) if exact_rss else None
    if exact is not None:
        rss = exact
    return {"time": statistics.median(solves), "load": statistics.median(loads),
            "rss": rss, "solution": last["solution"]}


PROBE = {
    "libsolv": "import solv; print('python3-solv')",
    "resolvelib": "import sys; sys.path.insert(0, %r); import compare; "
                  "print(compare.resolvelib_module()[1])"
                  % os.path.dirname(os.path.abspath(__file__)),
}
_INTERPRETER = {}


def available(which):
    """(interpreter that imports the solver, what it is) or (None, why not).
    Debian's python3-solv is importable by /usr/bin/python3 only, so that
    interpreter is tried after this one."""
    if which in _INTERPRETER:
        return _INTERPRETER[which]
    tried = []
    for py in dict.fromkeys([sys.executable, "/usr/bin/python3"]):
        if not os.path.exists(py):
            continue
        tried.append(py)
        r = subprocess.run([py, "-c", PROBE[which]], capture_output=True,
                           text=True)
        if r.returncode == 0:
            _INTERPRETER[which] = (py, "%s (%s)" % (r.stdout.strip(), py))
            return _INTERPRETER[which]
    why = ("python3-solv is not installed (apt install python3-solv)"
           if which == "libsolv" else
           "neither resolvelib nor pip's vendored copy is importable")
    _INTERPRETER[which] = (None, why + " by " + ", ".join(tried))
    return _INTERPRETER[which]


def merge(runs):
    """One result from a solver's rounds: the first timeout or error, else
    the median time (and load), and the last round's peak RSS (measured
    exactly) and solution."""
    for r in runs:
        if "timeout" in r or "error" in r:
            return r
    out = dict(runs[-1])  # its peak RSS is the exact one
    out["time"] = statistics.median(r["time"] for r in runs)
    if "load" in out:
        out["load"] = statistics.median(r["load"] for r in runs)
    return out


def fmt_time(t):
    return "%.3f s" % t if t >= 0.1 else "%.1f ms" % (t * 1000)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cudadeps", default="build/bin/cudadeps")
    ap.add_argument("--sizes", default="200,2000",
                    help="package counts of the planted registries")
    ap.add_argument("--versions", type=int, default=20)
    ap.add_argument("--roots", type=int, default=50)
    ap.add_argument("--density", type=float, default=0.3,
                    help="fraction of non-planted versions that are traps")
    ap.add_argument("--seeds", default="1", help="comma-separated seeds")
    ap.add_argument("--holes", type=int, default=6, help="pigeonhole size")
    ap.add_argument("--unique", action="store_true",
                    help="also run the unique-solution variant of each size")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--only", default="cudadeps,libsolv,resolvelib")
    ap.add_argument("--work", help="directory for the generated problems")
    ap.add_argument("--baseline", metavar="EXE",
                    help="another cudadeps executable (an earlier build) run "
                         "on the same problems right after --cudadeps, each "
                         "with a warm load cache of its own; its ratio is "
                         "its time over --cudadeps'")
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        child_main(*a.child)
        return 0

    probs = []
    for n in [int(x) for x in a.sizes.split(",") if x]:
        for seed in [int(x) for x in a.seeds.split(",")]:
            probs.append(P.planted(n, a.versions, a.roots, a.density, seed))
            if a.unique:
                probs.append(P.planted(n, a.versions, a.roots, a.density,
                                       seed, unique=True))
    if a.holes:
        probs.append(P.pigeonhole(a.holes))
    probs.append(P.complex_backtrack())

    solvers = a.only.split(",")
    if a.baseline:
        solvers.insert(solvers.index("cudadeps") + 1 if "cudadeps" in solvers
                       else 0, "baseline")
    for s in solvers:
        if s not in ("cudadeps", "baseline"):
            ok, what = available(s)
            print("%-10s %s" % (s, what))
    work_root = a.work or tempfile.mkdtemp(prefix="cudadeps-bench-")
    failed = False
    for p in probs:
        work = os.path.join(work_root, p.name)
        os.makedirs(work, exist_ok=True)
        expected = p.unique if p.unique is not None else None
        print("\n%s (%d packages, roots %d)" % (p.name, len(p.packages),
                                               len(p.roots)))
        # Round by round, each solver once per round (the machine's speed
        # drifts: blocks of runs one solver after another would compare
        # different moments), the order turned by one each round (a run
        # after another warms or cools what the next one finds); the median
        # of each solver's rounds.
        if "cudadeps" in solvers or "baseline" in solvers:
            P.write_cudadeps(p, work)
        rounds = {}
        for rnd in range(a.repeat):
            last = rnd == a.repeat - 1
            turn = rnd % len(solvers)
            for s in solvers[turn:] + solvers[:turn]:
                if any("timeout" in r or "error" in r
                       for r in rounds.get(s, [])):
                    continue
                if s in ("cudadeps", "baseline"):
                    exe = a.cudadeps if s == "cudadeps" else a.baseline
                    # A load cache of each executable's own, filled by an
                    # untimed run before its first round: the problem's
                    # files were just written, and a cold first round would
                    # be a parse of the whole registry.
                    cache = os.path.join(work_root, "cache-" + s)
                    r = run_cudadeps(exe, p, work, 1, a.timeout, cache,
                                     warm=rnd == 0, exact_rss=last)
                else:
                    py, what = available(s)
                    if not py:
                        rounds[s] = [{"missing": what}]
                        continue
                    r = run_inproc(s, py, p, work, 1, a.timeout,
                                   exact_rss=last)
                rounds.setdefault(s, []).append(r)
        results = {}
        for s in solvers:
            runs = rounds.get(s, [])
            if not runs:
                continue
            if "missing" in runs[0]:
                print("  %-10s missing: %s" % (s, runs[0]["missing"]))
                continue
            r = merge(runs)
            results[s] = r
            if "timeout" in r:
                print("  %-10s TIMEOUT after %.0f s  peak RSS %.1f MiB" %
                      (s, r["timeout"], r["rss"]))
                continue
            if "error" in r:
                print("  %-10s ERROR %s" % (s, r["error"]))
                failed = True
                continue
            verdict = check(p, r["solution"], expected)
            failed |= verdict.startswith("FAIL")
            extra = ""
            if "load" in r:
                extra = "  (+ load %s)" % fmt_time(r["load"])
            ratio = ""
            c = results.get("cudadeps")
            if s != "cudadeps" and c and "time" in c:
                ratio = "  %.1fx cudadeps" % (r["time"] / c["time"])
            print("  %-10s %10s%s  peak RSS %6.1f MiB  %s%s" % (
                s, fmt_time(r["time"]), extra, r["rss"], verdict, ratio))
        sols = [r["solution"] for r in results.values()
                if "solution" in r and r["solution"] is not None]
        if len(sols) > 1 and all(x == sols[0] for x in sols):
            print("  all solutions equal")
    print("\nproblems in", work_root)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
