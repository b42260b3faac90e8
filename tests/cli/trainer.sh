#!/usr/bin/env bash
# The trainer's own files as the run's inputs: memest --script on launch
# scripts in the trainer's forms (aliases, setup.py found as Python finds
# it, __main__ blocks, refused forms with file:line), flags over the
# script, plan and compare --script; check --log and check --wandb giving
# the same estimate as the explicit flags (two runs of memest compared,
# never a figure written here); --trainer-commit; the --require gate's exit
# codes; and Python's own reading of the fixtures where python3 exists.
# Usage: tests/cli/trainer.sh path/to/memest   (run from the repository root)
set -u
memest=$(cd "$(dirname "${1:?usage: trainer.sh path/to/memest}")" && pwd)/$(basename "$1")
. "$(dirname "$0")/lib/checks.sh"
T=tests/trainer
CO=$T/checkout
EX=examples/pretrain_lm/tiny/script.py
BENCH=benchmarks/pretraining/tiny/h100-2n8g/pp2-dp2-cp1-ep4-seq2048-bf16.py
QWEN=(--model qwen3-30b-a3b --pp-size 4 --ep-size 8 --cp-size 1 --total-gpus 32 --micro-batch-size 1
      --global-batch-size 1024 --sequence-length 4096 --gpu h100 --optimizer muon --routing balanced)

