#!/usr/bin/env bash
# memest plan and memest compare: help, exit codes, the three planning
# questions' answers, the JSON shape (rows, answer, invalid), rows equal to
# single estimates, and the bad-input messages a user sees.
# Usage: tests/cli/plan.sh path/to/memest   (run from the repository root)
set -u
memest=${1:?usage: plan.sh path/to/memest}
. "$(dirname "$0")/lib/checks.sh"

expect_code 0 "plan --help" "$memest" plan --help
has "$tmp/out" "--vary" "plan --help"
has "$tmp/out" "default: 1,2,4" "plan --help"
expect_code 0 "compare --help" "$memest" compare --help
has "$tmp/out" "k-th value of every list" "compare --help"
expect_code 0 "memest --help names plan" "$memest" --help
has "$tmp/out" "memest plan|compare" "memest --help"

expect_code 2 "plan with nothing" "$memest" plan
has "$tmp/err" "--model PRESET|PATH" "plan with nothing"
has "$tmp/err" "--global-batch-size N" "plan with nothing"
expect_code 2 "compare missing" "$memest" compare --model qwen3-30b-a3b --gpu h100 --pp-size 4,8
has "$tmp/err" "--ep-size N" "compare missing"
expect_code 2 "nodes without gpus per node" "$memest" plan --model qwen3-30b-a3b --gpu h100 \
  --nodes 2 --global-batch-size 256 --sequence-length 2048
has "$tmp/err" "--gpus-per-node" "nodes without gpus per node"

# Minimum size: how many B200 nodes (pp = nodes, 8 GPUs each) for Qwen3-235B-A22B?
NODES=(plan --model qwen3-235b-a22b --gpu b200 --gpus-per-node 8 --ep-size 8 --cp-size 1 --dp 1
       --micro-batch-size 1 --global-batch-size 1024 --sequence-length 2048 --vary pp)
expect_code 0 "vary pp" "$memest" "${NODES[@]}"
has "$tmp/out" "pp_size 7; pp 7, ep 8, cp 1, dp 1 = 56 GPUs (7 nodes)" "vary pp answer"
has "$tmp/out" "TIGHT" "vary pp rows"
expect_code 0 "vary pp --json" "$memest" "${NODES[@]}" --json
cp "$tmp/out" "$tmp/nodes.json"
eq "$(json "$tmp/nodes.json" "d['answer']['nodes'], d['answer']['status']")" "7 OK" "nodes answer"
eq "$(json "$tmp/nodes.json" "len(d['rows'])")" "47" "nodes rows"
eq "$(json "$tmp/nodes.json" "d['rows'][5]['status']")" "TIGHT" "pp 6 is TIGHT"
# The answer's peak is the single estimate's.
expect_code 0 "single estimate of the answer" "$memest" --model qwen3-235b-a22b --gpu b200 \
  --pp-size 7 --ep-size 8 --cp-size 1 --total-gpus 56 --micro-batch-size 1 \
  --global-batch-size 1024 --sequence-length 2048 --json
eq "$(json "$tmp/out" "d['peak_bytes']")" "$(json "$tmp/nodes.json" "d['answer']['peak_bytes']")" \
  "vary answer = single estimate"

# Best layout for 16 H100s, by headroom (the objective's own cases follow).
BEST=(plan --model qwen3-30b-a3b --gpu h100 --total-gpus 16 --global-batch-size 256
      --sequence-length 2048 --objective headroom)
expect_code 0 "best layout" "$memest" "${BEST[@]}" --json
cp "$tmp/out" "$tmp/best.json"
eq "$(json "$tmp/best.json" "[d['answer'][k] for k in ('pp_size','ep_size','cp_size','dp','micro_batch_size')]")" \
  "[4, 4, 1, 1, 1]" "best layout answer"
eq "$(json "$tmp/best.json" "len(d['rows']), d['tried'], d['invalid']")" \
  "105 1200 {'pp*ep*cp does not divide total GPUs': 1095}" "best layout counts"
eq "$(json "$tmp/best.json" "all(k in r for r in d['rows'] for k in ('pp_size','ep_size','cp_size','dp','total_gpus','micro_batch_size','global_batch_size','sequence_length','status','peak_bytes','tensor_peak_bytes','headroom_bytes','bubble_fraction'))")" \
  "True" "row keys"
