#!/usr/bin/env bash
# Checks that shardscope-opt handles every module of a folder of .mlir files:
#
#   1. read + verify + print            shardscope-opt FILE            > P1
#   2. the print reads back the same    shardscope-opt P1              > P2, P1 == P2
#   3. propagation runs                 shardscope-opt -sdy-propagation-pipeline FILE > Q1
#   4. propagation is idempotent        shardscope-opt -sdy-propagation-pipeline Q1   > Q2, Q1 == Q2
#
# Besides, it counts the files whose print P1 equals the file itself once
# comments, blank lines and locations are left out: a module MLIR printed
# should read and print back unchanged (informational: hand-written and older
# files differ in spacing and attribute order).
#
# and reports how many passed, then each kind of failure (the error message
# with names and numbers blurred, or the first differing line) with its count,
# its first file and its full first message, biggest kind first.
#
#   bash scripts/corpus-check.sh [options] DIR_OR_FILE...
#
# Options:
#   --opt PATH      the shardscope-opt to run (default: build/bin/shardscope-opt)
#   -j N            files checked in parallel (default: $SHARDSCOPE_JOBS or 2)
#   --timeout S     seconds per shardscope-opt run before it counts as a hang (60)
#   --failures      also list every failing file with its stage and message
#   --unlike        also list every file whose print differs from it, with the first difference
#   --keep DIR      keep each file's prints (DIR/NAME.{print,reprint,prop,reprop}.mlir)
#
# Exit status: 0 when every module passed, 1 when one failed, 2 on bad usage.
# The corpora themselves are not in the repository: see scripts/corpus/README.md.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

OPT="$ROOT/build/bin/shardscope-opt"
JOBS="${SHARDSCOPE_JOBS:-2}"
TIMEOUT=60
LIST_FAILURES=0
LIST_UNLIKE=0
KEEP=""
inputs=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --opt) OPT="$2"; shift 2 ;;
    -j) JOBS="$2"; shift 2 ;;
    --timeout) TIMEOUT="$2"; shift 2 ;;
    --failures) LIST_FAILURES=1; shift ;;
    --unlike) LIST_UNLIKE=1; shift ;;
    --keep) KEEP="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^set -uo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "corpus-check: unknown option $1" >&2; exit 2 ;;
    *) inputs+=("$1"); shift ;;
  esac