# json FILE EXPR: the value of a Python expression over the JSON object j.
json() { python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print($2)" "$1"; }

# {== memest --script ==
(cd "$CO" && "$memest" --script "$EX" --total-gpus 8 --gpu h100 --json) >"$tmp/ex.json" 2>"$tmp/err" ||
  bad "the example script: exit $?, $(cat "$tmp/err")"
[ "$(json "$tmp/ex.json" 'j["source"]["kind"]')" = script ] || bad "the example's source is not a script"
[ "$(json "$tmp/ex.json" 'j["source"]["read"]["pp_size"]')" = "$EX:18" ] || bad "pp_size not read at script.py:18"
[ "$(json "$tmp/ex.json" 'j["source"]["read"]["ep_size"]')" = "$EX:19" ] || bad "ep_size not read at script.py:19"
[ "$(json "$tmp/ex.json" 'j["inputs"]["sequence_length"]')" = 2048 ] || bad "0x800 is not 2048"
[ "$(json "$tmp/ex.json" 'j["inputs"]["global_batch_size"]')" = 1024 ] || bad "1_024 is not 1024"
[ "$(json "$tmp/ex.json" 'j["inputs"]["sharding"]+" "+j["inputs"]["optimizer"]')" = "hsdp adamw" ] ||
  bad "r\"hsdp\" and partial(make_adamw_optimizer) not read"
[ "$(json "$tmp/ex.json" 'j["inputs"]["model"]')" = models/tiny-moe.json ] || bad "the model is not the checkout's models/tiny-moe.json"
[ "$(json "$tmp/ex.json" 'j["source"]["regime"]["init"]')" = checkpoint-if-present ] ||
  bad "save_location without a checkpoint folder here: not checkpoint-if-present"
json "$tmp/ex.json" '"\n".join(j["source"]["ignored"])' >"$tmp/ignored"
has "$tmp/ignored" "training.lr (script.py:30)" "an expression on lr is read and ignored"
has "$tmp/ignored" "logging.wandb.name (script.py:46)" "logging's fields are read and ignored"
# The same script from the repository root: the model is found under the trainer's root.
expect_code 0 "the example from elsewhere" "$memest" --script "$CO/$EX" --total-gpus 8 --gpu h100 --json
[ "$(json "$tmp/out" 'j["inputs"]["model"]')" = "$CO/models/tiny-moe.json" ] || bad "the model is not found under the trainer's root"
has "$tmp/out" "found under the trainer's root" "how the model was found"
# The benchmark: setup.py from the parent folder, the GPU and the count from h100-2n8g.
expect_code 0 "the benchmark script" "$memest" --script "$CO/$BENCH" --json
cp "$tmp/out" "$tmp/bench.json"
[ "$(json "$tmp/bench.json" 'j["inputs"]["total_gpus"]')" = 16 ] || bad "h100-2n8g is not 16 GPUs"
[ "$(json "$tmp/bench.json" 'j["inputs"]["gpu"]')" = h100 ] || bad "h100-2n8g is not an H100"
[ "$(json "$tmp/bench.json" 'j["source"]["read"]["routing"]')" = "$CO/benchmarks/pretraining/tiny/setup.py:40" ] ||
  bad "benchmark = True not read from setup.py:40"
[ "$(json "$tmp/bench.json" 'j["source"]["read"]["total_gpus"]')" = h100-2n8g ] || bad "the count's source is not the folder"
[ "$(json "$tmp/bench.json" 'len(j["source"]["files"])')" = 2 ] || bad "the script and setup.py are not both named"
# A bare name in training.model is no preset for the trainer: refused, not read as memest's preset.
mkdir -p "$tmp/bare"
cat >"$tmp/bare/run.py" <<'PY'
from pithtrain.tasks.pretrain_lm import PretrainLMCfg, launch
cfg = PretrainLMCfg()
cfg.training.model = "qwen3-30b-a3b"
if __name__ == "__main__":
    launch(cfg)
PY
(cd "$tmp/bare" && "$memest" --script run.py --total-gpus 32 --gpu h100) >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] || bad "training.model 'qwen3-30b-a3b' read as the preset"
has "$tmp/err" "training.model 'qwen3-30b-a3b' is neither a file in the working folder nor a hub id" "the bare name refused"
# A script that calls no launch() starts no run: refused by name.
head -3 "$tmp/bare/run.py" | sed 's/"qwen3-30b-a3b"/"Qwen\/Qwen3-30B-A3B"/' >"$tmp/bare/nolaunch.py"
(cd "$tmp/bare" && "$memest" --script nolaunch.py --total-gpus 32 --gpu h100) >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] || bad "a script with no launch() was read"
has "$tmp/err" "nolaunch.py calls no launch()" "no launch() refused"
# Outside a trainer checkout, setup.py is found only through PYTHONPATH.
mkdir -p "$tmp/elsewhere/h100-2n8g"
cp "$CO/$BENCH" "$tmp/elsewhere/h100-2n8g/run.py"
(cd "$CO" && env -u PYTHONPATH "$memest" --script "$tmp/elsewhere/h100-2n8g/run.py") >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] || bad "setup.py found without PYTHONPATH"
has "$tmp/err" "no module setup" "the missing module named"
has "$tmp/err" "PYTHONPATH" "where it looked"
(cd "$CO" && PYTHONPATH=/nonexistent:$PWD/benchmarks/pretraining/tiny "$memest" --script "$tmp/elsewhere/h100-2n8g/run.py" --json) \
  >"$tmp/out" 2>"$tmp/err" || bad "setup.py not found through PYTHONPATH: $(cat "$tmp/err")"