eq "$(json "$tmp/best.json" "sorted(r['headroom_bytes'] for r in d['rows'])[::-1] == [r['headroom_bytes'] for r in d['rows']]")" \
  "True" "rows ranked by headroom"
# Three rows picked across the ranking equal single estimates.
for i in 0 50 104; do
  read -r pp ep cp mbs peak < <(json "$tmp/best.json" \
    "' '.join(str(d['rows'][$i][k]) for k in ('pp_size','ep_size','cp_size','micro_batch_size','peak_bytes'))")
  expect_code 0 "row $i estimate" "$memest" --model qwen3-30b-a3b --gpu h100 --total-gpus 16 \
    --global-batch-size 256 --sequence-length 2048 --pp-size "$pp" --ep-size "$ep" --cp-size "$cp" \
    --micro-batch-size "$mbs" --json
  eq "$(json "$tmp/out" "d['peak_bytes']")" "$peak" "row $i peak = single estimate"
done
expect_code 0 "best layout text" "$memest" "${BEST[@]}" --top 3
has "$tmp/out" "105 valid layouts of 1200 tried" "best layout text"
has "$tmp/out" "... 102 more" "--top 3"
has "$tmp/out" "Bubble: DualPipeV bubble (PP/2-1)(F&B+B-3W)" "bubble note"

# The objective: throughput (the default) answers with the OK layout of the
# most tokens/s, headroom with the most headroom; here they differ.
FAST=("${BEST[@]:0:${#BEST[@]}-2}")
expect_code 0 "throughput" "$memest" "${FAST[@]}" --json
cp "$tmp/out" "$tmp/fast.json"
eq "$(json "$tmp/fast.json" "d['answer_by']['rule'], d['answer_by']['objective'], d['answer_by']['fallback']")" \
  "fastest_ok throughput None" "throughput rule"
eq "$(json "$tmp/fast.json" "d['answer']['tokens_per_second'] == max(r['tokens_per_second'] for r in d['rows'] if r['status'] == 'OK')")" \
  "True" "throughput answer is the fastest OK row"
eq "$(python3 -c "import json,sys; f, h = (json.load(open(p))['answer'] for p in sys.argv[1:]); print(f['tokens_per_second'] > h['tokens_per_second'], f['headroom_bytes'] < h['headroom_bytes'])" "$tmp/fast.json" "$tmp/best.json")" \
  "True True" "throughput and headroom answers differ"
eq "$(json "$tmp/fast.json" "[r['tokens_per_second'] for r in d['rows'] if r['status'] == 'OK'] == sorted((r['tokens_per_second'] for r in d['rows'] if r['status'] == 'OK'), reverse=True)")" \
  "True" "OK rows ranked by tokens/s"
eq "$(json "$tmp/fast.json" "all(type(r[k]) in (int, float) and r[k] > 0 for r in d['rows'] for k in ('step_seconds','tokens_per_second','tokens_per_second_per_gpu','mfu'))")" \
  "True" "time keys"
eq "$(json "$tmp/best.json" "d['answer_by']['rule'], d['answer_by']['objective'], d['answer']['tokens_per_second'] > 0")" \
  "most_headroom headroom True" "headroom rule"
expect_code 0 "throughput text" "$memest" "${FAST[@]}" --top 3
has "$tmp/out" "most tokens/s first" "throughput text"
has "$tmp/out" "tok/s tok/s/GPU    MFU" "time columns"
has "$tmp/out" "Answer (the most tokens/s, then the most headroom): pp $(json "$tmp/fast.json" "d['answer']['pp_size']")," \
  "throughput answer line"
# No GPU kind: no time, so the most headroom answers, and the plan says so.
SIZE=(plan --model qwen3-30b-a3b --gpu-memory-gb 80 --total-gpus 16 --global-batch-size 256
      --sequence-length 2048)
expect_code 0 "throughput without a GPU kind" "$memest" "${SIZE[@]}" --json
eq "$(json "$tmp/out" "d['answer_by']['rule'], d['answer_by']['objective'], '--gpu' in d['answer_by']['fallback'], d['answer']['tokens_per_second']")" \
  "most_headroom throughput True None" "fallback JSON"
