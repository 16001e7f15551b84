#!/usr/bin/env bash
# Build the engine, its tests, shardscope-opt and shardscope-sc with
# AddressSanitizer and UndefinedBehaviorSanitizer in build-asan/ and run the
# engine tests and the whole conformance suite under them, leak detection on.
#
#   bash scripts/run-sanitizers.sh          # engine (what CI runs)
#   bash scripts/run-sanitizers.sh --gui    # also the widgets and their tests
#
# Environment: SHARDSCOPE_ASAN_DIR (build-asan/), SHARDSCOPE_JOBS (2),
# SHARDSCOPE_SHARED (../shared). Assumes the dependencies are installed
# (scripts/run-tests.sh installs them first).
#
# Any sanitizer report fails the run: UBSan does not recover, ASan aborts.
# Suppressions (tests/sanitizers/*.supp) name third-party libraries only.
# The last line is `sanitizers: N of M pass` (the counts of CTest tests and
# conformance ratchet cases), and the exit status is non-zero on any failure.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$SHARDSCOPE_ROOT" || exit 1
exec </dev/null

gui=OFF
[[ "${1:-}" == "--gui" ]] && gui=ON
ASAN_DIR="${SHARDSCOPE_ASAN_DIR:-$SHARDSCOPE_ROOT/build-asan}"
supp="$SHARDSCOPE_ROOT/tests/sanitizers"
# -O1 -g1: line tables for the reports, and about half the compile time of
# -O2 -g; NDEBUG as in the Release build whose behaviour the run checks
# (this build runs in every CI run).
flags="-O1 -g1 -DNDEBUG -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:halt_on_error=1:detect_stack_use_after_return=1:strict_string_checks=1"
export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:suppressions=$supp/ubsan.supp"

pass=0
total=0
fail=0
finish() {
  echo "sanitizers: $pass of $total pass"
  [[ $fail -eq 0 ]]
  exit $?
}

gen=()
[[ -f "$ASAN_DIR/CMakeCache.txt" ]] || gen=(-G Ninja)
log "configuring $ASAN_DIR (-O1, ASan + UBSan, GUI $gui)"
if ! cmake -S . -B "$ASAN_DIR" "${gen[@]}" -DCMAKE_BUILD_TYPE=None \
    -DSHARDSCOPE_BUILD_GUI=$gui -DSHARDSCOPE_BUILD_TESTS=ON -DSHARDSCOPE_BUILD_BENCH=OFF \
    "-DCMAKE_CXX_FLAGS=$flags" "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined" \
    "-DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=address,undefined" >/dev/null; then
  echo "run-sanitizers: configure failed" >&2
  fail=1; total=1; finish
fi
log "building with -j$JOBS"
if ! cmake --build "$ASAN_DIR" -j "$JOBS"; then
  echo "run-sanitizers: build failed" >&2
  fail=1; total=1; finish
fi

log "ctest under the sanitizers"
if [[ $gui == ON && -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" ]]; then
  export QT_QPA_PLATFORM=offscreen
fi
clog="$ASAN_DIR/ctest-output.log"
ctest --test-dir "$ASAN_DIR" --output-on-failure -j "$JOBS" --timeout 900 2>&1 | tee "$clog"
crc=${PIPESTATUS[0]}
line=$(grep -E '[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$clog" | tail -1)
if [[ -n "$line" ]]; then
  c_failed=$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\1/' <<<"$line")
  c_total=$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\2/' <<<"$line")
  total=$((total + c_total)); pass=$((pass + c_total - c_failed)); fail=$((fail + c_failed))
  [[ $crc -ne 0 && $c_failed -eq 0 ]] && fail=$((fail + 1))
else
  echo "run-sanitizers: ctest gave no summary (exit $crc)" >&2
  fail=$((fail + 1))
fi

shared="${SHARDSCOPE_SHARED:-$SHARDSCOPE_ROOT/../shared}"
runpy="$shared/conformance/run.py"
if [[ -f "$runpy" ]]; then
  log "conformance suite under the sanitizers"
  report="$ASAN_DIR/conformance-report.json"
  rm -f "$report"
  # A sanitizer report makes the tool exit non-zero (or crash), so a case
  # whose run trips one fails; the ratchet list says which must pass.
  python3 "$runpy" --opt "$ASAN_DIR/bin/shardscope-opt" --no-echo --timeout 120 \
    --baseline tests/conformance_passing.txt --json "$report" 2>&1 |
    sed -E 's/^([0-9]+) passed, ([0-9]+) failed$/all conformance cases under the sanitizers: \1 pass, \2 fail/'
  conf_rc=${PIPESTATUS[0]}
  if [[ -f "$report" ]]; then
    read -r r_pass r_fail < <(python3 - tests/conformance_passing.txt "$report" <<'PY'
import json, sys
must = [l.strip() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
rep = json.load(open(sys.argv[2]))
ok = set(rep["passed"])
print(sum(c in ok for c in must), sum(c not in ok for c in must))
PY
)
    total=$((total + r_pass + r_fail)); pass=$((pass + r_pass)); fail=$((fail + r_fail))
    [[ $conf_rc -ne 0 && $r_fail -eq 0 ]] && fail=$((fail + 1))
  else
    echo "run-sanitizers: conformance runner gave no report" >&2
    fail=$((fail + 1))
  fi
fi
finish