[ "$(json "$tmp/out" 'j["inputs"]["total_gpus"]')" = 16 ] || bad "PYTHONPATH run: wrong GPUs"
# Flags win over the script, and the report says so.
expect_code 0 "a flag over the script" "$memest" --script "$CO/$BENCH" --sequence-length 4096 --json
[ "$(json "$tmp/out" 'j["inputs"]["sequence_length"]')" = 4096 ] || bad "--sequence-length did not win"
[ "$(json "$tmp/out" 'j["source"]["values"]["sequence_length"]["overridden"]')" = True ] || bad "the override is not recorded"
[ "$(json "$tmp/out" '"sequence_length" in j["source"]["read"]')" = False ] || bad "an overridden input still shows as read"
expect_code 0 "the text report" "$memest" --script "$CO/$BENCH"
has "$tmp/out" "Inputs from the launch script" "the text names its source"
has "$tmp/out" "setup.py:33" "the text gives file:line"
# Refused forms name the file and line; the flag for the input lets the run go on.
check_refused() { # script, text, flag value
  expect_code 1 "$1 refused" "$memest" --script "$T/scripts/$1" --total-gpus 16 --gpu h100
  has "$tmp/err" "$2" "$1's message"
  expect_code 0 "$1 with $3" "$memest" --script "$T/scripts/$1" --total-gpus 16 --gpu h100 $3
}
check_refused refused-expression.py "refused-expression.py:11: training.global_batch_size is set to an arithmetic expression (128 * 8)" "--global-batch-size 1024"
check_refused refused-call.py "refused-call.py:10: training.micro_batch_size is set to the result of a call to int()" "--micro-batch-size 1"
check_refused refused-if.py "refused-if.py:15: training.sequence_length is set inside an if block (line 14)" "--sequence-length 4096"
check_refused refused-loop.py "refused-loop.py:9: distributed.pipeline_parallel_size is set inside a for loop (line 8)" "--pp-size 2"
check_refused refused-rebound.py "refused-rebound.py:10: training.micro_batch_size is set through the name training" "--micro-batch-size 1"
check_refused own-builder.py "own-builder.py:13: training.optimizer is make_my_optimizer" "--optimizer adamw"
expect_code 1 "a syntax error" "$memest" --script "$T/scripts/syntax-error.py" --total-gpus 16 --gpu h100
has "$tmp/err" "syntax-error.py:5:22: unterminated string literal" "the tokenizer's error"
expect_code 1 "no config" "$memest" --script "$T/scripts/no-config.py" --total-gpus 16 --gpu h100
has "$tmp/err" "builds no PretrainLMCfg" "a script without a config"
expect_code 1 "an unknown field" "$memest" --script "$T/scripts/unknown-field.py" --total-gpus 16 --gpu h100
has "$tmp/err" "TrainingCfg has no field activation_checkpointing" "the unknown field is Python's AttributeError"
expect_code 1 "a missing script" "$memest" --script "$tmp/none.py"
has "$tmp/err" "cannot read launch script" "the missing file's message"
expect_code 2 "missing inputs" "$memest" --script "$CO/$EX"
has "$tmp/err" "give the missing ones as flags" "what the script cannot give"
# A checkpoint under save_location: the run loads it; an empty torch-dcp: from scratch.
cp -r "$CO" "$tmp/co"
mkdir -p "$tmp/co/workspace/checkpoints/tiny/torch-dcp"
(cd "$tmp/co" && "$memest" --script "$EX" --total-gpus 8 --gpu h100 --json) >"$tmp/out" 2>/dev/null
[ "$(json "$tmp/out" 'j["source"]["regime"]["init"]')" = scratch ] || bad "an empty torch-dcp: not scratch"
mkdir -p "$tmp/co/workspace/checkpoints/tiny/torch-dcp/step-00000010"
(cd "$tmp/co" && "$memest" --script "$EX" --total-gpus 8 --gpu h100 --json) >"$tmp/out" 2>/dev/null
[ "$(json "$tmp/out" 'j["source"]["regime"]["init"]')" = checkpoint ] || bad "a step-* checkpoint: not loaded"
# plan sweeps the script's layouts; compare starts from its layout.
expect_code 0 "plan --script" "$memest" plan --script "$CO/$BENCH" --json
[ "$(json "$tmp/out" 'len(j["rows"]) > 1')" = True ] || bad "plan --script swept no layouts"
expect_code 0 "compare --script" "$memest" compare --script "$CO/$BENCH" --sequence-length 2048,4096 --json
[ "$(json "$tmp/out" 'len(j["rows"])')" = 2 ] || bad "compare --script: not two configurations"
# }==

