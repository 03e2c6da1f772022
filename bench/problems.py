"""Generated version-solving problems and their encodings.

A problem is a registry (package -> version -> dependencies) and the root's
requirements. Versions are the integers 1..V, written "K.0.0"; a dependency
or requirement allows the half-open range [lo, hi) of them. Every package is
named p0000, p0001, ...

Three families:
  planted(N, V, R, density, seed)  random registry with a planted solution:
      each package has one planted version, whose dependencies all allow the
      planted versions of their targets, and the roots allow the planted
      versions; a fraction `density` of the other versions are traps (one
      dependency excludes the planted version of its target). With
      unique=True every non-planted version is a trap whose target has a lower
      index, and p0000's are dead ends, so the planted versions are the only
      solution.
  pigeonhole(H)   H+1 pigeons into H holes: unsatisfiable.
  complex_backtrack()  the "complex backtrack" scenario of dart-lang/pub's
      solver tests (tests/unit/solver/ScenarioTest.cpp ComplexBacktrack).
"""

import os
import random


class Problem:
    def __init__(self, name, versions):
        self.name = name
        self.versions = versions  # V: versions are 1..V unless listed
        # package -> {version: [(dep, lo, hi)]}
        self.packages = {}
        self.roots = []  # [(dep, lo, hi)]
        # the planted solution {package: version} when known to be the only one
        self.unique = None
        self.satisfiable = None  # True/False when known

    def deps(self, pkg, ver):
        return self.packages[pkg][ver]


def vtext(v):
    return "%d.0.0" % v


def _range(rng, lo_max, hi_min, top):
    """A random [lo, hi) with lo <= lo_max and hi > hi_min (within 1..top)."""
    lo = rng.randint(1, lo_max)
    hi = rng.randint(hi_min + 1, top + 1)
    return lo, hi


def planted(n, v, roots, density, seed, unique=False):
    rng = random.Random(seed)
    p = Problem("planted-%dx%d-r%d-d%g-s%d%s" % (n, v, roots, density, seed,
                                                "-unique" if unique else ""),
                v)
    names = ["p%04d" % i for i in range(n)]
    plant = {name: rng.randint(1, v) for name in names}
    for i, name in enumerate(names):
        versions = {}
        for ver in range(1, v + 1):
            k = rng.randint(0, 3)
            targets = rng.sample(range(n), min(k, n - 1) + 1)
            targets = [t for t in targets if t != i][:k]
            deps = []
            for t in targets:
                s = plant[names[t]]
                lo, hi = _range(rng, s, s, v)
                deps.append((names[t], lo, hi))
            if ver != plant[name]:
                trap = unique or rng.random() < density
                if trap:
                    if unique:
                        if i == 0:
                            deps = [(names[1 % n], v + 1, v + 1)]
                        else:
                            t = rng.randrange(0, i)
                            deps = [d for d in deps if d[0] != names[t]][:2]
                            lo = 1 if plant[names[t]] == 1 else rng.randint(
                                1, plant[names[t]] - 1)
                            hi = plant[names[t]]
                            if hi == 1:  # only versions above the planted one
                                lo, hi = 2, v + 1
                            deps.append((names[t], lo, hi))
                            # above-planted side too, so the trap is a range
                            if plant[names[t]] < v and rng.random() < 0.5:
                                deps[-1] = (names[t], plant[names[t]] + 1,
                                            v + 1)
                    else:
                        if deps:
                            t, _, _ = deps[0]
                        else:
                            t = names[rng.choice([x for x in range(n)
                                                  if x != i] or [i])]
                            deps = [(t, 1, v + 1)]
                        s = plant[t]
                        if s < v and (s == 1 or rng.random() < 0.5):
                            lo, hi = s + 1, rng.randint(s + 2, v + 1)
                        else:
                            lo, hi = rng.randint(1, s - 1), s
                        deps[0] = (t, lo, hi)
            # one dependency per target
            seen = set()
            deps = [d for d in deps if not (d[0] in seen or seen.add(d[0]))]
            versions[ver] = deps
        p.packages[name] = versions
    chosen = rng.sample(range(n), min(roots, n))
    for t in chosen:
        s = plant[names[t]]
        lo, hi = _range(rng, s, s, v)
        p.roots.append((names[t], lo, hi))
    p.satisfiable = True
    if unique:
        p.unique = closure(p, plant)
    p.plant = plant
    return p


def closure(p, plant):
    """The planted versions of the packages the roots reach."""
    out = {}
    todo = [d for d, _, _ in p.roots]
    while todo:
        name = todo.pop()
        if name in out:
            continue
        out[name] = plant[name]
        todo.extend(d for d, _, _ in p.deps(name, plant[name]))
    return out


