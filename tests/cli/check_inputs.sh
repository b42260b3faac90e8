#!/usr/bin/env bash
# memest check --json carries the estimate's "inputs" object beside
# "source": every input, those given by flags too, typed exactly as in the
# estimate's JSON. For inputs from flags, a launch script, a log and a W&B
# run, check's "inputs" equals memest --json's for the same run.
# Usage: tests/cli/check_inputs.sh path/to/memest   (run from the repository root)
set -u
memest=${1:?usage: check_inputs.sh path/to/memest}
. "$(dirname "$0")/lib/checks.sh"

# A log of figures only, for runs whose inputs come from elsewhere.
printf 'x | step 00000001/00000010 | peak-gpu-memory 60.00 GB\nx | step 00000002/00000010 | peak-gpu-memory 61.00 GB\n' >"$tmp/figures.log"

# The flags that give memest the inputs of JSON file $1 (its "inputs").
flags_of() {
  python3 - "$1" <<'EOF'
import json, sys
i = json.load(open(sys.argv[1]))["inputs"]
out = []
for key in ("model", "pp_size", "ep_size", "cp_size", "total_gpus", "micro_batch_size",
            "global_batch_size", "sequence_length", "optimizer", "sharding", "fp8_training",
            "pp_rank", "ep_imbalance", "fragmentation", "routing"):
    out += ["--" + key.replace("_", "-"), str(i[key])]
if i["gpu"]:
    out += ["--gpu", i["gpu"]]
else:
    out += ["--gpu-memory-gb", repr(i["gpu_memory_gb"])]
if i["routing"] == "factor":
    out += ["--routing-factor", repr(i["routing_factor"])]
print("\n".join(out))
EOF
}

# Whether the "inputs" of JSON files $1 and $2 are equal, value and type.
same_inputs() { # a, b, description
  python3 - "$1" "$2" <<'EOF' >"$tmp/cmp" 2>&1 || bad "$3: $(cat "$tmp/cmp")"
import json, sys
a = json.load(open(sys.argv[1]))["inputs"]
b = json.load(open(sys.argv[2]))["inputs"]
typed = lambda d: {k: (type(v).__name__, v) for k, v in d.items()}
if typed(a) != typed(b):
    diff = {k: (typed(a).get(k), typed(b).get(k)) for k in set(a) | set(b) if typed(a).get(k) != typed(b).get(k)}
    sys.exit("inputs differ: %s" % diff)
EOF
}

# {== Flags only: every input from the command line.
RUN=(--model qwen3-30b-a3b --pp-size 4 --ep-size 8 --cp-size 1 --total-gpus 32
     --micro-batch-size 1 --global-batch-size 1024 --sequence-length 4096 --gpu h100
     --optimizer muon --fragmentation 0.15 --routing factor --routing-factor 1.5)
expect_code 0 "memest, flags" "$memest" --json "${RUN[@]}"
cp "$tmp/out" "$tmp/est-flags.json"
expect_code 0 "check, flags" "$memest" check --json --log "$tmp/figures.log" "${RUN[@]}"
cp "$tmp/out" "$tmp/check-flags.json"
same_inputs "$tmp/check-flags.json" "$tmp/est-flags.json" "flags"
eq "$(json "$tmp/check-flags.json" 'list(d).index("inputs") + 1 == list(d).index("source")')" True \
   "inputs sits just before source"
eq "$(json "$tmp/check-flags.json" 'd["inputs"]["routing_factor"], d["inputs"]["fragmentation"], d["inputs"]["optimizer"]')" \
   "1.5 0.15 muon" "flags: typed values"
eq "$(json "$tmp/check-flags.json" 'd["source"]["kind"]')" flags "flags: source kind"
# ==}

# {== A launch script: memest --script's inputs, given to check as flags.
script="$tmp/script.py"
cat >"$script" <<'EOF'
from pithtrain.tasks.pretrain_lm import PretrainLMCfg, launch

cfg = PretrainLMCfg()
cfg.distributed.pipeline_parallel_size = 2
cfg.distributed.expert_parallel_size = 4
cfg.distributed.sharding_strategy = "hsdp"
cfg.training.model = "Qwen/Qwen3-30B-A3B"
cfg.training.sequence_length = 2048
cfg.training.micro_batch_size = 1
cfg.training.global_batch_size = 1024
cfg.training.fp8 = False

if __name__ == "__main__":
    launch(cfg)
EOF
expect_code 0 "memest --script" "$memest" --json --script "$script" --total-gpus 16 --gpu h200
cp "$tmp/out" "$tmp/est-script.json"
mapfile -t F < <(flags_of "$tmp/est-script.json")
expect_code 0 "check, the script's inputs" "$memest" check --json --log "$tmp/figures.log" "${F[@]}"
same_inputs "$tmp/out" "$tmp/est-script.json" "script"
eq "$(json "$tmp/est-script.json" 'd["inputs"]["sharding"], d["inputs"]["sequence_length"]')" "hsdp 2048" \
   "script: the inputs are the script's"
# ==}

# {== A log and a W&B run: check's inputs, from the file and from flags,
# are memest's for the same inputs.
from_file() { # description, then check's arguments
  local what=$1; shift
  expect_code 0 "check $what" "$memest" check --json "$@"
  cp "$tmp/out" "$tmp/check-$what.json"
  mapfile -t F < <(flags_of "$tmp/check-$what.json")
  expect_code 0 "memest, $what's inputs" "$memest" --json "${F[@]}"
  same_inputs "$tmp/check-$what.json" "$tmp/out" "$what"
}
from_file log --log tests/trainer/logs/benchmark.log --total-gpus 32 --gpu h100 --fragmentation 0.2
eq "$(json "$tmp/check-log.json" 'd["inputs"]["pp_size"], d["inputs"]["total_gpus"], d["inputs"]["fragmentation"], d["inputs"]["routing"]')" \
   "4 32 0.2 balanced" "log: from the launch line and from flags"
eq "$(json "$tmp/check-log.json" 'd["source"]["kind"]')" log "log: source kind"
from_file wandb --wandb tests/trainer/wandb/run-20260723_100000-core
eq "$(json "$tmp/check-wandb.json" 'type(d["inputs"]["total_gpus"]).__name__, type(d["inputs"]["gpu_memory_gb"]).__name__')" \
   "int float" "wandb: typed as the estimate types them"
eq "$(json "$tmp/check-wandb.json" 'd["source"]["kind"]')" wandb "wandb: source kind"
# ==}

[ "$fails" -eq 0 ] && echo "check_inputs: check's inputs are the estimate's"
exit "$((fails > 0))"