# {== check --log and check --wandb: the same estimate as the explicit flags ==
est() { # the estimate's tensor peak of memest's flags
  "$memest" "$@" --json | python3 -c "import json,sys; print(json.load(sys.stdin)['tensor_peak_bytes'])"
}
want=$(est "${QWEN[@]}")
expect_code 0 "check --log" "$memest" check --log $T/logs/benchmark.log --total-gpus 32 --gpu h100 --json
[ "$(json "$tmp/out" 'j["max"]["estimated_peak_bytes"]')" = "$want" ] || bad "check --log estimates other than the flags"
[ "$(json "$tmp/out" 'j["source"]["kind"]')" = log ] || bad "check --log: the source is not the log"
[ "$(json "$tmp/out" 'j["log"]["steady_from"]')" = 2 ] || bad "check --log: the steady state does not start at step 2"
expect_code 0 "check --log with every flag" "$memest" check --log $T/logs/benchmark.log "${QWEN[@]}" --json
[ "$(json "$tmp/out" 'j["max"]["estimated_peak_bytes"]')" = "$want" ] || bad "check --log with flags estimates otherwise"
grep -v "launch(cfg=" $T/logs/benchmark.log >"$tmp/steps.log"
expect_code 2 "a log without its launch line" "$memest" check --log "$tmp/steps.log" --total-gpus 32 --gpu h100
has "$tmp/err" "no line of" "the missing launch line"
expect_code 0 "the same steps with flags" "$memest" check --log "$tmp/steps.log" "${QWEN[@]}" --json
[ "$(json "$tmp/out" 'j["log"]["compared_bytes"]')" != "" ] || bad "steps without a launch line were not read"
# A restarted run: the last launch line's inputs and the steps after it.
expect_code 0 "a restarted run" "$memest" check --log $T/logs/restarted.log --total-gpus 32 --gpu h100 --json
[ "$(json "$tmp/out" 'j["source"]["launch_lines"]')" = "[1, 6]" ] || bad "the restarted run's launch lines"
[ "$(json "$tmp/out" 'j["source"]["values"]["global_batch_size"]["value"]')" = 512 ] || bad "not the last launch's inputs"
[ "$(json "$tmp/out" 'j["log"]["steps"]')" = 4 ] || bad "not only the steps after the last launch"
[ "$(json "$tmp/out" 'j["log"]["max_gib"]')" = 44.8 ] || bad "a step before the restart was compared"
expect_code 0 "a restarted run, text" "$memest" check --log $T/logs/restarted.log --total-gpus 32 --gpu h100
has "$tmp/out" "has 2 launch lines, a restarted run" "the report says the run restarted"
# The checkpoint a run loaded; an older schema's fields.
expect_code 0 "a resumed run" "$memest" check --log $T/logs/checkpoint.log --total-gpus 8 --gpu h100 --json
[ "$(json "$tmp/out" 'j["source"]["regime"]["init"]')" = checkpoint ] || bad "the loaded checkpoint is not named"
[ "$(json "$tmp/out" 'j["source"]["values"]["optimizer"]["value"]')" = adamw ] || bad "partial(make_adamw_optimizer) is not adamw"
expect_code 0 "an old schema" "$memest" check --log $T/logs/old-schema.log --total-gpus 8 --gpu h100 --json
[ "$(json "$tmp/out" 'j["source"]["values"]["optimizer"]["value"]')" = muon ] || bad "optimizer='Muon' is not muon"
has "$tmp/out" "from d2fffcc" "the old schema dated"
# W&B: both config.yaml forms give the flags' estimate.
expect_code 0 "check --wandb (wandb-core)" "$memest" check --wandb $T/wandb/run-20260723_100000-core --json
[ "$(json "$tmp/out" 'j["max"]["estimated_peak_bytes"]')" = "$want" ] || bad "check --wandb estimates other than the flags"
[ "$(json "$tmp/out" 'j["source"]["read"]["total_gpus"]')" = wandb-metadata.json ] || bad "slurm.nnodes x gpu_count not read"
[ "$(json "$tmp/out" 'j["source"]["trainer_commit"]["commit"][:7]')" = 287070f ] || bad "git.commit not read"
[ "$(json "$tmp/out" 'j["log"]["first_step"]')" = 2 ] || bad "output.log starts at step 2"
expect_code 0 "check --wandb (files/)" "$memest" check --wandb $T/wandb/run-20260723_100000-core/files --json
expect_code 2 "check --wandb (legacy) without a node count" "$memest" check --wandb $T/wandb/run-20260516_090000-legacy
has "$tmp/err" "no node count" "the legacy run's missing node count"
expect_code 0 "check --wandb (legacy)" "$memest" check --wandb $T/wandb/run-20260516_090000-legacy --total-gpus 32 --json
[ "$(json "$tmp/out" 'j["max"]["estimated_peak_bytes"]')" = "$want" ] || bad "the legacy config.yaml estimates otherwise"
# Without output.log, the summary's last step is the figure compared.
mkdir -p "$tmp/nolog/files"
cp $T/wandb/run-20260723_100000-core/files/{config.yaml,wandb-metadata.json,wandb-summary.json} "$tmp/nolog/files/"
expect_code 0 "a W&B run without output.log" "$memest" check --wandb "$tmp/nolog" --json
[ "$(json "$tmp/out" 'j["log"]["steps"], j["log"]["first_step"], j["log"]["compared_bytes"]')" = "1 6 48727326720" ] ||
  bad "the summary's infra/peak-gpu-memory at train/step 5 is not the figure compared: $(json "$tmp/out" 'j["log"]')"
