#!/usr/bin/env bash
# The memest command line: required-parameter listing, exit codes, flags,
# report sections, JSON, and the bad-input messages a user sees.
# Usage: tests/cli/cli.sh path/to/memest   (run from the repository root)
set -u
memest=${1:?usage: cli.sh path/to/memest}
. "$(dirname "$0")/lib/checks.sh"
ARGS=(--pp-size 4 --ep-size 8 --cp-size 1 --total-gpus 32 --micro-batch-size 1
      --global-batch-size 1024 --sequence-length 4096 --gpu h100)

expect_code 2 "no arguments" "$memest"
[ "$(grep -c '\[missing\]' "$tmp/err")" -eq 9 ] || bad "no arguments: expected 9 missing marks"
has "$tmp/err" "--cp-size N" "no arguments"
has "$tmp/err" "1 if you do not use context parallelism" "no arguments"

expect_code 2 "some missing" "$memest" --model qwen3-30b-a3b --pp-size 4 --gpu h100
[ "$(grep -c '\[missing\]' "$tmp/err")" -eq 6 ] || bad "some missing: expected 6 missing marks"
grep -- '--pp-size' "$tmp/err" | grep -q missing && bad "some missing: --pp-size was given"

expect_code 0 "--help" "$memest" --help
has "$tmp/out" "--fragmentation" "--help"
expect_code 0 "--version" "$memest" --version
has "$tmp/out" "memest 0." "--version"
expect_code 0 "--list-models" "$memest" --list-models
for m in qwen3-30b-a3b qwen3-235b-a22b deepseek-v2-lite deepseek-v3 gpt-oss-20b gpt-oss-120b \
         qwen3.5-35b-a3b mixtral-8x7b; do
  has "$tmp/out" "$m" "--list-models"
done
expect_code 0 "--list-gpus" "$memest" --list-gpus
has "$tmp/out" "b200" "--list-gpus"

expect_code 0 "default example" "$memest" --model qwen3-30b-a3b "${ARGS[@]}"
first=$(head -n 1 "$tmp/out")
[ "$first" = "memest --model qwen3-30b-a3b ${ARGS[*]}" ] || bad "equivalent command: $first"
prev=0
for section in "Static memory" "Peak dynamic memory" "Grand total" "Suggestions" "Per rank"; do
  line=$(grep -n -m1 -F "$section" "$tmp/out" | cut -d: -f1)
  if [ -z "$line" ] || [ "$line" -le "$prev" ]; then bad "section '$section' missing or out of order"; else prev=$line; fi
done
has "$tmp/out" "All figures in GiB" "units"
has "$tmp/out" "live chunks: 8 in phase 0, 1 in phase 1" "live chunks"

# The copied command reproduces the report.
cmd=$(head -n 1 "$tmp/out")
eval "${cmd/memest/$memest}" > "$tmp/again" 2>&1 || bad "copied command failed"
cmp -s "$tmp/out" "$tmp/again" || bad "copied command gives a different report"

expect_code 0 "--json" "$memest" --model qwen3-30b-a3b "${ARGS[@]}" --json
node -e '
const d = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
for (const k of ["status","peak_bytes","tensor_peak_bytes","gpu_capacity_bytes","headroom_bytes","worst_rank","warnings","ranks"])
  if (!(k in d)) throw new Error("missing " + k);
if (d.model.total_parameters !== 30532122624) throw new Error("total_parameters");
if (d.ranks.length !== 4) throw new Error("ranks");
for (const r of d.ranks) {
  const sum = Object.values(r.static).concat(Object.values(r.dynamic)).reduce((a, b) => a + b, 0);
  if (sum !== r.tensor_peak_bytes) throw new Error("components do not add up on rank " + r.pp_rank);
  if (r.live_chunks_at_peak.length !== 2) throw new Error("live chunks");
}' "$tmp/out" || bad "--json output"

# A config file gives the same figures as the preset written from it.
expect_code 0 "config path" "$memest" --model presets/qwen3-30b-a3b.json "${ARGS[@]}" --json
node -e '
const fs = require("fs");
const a = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
if (a.inputs.model !== "presets/qwen3-30b-a3b.json") throw new Error("model label");
' "$tmp/out" || bad "config path label"
p1=$(grep -o '"peak_bytes":[0-9]*' "$tmp/out" | head -1)
"$memest" --model qwen3-30b-a3b "${ARGS[@]}" --json > "$tmp/preset"
p2=$(grep -o '"peak_bytes":[0-9]*' "$tmp/preset" | head -1)
[ "$p1" = "$p2" ] || bad "config file and preset differ: $p1 vs $p2"

