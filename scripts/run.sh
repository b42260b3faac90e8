#!/usr/bin/env bash
# The main job: installs what is missing, builds everything (the CLI is then
# build/memest) and serves the calculator page on localhost (the URL is
# printed; Ctrl-C stops it).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
exec node scripts/serve.mjs
