#!/usr/bin/env bash
# Every build type builds: compiles the library and the CLI (each
# core/*/*.c and cli/*.c, no link) once more as the types no other build
# compiles. GCC's warnings that depend on the optimiser
# (-Wformat-truncation, -Wmaybe-uninitialized, -Wstringop-*) differ between
# -O0, -Os and -O3 and with the sanitizers, and -Werror makes each one a
# broken build. build/ compiles Release, scripts/sanitize.sh
# RelWithDebInfo with the sanitizers, scripts/fuzz.sh clang -O2 with
# them; this compiles CMake's Debug and Release with the sanitizers and
# MinSizeRel with _FORTIFY_SOURCE=2 (CTest: build_types).
#   bash scripts/build-types.sh
# Environment: CC (default cc), EXTRA_CFLAGS (cJSON's, libyaml's and
# libcurl's include folders where the system's are not theirs).
set -euo pipefail
cd "$(dirname "$0")/.."
CC="${CC:-cc}"
jobs="$(nproc 2>/dev/null || echo 2)"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
COMMON="-std=c11 -Wall -Wextra -Werror -pedantic -Wshadow -Wstrict-prototypes -Iinclude -Icore -Icli ${EXTRA_CFLAGS:-}"
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
types=(
  "Debug with the sanitizers|-g $SAN"
  "Release with the sanitizers|-O3 -DNDEBUG $SAN"
  "MinSizeRel with _FORTIFY_SOURCE=2|-Os -DNDEBUG -D_FORTIFY_SOURCE=2"
)
status=0
for t in "${types[@]}"; do
  name="${t%%|*}"
  flags="${t#*|}"
  # One compiler per file, $jobs at a time; every file is tried.
  if printf '%s\n' core/*/*.c cli/*.c |
     xargs -P "$jobs" -I{} sh -c "$CC $COMMON $flags -c {} -o /dev/null" 2>"$log"; then
    echo "build-types: $name builds"
  else
    echo "build-types: $name does not build:" >&2
    grep -E 'error|warning' "$log" | sort -u | head -10 >&2 || true
    status=1
  fi
done
exit "$status"
