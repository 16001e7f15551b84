# Shared by the tests/bench/bench_*.sh scripts (sourced, not run): timing a
# command repeatedly on a machine that other work may share.
#
#   source "$ROOT/tests/bench/bench_lib.sh"
#   bench_init                       # a scratch directory in $bench_tmp
#   measure shardscope-opt FILE -o /dev/null
#   echo "$med_s s wall, $med_cpu s CPU, $med_mb MB"
#
# Wall time comes from bash's microsecond clock (/usr/bin/time's %e has 10 ms
# steps), CPU time (user + system) and peak RSS from /usr/bin/time. Medians,
# not best runs: on a loaded machine the best run is luck, the median is what
# a user sees. CPU time moves much less with the load than wall time, so both
# are printed.

# REPEAT: runs per measurement (default 3).
REPEAT="${REPEAT:-3}"

bench_init() {
  [[ -x /usr/bin/time ]] || { echo "bench: /usr/bin/time missing (apt-get install time)" >&2; exit 2; }
  bench_tmp=$(mktemp -d)
  trap 'rm -rf "$bench_tmp"' EXIT
}

# median V...: the middle value (the mean of the two middle ones for an even count).
median() {
  printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# measure CMD...: runs CMD REPEAT times (stdout discarded); sets med_s (wall
# seconds), med_cpu (user + system seconds), med_mb (peak RSS in MB) to the
# medians and all_s to every wall time. Returns 1 (with the tool's last error
# lines on stderr) when a run fails.
measure() {
  local walls=() cpus=() mbs=() r
  for ((r = 1; r <= REPEAT; r++)); do
    local t0=$EPOCHREALTIME
    if ! /usr/bin/time -f '%U %S %M' -o "$bench_tmp/time.txt" "$@" >/dev/null 2>"$bench_tmp/err.txt"; then
      echo "bench: failed: $*" >&2
      tail -5 "$bench_tmp/err.txt" >&2
      return 1
    fi
    local t1=$EPOCHREALTIME user sys kb
    read -r user sys kb <"$bench_tmp/time.txt"
    walls+=("$(awk "BEGIN { printf \"%.3f\", ${t1/,/.} - ${t0/,/.} }")")
    cpus+=("$(awk "BEGIN { printf \"%.2f\", $user + $sys }")")
    mbs+=("$(awk "BEGIN { printf \"%.0f\", $kb / 1024 }")")
  done
  med_s=$(median "${walls[@]}")
  med_cpu=$(median "${cpus[@]}")
  med_mb=$(median "${mbs[@]}")
  all_s="${walls[*]}"
}

# ratio A B: A / B with two decimals ("n/a" when B is not a positive number).
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 > 0) printf "%.2f", a / b; else print "n/a" }'; }

# load_note: the machine's load average, for the report.
load_note() { echo "load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"; }
