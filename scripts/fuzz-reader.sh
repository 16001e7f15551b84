#!/usr/bin/env bash
# Fuzz the MLIR reader (tests/fuzz/reader_fuzzer.cpp) with libFuzzer + ASan.
#
#   bash scripts/fuzz-reader.sh [SECONDS]      # default 600
#
# Builds build-fuzz/ with clang (-fsanitize=address,fuzzer-no-link on every
# target, GUI and benchmarks off), seeds build-fuzz/corpus from every
# conformance case (each `// -----` chunk on its own) and sample_models/, and
# runs the fuzzer with tests/fuzz/mlir.dict. Exit status is non-zero when the
# fuzzer found a crash, leak or timeout; the input is saved in build-fuzz/artifacts/.
#
# Environment: SHARDSCOPE_SHARED (default ../shared), FUZZ_JOBS (parallel
# fuzzing processes, default 1), SKIP_DEPS=1, SHARDSCOPE_FUZZ_ROUNDTRIP=1
# (also check that printed modules parse and print identically).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
SECS="${1:-600}"
BUILD=build-fuzz
SHARED="${SHARDSCOPE_SHARED:-$ROOT/../shared}"

[[ "${SKIP_DEPS:-0}" == 1 ]] || bash scripts/install-deps.sh

san="-fsanitize=address,fuzzer-no-link -fno-omit-frame-pointer"
gen=()
[[ -f $BUILD/CMakeCache.txt ]] || gen=(-G Ninja)
echo "==> configuring $BUILD (clang, ASan + libFuzzer)"
cmake -S . -B "$BUILD" "${gen[@]}" \
  -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" \
  -DCMAKE_CXX_FLAGS="$san" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address" \
  -DSHARDSCOPE_BUILD_GUI=OFF -DSHARDSCOPE_BUILD_TESTS=ON \
  -DSHARDSCOPE_BUILD_BENCH=OFF -DSHARDSCOPE_BUILD_FUZZ=ON
echo "==> building reader_fuzzer"
cmake --build "$BUILD" -j "${SHARDSCOPE_JOBS:-2}" --target reader_fuzzer

echo "==> seeding $BUILD/corpus"
mkdir -p "$BUILD/corpus" "$BUILD/artifacts"
python3 - "$BUILD/corpus" "$SHARED/conformance/cases" sample_models <<'PY'
import glob, hashlib, os, re, sys
out, roots = sys.argv[1], sys.argv[2:]
files = []
for r in roots:
    files += glob.glob(os.path.join(r, "**", "*.mlir"), recursive=True)
added = 0
for path in sorted(files):
    text = open(path, encoding="utf-8", errors="replace").read()
    chunks = re.split(r"(?m)^// -----.*\n?", text)
    if len(chunks) > 1:
        chunks.append(text)  # the whole file too
    for c in chunks:
        if not c.strip():
            continue
        data = c.encode()
        name = os.path.join(out, "seed-" + hashlib.sha1(data).hexdigest()[:16])
        if not os.path.exists(name):
            with open(name, "wb") as f:
                f.write(data)
            added += 1
print("seeds: %d files read, %d new inputs, %d in corpus" % (len(files), added, len(os.listdir(out))))
PY

echo "==> fuzzing for $SECS s"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
args=(-dict=tests/fuzz/mlir.dict -max_total_time="$SECS" -max_len=65536 -timeout=10
      -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$BUILD/artifacts/")
if [[ "${FUZZ_JOBS:-1}" -gt 1 ]]; then
  args+=(-fork="$FUZZ_JOBS" -ignore_crashes=0)
fi
set +e
"$BUILD/bin/reader_fuzzer" "${args[@]}" "$BUILD/corpus" </dev/null
rc=$?
set -e
if [[ $rc -ne 0 ]]; then
  echo "fuzz-reader: the fuzzer stopped with exit $rc; inputs that failed:" >&2
  ls -t "$BUILD/artifacts" | head -5 | sed "s|^|  $BUILD/artifacts/|" >&2
  echo "replay one with: $BUILD/bin/reader_fuzzer $BUILD/artifacts/FILE" >&2
  exit 1
fi
echo "fuzz-reader: no crash in $SECS s"
