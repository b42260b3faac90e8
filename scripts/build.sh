#!/usr/bin/env bash
# Builds everything a user runs: the native library, CLI, tests and
# benchmarks (CMake, into build/), the WebAssembly engine (public/memest.js
# and public/memest.wasm) and the page bundle (public/app.js). Run
# scripts/setup.sh first on a new machine (scripts/run.sh and
# scripts/test.sh do).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build build -j"$(nproc)"
bash scripts/build-wasm.sh
node scripts/build-web.mjs