expect_code 2 "a crashed W&B run" "$memest" check --wandb $T/wandb/run-20260724_080000-crashed
has "$tmp/err" "has no config.yaml" "the crashed run's missing config"
expect_code 0 "a crashed W&B run with flags" "$memest" check --wandb $T/wandb/run-20260724_080000-crashed "${QWEN[@]}" --json
[ "$(json "$tmp/out" 'j["max"]["estimated_peak_bytes"]')" = "$want" ] || bad "the crashed run with flags"
expect_code 1 "a folder of runs" "$memest" check --wandb $T/wandb
has "$tmp/err" "holds 3 W&B runs" "several runs named"
# }==

# {== the trainer commit and the gate ==
expect_code 0 "an older commit" "$memest" "${QWEN[@]}" --trainer-commit 287070f --json
[ "$(json "$tmp/out" '[d["bytes"] for d in j["source"]["trainer_commit"]["differences"] if d["commit"]=="f53f32d" and d["bytes"]][0] > 0')" = True ] ||
  bad "the router's kept input is not sized at 287070f"
expect_code 0 "the modelled commit" "$memest" "${QWEN[@]}" --trainer-commit 889a4088adf3bf8c786d6d667b77fb69ad559a06 --json
[ "$(json "$tmp/out" 'j["source"]["trainer_commit"]["differences"]')" = "[]" ] || bad "the modelled commit has differences"
# Before 287070f the BF16 experts' weight grads were computed in each
# backward: the difference is memest's own replay without deferral, which
# reproduces the commit's measurement at pp 2, ep 8 (58.54 -> 55.16 GiB):
# rank 0's module 1 keeps fp32 accumulators for 12 x 16 x 3 x 2048 x 768
# expert weights.
expect_code 0 "a commit before the deferral" "$memest" --model qwen3-30b-a3b --pp-size 2 \
  --ep-size 8 --cp-size 1 --total-gpus 16 --micro-batch-size 1 --global-batch-size 1024 \
  --sequence-length 2048 --gpu h100 --trainer-commit 976e410 --json
