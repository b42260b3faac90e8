#!/usr/bin/env bash
# Nothing private from a file reaches the output: a credentials file that a
# log's launch line, a W&B run's config.yaml or a launch script names as
# training.model (and one in the hub's cache under a model's id, or given
# as --model) is named, with why it is no model config and the fix, and
# none of its bytes is shown, through memest, plan, compare and check, as
# text and as JSON.
# Usage: tests/cli/private.sh path/to/memest   (run from the repository root)
set -u
memest=${1:?usage: private.sh path/to/memest}
. "$(dirname "$0")/lib/checks.sh"
root=$(pwd)
cd "$tmp" || exit 1
unset HF_HOME HF_HUB_CACHE HF_TOKEN HF_ENDPOINT XDG_CACHE_HOME
export HF_HUB_OFFLINE=1 HOME="$tmp/home"

# The bytes that must never show, whichever way the file is reached.
SECRETS=(SECRETwJalrXUtnFEMI AKIAIOSFODNN7 aws_secret aws_access SECRET)
private() { # description, then the command; it must fail and say why
  local what=$1; shift
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$? s
  [ "$rc" -ne 0 ] || bad "$what: exit 0 for a credentials file as the model"
  for s in "${SECRETS[@]}"; do
    grep -qF -- "$s" "$tmp/out" "$tmp/err" && bad "$what: the output shows '$s': $(cat "$tmp/out" "$tmp/err" | head -c 600)"
  done
  cat "$tmp/out" "$tmp/err" >"$tmp/both"
}

# Credentials files of several forms: AWS's INI, the secret first, JSON
# that breaks after the secret, a number-like secret, a bare word.
mkdir -p "$tmp/home"
printf '[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = SECRETwJalrXUtnFEMI/K7MDENG\n' >credentials
printf 'SECRETwJalrXUtnFEMI\n' >first
printf '{"token": "SECRETwJalrXUtnFEMI" SECRETwJalrXUtnFEMI}\n' >broken.json
printf '{"a": 1, "b": SECRETwJalrXUtnFEMI}\n' >word.json
printf '{"pin": 0123456789SECRET}\n' >number.json
printf '{"x": +1SECRETwJalrXUtnFEMI}\n' >plus.json

ARGS=(--pp-size 2 --ep-size 8 --cp-size 1 --total-gpus 16 --micro-batch-size 1
      --global-batch-size 256 --sequence-length 4096 --gpu h100)

# {== Given as --model: the file is the user's, yet still not echoed.
for f in credentials first broken.json word.json number.json plus.json; do
  private "--model ./$f" "$memest" --model "./$f" "${ARGS[@]}"
  has "$tmp/both" "not valid JSON" "--model ./$f"
  private "--model ./$f --json" "$memest" --model "./$f" "${ARGS[@]}" --json
  [ "$(json "$tmp/out" 'd["error"]["code"]')" = json ] || bad "--model ./$f --json: not a json error"
done
private "--model ./credentials" "$memest" --model ./credentials "${ARGS[@]}"
has "$tmp/both" "found a word without quotes at line 1, column 2" "an INI file"
private "--model ./number.json" "$memest" --model ./number.json "${ARGS[@]}"
has "$tmp/both" "a number with a leading zero at line 1, column 9" "a number-like secret"
# ==}

# {== Named by training.model: the file, why it is no config, the fix.
says_why() { # description
  has "$tmp/both" "training.model names credentials, which is no model config.json" "$1"
  has "$tmp/both" "give --model with the model's config.json" "$1"
}
sed "s#model=PosixPath('[^']*')#model=PosixPath('credentials')#" \
  "$root/tests/trainer/logs/benchmark.log" >run.log
grep -qF "model=PosixPath('credentials')" run.log || bad "the log fixture has no training.model to replace"
private "check --log" "$memest" check --log run.log --total-gpus 32 --gpu h100
says_why "check --log"
private "check --log --json" "$memest" check --log run.log --total-gpus 32 --gpu h100 --json
says_why "check --log --json"

mkdir -p wandb/files
cp "$root"/tests/trainer/wandb/run-20260723_100000-core/files/* wandb/files/
sed -i 's#^\( *model:\).*#\1 credentials#' wandb/files/config.yaml
grep -q "model: credentials" wandb/files/config.yaml || bad "the W&B fixture has no training.model to replace"
private "check --wandb" "$memest" check --wandb wandb
says_why "check --wandb"

cat >script.py <<'EOF'
from pathlib import Path

from pithtrain.tasks.pretrain_lm import PretrainLMCfg, launch

cfg = PretrainLMCfg()
cfg.distributed.pipeline_parallel_size = 2
cfg.distributed.expert_parallel_size = 8
cfg.training.model = Path("credentials")
cfg.training.sequence_length = 4096
cfg.training.micro_batch_size = 1
cfg.training.global_batch_size = 256

if __name__ == "__main__":
    launch(cfg)
EOF
private "memest --script" "$memest" --script script.py --total-gpus 16 --gpu h100
says_why "memest --script"
private "memest --script --json" "$memest" --script script.py --total-gpus 16 --gpu h100 --json
says_why "memest --script --json"
private "plan --script" "$memest" plan --script script.py --total-gpus 16 --gpu h100
says_why "plan --script"
private "compare --script" "$memest" compare --script script.py --total-gpus 16 --gpu h100 \
  --sequence-length 4096,8192
says_why "compare --script"
# A config that is one names no such refusal.
cp "$root/presets/qwen3-30b-a3b.json" credentials
expect_code 0 "memest --script, a real config" "$memest" --script script.py --total-gpus 16 --gpu h100
# ==}

# {== In the hub's cache under a model's id.
snap="$tmp/hub/models--test-org--Secret-MoE/snapshots/0123456789abcdef0123456789abcdef01234567"
mkdir -p "$snap" "$tmp/hub/models--test-org--Secret-MoE/refs"
cp first "$snap/config.json"
printf '0123456789abcdef0123456789abcdef01234567' >"$tmp/hub/models--test-org--Secret-MoE/refs/main"
HF_HUB_CACHE="$tmp/hub" private "a hub cache file" "$memest" --model test-org/Secret-MoE "${ARGS[@]}"
has "$tmp/both" "$snap/config.json" "a hub cache file"
has "$tmp/both" "is not one memest reads" "a hub cache file"
# ==}

[ "$fails" -eq 0 ] && echo "private: no byte of a credentials file in any output"
exit "$((fails > 0))"
