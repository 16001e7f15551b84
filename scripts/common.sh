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
# leaks are reported, suppressions name third-party libraries only. Every
# report aborts (SIGABRT, exit 134 through a shell) rather than exiting 1:
# a tool run that is expected to fail with exit 1 (a -verify-diagnostics
# conformance case, a CLI test of a bad input) would otherwise hide a report
# behind its ordinary failure, and run.py counts an exit of 128 or more as a
# crash. Core dumps stay off (disable_coredump, ASan's default on x86-64).
export_sanitizer_options() {
  local supp="$SHARDSCOPE_ROOT/tests/sanitizers"
  export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:disable_coredump=1:halt_on_error=1:detect_stack_use_after_return=1:strict_string_checks=1"
  export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:abort_on_error=1:suppressions=$supp/ubsan.supp"
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

# ---- counted runs (run-tests.sh, run-sanitizers.sh) ------------------------
# Each sets COUNT_PASS and COUNT_FAIL for its caller's closing summary. A
# tool that exits non-zero although no test or case failed (a crash, a
# sanitizer report after the summary) counts as one failure more.

# run_ctest DIR TIMEOUT: every CTest test in DIR, output shown and kept in
# DIR/ctest-output.log.
run_ctest() {
  local dir=$1 log="$1/ctest-output.log" rc c_total c_failed
  COUNT_PASS=0
  COUNT_FAIL=0
  ctest --test-dir "$dir" --output-on-failure -j "$JOBS" --timeout "$2" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  read -r c_total c_failed < <(ctest_counts "$log")
  if [[ -n "${c_total:-}" ]]; then
    COUNT_PASS=$((c_total - c_failed))
    COUNT_FAIL=$c_failed
    if [[ $rc -ne 0 && $c_failed -eq 0 ]]; then
      echo "ctest in $dir exited $rc" >&2
      COUNT_FAIL=1
    fi
  elif [[ $rc -eq 0 ]] && grep -q 'No tests were found' "$log"; then
    echo "ctest found no tests in $dir"
  else
    echo "ctest in $dir exited $rc without a summary" >&2
    COUNT_FAIL=1
  fi
}

# run_conformance OPT REPORT LABEL [run.py options...]: the whole conformance
# suite (SHARDSCOPE_SHARED/conformance, default ../shared beside the repo)
# with OPT; only the cases tests/conformance_passing.txt lists (the ratchet)
# count. run.py's closing line, over all cases, is reworded to "all
# conformance cases (LABEL, informational): N pass, M fail" so that it does
# not read as the run's result. Returns 2 (counts 0) when the suite is not
# there.
run_conformance() {
  local opt=$1 report=$2 label=$3 rc r_pass r_fail r_missing
  local runpy="${SHARDSCOPE_SHARED:-$SHARDSCOPE_ROOT/../shared}/conformance/run.py"
  local baseline="$SHARDSCOPE_ROOT/tests/conformance_passing.txt"
  shift 3
  COUNT_PASS=0
  COUNT_FAIL=0
  [[ -f "$runpy" ]] || return 2
  if [[ ! -x "$opt" ]]; then
    echo "$opt was not built; the conformance ratchet cannot run" >&2
    COUNT_FAIL=1
    return 1
  fi
  rm -f "$report"
  python3 "$runpy" --opt "$opt" --baseline "$baseline" --json "$report" "$@" 2>&1 |
    sed -E "s/^([0-9]+) passed, ([0-9]+) failed\$/all conformance cases ($label, informational): \1 pass, \2 fail/"
  rc=${PIPESTATUS[0]}
  if [[ ! -f "$report" ]]; then
    echo "the conformance runner exited $rc without a report" >&2
    COUNT_FAIL=1
    return 1
  fi
  read -r r_pass r_fail r_missing < <(ratchet_counts "$baseline" "$report")
  log "conformance ratchet ($label): $r_pass of $((r_pass + r_fail + r_missing)) listed cases pass"
  [[ $r_missing -gt 0 ]] && echo "$r_missing case(s) in $baseline no longer exist in the suite"
  COUNT_PASS=$r_pass
  COUNT_FAIL=$r_fail
  if [[ $rc -ne 0 && $r_fail -eq 0 ]]; then
    echo "the conformance runner exited $rc" >&2
    COUNT_FAIL=1
  fi
  return 0
}
