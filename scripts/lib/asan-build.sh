# Sourced by scripts/sanitize and scripts/fuzz: configures build-asan/ (the
# `asan` preset: clang 16, ASan + UBSan, libFuzzer coverage) once, through
# ccache when it is installed, then builds the targets named in "$@" (all
# when none). One build serves both the sanitized test suite and the fuzz
# targets.
asan_build() {
  if [ ! -f build-asan/CMakeCache.txt ]; then
    local launcher=()
    if command -v ccache >/dev/null; then
      launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
    fi
    cmake --preset asan "${launcher[@]}" >/dev/null
  fi
  if [ $# -gt 0 ]; then
    cmake --build build-asan -j "$(nproc)" -- "$@"
  else
    cmake --build build-asan -j "$(nproc)"
  fi
}
