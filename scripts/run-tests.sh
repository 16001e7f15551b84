#!/usr/bin/env bash
# Build Shardscope (Release, warnings on) in build/, run every CTest test and
# the Shardy conformance ratchet, then the same under the sanitizers, and end
# with one line `N passed, M failed`.
#
#   bash scripts/run-tests.sh
#
# Environment:
#   SHARDSCOPE_SHARED   folder holding conformance/ (default: ../shared beside the repo)
#   SHARDSCOPE_BUILD_DIR, SHARDSCOPE_JOBS   build folder (build/) and jobs (2)
#   SKIP_DEPS=1         do not call scripts/install-deps.sh
#   SHARDSCOPE_SKIP_SANITIZERS=1   skip the ASan/UBSan build and run (for
#                       quick local runs; CI always runs it)
#
# The conformance suite runs only the cases listed in tests/conformance_passing.txt
# as hard requirements (the ratchet); the rest are reported but do not fail
# the run. Then scripts/run-sanitizers.sh builds the engine, its tests and
# the CLIs with ASan + UBSan in build-asan/ and runs the engine tests and
# the conformance suite under them; its tests and cases count in the summary.
# Exit status is non-zero when a build, a CTest test or a ratchet case
# failed, here or under the sanitizers. Needs no stdin; works with CI=true.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$SHARDSCOPE_ROOT" || exit 1
exec </dev/null

passed=0
failed=0
summary() {
  echo
  echo "$passed passed, $failed failed"
  [[ $failed -eq 0 ]]
  exit $?
}

if [[ "${SKIP_DEPS:-0}" != 1 ]]; then
  log "checking dependencies"
  if ! bash scripts/install-deps.sh; then
    echo "run-tests: installing dependencies failed" >&2
    failed=$((failed + 1)); summary
  fi
fi

t0=$SECONDS
log "configuring $BUILD_DIR (Release)"
if ! configure -DSHARDSCOPE_BUILD_TESTS=ON; then
  echo "run-tests: cmake configure failed" >&2
  failed=$((failed + 1)); summary
fi
log "building with -j$JOBS"
if ! build; then
  echo "run-tests: build failed" >&2
  failed=$((failed + 1)); summary
fi
log "build took $((SECONDS - t0)) s"

# ---- CTest -----------------------------------------------------------------
log "ctest"
t1=$SECONDS
# Qt tests need a platform plugin; without a display use the offscreen one.
if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" ]]; then
  export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"
fi
run_ctest "$BUILD_DIR" 300
passed=$((passed + COUNT_PASS))
failed=$((failed + COUNT_FAIL))
log "ctest took $((SECONDS - t1)) s"

# ---- Conformance ratchet ---------------------------------------------------
t2=$SECONDS
log "conformance suite (ratchet: tests/conformance_passing.txt)"
run_conformance "$BUILD_DIR/bin/shardscope-opt" "$BUILD_DIR/conformance-report.json" Release
if [[ $? -eq 2 ]]; then
  log "no conformance suite (SHARDSCOPE_SHARED): skipped"
else
  log "conformance took $((SECONDS - t2)) s"
fi
passed=$((passed + COUNT_PASS))
failed=$((failed + COUNT_FAIL))

# ---- Sanitizers ------------------------------------------------------------
# The engine, its tests, shardscope-opt and shardscope-sc again, built with
# ASan and UBSan in build-asan/ (no GUI, no benchmarks), the engine tests and
# the whole conformance suite run under them with leak detection
# (scripts/run-sanitizers.sh); its tests and ratchet cases count here too.
if [[ "${SHARDSCOPE_SKIP_SANITIZERS:-0}" == 1 ]]; then
  log "SHARDSCOPE_SKIP_SANITIZERS=1: the sanitizer run is skipped"
else
  log "sanitizer build and run (build-asan/)"
  t3=$SECONDS
  san_log="$BUILD_DIR/sanitizers-output.log"
  SKIP_DEPS=1 bash scripts/run-sanitizers.sh 2>&1 | tee "$san_log"
  san_rc=${PIPESTATUS[0]}
  san_line=$(grep -E '^sanitizers: [0-9]+ of [0-9]+ pass$' "$san_log" | tail -1)
  if [[ -n "$san_line" ]]; then
    read -r s_pass s_total < <(sed -E 's/^sanitizers: ([0-9]+) of ([0-9]+) pass$/\1 \2/' <<<"$san_line")
    passed=$((passed + s_pass))
    failed=$((failed + s_total - s_pass))
    if [[ $san_rc -ne 0 && $s_pass -eq $s_total ]]; then
      failed=$((failed + 1))
    fi
  else
    echo "run-tests: the sanitizer run ended without a summary (exit $san_rc)" >&2
    failed=$((failed + 1))
  fi
  log "sanitizers took $((SECONDS - t3)) s"
fi

summary