expect_code 0 "--timeline" "$memest" --model qwen3-30b-a3b "${ARGS[@]}" --timeline --timeline-limit 20
has "$tmp/out" "<- peak" "--timeline"
[ "$(grep -c '^  [0-9]' "$tmp/out")" -ge 80 ] || bad "--timeline: expected 20 events for each of 4 ranks"
expect_code 0 "--detail" "$memest" --model qwen3-30b-a3b "${ARGS[@]}" --detail
has "$tmp/out" "Saved tensors per chunk" "--detail"
has "$tmp/out" "combine buffer" "--detail"

# Bad input: a message that names the problem and the fix, exit 1.
expect_code 1 "unreadable file" "$memest" --model /nonexistent/config.json "${ARGS[@]}"
has "$tmp/err" "cannot read config file '/nonexistent/config.json'" "unreadable file"
printf '{\n  "model_type": "qwen3_moe",\n  "hidden_size": 2048,,\n}\n' > "$tmp/broken.json"
expect_code 1 "malformed JSON" "$memest" --model "$tmp/broken.json" "${ARGS[@]}"
has "$tmp/err" "line 3" "malformed JSON"
expect_code 1 "unknown flag" "$memest" --model qwen3-30b-a3b "${ARGS[@]}" --pipeline 4
has "$tmp/err" "unknown parameter '--pipeline'; run memest --help" "unknown flag"
expect_code 1 "bad enum" "$memest" --model qwen3-30b-a3b "${ARGS[@]}" --optimizer sgd
has "$tmp/err" "adamw, muon" "bad enum"
expect_code 1 "bad number" "$memest" --model qwen3-30b-a3b "${ARGS[@]/--pp-size/--pp-size=x}"
expect_code 1 "indivisible GPUs" "$memest" --model qwen3-30b-a3b --pp-size 4 --ep-size 8 --cp-size 1 \
  --total-gpus 36 --micro-batch-size 1 --global-batch-size 1024 --sequence-length 4096 --gpu h100
has "$tmp/err" "total_gpus=32" "indivisible GPUs fix"
expect_code 1 "value without flag" "$memest" --model qwen3-30b-a3b "${ARGS[@]}" 7
expect_code 1 "flag without value" "$memest" --model qwen3-30b-a3b "${ARGS[@]}" --fragmentation
# A flag given twice is refused, not silently the last value; an overflow names the inputs.
expect_code 1 "repeated flag" "$memest" --model qwen3-30b-a3b "${ARGS[@]}" --pp-size=2
has "$tmp/err" "--pp-size is given twice; give each flag once" "repeated flag"
expect_code 1 "overflow" "$memest" --model qwen3-30b-a3b --pp-size 1 --ep-size 1 --cp-size 1 \
  --total-gpus 1 --global-batch-size 131072 --gpu h100 --micro-batch-size 65536 --sequence-length 16777216
has "$tmp/err" "use a smaller --micro-batch-size or --sequence-length" "overflow"
# Numbers as decimals only, and limits printed as numbers, not in e-notation.
G=(--pp-size 4 --ep-size 8 --cp-size 1 --total-gpus 32 --micro-batch-size 1 --global-batch-size 1024 --sequence-length 4096)
expect_code 1 "hexadecimal GiB" "$memest" --model qwen3-30b-a3b "${G[@]}" --gpu-memory-gb 0x10
has "$tmp/err" "--gpu-memory-gb must be a decimal number, got '0x10'" "hexadecimal GiB"
expect_code 1 "inf GiB" "$memest" --model qwen3-30b-a3b "${G[@]}" --gpu-memory-gb inf
has "$tmp/err" "must be a decimal number" "inf GiB"
expect_code 1 "GiB over the limit" "$memest" --model qwen3-30b-a3b "${G[@]}" --gpu-memory-gb 2e6
has "$tmp/err" "at most 1,048,576, got 2e6" "GiB over the limit"

if [ "$fails" -ne 0 ]; then echo "cli: $fails checks failed"; exit 1; fi
echo "cli: all checks passed"
