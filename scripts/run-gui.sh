#!/usr/bin/env bash
# Install dependencies, build Shardscope (Release) into build/ and open the GUI
# on a sample model.
#
#   bash scripts/run-gui.sh [MODEL.mlir]
#
# MODEL defaults to sample_models/matmul_chain.mlir; when that file does not
# exist the app opens with its own default. Without a display ($DISPLAY and
# $WAYLAND_DISPLAY empty) it builds, prints how to run it under Xvfb and exits
# 0, unless SHARDSCOPE_USE_XVFB=1, which runs it under `xvfb-run -a`.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
# Arguments that name files are made absolute before changing directory.
user_args=()
for a in "$@"; do
  if [[ -e "$a" ]]; then user_args+=("$(realpath "$a")"); else user_args+=("$a"); fi
done
cd "$SHARDSCOPE_ROOT"

[[ "${SKIP_DEPS:-0}" == 1 ]] || bash scripts/install-deps.sh

log "configuring $BUILD_DIR (Release)"
configure -DSHARDSCOPE_BUILD_GUI=ON
if has_target shardscope; then
  log "building shardscope with -j$JOBS"
  build shardscope
else
  echo "run-gui: the build defines no 'shardscope' target (is the GUI in this tree?)" >&2
  exit 1
fi

app="$BUILD_DIR/bin/shardscope"
[[ "$app" == "$SHARDSCOPE_ROOT"/* ]] && app="${app#"$SHARDSCOPE_ROOT"/}"
args=()
if [[ ${#user_args[@]} -gt 0 ]]; then
  args=("${user_args[@]}")
elif [[ -f sample_models/matmul_chain.mlir ]]; then
  args=(sample_models/matmul_chain.mlir)
fi

if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" ]]; then
  if [[ "${SHARDSCOPE_USE_XVFB:-0}" == 1 ]]; then
    log "no display: running under xvfb-run -a"
    exec xvfb-run -a -s "-screen 0 1600x1000x24" "$app" "${args[@]}"
  fi
  cat <<TXT

Built $app, but there is no display (\$DISPLAY and \$WAYLAND_DISPLAY are empty).
From $SHARDSCOPE_ROOT, run it on a virtual X server with:

  xvfb-run -a $app ${args[*]}

or let this script do that:

  SHARDSCOPE_USE_XVFB=1 bash scripts/run-gui.sh ${user_args[*]}

(From a desktop session, or over ssh -X, just run: $app ${args[*]})
TXT
  exit 0
fi

log "starting $app ${args[*]}"
exec "$app" "${args[@]}"