expect_code 0 "throughput without a GPU kind, text" "$memest" "${SIZE[@]}" --top 2
has "$tmp/out" "Objective  throughput asked, but no tokens/s" "fallback text"
has "$tmp/out" "Answer (the most headroom, tokens/s unknown)" "fallback answer"
expect_code 0 "headroom without a GPU kind" "$memest" "${SIZE[@]}" --objective headroom --json
eq "$(json "$tmp/out" "d['answer_by']['fallback']")" "None" "no fallback for headroom"
expect_code 1 "bad objective" "$memest" "${FAST[@]}" --objective speed
has "$tmp/err" "--objective 'speed' is not one of: throughput, headroom" "bad objective"
# --efficiency is one value, commas and all, checked before any row.
expect_code 0 "efficiency overrides" "$memest" "${FAST[@]}" --efficiency gemm=0.5,experts=0.4 --json
eq "$(json "$tmp/out" "d['inputs']['efficiency'], 'efficiency' in d['answer']")" \
  "gemm=0.5,experts=0.4 False" "efficiency is one value"
expect_code 1 "bad efficiency" "$memest" "${FAST[@]}" --efficiency gemm=5
has "$tmp/err" "--efficiency gemm=5 must be a number from 0.01 to 1" "bad efficiency"
expect_code 0 "plan --help names --objective" "$memest" plan --help
has "$tmp/out" "--objective throughput|headroom" "plan --help objective"

# What if: the sequence length doubles.
CMP=(compare --model qwen3-30b-a3b --gpu h100 --pp-size 4 --ep-size 8 --cp-size 1 --total-gpus 32
     --micro-batch-size 1 --global-batch-size 1024 --sequence-length 4096,8192)
expect_code 0 "compare" "$memest" "${CMP[@]}"
has "$tmp/out" "#2-#1" "compare delta column"
has "$tmp/out" "saved activations" "compare components"
expect_code 0 "compare --json" "$memest" "${CMP[@]}" --json
eq "$(json "$tmp/out" "d['rows'][1]['delta']['peak_bytes'], d['rows'][1]['delta']['dynamic']['logits']")" \
  "32383323596 1244659712" "compare deltas"
eq "$(json "$tmp/out" "d['rows'][0]['peak_bytes']")" "65534288922" "compare first peak"
eq "$(json "$tmp/out" "d['rows'][0]['tokens_per_second'] > 0, d['answer_by']['rule']")" "True fastest_ok" \
  "compare tokens/s"
expect_code 0 "compare time lines" "$memest" "${CMP[@]}"
has "$tmp/out" "tokens/s per GPU" "compare time lines"

# Bad input: exit 1 with a message naming the problem and the fix.
expect_code 1 "empty list item" "$memest" "${BEST[@]}" --micro-batch-size 1,,2
has "$tmp/err" "empty item" "empty list item"
expect_code 1 "repeated value" "$memest" "${BEST[@]}" --pp-size 2,2
has "$tmp/err" "lists 2 twice" "repeated value"
expect_code 1 "not a number" "$memest" "${BEST[@]}" --ep-size 8,x
has "$tmp/err" "must be a whole number" "not a number"
expect_code 1 "bad vary" "$memest" "${BEST[@]}" --vary layers
has "$tmp/err" "not one of: pp, ep" "bad vary"
expect_code 1 "unknown flag" "$memest" "${BEST[@]}" --bogus 3
has "$tmp/err" "unknown parameter '--bogus'" "unknown flag"
expect_code 1 "pp-rank refused" "$memest" "${BEST[@]}" --pp-rank 0
expect_code 1 "compare of one" "$memest" compare --model qwen3-30b-a3b --gpu h100 --pp-size 4 \
  --ep-size 8 --cp-size 1 --total-gpus 32 --micro-batch-size 1 --global-batch-size 1024 \
  --sequence-length 4096
has "$tmp/err" "two or more configurations" "compare of one"
expect_code 1 "unequal lists" "$memest" "${CMP[@]/--pp-size/--dp}" --pp-size 4,8,2
has "$tmp/err" "give each list 3 values" "unequal lists"
expect_code 1 "sweep too large" "$memest" plan --model qwen3-235b-a22b --gpu h100 \
  --total-gpus 1024,2048 --global-batch-size 4096 --sequence-length 4096
has "$tmp/err" "MEMEST_MAX_PLAN_ROWS" "sweep too large"
expect_code 1 "missing config file" "$memest" plan --model ./no-such-config.json --gpu h100 \
  --total-gpus 16 --global-batch-size 256 --sequence-length 2048
has "$tmp/err" "cannot read config file" "missing config file"

