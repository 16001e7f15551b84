#!/usr/bin/env bash
# Run the propagation fuzzer (tests/fuzz/propagation_fuzzer.cpp) for a given
# time: random valid modules through every propagation strategy and the
# whole pipeline, built with ASan + UBSan in build-asan/ (the tree
# scripts/run-sanitizers.sh uses), so a memory error or undefined behaviour
# is a finding too.
#
#   bash scripts/fuzz-propagation.sh [SECONDS] [SEED]     # default 600 s, seed from the clock
#
# A finding prints the seed, what failed and the module, saves the module to
# build-asan/propagation-finding.mlir and exits 1; replay it with
#   build-asan/bin/propagation_fuzzer --seed SEED --count 1
# Environment: SHARDSCOPE_ASAN_DIR, SHARDSCOPE_JOBS, SKIP_DEPS=1.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$SHARDSCOPE_ROOT" || exit 1
exec </dev/null
secs="${1:-600}"
seed="${2:-$(date +%s)}"

if [[ "${SKIP_DEPS:-0}" != 1 ]]; then
  bash scripts/install-deps.sh || exit 1
fi
log "configuring $ASAN_DIR (ASan + UBSan)"
configure_asan OFF >/dev/null || exit 1
log "building propagation_fuzzer"
cmake --build "$ASAN_DIR" -j "$JOBS" --target propagation_fuzzer || exit 1

export_sanitizer_options
log "fuzzing for $secs s from seed $seed"
"$ASAN_DIR/bin/propagation_fuzzer" --seed "$seed" --seconds "$secs" \
  --save "$ASAN_DIR/propagation-finding.mlir"
rc=$?
if [[ $rc -ne 0 ]]; then
  echo "fuzz-propagation: finding (exit $rc); the module is in $ASAN_DIR/propagation-finding.mlir" >&2
  exit 1
fi
