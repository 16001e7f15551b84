#!/usr/bin/env bash
# Build the engine, its tests, shardscope-opt and shardscope-sc with
# AddressSanitizer and UndefinedBehaviorSanitizer in build-asan/ and run the
# engine tests and the whole conformance suite under them, leak detection on.
#
#   bash scripts/run-sanitizers.sh          # engine (what CI runs, from run-tests.sh)
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
# The --gui run builds the widgets too (Qt's moc and a few hundred more
# objects) and runs the Qt tests offscreen; it is not part of CI's run.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$SHARDSCOPE_ROOT" || exit 1
exec </dev/null

gui=OFF
[[ "${1:-}" == "--gui" ]] && gui=ON
export_sanitizer_options

pass=0
total=0
fail=0
finish() {
  echo "sanitizers: $pass of $total pass"
  [[ $fail -eq 0 ]]
  exit $?
}

log "configuring $ASAN_DIR (-O1, ASan + UBSan, GUI $gui)"
if ! configure_asan "$gui" >/dev/null; then
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
read -r c_total c_failed < <(ctest_counts "$clog")
if [[ -n "${c_total:-}" ]]; then
  total=$((total + c_total)); pass=$((pass + c_total - c_failed)); fail=$((fail + c_failed))
  [[ $crc -ne 0 && $c_failed -eq 0 ]] && fail=$((fail + 1))
else
  echo "run-sanitizers: ctest gave no summary (exit $crc)" >&2
  fail=$((fail + 1))
fi

shared="${SHARDSCOPE_SHARED:-$SHARDSCOPE_ROOT/../shared}"
runpy="$shared/conformance/run.py"
baseline=tests/conformance_passing.txt
if [[ -f "$runpy" ]]; then
  log "conformance suite under the sanitizers"
  report="$ASAN_DIR/conformance-report.json"
  rm -f "$report"
  # A sanitizer report makes the tool exit non-zero (or crash), so a case
  # whose run trips one fails; the ratchet list says which must pass.
  python3 "$runpy" --opt "$ASAN_DIR/bin/shardscope-opt" --no-echo --timeout 120 \
    --baseline "$baseline" --json "$report" 2>&1 |
    sed -E 's/^([0-9]+) passed, ([0-9]+) failed$/all conformance cases under the sanitizers: \1 pass, \2 fail/'
  conf_rc=${PIPESTATUS[0]}
  if [[ -f "$report" ]]; then
    read -r r_pass r_fail r_missing < <(ratchet_counts "$baseline" "$report")
    [[ $r_missing -gt 0 ]] && echo "run-sanitizers: $r_missing case(s) in $baseline no longer exist in the suite"
    total=$((total + r_pass + r_fail)); pass=$((pass + r_pass)); fail=$((fail + r_fail))
    [[ $conf_rc -ne 0 && $r_fail -eq 0 ]] && fail=$((fail + 1))
  else
    echo "run-sanitizers: conformance runner gave no report" >&2
    fail=$((fail + 1))
  fi
fi
finish
