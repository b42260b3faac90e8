#!/usr/bin/env bash
# The pipeline schedules on the command line (docs/schedules.md): --schedule
# in the estimate and its JSON, compare --schedules all (the table's figures
# in DualPipe's units, a schedule that cannot take the layout kept as an
# invalid row, --virtual-stages read by interleaved 1F1B alone), and the
# refusals.
# Usage: tests/cli/schedules.sh path/to/memest   (run from the repository root)
set -u
memest=${1:?usage: schedules.sh path/to/memest}
. "$(dirname "$0")/lib/checks.sh"

RUN=(--model qwen3-30b-a3b --pp-size 4 --ep-size 8 --cp-size 1 --total-gpus 32
     --micro-batch-size 1 --global-batch-size 1024 --sequence-length 4096 --gpu h100)

expect_code 0 "1f1b estimate" "$memest" "${RUN[@]}" --schedule 1f1b --json
eq "$(json "$tmp/out" "d['inputs']['schedule']")" "1f1b" "inputs.schedule"
eq "$(json "$tmp/out" "[d['schedule'][k] for k in ('pp_stages','devices','parameter_copies','activation_microbatches_per_device','trainer_runs')]")" \
   "[4, 4, 1, 4, False]" "1F1B in DualPipe's units"
eq "$(json "$tmp/out" "[r['live_chunks_at_peak'] for r in d['ranks']]")" "[[4], [3], [2], [1]]" \
   "1F1B's rank r holds min(pp-r, m)"
has "$tmp/out" "the trainer runs DualPipeV only" "1F1B's warning"
expect_code 0 "1f1b text" "$memest" "${RUN[@]}" --schedule 1f1b
has "$tmp/out" "live chunks: 4 in phase 0" "one module in the text"
expect_code 0 "dualpipev estimate" "$memest" "${RUN[@]}" --json
eq "$(json "$tmp/out" "d['schedule']['activation_microbatches_per_device'], d['warnings']")" "9 []" \
   "DualPipeV: PP+1 = 9, no warning"

expect_code 0 "compare --schedules all" "$memest" compare "${RUN[@]}" --schedules all --json
eq "$(json "$tmp/out" "[(s['schedule'], s['pp_stages'], s['activation_microbatches_per_device'], s['parameter_copies'], s['status']) for s in d['schedules']]")" \
   "[('dualpipev', 8, 9, 2, 'OK'), ('1f1b', 4, 4, 1, 'OK'), ('interleaved-1f1b', 4, 5.5, 1, 'OK'), ('zb-h1', 4, 4, 1, 'OK'), ('dualpipe', 4, 5, 2, 'OOM')]" \
   "the five schedules in DualPipe's units"
eq "$(json "$tmp/out" "all(s['bubble_from'] == 'replay' and s['tokens_per_second'] > 0 for s in d['schedules'])")" \
   "True" "replayed bubbles and tokens/s"
eq "$(json "$tmp/out" "[r['peak_bytes'] for r in d['rows']] == [s['peak_bytes'] for s in d['schedules']]")" \
   "True" "the schedules' peaks are the rows'"
expect_code 0 "compare text" "$memest" compare "${RUN[@]}" --schedules all
has "$tmp/out" "activations per GPU, stages" "compare text rows"
has "$tmp/out" "interl. v=2" "compare text labels"

# pp 3: DualPipe cannot take it, the others can; v = 3 is interleaved's alone.
ODD=(--model qwen3-30b-a3b --pp-size 3 --ep-size 8 --cp-size 1 --total-gpus 24
     --micro-batch-size 1 --global-batch-size 1536 --sequence-length 4096 --gpu h100)
expect_code 0 "compare with an invalid schedule" "$memest" compare "${ODD[@]}" --schedules all \
  --virtual-stages 3 --json
eq "$(json "$tmp/out" "[s['status'] for s in d['schedules']]")" "['OK', 'OK', 'OK', 'OK', 'invalid']" \
  "DualPipe's row invalid, the rest estimated"
has "$tmp/out" "--pp-size must be even" "DualPipe's refusal"
eq "$(json "$tmp/out" "d['schedules'][2]['activation_microbatches_per_device']")" "3.66667" \
   "interleaved v=3: p + (p-1)/v"
"$memest" "${ODD[@]}" --schedule interleaved-1f1b --virtual-stages 3 --json > "$tmp/one"
eq "$(json "$tmp/out" "d['rows'][2]['peak_bytes']")" "$(json "$tmp/one" "d['peak_bytes']")" \
   "the compare's interleaved row equals its estimate"

expect_code 1 "dualpipe odd pp" "$memest" "${ODD[@]}" --schedule dualpipe --json
eq "$(json "$tmp/out" "d['error']['reason'], d['error']['field']")" "schedule pp_size" "odd pp refused"
expect_code 1 "virtual stages without interleaved" "$memest" "${RUN[@]}" --virtual-stages 3 --json
eq "$(json "$tmp/out" "d['error']['field'], d['error']['fix']")" "virtual_stages schedule=interleaved-1f1b" \
   "--virtual-stages alone refused"
expect_code 1 "unknown schedule" "$memest" "${RUN[@]}" --schedule gpipe
has "$tmp/err" "dualpipev, 1f1b, interleaved-1f1b, zb-h1, dualpipe" "the schedules named"

if [ "$fails" -ne 0 ]; then
  echo "schedules.sh: $fails checks failed" >&2
  exit 1
fi
echo "schedules.sh: all checks passed"
