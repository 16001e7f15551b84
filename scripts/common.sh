# shellcheck shell=bash
# Shared by run-gui.sh and run-tests.sh (sourced, not run).
# Configures and builds the Release tree in build/ (the `release` preset's
# directory) with Ninja and two jobs.

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