deferral=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
print([x["bytes"] for x in d["source"]["trainer_commit"]["differences"] if x["commit"] == "287070f"])' "$tmp/out")
[ "$deferral" = "[3623878656]" ] || bad "the deferral's size at qwen3 pp 2 ep 8: $deferral, expected [3623878656]"
expect_code 1 "an unknown short commit" "$memest" "${QWEN[@]}" --trainer-commit 1234567
expect_code 1 "a commit that is not hex" "$memest" "${QWEN[@]}" --trainer-commit xyz1234
OOM=(--model qwen3-30b-a3b --pp-size 1 --ep-size 8 --cp-size 1 --total-gpus 8 --micro-batch-size 1
     --global-batch-size 1024 --sequence-length 2048 --gpu h100 --optimizer muon)
TIGHT=(--model deepseek-v2-lite --pp-size 2 --ep-size 2 --cp-size 1 --total-gpus 8 --micro-batch-size 1
       --global-batch-size 1024 --sequence-length 2048 --gpu h100)
[ "$("$memest" "${TIGHT[@]}" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["status"])')" = TIGHT ] ||
  bad "the TIGHT case is no longer TIGHT: choose another"
expect_code 3 "--require fits on OOM" "$memest" "${OOM[@]}" --require fits
has "$tmp/out" "OOM" "the report is printed before exit 3"
has "$tmp/err" "--require fits" "the gate says why"
expect_code 3 "--require fits on OOM, JSON" "$memest" "${OOM[@]}" --require fits --json
[ "$(json "$tmp/out" 'j["status"]')" = OOM ] || bad "the JSON report is printed before exit 3"
expect_code 0 "--require fits on TIGHT" "$memest" "${TIGHT[@]}" --require fits
expect_code 3 "--require ok on TIGHT" "$memest" "${TIGHT[@]}" --require ok
expect_code 0 "--require ok on OK" "$memest" "${QWEN[@]}" --require ok
expect_code 1 "--require other" "$memest" "${QWEN[@]}" --require maybe
expect_code 0 "plan --require ok" "$memest" plan --model qwen3-30b-a3b --gpu h100 --total-gpus 16 \
  --global-batch-size 1024 --sequence-length 2048 --require ok
expect_code 3 "plan --require fits with no layout" "$memest" plan --model qwen3-235b-a22b --gpu a100-40 \
  --total-gpus 8 --global-batch-size 256 --sequence-length 8192 --require fits
CMP=(--model qwen3-30b-a3b --ep-size 8 --cp-size 1 --micro-batch-size 1 --global-batch-size 1024
     --sequence-length 2048 --gpu h100 --optimizer muon)
expect_code 3 "compare --require fits" "$memest" compare "${CMP[@]}" --pp-size 1,2 --total-gpus 8,16 --require fits
has "$tmp/out" "OOM" "compare prints its report before exit 3"
expect_code 0 "compare --require fits, both fit" "$memest" compare "${CMP[@]}" --pp-size 2,4 --total-gpus 16,32 --require fits
expect_code 0 "check --require ok" "$memest" check --log $T/logs/benchmark.log --total-gpus 32 --gpu h100 --require ok
# }==

# {== Python's own reading of the fixtures ==
if command -v python3 >/dev/null && python3 -c "import yaml" 2>/dev/null; then
  python3 $T/check_scripts.py "$memest" >"$tmp/py" 2>&1 || bad "Python reads the scripts otherwise: $(cat "$tmp/py")"
  python3 $T/gen_trainer_files.py "$tmp/gen" || bad "the fixture generator failed"
  for f in $(cd "$tmp/gen" && find . -type f | sort); do
    diff <(sed -E 's/0x[0-9a-f]+/0x0/g' "$tmp/gen/$f") <(sed -E 's/0x[0-9a-f]+/0x0/g' "$T/$f") >/dev/null ||
      bad "$T/$f is not what the generator prints (run python3 $T/gen_trainer_files.py)"
  done
else
  echo "trainer: python3 with yaml not found: Python's reading of the fixtures is not checked"
fi
# }==

[ "$fails" -eq 0 ] && echo "trainer: all checks passed"
exit $((fails > 0))