done
if [[ ${#inputs[@]} -eq 0 ]]; then
  echo "usage: corpus-check.sh [--opt PATH] [-j N] [--failures] DIR_OR_FILE..." >&2
  exit 2
fi
if [[ ! -x "$OPT" ]]; then
  echo "corpus-check: $OPT is not an executable (build the shardscope-opt target)" >&2
  exit 2
fi

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
[[ -n "$KEEP" ]] && mkdir -p "$KEEP"

# check_one FILE: prints one tab-separated line, "pass FILE" or
# "fail FILE STAGE MESSAGE".
check_one() {
  local file="$1"
  local name
  name="$(basename "$file" .mlir)"
  local dir="$WORK/$name.$$.$RANDOM"
  mkdir -p "$dir"
  local p1="$dir/print.mlir" p2="$dir/reprint.mlir" q1="$dir/prop.mlir" q2="$dir/reprop.mlir"
  local err="$dir/err" rc
  # Files of several modules separated by `// -----` are checked chunk by chunk.
  local split=()
  grep -q '^// -----' "$file" && split=(-split-input-file)

  # run STAGE ARGS...: runs shardscope-opt; on failure prints the fail line.
  run() {
    local stage="$1"; shift
    timeout "$TIMEOUT" "$OPT" "${split[@]}" "$@" 2>"$err"
    rc=$?
    [[ $rc -eq 0 ]] && return 0
    # Shardy's propagation refuses dynamic shapes and tuples with an error, and
    # so do we: such a module passes (it read, verified and printed), counted apart.
    if [[ $stage == propagate ]] && grep -q "error: Shardy propagation \(only supports ranked tensors with a static shape\|doesn't support tuples\)" "$err"; then
      printf 'declined\t%s\n' "$file"
      return 1
    fi
    local msg
    if [[ $rc -eq 124 ]]; then
      msg="hang: no result after ${TIMEOUT}s"
    elif [[ $rc -ge 128 ]]; then
      msg="crash: signal $((rc - 128)) $(grep -m1 -v '^$' "$err" | cut -c1-200)"
    else
      msg="$(grep -m1 'error:' "$err" || grep -m1 -v '^$' "$err")"
      [[ -z "$msg" ]] && msg="exit status $rc without a message"
    fi
    printf 'fail\t%s\t%s\t%s\n' "$file" "$stage" "${msg//$'\t'/ }"
    return 1
  }
  # same STAGE A B: prints the fail line with the first differing line when A != B.
  same() {
    cmp -s "$2" "$3" && return 0
    local line
    line="$(diff "$2" "$3" | grep -m1 '^[<>]' | cut -c1-240)"
    printf 'fail\t%s\t%s\t%s\n' "$file" "$1" "${line//$'\t'/ }"
    return 1
  }

  # fidelity: prints the first line where P1 differs from the input, if any.
  fidelity() {
    local norm='/^[[:space:]]*\/\//d; /^[[:space:]]*$/d; /^#loc[0-9]* = /d; s/ loc([^()]*\(([^()]*\(([^()]*)[^()]*\)*)[^()]*\)*)//g'
    if ! diff <(sed "$norm" "$file") <(sed "$norm" "$p1") >"$dir/fid" 2>/dev/null; then
      printf 'unlike\t%s\t%s\n' "$file" "$(grep -m1 '^[>]' "$dir/fid" | cut -c1-240 | tr '\t' ' ')"
    fi
  }

  if run read "$file" -o "$p1" && { fidelity; true; } && run reread "$p1" -o "$p2" && same roundtrip "$p1" "$p2" &&
     run propagate -sdy-propagation-pipeline "$file" -o "$q1" &&
     run repropagate -sdy-propagation-pipeline "$q1" -o "$q2" && same idempotence "$q1" "$q2"; then
    printf 'pass\t%s\n' "$file"
  fi
  if [[ -n "$KEEP" ]]; then
    for f in print reprint prop reprop; do
      [[ -f "$dir/$f.mlir" ]] && cp "$dir/$f.mlir" "$KEEP/$name.$f.mlir"
    done
  fi
  rm -rf "$dir"
}
export -f check_one
export OPT TIMEOUT WORK KEEP

list="$WORK/files"
for in in "${inputs[@]}"; do
  if [[ -d "$in" ]]; then
    find "$in" -name '*.mlir' -type f
  else
    echo "$in"
  fi
done | sort >"$list"
total=$(wc -l <"$list")
if [[ $total -eq 0 ]]; then
  echo "corpus-check: no .mlir files in ${inputs[*]}" >&2
  exit 2
fi

results="$WORK/results"
tr '\n' '\0' <"$list" | xargs -0 -n 1 -P "$JOBS" bash -c 'check_one "$1"' _ >"$results"

passed=$(grep -c '^pass' "$results")
declined=$(grep -c '^declined' "$results")
failed=$((total - passed - declined))
echo "corpus-check: $((passed + declined)) of $total modules passed, $failed failed"
unlike=$(grep -c '^unlike' "$results")
if [[ $declined -gt 0 ]]; then
  echo "  ($declined of them read, verify and print; propagation declines them as Shardy" \
    "does: dynamic shapes or tuples)"
fi
read_ok=$((total - $(awk -F'\t' '$1 == "fail" && ($3 == "read") { n++ } END { print n + 0 }' "$results")))
echo "  $((read_ok - unlike)) of the $read_ok modules that read print exactly as written" \
  "(comments, blank lines and locations aside)"
if [[ $LIST_UNLIKE -eq 1 && $unlike -gt 0 ]]; then
  echo
  echo "prints unlike their input (the first line of ours that differs):"
  sort -t$'\t' -k2,2 "$results" | awk -F'\t' '$1 == "unlike" { printf "  %s\n      %s\n", $2, $3 }'
fi
if [[ $failed -gt 0 ]]; then
  echo
  echo "failures by stage:"
  awk -F'\t' '$1 == "fail" { n[$3]++ } END { for (s in n) printf "  %6d  %s\n", n[s], s }' \
    "$results" | sort -rn
  echo
  echo "failures by kind (count, stage, kind; then the first file and its message):"
  # A kind is the message without its location, with names and numbers blurred.
  sort -t$'\t' -k2,2 "$results" | awk -F'\t' '
    $1 == "fail" {
      msg = $4
      sub(/^[^ ]*:[0-9]+:[0-9]+: /, "", msg)
      kind = msg
      gsub(/[%@#^][A-Za-z0-9_.$-]+/, "%x", kind)
      gsub(/(tensor|tuple|complex)<[^ ]*>/, "TYPE", kind)
      gsub(/[0-9]+/, "N", kind)
      kind = substr(kind, 1, 120)
      key = $3 "\t" kind
      if (!(key in n)) { first[key] = $2; firstmsg[key] = $4 }
      n[key]++
    }
    END {
      for (k in n) {
        split(k, part, "\t")
        printf "%d\t%s\t%s\t%s\t%s\n", n[k], part[1], part[2], first[k], firstmsg[k]
      }
    }' | sort -t$'\t' -k1,1rn | awk -F'\t' '{
      printf "  %5d  %-11s %s\n         first: %s\n         %s\n", $1, $2, $3, $4, $5 }'
  if [[ $LIST_FAILURES -eq 1 ]]; then
    echo
    echo "failing files:"
    awk -F'\t' '$1 == "fail" { printf "  %s  [%s]  %s\n", $2, $3, $4 }' "$results" | sort
  fi
  exit 1
fi
exit 0
