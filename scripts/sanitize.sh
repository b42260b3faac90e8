#!/usr/bin/env bash
# The whole C test suite under AddressSanitizer + UndefinedBehaviorSanitizer:
# configures build-asan/ with -DMEMEST_SANITIZE=ON, builds, and runs ctest
# (the C tests, the CLI scripts with the sanitized memest, the random
# battery and the fuzz corpora). Any report fails the run.
#   bash scripts/sanitize.sh [extra ctest arguments]
# Environment: CC (default: the system compiler), BUILD (default build-asan).
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD="${BUILD:-build-asan}"
jobs="$(nproc 2>/dev/null || echo 2)"

cmake -S . -B "$BUILD" -DMEMEST_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$BUILD" -j"$jobs"

# Every finding aborts; leaks count; the battery allows for the slowdown.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export BATTERY_TIMEOUT="${BATTERY_TIMEOUT:-10}"
export BATTERY_CASES="${BATTERY_CASES:-1500}"

ctest --test-dir "$BUILD" --output-on-failure -j"$jobs" "$@"
echo "sanitize: every test passed under ASan + UBSan"
