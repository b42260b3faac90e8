#!/usr/bin/env bash
# Runs every test: installs what is missing, builds, then the C tests
# (CTest), the engine and page tests (node --test, Chromium through
# playwright-core), the accuracy document check, the C tests again under
# AddressSanitizer + UndefinedBehaviorSanitizer, and each libFuzzer target
# for a bounded time. Any failure stops it with a non-zero status.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
ctest --test-dir build --output-on-failure
node --test tests/js/ tests/page/
node scripts/accuracy.mjs --check
bash scripts/sanitize.sh
bash scripts/fuzz.sh "${MEMEST_FUZZ_SECONDS:-60}"
echo "all tests passed"
