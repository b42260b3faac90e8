#!/usr/bin/env bash
# The CLI's whole-process CPU (user + sys, start-up included) for the default
# estimate, and for `--version` (the start-up alone), side by side with
# another commit's CLI: that commit is built in a temporary git worktree (its
# own build folder, removed at the end), then both programs run the same
# command in alternating rounds. Prints each round's CPU per run, the
# medians, their ratio and the shared libraries each program loads.
# Measures only; no test gates on these times.
#
# Usage: bash scripts/bench-start.sh [--base COMMIT | --base-bin PATH] [--memest PATH]
#                                    [--rounds N] [--runs N]
#   --base COMMIT   the commit to compare with (default 884afab, the last whose
#                   CLI linked no libcurl)
#   --base-bin PATH a program already built to compare with (no worktree)
#   --memest PATH   the program measured (default build/memest)
#   --rounds N      alternating rounds (default 7); --runs N runs per program
#                   and round (default 200)
# CPU is read with `perf stat -e task-clock` where perf may count, else from
# bash's `times` around a loop of runs.
set -euo pipefail
cd "$(dirname "$0")/.."

base=884afab base_bin="" memest=build/memest rounds=7 runs=200
while [ $# -gt 0 ]; do
  case $1 in
    --base) base=$2; shift 2 ;;
    --base-bin) base_bin=$2; shift 2 ;;
    --memest) memest=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    *) echo "bench-start: unknown argument '$1'; see the usage at the top of $0" >&2; exit 2 ;;
  esac
done
for n in "$rounds" "$runs"; do
  [[ $n =~ ^[1-9][0-9]*$ ]] || { echo "bench-start: --rounds and --runs take a whole number over 0" >&2; exit 2; }
done
[ -x "$memest" ] || { echo "bench-start: no program at $memest; build it first (bash scripts/build.sh)" >&2; exit 2; }

# The default estimate: the example of `memest` without arguments.
ARGS=(--model qwen3-30b-a3b --pp-size 4 --ep-size 8 --cp-size 1 --total-gpus 32
      --micro-batch-size 1 --global-batch-size 1024 --sequence-length 4096 --gpu h100)

scratch=$(mktemp -d)
worktree=""
cleanup() {
  if [ -n "$worktree" ]; then git worktree remove --force "$worktree" >/dev/null 2>&1 || true; fi
  rm -rf "$scratch"
}
trap cleanup EXIT

if [ -z "$base_bin" ]; then
  worktree="$scratch/base"
  echo "building $base in a worktree ($worktree) ..."
  git worktree add --detach "$worktree" "$base" >/dev/null
  cmake -S "$worktree" -B "$worktree/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$worktree/build" -j2 --target memest >/dev/null
  base_bin="$worktree/build/memest"
fi
"$base_bin" "${ARGS[@]}" >/dev/null || { echo "bench-start: $base_bin fails the default estimate" >&2; exit 1; }
"$memest" "${ARGS[@]}" >/dev/null || { echo "bench-start: $memest fails the default estimate" >&2; exit 1; }

use_perf=0
if command -v perf >/dev/null && perf stat -x, -e task-clock true >/dev/null 2>&1; then use_perf=1; fi

# Milliseconds of CPU per run of program $1 with the arguments after it,
# over $runs runs.
cpu_ms() {
  local prog=$1 i
  shift
  if [ "$use_perf" = 1 ]; then
    perf stat -x, -r "$runs" -e task-clock "$prog" "$@" 2>&1 >/dev/null |
      awk -F, '$3 == "task-clock" { printf "%.3f\n", $1 }'
  else
    # times' second line: the children's user and sys, e.g. "0m0.412s 0m0.203s".
    (for ((i = 0; i < runs; i++)); do "$prog" "$@" >/dev/null; done; times) |
      awk -v runs="$runs" 'NR == 2 { t = 0; for (f = 1; f <= 2; f++) { split($f, p, /[ms]/); t += p[1] * 60 + p[2] }
                                     printf "%.3f\n", t * 1000 / runs }'
  fi
}
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { printf "%.3f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

# Alternating rounds of one command (its arguments), the base first in odd
# rounds and memest first in even ones; a table and its medians.
side_by_side() {
  local r b m b_all=() m_all=()
  printf '%-6s %10s %10s %7s\n' round base memest ratio
  for ((r = 1; r <= rounds; r++)); do
    if ((r % 2)); then b=$(cpu_ms "$base_bin" "$@"); m=$(cpu_ms "$memest" "$@")
    else m=$(cpu_ms "$memest" "$@"); b=$(cpu_ms "$base_bin" "$@"); fi
    b_all+=("$b") m_all+=("$m")
    printf '%-6s %10s %10s %7s\n' "$r" "$b" "$m" "$(ratio "$m" "$b")"
  done
  b=$(median "${b_all[@]}") m=$(median "${m_all[@]}")
  printf '%-6s %10s %10s %7s\n' median "$b" "$m" "$(ratio "$m" "$b")"
}

echo "CPU (user+sys) per run, ms, $runs runs a round, $([ "$use_perf" = 1 ] && echo "perf task-clock" || echo "bash times")"
echo
echo "default estimate: memest ${ARGS[*]}"
side_by_side "${ARGS[@]}"
echo
echo "start-up alone: memest --version"
side_by_side --version
echo
echo "shared libraries (ldd lines): base $(ldd "$base_bin" 2>/dev/null | wc -l), memest $(ldd "$memest" 2>/dev/null | wc -l)"
echo "base: ${base_bin}${worktree:+ ($base)}; memest: $memest"
