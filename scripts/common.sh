# shellcheck shell=bash
# Shared by the scripts in this folder (sourced, not run).
# Configures and builds the Release tree in build/ (the `release` preset's
# directory) or the sanitizer tree in build-asan/ with Ninja and two jobs,
# and reads CTest's summary.

SHARDSCOPE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${SHARDSCOPE_BUILD_DIR:-$SHARDSCOPE_ROOT/build}"
JOBS="${SHARDSCOPE_JOBS:-2}"

log() { printf '==> %s\n' "$*"; }

# configure [extra cmake args...]: first run picks Ninja; later runs keep the
# generator already in the cache (so an old Makefiles tree still works).
configure() {
  local gen=()
  if [[ ! -f "$BUILD_DIR/CMakeCache.txt" ]]; then
    gen=(-G Ninja)
  fi
  cmake -S "$SHARDSCOPE_ROOT" -B "$BUILD_DIR" "${gen[@]}" \
    -DCMAKE_BUILD_TYPE=Release "$@"
}

# build [targets...]
build() {
  local t=()
  for x in "$@"; do t+=(--target "$x"); done
  cmake --build "$BUILD_DIR" -j "$JOBS" "${t[@]}"
}

# has_target NAME: true when the configured build tree defines target NAME.
has_target() {
  local targets
  targets=$(cmake --build "$BUILD_DIR" --target help 2>/dev/null) || return 1
  grep -Eq "^(\.\.\. )?$1(:| |$)" <<<"$targets"
}

# ---- the sanitizer build (run-sanitizers.sh, fuzz-propagation.sh) ---------
ASAN_DIR="${SHARDSCOPE_ASAN_DIR:-$SHARDSCOPE_ROOT/build-asan}"
# -O1 -g1: line tables for the reports, and about half the compile time of
# -O2 -g; NDEBUG as in the Release build whose behaviour the run checks.
ASAN_FLAGS="-O1 -g1 -DNDEBUG -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"

# configure_asan GUI(ON|OFF): configure build-asan/ with ASan + UBSan on
# every target; benchmarks are never built there.
configure_asan() {
  local gen=()
  [[ -f "$ASAN_DIR/CMakeCache.txt" ]] || gen=(-G Ninja)
  cmake -S "$SHARDSCOPE_ROOT" -B "$ASAN_DIR" "${gen[@]}" -DCMAKE_BUILD_TYPE=None \
    -DSHARDSCOPE_BUILD_GUI="$1" -DSHARDSCOPE_BUILD_TESTS=ON -DSHARDSCOPE_BUILD_BENCH=OFF \
    "-DCMAKE_CXX_FLAGS=$ASAN_FLAGS" "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined" \
    "-DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=address,undefined"
}

# Sanitizer options: any report fails (UBSan does not recover, ASan halts),
# leaks are reported, suppressions name third-party libraries only.
export_sanitizer_options() {
  local supp="$SHARDSCOPE_ROOT/tests/sanitizers"
  export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:halt_on_error=1:detect_stack_use_after_return=1:strict_string_checks=1"
  export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:suppressions=$supp/ubsan.supp"
}

# ctest_counts LOG: prints "TOTAL FAILED" from CTest's closing summary
# ("100% tests passed, 0 tests failed out of 12") in LOG, or nothing when
# LOG has none.
ctest_counts() {
  local line
  line=$(grep -E '[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$1" | tail -1)
  [[ -n "$line" ]] || return 0
  sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\2 \1/' <<<"$line"
}

# ratchet_counts BASELINE REPORT: prints "PASSED FAILED MISSING" for the
# cases BASELINE lists, from run.py's --json REPORT.
ratchet_counts() {
  python3 - "$1" "$2" <<'PY'
import json, sys
must = [l.strip() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
rep = json.load(open(sys.argv[2]))
ok, bad = set(rep["passed"]), set(rep["failed"])
print(sum(c in ok for c in must), sum(c in bad for c in must),
      sum(c not in ok and c not in bad for c in must))
PY
}
