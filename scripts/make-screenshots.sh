#!/usr/bin/env bash
# Regenerate the README pictures with `shardscope --export` (headless) and
# one real window captured with `--screenshot` under xvfb-run.
#
#   bash scripts/make-screenshots.sh [BUILD_DIR]     # default: build
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="${1:-$ROOT/build}/bin/shardscope"
OUT="$ROOT/docs/screenshots"
[[ -x "$BIN" ]] || { echo "make-screenshots: $BIN not built" >&2; exit 2; }
mkdir -p "$OUT"
export QT_QPA_PLATFORM=offscreen
S="$ROOT/sample_models"
"$BIN" --export "$OUT/graph_mlp_megatron.png" --view graph --propagate user-priority "$S/mlp_megatron.mlir"
"$BIN" --export "$OUT/mesh_device_order.png" --view mesh "$S/device_order.mlir"
"$BIN" --export "$OUT/factors_dot_general.png" --view factors --op dot_general --strategy user-priority "$S/matmul_chain.mlir"
"$BIN" --export "$OUT/trace_attention.png" --view trace --step 3 "$S/attention_block.mlir"
"$BIN" --export "$OUT/graph_step_mlp_megatron.png" --view graph --step 3 "$S/mlp_megatron.mlir"
"$BIN" --export "$OUT/graph_comm_priorities.png" --view graph --propagate pipeline "$S/priorities.mlir"
"$BIN" --export "$OUT/comm_megatron_allreduce.png" --view comm --propagate pipeline "$S/megatron_allreduce.mlir"
"$BIN" --export "$OUT/compare_alltoall_conflict.png" --view compare "$S/alltoall_conflict.mlir"
"$BIN" --export "$OUT/source_errors.png" --view source "$ROOT/tests/widgets/data/bad_module.mlir" 2>/dev/null ||
  "$BIN" --export "$OUT/source_matmul.png" --view source "$S/matmul_chain.mlir"
"$BIN" --export "$OUT/sc_load_zipf.png" --view sc-load "$S/sparsecore/zipf_dropping.json"
"$BIN" --export "$OUT/sc_pipeline.png" --view sc-pipeline "$S/sparsecore/pipeline_comparison.json"
"$BIN" --export "$OUT/sc_hbm_dlrm.png" --view sc-hbm "$S/sparsecore/dlrm_like.json"
if command -v xvfb-run >/dev/null; then
  unset QT_QPA_PLATFORM
  xvfb-run -a -s "-screen 0 1600x1000x24" "$BIN" --screenshot "$OUT/window.png" "$S/attention_block.mlir" || true
fi
echo "pictures in $OUT"
