#!/usr/bin/env bash
# Builds the libFuzzer targets in tests/fuzz/ with clang's fuzzer, address
# and undefined-behaviour sanitizers into .fuzz/, runs each for a bounded
# time, and fails on any finding (crash, leak, UB, hang, memory blow-up).
#
#   bash scripts/fuzz.sh [seconds-per-target]       default 60
#
# Environment: FUZZ_TARGETS (default: every tests/fuzz/fuzz_*.c that can be
# built), FUZZ_JOBS (targets run at once, default 2), CC (default clang),
# FUZZ_DEFINES (the -D overrides of core/base/bounds.h limits, see below; empty
# for the shipped limits), FUZZ_MAX_LEN (the longest input, default 8192;
# 1048577 reaches past the 1 MiB config limit), FUZZ_FLAGS (more libFuzzer
# flags, e.g. -len_control=0 to try long inputs from the start).
# The seeds in tests/fuzz/corpus/<target>/ are read, never written: what a
# run discovers goes to .fuzz/corpus/<target>/. Findings land in
# .fuzz/artifacts/<target>/ and the log in .fuzz/logs/<target>.log; each
# must become a regression test (docs/fuzzing.md says how). The executions
# of each run are appended to .fuzz/stats.tsv.
set -euo pipefail
cd "$(dirname "$0")/.."