def pigeonhole(holes):
    """pigeonN version h = pigeon N sits in hole h; holeH version N = hole H
    holds pigeon N. holes+1 pigeons cannot sit in holes holes."""
    p = Problem("pigeonhole-%d" % holes, max(holes, holes + 1))
    for i in range(1, holes + 2):
        p.packages["p%04d" % i] = {
            h: [("h%04d" % h, i, i + 1)] for h in range(1, holes + 1)}
    for h in range(1, holes + 1):
        p.packages["h%04d" % h] = {i: [] for i in range(1, holes + 2)}
    p.roots = [("p%04d" % i, 1, holes + 1) for i in range(1, holes + 2)]
    p.satisfiable = False
    return p


def complex_backtrack():
    """foo I.J depends on baz ==I, bar I.J on baz ==0.J, baz has only 0.0.0.
    Versions are encoded as integers: foo/bar I.J -> 10*I+J+1; baz I.0.0 ->
    1+I, baz 0.J.0 -> 11+J (J > 0); only baz 0.0.0 (= 1) exists."""
    p = Problem("complex-backtrack", 100)
    foo, bar = {}, {}
    for i in range(10):
        for j in range(10):
            v = 10 * i + j + 1
            foo[v] = [("baz", 1 + i, 2 + i)]  # baz I.0.0
            bar[v] = [("baz", 1, 2) if j == 0 else ("baz", 11 + j, 12 + j)]
    p.packages["foo"] = foo
    p.packages["bar"] = bar
    p.packages["baz"] = {1: []}
    p.roots = [("foo", 1, 101), ("bar", 1, 101)]
    p.satisfiable = True
    # pub's expected answer: foo 0.9.0, bar 9.0.0, baz 0.0.0
    p.expected = {"foo": 10, "bar": 91, "baz": 1}
    return p


def valid(p, solution):
    """Why solution (package -> version) is not a solution of p, or None."""
    for d, lo, hi in p.roots:
        if d not in solution:
            return "root requirement %s is not selected" % d
        if not lo <= solution[d] < hi:
            return "root requirement %s [%d,%d) not met by %d" % (
                d, lo, hi, solution[d])
    for name, ver in solution.items():
        if name not in p.packages or ver not in p.packages[name]:
            return "%s %s does not exist" % (name, ver)
        for d, lo, hi in p.deps(name, ver):
            if d not in solution:
                return "%s %d needs %s, not selected" % (name, ver, d)
            if not lo <= solution[d] < hi:
                return "%s %d needs %s [%d,%d), got %d" % (
                    name, ver, d, lo, hi, solution[d])
    return None


# --- cudadeps encoding --------------------------------------------------------

def spec(lo, hi, top):
    if lo >= hi:
        return ">%d.0.0" % (top + 1000)  # matches no version
    parts = []
    if lo > 1:
        parts.append(">=" + vtext(lo))
    if hi <= top:
        parts.append("<" + vtext(hi))
    return ",".join(parts) or "*"


def cudadeps_paths(out_dir):
    """Where write_cudadeps writes: (project, facts, registry)."""
    return (os.path.join(out_dir, "cudadeps.toml"),
            os.path.join(out_dir, "facts.toml"),
            os.path.join(out_dir, "registry"))


def write_cudadeps(p, out_dir):
    """Writes registry/*.toml (pure-Python packages: nothing to build, nothing
    to probe), project.toml and facts.toml; returns (project, facts, registry)."""
    project, facts, reg = cudadeps_paths(out_dir)
    os.makedirs(reg, exist_ok=True)
    top = max(max(vs) for vs in p.packages.values())
    top = max(top, p.versions)
    for name, versions in p.packages.items():
        lines = ["schema = 1", "[package]", 'name = "%s"' % name,
                 'summary = "generated"',
                 'git = "https://example.invalid/%s.git"' % name,
                 'tag = "v{version}"', 'build = "python"', ""]
        for ver in sorted(versions, reverse=True):
            lines.append("[[release]]")
            lines.append('version = "%s"' % vtext(ver))
            deps = versions[ver]
            if deps:
                lines.append("[release.requires]")
                for d, lo, hi in deps:
                    lines.append('%s = "%s"' % (d, spec(lo, hi, top)))
            lines.append("")
        with open(os.path.join(reg, name + ".toml"), "w") as f:
            f.write("\n".join(lines))
    with open(project, "w") as f:
        f.write('schema = 1\n[project]\nname = "bench"\nrequires = [\n')
        for d, lo, hi in p.roots:
            s = spec(lo, hi, top)
            f.write('  "%s%s",\n' % (d, "" if s == "*" else s))
        f.write("]\n")
    with open(facts, "w") as f:
        f.write('[platform]\nos = "linux"\narch = "x86_64"\n'
                'cpus = 4\nmemory_gib = 16\n')
    return project, facts, reg
