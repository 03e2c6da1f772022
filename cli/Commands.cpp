#include "cli/Commands.h"

namespace cudadeps::cli {

llvm::ArrayRef<Command> commands() {
  static const Command Table[] = {
      {"resolve", "choose a buildable configuration and explain it",
       "MANIFEST|REQUIREMENT...",
       "Reads MANIFEST (a project, or a package manifest), the package\n"
       "manifests it needs and this machine's facts, and decides per package:\n"
       "build from source (with which nvcc, host compiler and archs), a\n"
       "published prebuilt binary, nothing to build, or a declared fallback.\n"
       "Instead of MANIFEST, package requirements may be given\n"
       "(`cudadeps resolve causal-conv1d 'flash-linear-attention>=0.4'`),\n"
       "looked up in the registries.\n"
       "Exit code 0 when resolved (fallbacks listed), 1 when no buildable\n"
       "configuration exists (or a fallback is needed under --no-fallback).",
       resolveOptions, runResolve},
      {"build", "resolve, then fetch and compile into the build cache",
       "MANIFEST|REQUIREMENT...",
       "Resolves like `resolve` (a manifest, or package requirements such as\n"
       "`causal-conv1d flash-linear-attention>=0.4`) and carries out each\n"
       "decision: clones the release's tag with libgit2 into\n"
       "$XDG_CACHE_HOME/cudadeps/src and compiles it (source) with the computed\n"
       "environment into the build cache, fetches the published wheel with\n"
       "pip (prebuilt; one that does not exist falls through to the next\n"
       "strategy), or reports the fallback. A configuration built before is a\n"
       "cache hit. --dry-run prints every step's argv, directory and\n"
       "environment and the archs compiled. Exit code 0 done, 1 no buildable\n"
       "configuration, 2 bad input, 3 fetch or build failure (with the log's\n"
       "last lines and its path), 130 interrupted.",
       buildOptions, runBuild},
      {"install", "build, then pip-install the results into the facts' Python",
       "MANIFEST|REQUIREMENT...",
       "Runs `build`, then `python -m pip install --no-deps` of the built or\n"
       "fetched wheels and of the no-build packages (as name==version) with\n"
       "the Python of the facts. Nothing else on the system is changed.\n"
       "--offline installs from the cache's wheels only.",
       buildOptions, runInstall},
      {"explain", "the full derivation behind one package's decision",
       "MANIFEST PACKAGE",
       "Resolves MANIFEST like `resolve` and prints, for PACKAGE, the decision,\n"
       "the PubGrub derivation of why the preferred configuration (its newest\n"
       "release built from source) was not possible, and the facts used with\n"
       "their sources.",
       explainOptions, runExplain},
      {"lint", "validate package and project manifests", "MANIFEST...",
       "Checks each manifest against schema 1 (DESIGN section 4) and reports\n"
       "every error with file:line:col: a project's requirement without a\n"
       "manifest in the registry is an error, a release without an `archs`\n"
       "list a warning. Exit code 0 when all are clean, 2 otherwise.",
       lintOptions, runLint},
      {"probe", "what this machine has: toolkits, compilers, driver, torch",
       "",
       "Runs the probe plugins (built-in and external) and prints what they\n"
       "found, what is missing and what looks inconsistent. Answers are cached\n"
       "in $XDG_CACHE_HOME/cudadeps/probes and reused while the files they\n"
       "came from are unchanged. Each command a probe runs may take 10 s\n"
       "($CUDADEPS_PROBE_TIMEOUT=SECONDS), the whole probing one and a half\n"
       "times that; what timed out is reported and never cached.\n"
       "`--format toml` writes a facts file that `--facts FILE` reads back;\n"
       "`--format json` prints one JSON document.",
       probeOptions, runProbe},
      {"plugins", "the probe plugins, their versions and where they came from",
       "",
       "Lists the built-in probes and the external plugins found on\n"
       "--plugin PATH, $CUDADEPS_PLUGIN_PATH and <prefix>/lib/cudadeps/plugins,\n"
       "and the plugins that could not be loaded, with the reason.",
       pluginsOptions, runPlugins},
      {"matrix", "the prebuilt binaries a package's CI should build",
       "MANIFEST",
       "Reads a package manifest and prints the build matrix of its newest\n"
       "release with a [release.prebuilt] matrix (or --release VERSION):\n"
       "torch x CUDA x python x ABI x platform, only the combinations that can\n"
       "exist (manifests/cuda/torch.toml), each with the nvcc that builds it\n"
       "and the newest host gcc that nvcc accepts. `--format github` prints a\n"
       "GitHub Actions strategy.matrix ({\"include\": [...]}). Exit code 2\n"
       "when the manifest has no prebuilt matrix.",
       matrixOptions, runMatrix},
      {"doctor", "check that installed packages fit this torch and these GPUs",
       "[MANIFEST | REQUIREMENT...]",
       "Checks, without importing anything, each package of MANIFEST (with\n"
       "the packages it requires), the REQUIREMENTs given (`causal-conv1d`,\n"
       "`flash-attn>=2.7`), or with no argument every registry package\n"
       "installed here: installed or not (which version, which dist-info; when\n"
       "missing, what its fallback costs and the command that installs it);\n"
       "built for this torch (the wheel's local version tag and metadata, and\n"
       "every symbol its shared objects need from libtorch/libc10 exported by\n"
       "the installed torch); the CUDA runtime it links against torch's; the\n"
       "GPU code in its fatbinaries against the GPUs found (or --arch, or the\n"
       "project's [target] archs). Verdict per package: ok, missing, stale or\n"
       "wrong archs. Exit code 0 when all are ok, 1 otherwise, 2 on bad input.",
       doctorOptions, runDoctor},
      {"toolkit", "install, list and remove CUDA toolkits without root",
       "install VERSION [--from DIR|FILE] | list | remove VERSION",
       "`install` assembles a CUDA toolkit (bin/nvcc, include with the crt\n"
       "headers and CCCL, lib64 with the runtime, nvvm) into\n"
       "$XDG_DATA_HOME/cudadeps/toolkits/<version> (default ~/.local/share),\n"
       "from NVIDIA's wheels on PyPI (CUDA 13; pip of the facts' Python\n"
       "downloads the component versions manifests/cuda/provisioning.toml\n"
       "pins), from a directory of those wheels (--from DIR, offline), or from\n"
       "NVIDIA's runfile (--from cuda_X.Y.Z_..._linux.run; CUDA 12 and older,\n"
       "no root). It is verified (nvcc --version, a test kernel compiles and\n"
       "links) before it is moved into place; the nvcc probe then finds it.\n"
       "VERSION is 13.0.88, or 13.0 / 13 for the newest such build.\n"
       "`list` shows the installed toolkits with their origin and size;\n"
       "`remove` deletes one. Exit code 2 for a version that cannot be\n"
       "provisioned, 3 when a download or the verification fails.",
       toolkitOptions, runToolkit},
  };
  return Table;
}

} // namespace cudadeps::cli
