#!/usr/bin/env bash
# Install everything Shardscope needs to build, test, fuzz, benchmark and
# package on Debian 12 (bookworm). Idempotent: packages already installed are
# skipped, and `apt-get update` runs only when something must be installed.
#
#   bash scripts/install-deps.sh            # install what is missing
#   bash scripts/install-deps.sh --check    # only list what is missing (exit 1 if any)
#
# Runs as root (or through sudo when available). Safe with CI=true and no stdin.
set -euo pipefail

PACKAGES=(
  # toolchain and build
  build-essential cmake ninja-build pkg-config git
  # Qt 6 Widgets/Gui/Svg/Concurrent/PrintSupport, the platform plugins
  # (xcb and offscreen) and OpenGL headers that Qt6Gui's CMake config needs
  qt6-base-dev qt6-base-dev-tools qt6-qpa-plugins qt6-svg-dev libqt6svg6 libgl-dev
  # GUI libraries
  libgraphviz-dev libqcustomplot-dev
  # engine
  nlohmann-json3-dev
  # SparseCore statistics files (.npz)
  libzip-dev
  # tests: GoogleTest/GoogleMock, Google Benchmark, FileCheck for the
  # conformance suite, mlir-opt-16 as the reader benchmark's peer
  libgtest-dev libgmock-dev libbenchmark-dev llvm-16-tools mlir-16-tools
  # headless GUI runs and text in offscreen rendering
  xvfb xauth fonts-dejavu-core
  # fuzzing (libFuzzer + ASan runtime)
  clang libclang-rt-14-dev
  # scripts, benchmark timing (/usr/bin/time -v), cpack's DEB generator
  python3 time dpkg-dev file
  # compiler cache for the several build folders (release, sanitizers)
  ccache
)

missing=()
for p in "${PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#PACKAGES[@]} packages are installed."
  exit 0
fi
if [[ "${1:-}" == "--check" ]]; then
  echo "install-deps: missing: ${missing[*]}"
  exit 1
fi

SUDO=()
if [[ $(id -u) -ne 0 ]]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo -n)
  else
    echo "install-deps: missing ${missing[*]}; run this script as root." >&2
    exit 1
  fi
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -qq </dev/null
"${SUDO[@]}" apt-get install -y -qq "${missing[@]}" </dev/null
echo "install-deps: done."