# A flag given twice is refused, not silently the last value.
expect_code 1 "repeated flag" "$memest" "${BEST[@]}" --top 3 --top=5
has "$tmp/err" "--top is given twice; give each flag once" "repeated flag"
# A negative --top is below its range, not "not a whole number".
expect_code 1 "--top -1" "$memest" "${BEST[@]}" --top -1
has "$tmp/err" "--top must be at least 0, got -1" "--top -1"
# Nothing fits: no answer, the closest row named.
DSV3=(plan --model deepseek-v3 --gpu h100 --total-gpus 256 --micro-batch-size 1
      --global-batch-size 1024 --sequence-length 4096)
expect_code 0 "nothing fits" "$memest" "${DSV3[@]}" --top 2
has "$tmp/out" "Answer: none; no layout fits: every one is out of memory" "nothing fits"
has "$tmp/out" "Closest    #1, pp 16, ep 8, cp 2, dp 1 = 256 GPUs" "closest row"
expect_code 0 "nothing fits --json" "$memest" "${DSV3[@]}" --json
eq "$(json "$tmp/out" "d['answer'], d['closest']['pp_size'], d['closest']['status']")" \
  "None 16 OOM" "nothing fits JSON"

# EP across nodes: marked, ranked after unless allowed; the flag needs the nodes.
EPN=(plan --model qwen3-30b-a3b --gpu h100 --nodes 4 --gpus-per-node 8 --pp-size 2 --cp-size 1
     --micro-batch-size 1 --global-batch-size 256 --sequence-length 2048 --objective headroom)
expect_code 0 "ep across nodes" "$memest" "${EPN[@]}" --json
eq "$(json "$tmp/out" "[(r['ep_size'], r['ep_across_nodes']) for r in d['rows'][:3]], d['answer']['ep_size']")" \
  "[(8, False), (4, False), (16, True)] 8" "avoid ranks ep 16 after"
expect_code 0 "ep across nodes allowed" "$memest" "${EPN[@]}" --ep-across-nodes allow --json
eq "$(json "$tmp/out" "d['answer']['ep_size'], d['answer']['ep_across_nodes']")" "16 True" "allow"
expect_code 0 "ep across nodes text" "$memest" "${EPN[@]}"
has "$tmp/out" "  16*" "ep marked"
expect_code 2 "ep across nodes without nodes" "$memest" "${BEST[@]}" --ep-across-nodes allow
has "$tmp/err" "--gpus-per-node" "ep across nodes without nodes"
expect_code 1 "ep across nodes bad word" "$memest" "${EPN[@]}" --ep-across-nodes sometimes
has "$tmp/err" "not one of: avoid, allow" "ep across nodes bad word"
expect_code 0 "plan --help names --ep-across-nodes" "$memest" plan --help
has "$tmp/out" "--ep-across-nodes avoid|allow" "plan --help"

# The counts add up.
expect_code 0 "counts" "$memest" "${BEST[@]}" --gpus-per-node 8 --json
eq "$(json "$tmp/out" "d['counts']['tried'] == d['counts']['valid'] + d['counts']['invalid'] == d['tried'], d['counts']['rows'] == len(d['rows']), d['counts']['ep_across_nodes']")" \
  "True True 3" "counts"

# Vary nodes beside pp over whole nodes.
VN=(plan --model qwen3-235b-a22b --gpu b200 --gpus-per-node 8 --ep-size 8 --cp-size 1
    --micro-batch-size 1 --global-batch-size 1024 --sequence-length 2048 --vary nodes)
expect_code 0 "vary nodes agrees" "$memest" "${VN[@]}" --pp-size 7
has "$tmp/out" "Pipeline   pp over whole nodes (--vary pp with dp 1): pp 7 = 7 nodes, the same answer" \
  "vary nodes agrees"
expect_code 0 "vary nodes differs" "$memest" "${VN[@]}" --pp-size 4 --json
eq "$(json "$tmp/out" "d['answer']['nodes'], d['pp_over_nodes']['answer']['nodes'], d['pp_over_nodes']['agrees']")" \
  "16 7 False" "vary nodes differs"
has "$tmp/out" "at 8 nodes pp 4, dp 2 peaks at" "vary nodes says why"

if [ "$fails" -ne 0 ]; then
  echo "plan.sh: $fails checks failed" >&2
  exit 1
fi
echo "plan.sh: all checks passed"
