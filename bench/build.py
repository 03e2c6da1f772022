#!/usr/bin/env python3
"""`cudadeps build`: the target arch only against a package's full arch list,
and the cache-hit rebuild.

    bench/build.py --cudadeps build/bin/cudadeps [--reps 5] [--hits 20]

Makes a local git repository of a small CUDA library (a cmake recipe, a few
templated kernels) and a package manifest whose release lists every arch the
real nvcc compiles (`nvcc --list-gpu-arch`), then runs, interleaved in one
loop so that machine load hits both alike:
  target    `cudadeps build MANIFEST --arch sm_90` in an empty cache: cudadeps
            passes CMAKE_CUDA_ARCHITECTURES=90
  full      the same with every arch of the release as a target: what a
            build without cudadeps compiles
Each run starts from a fresh cache directory (the source clone included, so
both pay the same fetch), with the launcher off (no ccache). Then it times
--hits runs of the target build against its filled cache (a cache hit: no
fetch, no compile) and one `nvcc --version` for scale.

Prints medians of the whole command and of its compile step (from the
build log's "# step compile done in S s"; the rest is the fetch and CMake's
configure, the same for both), the full/target ratios and the cache-hit median (goal: a
cache-hit rebuild <= 100 ms). Needs the real toolkit (--nvcc, default
/usr/local/cuda/bin/nvcc), cmake, g++ and git.
"""

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

KERNEL = r"""
#include <cstdio>
template <int N, typename T>
__global__ void stencil(const T *__restrict__ In, T *__restrict__ Out, int Len) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= Len) return;
  T Acc = 0;
#pragma unroll
  for (int K = -N; K <= N; ++K) {
    int J = min(max(I + K, 0), Len - 1);
    Acc += In[J] * T(K + N + 1);
  }
  Out[I] = Acc;
}
template <typename T> void launch(const T *In, T *Out, int Len) {
  stencil<1, T><<<(Len + 255) / 256, 256>>>(In, Out, Len);
  stencil<2, T><<<(Len + 255) / 256, 256>>>(In, Out, Len);
  stencil<4, T><<<(Len + 255) / 256, 256>>>(In, Out, Len);
  stencil<8, T><<<(Len + 255) / 256, 256>>>(In, Out, Len);
  stencil<16, T><<<(Len + 255) / 256, 256>>>(In, Out, Len);
}
template void launch<float>(const float *, float *, int);
template void launch<double>(const double *, double *, int);
template void launch<int>(const int *, int *, int);
"""

CMAKE = """cmake_minimum_required(VERSION 3.20)
project(stencil LANGUAGES CXX CUDA)
add_library(stencil SHARED kernel.cu)
install(TARGETS stencil LIBRARY DESTINATION lib)
"""


def git(repo, *args):
    env = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", HOME=repo,
               GIT_AUTHOR_NAME="bench", GIT_COMMITTER_NAME="bench",
               GIT_AUTHOR_EMAIL="bench@example.com",
               GIT_COMMITTER_EMAIL="bench@example.com")
    subprocess.run(["git", "-c", "init.defaultBranch=main"] + list(args),
                   cwd=repo, env=env, check=True, stdout=subprocess.DEVNULL)


