#!/usr/bin/env bash
# --model given as a model page's address reads as its hub id (the core's
# memest_hub_id_read, which the page's hub field takes too), an address of
# anything else is refused by name; and a number's fix is a value the
# fields show (to the hundredth, inside the range), not a raw float.
# Usage: tests/cli/model_address.sh path/to/memest   (run from the repository root)
set -u
memest=${1:?usage: model_address.sh path/to/memest}
. "$(dirname "$0")/lib/checks.sh"
ARGS=(--pp-size 4 --ep-size 8 --cp-size 1 --total-gpus 32 --micro-batch-size 1
      --global-batch-size 1024 --sequence-length 4096 --gpu h100)

# The preset's id gives the expected peak; each address of its page, the same.
expect_code 0 "hub id" "$memest" --model Qwen/Qwen3-30B-A3B "${ARGS[@]}" --json
want=$(json "$tmp/out" "d['peak_bytes']")
[ -n "$want" ] || bad "hub id: no peak_bytes"
for address in https://huggingface.co/Qwen/Qwen3-30B-A3B \
               https://huggingface.co/Qwen/Qwen3-30B-A3B/ \
               https://huggingface.co/Qwen/Qwen3-30B-A3B/tree/main \
               http://huggingface.co/Qwen/Qwen3-30B-A3B \
               https://hf.co/Qwen/Qwen3-30B-A3B \
               HTTPS://HuggingFace.co/Qwen/Qwen3-30B-A3B \
               huggingface.co/Qwen/Qwen3-30B-A3B; do
  expect_code 0 "address $address" "$memest" --model "$address" "${ARGS[@]}" --json
  eq "$(json "$tmp/out" "d['peak_bytes']")" "$want" "address $address: the preset's peak"
done

# Addresses that are no model's page (or not its main revision) say why.
expect_code 1 "address past the page" "$memest" --model https://huggingface.co/Qwen/Qwen3-30B-A3B/blob/main/config.json "${ARGS[@]}"
has "$tmp/err" "the address goes past the model's page" "address past the page"
expect_code 1 "another revision" "$memest" --model https://huggingface.co/Qwen/Qwen3-30B-A3B/tree/v2 "${ARGS[@]}"
has "$tmp/err" "the address goes past the model's page" "another revision"
expect_code 1 "another host" "$memest" --model https://example.com/Qwen/Qwen3-30B-A3B "${ARGS[@]}"
has "$tmp/err" "it is an address, but not of a model's page on huggingface.co or hf.co" "another host"
expect_code 1 "no model in the address" "$memest" --model https://huggingface.co/Qwen "${ARGS[@]}"
has "$tmp/err" "the address names no model" "no model in the address"
expect_code 1 "bad id in the address" "$memest" --model "https://huggingface.co/Qwen/Qwen3..30B" "${ARGS[@]}"
has "$tmp/err" "\"..\"" "bad id in the address"

# A fix beyond a bound with more decimals than a field shows: the nearest hundredth inside it.
expect_code 1 "GiB below the least" "$memest" --model qwen3-30b-a3b "${ARGS[@]}" --gpu-memory-gb 0 --json
eq "$(json "$tmp/out" "d['error']['fix']")" "gpu_memory_gb=0.01" "GiB below the least: fix"
json "$tmp/out" "d['error']['message']" | grep -q "the nearest value in range is 0.01$" ||
  bad "GiB below the least: message $(json "$tmp/out" "d['error']['message']")"
expect_code 1 "GiB below the least, text" "$memest" --model qwen3-30b-a3b "${ARGS[@]}" --gpu-memory-gb 0.0001
has "$tmp/err" "the nearest value in range is 0.01" "GiB below the least, text"
grep -q "0.0009765625" "$tmp/err" && bad "GiB below the least, text: the raw bound is printed"
# A fix that is a whole bound stays as it is.
expect_code 1 "fragmentation below 0" "$memest" --model qwen3-30b-a3b "${ARGS[@]}" --fragmentation -1 --json
eq "$(json "$tmp/out" "d['error']['fix']")" "fragmentation=0" "fragmentation below 0: fix"

[ "$fails" -eq 0 ] || { echo "$fails failure(s)" >&2; exit 1; }
echo "model_address: ok"
