#!/usr/bin/env bash
# Answers that help: the estimate's suggestions with an odd dp, the nearest
# OK layout when no single knob is enough (text and JSON), and the values a
# refused input is offered (an unknown GPU, a number that is no number).
# Usage: tests/cli/advice.sh path/to/memest   (run from the repository root)
set -u
memest=${1:?usage: advice.sh path/to/memest}
. "$(dirname "$0")/lib/checks.sh"

# Qwen3-30B-A3B at seq 16384 with mbs 2 on 32 H100s: no knob alone is enough.
QWEN=(--model qwen3-30b-a3b --gpu h100 --pp-size 4 --ep-size 8 --cp-size 1 --total-gpus 32
      --micro-batch-size 2 --global-batch-size 1024 --sequence-length 16384)
expect_code 0 "long sequences" "$memest" "${QWEN[@]}"
has "$tmp/out" "--cp-size 1 -> 2 (64 GPUs)" "cp with dp 1"
has "$tmp/out" "nearest OK layout: --ep-size 4 --cp-size 4 --total-gpus 64 --micro-batch-size 1 (dp 1)" \
  "nearest layout line"
expect_code 0 "long sequences --json" "$memest" "${QWEN[@]}" --json
cp "$tmp/out" "$tmp/qwen.json"
eq "$(json "$tmp/qwen.json" "[s['status'] for s in d['suggestions']].count('OK')")" "0" "no OK suggestion"
eq "$(json "$tmp/qwen.json" "d['nearest_layout']['found'], d['nearest_layout']['total_gpus'], d['nearest_layout']['status']")" \
  "True 64 OK" "nearest layout JSON"
fix=$(json "$tmp/qwen.json" "d['nearest_layout']['fix']")
eq "$fix" "ep_size=4,cp_size=4,total_gpus=64,micro_batch_size=1" "nearest fix"
# The fix, applied, is the OK run it announced.
expect_code 0 "nearest applied" "$memest" --model qwen3-30b-a3b --gpu h100 --pp-size 4 \
  --ep-size 4 --cp-size 4 --total-gpus 64 --micro-batch-size 1 --global-batch-size 1024 \
  --sequence-length 16384 --json
eq "$(json "$tmp/out" "d['status'], d['peak_bytes'] == $(json "$tmp/qwen.json" "d['nearest_layout']['peak_bytes']")")" \
  "OK True" "nearest layout = its estimate"
eq "$(json "$tmp/out" "d['nearest_layout']")" "None" "an OK run has no search"

# DeepSeek-V3 on 256 H100s: 2,048 GPUs with cp 8.
expect_code 0 "deepseek-v3" "$memest" --model deepseek-v3 --gpu h100 --pp-size 8 --ep-size 32 \
  --cp-size 1 --total-gpus 256 --micro-batch-size 1 --global-batch-size 1024 --sequence-length 4096
has "$tmp/out" "nearest OK layout: --cp-size 8 --total-gpus 2048 (dp 1)" "deepseek nearest"

# Refused inputs offer an accepted value.
expect_code 1 "unknown GPU" "$memest" "${QWEN[@]/h100/h800}"
has "$tmp/err" "--gpu-memory-gb" "unknown GPU points to --gpu-memory-gb"
expect_code 1 "GPU in capitals" "$memest" "${QWEN[@]/h100/H100}"
has "$tmp/err" "a valid choice: gpu=h100" "GPU in capitals"
for v in nan inf 0x10; do
  expect_code 1 "--fragmentation $v" "$memest" "${QWEN[@]}" --fragmentation "$v"
  has "$tmp/err" "give e.g. --fragmentation 0.1 (the default)" "--fragmentation $v"
  has "$tmp/err" "a valid choice: fragmentation=0.1" "--fragmentation $v fix"
done
expect_code 1 "--fragmentation -0.1" "$memest" "${QWEN[@]}" --fragmentation -0.1
has "$tmp/err" "a valid choice: fragmentation=0" "--fragmentation -0.1"
expect_code 1 "--fragmentation 5" "$memest" "${QWEN[@]}" --fragmentation 5
has "$tmp/err" "for 5% give --fragmentation 0.05" "--fragmentation 5"
expect_code 1 "--fragmentation nan --json" "$memest" "${QWEN[@]}" --fragmentation nan --json
eq "$(json "$tmp/out" "d['error']['fix']")" "fragmentation=0.1" "JSON fix"

if [ "$fails" -ne 0 ]; then
  echo "advice.sh: $fails checks failed" >&2
  exit 1
fi
echo "advice.sh: all checks passed"