def timed(argv, env):
    start = time.perf_counter()
    r = subprocess.run(argv, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    took = time.perf_counter() - start
    if r.returncode != 0:
        sys.exit("bench/build.py: %s exited %d:\n%s%s" %
                 (" ".join(argv), r.returncode, r.stdout, r.stderr[-3000:]))
    return took, r.stdout + r.stderr


def step_times(cache):
    """{step: seconds} from the build log in \p cache (# step X done in S s)."""
    out = {}
    logs = os.path.join(cache, "logs")
    for name in os.listdir(logs):
        for line in open(os.path.join(logs, name), errors="replace"):
            m = re.match(r"# step (\S+) done in ([0-9.]+) s", line)
            if m:
                out[m.group(1)] = float(m.group(2))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cudadeps", default="build/bin/cudadeps")
    ap.add_argument("--nvcc", default="/usr/local/cuda/bin/nvcc")
    ap.add_argument("--arch", default="sm_90", help="the target arch")
    ap.add_argument("--reps", type=int, default=3,
                    help="builds of each kind (median)")
    ap.add_argument("--hits", type=int, default=20,
                    help="cache-hit rebuilds timed (median)")
    ap.add_argument("--work", help="keep the generated files here")
    a = ap.parse_args()
    for tool in (a.nvcc, a.cudadeps):
        if not os.access(tool, os.X_OK):
            sys.exit("bench/build.py: %s is not executable" % tool)
    for tool in ("cmake", "git", "g++"):
        if not shutil.which(tool):
            sys.exit("bench/build.py: no %s on PATH" % tool)
    cudadeps = os.path.abspath(a.cudadeps)
    listed = subprocess.run([a.nvcc, "--list-gpu-arch"], stdout=subprocess.PIPE,
                            text=True, check=True).stdout.split()
    archs = sorted({"sm_" + x.split("_", 1)[1] for x in listed
                    if re.fullmatch(r"compute_\d+", x)},
                   key=lambda s: int(s[3:]))
    if a.arch not in archs:
        sys.exit("bench/build.py: %s does not compile %s" % (a.nvcc, a.arch))

    work = a.work or tempfile.mkdtemp(prefix="cudadeps-bench-build-")
    os.makedirs(work, exist_ok=True)
    repo = os.path.join(work, "repo")
    os.makedirs(repo, exist_ok=True)
    with open(os.path.join(repo, "kernel.cu"), "w") as f:
        f.write(KERNEL)
    with open(os.path.join(repo, "CMakeLists.txt"), "w") as f:
        f.write(CMAKE)
    if not os.path.isdir(os.path.join(repo, ".git")):
        git(repo, "init", "-q")
        git(repo, "add", ".")
        git(repo, "commit", "-qm", "stencil")
        git(repo, "tag", "v1.0")
    manifest = os.path.join(work, "stencil.toml")
    with open(manifest, "w") as f:
        f.write('schema = 1\n[package]\nname = "stencil"\ngit = "%s"\n'
                'build = "cmake"\n[requires]\nnvcc = ">=12"\n'
                '[[release]]\nversion = "1.0"\narchs = [%s]\n'
                % (repo, ", ".join('"%s"' % x for x in archs)))

    env = dict(os.environ, HOME=work, XDG_CACHE_HOME=os.path.join(work, "xdg"),
               CUDADEPS_FACTS="", PATH=os.path.dirname(a.nvcc) + ":" +
               os.environ.get("PATH", ""))
    base = [cudadeps, "build", manifest, "--launcher", "none"]
    kinds = {"target": ["--arch", a.arch],
             "full": [y for x in archs for y in ("--arch", x)]}
    times = {k: [] for k in kinds}
    compile_times = {k: [] for k in kinds}
    for rep in range(a.reps):
        for kind, extra in kinds.items():
            cache = os.path.join(work, "cache-%s-%d" % (kind, rep))
            shutil.rmtree(cache, ignore_errors=True)
            took, out = timed(base + extra + ["--cache-dir", cache], env)
            steps = step_times(cache)
            times[kind].append(took)
            compile_times[kind].append(steps.get("compile", float("nan")))
            print("  %s build %d: %.1f s (%s)" % (
                kind, rep + 1, took,
                ", ".join("%s %.1f s" % kv for kv in steps.items())), flush=True)
    hit_cache = os.path.join(work, "cache-target-0")
    hits = []
    for _ in range(a.hits):
        took, out = timed(base + kinds["target"] + ["--cache-dir", hit_cache],
                          env)
        hits.append(took)
    nvcc = [timed([a.nvcc, "--version"], env)[0] for _ in range(a.hits)]

    target, full = statistics.median(times["target"]), statistics.median(times["full"])
    print()
    print("archs compiled: target %s, full %d (%s)" % (a.arch, len(archs),
                                                        " ".join(archs)))
    print("build, target arch only   %8.2f s (median of %d)" % (target, a.reps))
    print("build, full arch list     %8.2f s (median of %d)" % (full, a.reps))
    print("full / target             %8.2f x" % (full / target))
    ctarget = statistics.median(compile_times["target"])
    cfull = statistics.median(compile_times["full"])
    print("compile step, target only %8.2f s" % ctarget)
    print("compile step, full list   %8.2f s" % cfull)
    print("full / target (compile)   %8.2f x" % (cfull / ctarget))
    print("cache-hit rebuild         %8.1f ms (median of %d; goal <= 100 ms)"
          % (statistics.median(hits) * 1000, a.hits))
    print("nvcc --version            %8.1f ms (median of %d)"
          % (statistics.median(nvcc) * 1000, a.hits))
    if not a.work:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
