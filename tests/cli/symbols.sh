#!/usr/bin/env bash
# The library's exported names: every global symbol libmemest_core.a
# defines is public (memest_, declared in include/memest.h) or internal
# (memi_), so that a program linking it meets no other names.
# Usage: tests/cli/symbols.sh path/to/memest   (the library sits beside it)
set -u
lib="$(dirname "${1:?usage: symbols.sh path/to/memest}")/libmemest_core.a"
[ -f "$lib" ] || { echo "symbols: $lib not found" >&2; exit 1; }
command -v nm >/dev/null || { echo "symbols: nm not found (binutils)" >&2; exit 1; }
# Names with a leading "__" are the compiler's (sanitizer instrumentation adds
# __odr_asan.* beside each global); C reserves them, so the library has none.
syms=$(nm -g --defined-only "$lib" | awk 'NF == 3 && $2 ~ /[TDBRCV]/ && $3 !~ /^__/ { print $3 }' | sort -u)
other=$(printf '%s\n' "$syms" | grep -v -e '^memest_' -e '^memi_' || true)
fail=0
if [ -n "$other" ]; then
  echo "symbols: names without the memest_ or memi_ prefix:" >&2
  printf '  %s\n' $other >&2
  fail=1
fi
# Every memest_ symbol is declared in the public header.
for s in $(printf '%s\n' "$syms" | grep '^memest_' || true); do
  grep -qw "$s" include/memest.h || { echo "symbols: $s is exported but not declared in include/memest.h" >&2; fail=1; }
done
n=$(printf '%s\n' "$syms" | grep -c .)
echo "symbols: $n global symbols, prefixes: $(printf '%s\n' "$syms" | sed 's/_.*//' | sort -u | tr '\n' ' ')"
if [ "$fail" -eq 0 ]; then echo "1 passed, 0 failed"; else echo "0 passed, 1 failed"; fi
exit "$fail"