# The whole run is one function, read before it starts, so that editing
# this file while a long run goes on cannot change what the run does.
main() {

  SECONDS_PER_TARGET="${1:-60}"
  JOBS="${FUZZ_JOBS:-2}"
  CC="${CC:-clang}"
  OUT=.fuzz
  case "$SECONDS_PER_TARGET" in
    '' | *[!0-9]*) echo "fuzz: seconds must be a whole number" >&2; return 2 ;;
  esac
  if ! command -v "$CC" >/dev/null; then
    echo "fuzz: $CC not found (apt-get install clang libclang-rt-14-dev)" >&2
    return 2
  fi

  mkdir -p "$OUT/obj" "$OUT/bin" "$OUT/logs"
  # One run at a time: a second would rebuild the binaries under the first.
  exec 9>"$OUT/lock"
  if command -v flock >/dev/null && ! flock -n 9; then
    echo "fuzz: another scripts/fuzz.sh is running in $OUT" >&2
    exit 2
  fi
  SAN=(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  CFLAGS=(-std=c11 -g -O2 -Wall -Wextra -Werror -pedantic -Wshadow -Iinclude -Icore -Icli -Itests/fuzz)
  # Lower work limits keep one execution well under a second, so that the
  # fuzzer explores instead of waiting on the largest accepted replays; the
  # limits at their real values are tests/c/test_limits.c's job.
  local defaults="-DMEMEST_MAX_REPLAY_CHUNKS=65536 -DMEMEST_MAX_TIMELINE_EVENTS=4096"
  defaults+=" -DMEMEST_MAX_PLAN_WORK=262144 -DMEMEST_MAX_PLAN_ROWS=256"
  read -r -a DEFINES <<<"${FUZZ_DEFINES-$defaults}"
  MAX_LEN="${FUZZ_MAX_LEN:-8192}"
  CFLAGS+=("${DEFINES[@]}")

  # cJSON: the vendored source when present (then the fuzzer sees inside the
  # parser too), else the system library.
  CJSON_OBJ=()
  CJSON_LIB=()
  if [ -f third_party/cjson/cJSON.c ]; then
    mkdir -p "$OUT/include/cjson"
    cp third_party/cjson/cJSON.h "$OUT/include/cjson/cJSON.h"
    CFLAGS+=(-I"$OUT/include")
    "$CC" -std=c11 -g -O2 "${SAN[@]}" -fsanitize=fuzzer-no-link -I"$OUT/include" \
      -c third_party/cjson/cJSON.c -o "$OUT/obj/cJSON.o"
    CJSON_OBJ=("$OUT/obj/cJSON.o")
  else
    CJSON_LIB=(-lcjson)
  fi

  # {== libyaml: the vendored parser when present (then the fuzzer sees inside
  # it too, as for cJSON), else the system library ==
  YAML_OBJ=()
  YAML_LIB=()
  if [ -f third_party/libyaml/scanner.c ] && [ -f third_party/libyaml/VERSION ]; then
    IFS=. read -r ymaj ymin ypat <"third_party/libyaml/VERSION"
    # gnu11: libyaml calls strdup, which strict C11 leaves undeclared (and a
    # pointer returned through an implicit int is cut to 32 bits).
    for part in api reader scanner parser; do
      "$CC" -std=gnu11 -g -O2 "${SAN[@]}" -fsanitize=fuzzer-no-link -w -Ithird_party/libyaml \
        -DYAML_VERSION_MAJOR="$ymaj" -DYAML_VERSION_MINOR="$ymin" -DYAML_VERSION_PATCH="$ypat" \
        "-DYAML_VERSION_STRING=\"$ymaj.$ymin.$ypat\"" -c "third_party/libyaml/$part.c" -o "$OUT/obj/yaml_$part.o"
      YAML_OBJ+=("$OUT/obj/yaml_$part.o")
    done
    CFLAGS+=(-Ithird_party/libyaml)
  else
    YAML_LIB=(-lyaml)
  fi
  # }== libyaml ==

  # The library: every core file but the CLI, plus the embedded presets.
  cmake -DPRESET_DIR=presets -DOUT="$OUT/presets_data.c" -P scripts/embed-presets.cmake
  core_objs=()
  for src in core/*/*.c "$OUT/presets_data.c"; do
    name="$(basename "$src" .c)"
    "$CC" "${CFLAGS[@]}" "${SAN[@]}" -fsanitize=fuzzer-no-link -c "$src" -o "$OUT/obj/$name.o"
    core_objs+=("$OUT/obj/$name.o")
  done
  # The CLI without its main(), for fuzz_cli.
  cli_objs=()
  for src in cli/*.c; do
    name="$(basename "$src" .c)"
    "$CC" "${CFLAGS[@]}" "${SAN[@]}" -fsanitize=fuzzer-no-link -DMEMEST_CLI_NO_MAIN \
      -c "$src" -o "$OUT/obj/$name.o"
    cli_objs+=("$OUT/obj/$name.o")
  done

  targets=()
  for src in tests/fuzz/fuzz_*.c; do
    t="$(basename "$src" .c)"
    t="${t#fuzz_}"
    if [ -n "${FUZZ_TARGETS:-}" ] && [[ " $FUZZ_TARGETS " != *" $t "* ]]; then continue; fi
    extra=()
    extra_libs=()
    [ "$t" = cli ] && extra=("${cli_objs[@]}")
    [ "$t" = hub_id ] && extra=("$OUT/obj/hub_id.o")
    [ "$t" = cli ] && extra_libs=(-ldl)   # libcurl: dlopen'ed by the CLI at a download
    "$CC" "${CFLAGS[@]}" "${SAN[@]}" -fsanitize=fuzzer "$src" "${extra[@]}" "${core_objs[@]}" \
      "${CJSON_OBJ[@]}" "${CJSON_LIB[@]}" "${YAML_OBJ[@]}" "${YAML_LIB[@]}" "${extra_libs[@]}" -lm \
      -o "$OUT/bin/fuzz_$t"
    targets+=("$t")
  done
  [ "${#targets[@]}" -gt 0 ] || { echo "fuzz: no targets to run" >&2; exit 2; }

  # Runs one target; prints "target runs seconds status".
  run_target() {
    local t="$1" log="$OUT/logs/$1.log" rc=0 runs secs seeds=("tests/fuzz/corpus/$1")
    # The trainer-form fixtures of the CLI tests are the script target's seeds
    # too, and so are the differential test's generated scripts (each with
    # the module it imports after a NUL), written anew for each run.
    if [ "$t" = script ]; then
      seeds+=(tests/trainer/scripts tests/trainer/checkout/examples/pretrain_lm/tiny)
      if command -v python3 >/dev/null; then
        rm -rf "$OUT/seeds/script"
        python3 tests/trainer/differential/gen_corpus.py --fuzz-seeds "$OUT/seeds/script" --count 300 &&
          seeds+=("$OUT/seeds/script")
      fi
    fi
    rm -rf "$OUT/artifacts/$t"
    mkdir -p "$OUT/corpus/$t" "$OUT/artifacts/$t"
    "$OUT/bin/fuzz_$t" -max_total_time="$SECONDS_PER_TARGET" -timeout=5 -rss_limit_mb=2048 \
      -malloc_limit_mb=2048 -max_len="$MAX_LEN" -print_final_stats=1 \
      -artifact_prefix="$OUT/artifacts/$t/" ${FUZZ_FLAGS:-} "$OUT/corpus/$t" "${seeds[@]}" \
      </dev/null >"$log" 2>&1 || rc=$?
    runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
    secs="$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)"
    local verdict=ok
    [ "$rc" = 0 ] || verdict="FAILED($rc)"
    printf '%s\t%s\t%s\t%s\n' "$t" "${runs:-0}" "${secs:-?}" "$verdict"
  }

  results="$OUT/logs/results.tsv"
  : >"$results"
  pids=()
  for t in "${targets[@]}"; do
    run_target "$t" >>"$results" &
    pids+=($!)
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do sleep 1; done
  done
  for pid in "${pids[@]}"; do wait "$pid" || true; done

  status=0
  total=0
  stamp="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  while IFS=$'\t' read -r t runs secs verdict; do
    printf 'fuzz %-8s %12s executions in %ss: %s\n' "$t" "$runs" "$secs" "$verdict"
    printf '%s\t%s\t%s\t%s\t%s\n' "$stamp" "$t" "$runs" "$secs" "$verdict" >>"$OUT/stats.tsv"
    total=$((total + runs))
    if [ "$verdict" != ok ]; then
      status=1
      echo "fuzz: $t found a problem; see $OUT/logs/$t.log and $OUT/artifacts/$t/" >&2
      grep -m1 -E 'ERROR: |runtime error|property broken' "$OUT/logs/$t.log" >&2 || true
    fi
  done <"$results"
  echo "fuzz: $total executions in all"
  return "$status"
}

main "$@"; exit
