#!/usr/bin/env bash
# Build the engine, its tests, shardscope-opt and shardscope-sc with
# AddressSanitizer and UndefinedBehaviorSanitizer in build-asan/ and run the
# engine tests and the whole conformance suite under them, leak detection on.
#
#   bash scripts/run-sanitizers.sh          # engine (what CI runs, from run-tests.sh)
#   bash scripts/run-sanitizers.sh --gui    # also the widgets and their tests
#
# Environment: SHARDSCOPE_ASAN_DIR (build-asan/), SHARDSCOPE_JOBS (2),
# SHARDSCOPE_SHARED (../shared), SKIP_DEPS=1 (do not call
# scripts/install-deps.sh; run-tests.sh has done so already).
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

if [[ "${SKIP_DEPS:-0}" != 1 ]]; then
  log "checking dependencies"
  if ! bash scripts/install-deps.sh; then
    echo "run-sanitizers: installing dependencies failed" >&2
    fail=1; total=1; finish
  fi
fi

log "configuring $ASAN_DIR (-O1, ASan + UBSan, GUI $gui)"
if ! configure_asan "$gui" >/dev/null; then
  echo "run-sanitizers: configure failed" >&2
  fail=1; total=1; finish
fi
log "building with -j$JOBS"
t0=$SECONDS
if ! cmake --build "$ASAN_DIR" -j "$JOBS"; then
  echo "run-sanitizers: build failed" >&2
  fail=1; total=1; finish
fi
log "the sanitizer build took $((SECONDS - t0)) s"
t0=$SECONDS

log "ctest under the sanitizers"
if [[ $gui == ON && -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" ]]; then
  export QT_QPA_PLATFORM=offscreen
fi
run_ctest "$ASAN_DIR" 900
total=$((total + COUNT_PASS + COUNT_FAIL)); pass=$((pass + COUNT_PASS)); fail=$((fail + COUNT_FAIL))
log "ctest under the sanitizers took $((SECONDS - t0)) s"

# A sanitizer report makes the tool exit non-zero (or crash), so a case
# whose run trips one fails; the ratchet list says which must pass.
t1=$SECONDS
log "conformance suite under the sanitizers"
run_conformance "$ASAN_DIR/bin/shardscope-opt" "$ASAN_DIR/conformance-report.json" \
  "under the sanitizers" --no-echo --timeout 120
if [[ $? -eq 2 ]]; then
  log "no conformance suite (SHARDSCOPE_SHARED): skipped"
else
  log "conformance under the sanitizers took $((SECONDS - t1)) s"
fi
total=$((total + COUNT_PASS + COUNT_FAIL)); pass=$((pass + COUNT_PASS)); fail=$((fail + COUNT_FAIL))
finish
