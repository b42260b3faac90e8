#!/usr/bin/env bash
# Runs every test: installs what is missing, builds, then the C tests
# (CTest), the engine and page tests (node --test, Chromium through
# playwright-core), the accuracy document check, the C tests again under
# AddressSanitizer + UndefinedBehaviorSanitizer, and each libFuzzer target
# for a bounded time. Any failure stops it with a non-zero status.
#
# --quick: only the build, the C tests, the engine tests (with the type
# check of web/) and the page tests, for development; the full run is the
# test of record.
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
case "${1:-}" in
  --quick) quick=1 ;;
  "") ;;
  *) echo "usage: bash scripts/test.sh [--quick]" >&2; exit 2 ;;
esac
bash scripts/setup.sh
bash scripts/build.sh
ctest --test-dir build --output-on-failure -j"$(nproc)"
node --test tests/js/ tests/page/
if [ "$quick" = 1 ]; then
  echo "quick tests passed (the full run adds the accuracy check, sanitizers and fuzzing)"
  exit 0
fi
node scripts/accuracy.mjs --check
bash scripts/sanitize.sh
bash scripts/fuzz.sh "${MEMEST_FUZZ_SECONDS:-60}"
echo "all tests passed"
