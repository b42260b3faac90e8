#!/usr/bin/env bash
# The main job: installs what is missing, builds everything, prints the CLI's
# estimate of the default example, and serves the calculator page on
# localhost (the URL is printed; Ctrl-C stops it).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
./build/memest --model qwen3-30b-a3b --pp-size 4 --ep-size 8 --cp-size 1 --total-gpus 32 \
  --micro-batch-size 1 --global-batch-size 1024 --sequence-length 4096 --gpu-memory-gb 80
exec node scripts/serve.mjs
