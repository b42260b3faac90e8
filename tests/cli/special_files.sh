#!/usr/bin/env bash
# --model given something that is not a regular file of a config's size: a
# FIFO, a folder without a config.json, a device, a socket and a 200 MB or
# 2 GB sparse file are each refused with a message before anything is read (a
# FIFO with no writer would otherwise block forever), in memest, plan, compare
# and check; and check's --snapshot and --log, --script and the files of a
# --wandb run likewise.
# Usage: tests/cli/special_files.sh path/to/memest   (run from the repository root)
set -u
memest=${1:?usage: special_files.sh path/to/memest}
memest=$(cd "$(dirname "$memest")" && pwd)/$(basename "$memest")   # the tests change folder
. "$(dirname "$0")/lib/checks.sh"
ARGS=(--pp-size 4 --ep-size 8 --cp-size 1 --total-gpus 32 --micro-batch-size 1
      --global-batch-size 1024 --sequence-length 4096 --gpu h100)
PLAN=(--gpu h100 --total-gpus 32 --global-batch-size 1024 --sequence-length 4096 --ep-size 8
      --cp-size 1 --micro-batch-size 1)

# Each command given `path`: exit 1 within 10 s, the message names what it is.
refused() { # description, path, words in the message
  local what=$1 path=$2 words=$3
  expect_code 1 "$what" timeout 10 "$memest" --model "$path" "${ARGS[@]}"
  has "$tmp/err" "$words" "$what"
  expect_code 1 "plan, $what" timeout 10 "$memest" plan --model "$path" "${PLAN[@]}"
  has "$tmp/err" "$words" "plan, $what"
  expect_code 1 "compare, $what" timeout 10 "$memest" compare --model "$path" \
    "${PLAN[@]}" --pp-size 2,4
  has "$tmp/err" "$words" "compare, $what"
  expect_code 1 "check --model, $what" timeout 10 "$memest" check --model "$path" "${ARGS[@]}" \
    --log "$tmp/empty.log"
  has "$tmp/err" "$words" "check --model, $what"
}
: > "$tmp/empty.log"

mkfifo "$tmp/pipe.json"
refused "a FIFO" "$tmp/pipe.json" "is a FIFO (named pipe), not a regular file"
# A folder is read as a model's folder (its config.json, as transformers
# reads one); its config.json is opened like any other.
mkdir "$tmp/dir.json"
refused "a folder without a config.json" "$tmp/dir.json" "is a folder with no config.json"
mkdir "$tmp/model" "$tmp/model/config.json"
refused "a folder whose config.json is a folder" "$tmp/model" "config.json' is a directory, not a regular file"
mkdir "$tmp/model-fifo"
mkfifo "$tmp/model-fifo/config.json"
refused "a folder whose config.json is a FIFO" "$tmp/model-fifo" "is a FIFO (named pipe), not a regular file"
refused "/dev/zero" /dev/zero "is a character device, not a regular file"
refused "/dev/null" /dev/null "is a character device, not a regular file"
ln -s "$tmp/pipe.json" "$tmp/link.json"
refused "a link to a FIFO" "$tmp/link.json" "is a FIFO (named pipe)"

# A socket cannot even be opened (ENXIO): it is named for what it is.
python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$tmp/sock.json"
refused "a socket" "$tmp/sock.json" "is a socket, not a regular file"

# Sparse 200 MB and 2 GB files: their real size, and the limit by name.
truncate -s 200000000 "$tmp/big.json"
refused "a 200 MB file" "$tmp/big.json" "is 200,000,000 bytes (190.7 MiB), over MEMEST_MAX_CONFIG_BYTES"
truncate -s 2000000000 "$tmp/huge.json"
refused "a 2 GB sparse file" "$tmp/huge.json" \
  "is 2,000,000,000 bytes (1907.3 MiB), over MEMEST_MAX_CONFIG_BYTES"
head -c 1048577 /dev/zero | tr '\0' ' ' > "$tmp/over.json"
refused "a file one byte over" "$tmp/over.json" "is 1,048,577 bytes (1.0 MiB), over MEMEST_MAX_CONFIG_BYTES"

# A regular file at the limit is read (and refused for its JSON, not its size).
printf '{}' > "$tmp/at.json"
head -c $((1048576 - 2)) /dev/zero | tr '\0' ' ' >> "$tmp/at.json"
expect_code 1 "a file at the limit" "$memest" --model "$tmp/at.json" "${ARGS[@]}"
has "$tmp/err" "config key" "a file at the limit"

# An unreadable regular file names the system's reason.
printf '{}' > "$tmp/locked.json"
chmod 000 "$tmp/locked.json"
if ! cat "$tmp/locked.json" >/dev/null 2>&1; then   # root reads it anyway
  expect_code 1 "an unreadable file" "$memest" --model "$tmp/locked.json" "${ARGS[@]}"
  has "$tmp/err" "Permission denied" "an unreadable file"
fi

# memest check opens its snapshots and its log the same way: refused at
# once, by kind or by size, before a byte is read.
checked() { # flag, description, path, words in the message
  local flag=$1 what=$2 path=$3 words=$4
  expect_code 1 "check $flag, $what" timeout 10 "$memest" check "$flag" "$path" --model qwen3-30b-a3b \
    "${ARGS[@]}"
  has "$tmp/err" "$words" "check $flag, $what"
}
for flag in --log --snapshot; do
  checked "$flag" "a FIFO" "$tmp/pipe.json" "is a FIFO (named pipe), not a regular file"
  checked "$flag" "a socket" "$tmp/sock.json" "is a socket, not a regular file"
  checked "$flag" "/dev/zero" /dev/zero "is a character device, not a regular file"
  checked "$flag" "a directory" "$tmp/dir.json" "is a directory, not a regular file"
done
truncate -s 2000000000 "$tmp/sparse.pickle"
checked --snapshot "a 2 GB sparse file" "$tmp/sparse.pickle" \
  "is 2,000,000,000 bytes (1907.3 MiB), over MEMEST_MAX_PICKLE_BYTES"
checked --log "a 2 GB sparse file" "$tmp/sparse.pickle" \
  "is 2,000,000,000 bytes (1907.3 MiB), over MEMEST_MAX_RUNLOG_BYTES"

# A launch script, in memest, plan and compare, is opened the same way.
scripted() { # description, path, words in the message
  local what=$1 path=$2 words=$3
  expect_code 1 "--script, $what" timeout 10 "$memest" --script "$path" --total-gpus 32 --gpu h100
  has "$tmp/err" "$words" "--script, $what"
  expect_code 1 "plan --script, $what" timeout 10 "$memest" plan --script "$path" --total-gpus 32 --gpu h100
  has "$tmp/err" "$words" "plan --script, $what"
  expect_code 1 "compare --script, $what" timeout 10 "$memest" compare --script "$path" \
    --total-gpus 32 --gpu h100 --pp-size 2,4
  has "$tmp/err" "$words" "compare --script, $what"
}
scripted "a FIFO" "$tmp/pipe.json" "launch script '$tmp/pipe.json' is a FIFO (named pipe), not a regular file"
scripted "a socket" "$tmp/sock.json" "is a socket, not a regular file"
scripted "/dev/zero" /dev/zero "is a character device, not a regular file"
scripted "a directory" "$tmp/dir.json" "is a directory, not a regular file"
scripted "a 2 GB sparse file" "$tmp/sparse.pickle" \
  "is 2,000,000,000 bytes (1907.3 MiB), over MEMEST_MAX_SCRIPT_BYTES"

# A W&B run whose file is there but is no regular file is refused by that
# file's name, not read past as missing (nor blocked on).
mkdir -p "$tmp/run/files"
mkfifo "$tmp/run/files/config.yaml"
expect_code 1 "--wandb, a FIFO config.yaml" timeout 10 "$memest" check --wandb "$tmp/run" --total-gpus 32 --gpu h100
has "$tmp/err" "W&B config '$tmp/run/files/config.yaml' is a FIFO (named pipe), not a regular file" \
  "--wandb, a FIFO config.yaml"
rm "$tmp/run/files/config.yaml"
printf 'distributed:\n  value:\n    pipeline_parallel_size: 4\n' > "$tmp/run/files/config.yaml"
mkdir "$tmp/run/files/wandb-summary.json"
expect_code 1 "--wandb, a folder as wandb-summary.json" timeout 10 "$memest" check --wandb "$tmp/run" \
  --total-gpus 32 --gpu h100
has "$tmp/err" "W&B file '$tmp/run/files/wandb-summary.json' is a directory, not a regular file" \
  "--wandb, a folder as wandb-summary.json"

# A bare preset name reads the preset; a file or a folder of that name in
# the current folder is named in a warning with the way to read it instead,
# in every command, and the report (text or JSON) is the preset's.
in_dir() { (cd "$1" && shift && exec "$@"); }
mkdir "$tmp/here"
printf '{}' > "$tmp/here/qwen3-30b-a3b"
printf 'step 00000001/00000001 | peak-gpu-memory 51.25 GB\n' > "$tmp/train.log"
mkdir "$tmp/here/deepseek-v3"
for cmd in "" plan compare check; do
  case $cmd in
    "") extra=("${ARGS[@]}") ;;
    check) extra=(--log "$tmp/train.log" "${ARGS[@]}") ;;
    *) extra=("${PLAN[@]}" --pp-size 2,4) ;;
  esac
  expect_code 0 "${cmd:-memest}, a preset's name that is also a file here" in_dir "$tmp/here" "$memest" \
    $cmd --model qwen3-30b-a3b "${extra[@]}" --json
  has "$tmp/err" "warning: --model qwen3-30b-a3b reads the preset qwen3-30b-a3b, not the file './qwen3-30b-a3b' in this folder; give --model ./qwen3-30b-a3b to read the file" \
    "${cmd:-memest}, a preset's name that is also a file here"
  expect_code 1 "${cmd:-memest}, ./NAME reads the file" in_dir "$tmp/here" "$memest" $cmd \
    --model ./qwen3-30b-a3b "${extra[@]}"
  has "$tmp/err" "config key" "${cmd:-memest}, ./NAME reads the file"
done
expect_code 0 "a preset's name that is also a folder here" in_dir "$tmp/here" "$memest" \
  --model deepseek-v3 "${ARGS[@]}"
has "$tmp/err" "warning: --model deepseek-v3 reads the preset deepseek-v3, not the folder './deepseek-v3' in this folder; give --model ./deepseek-v3/config.json to read the config in it" \
  "a preset's name that is also a folder here"
expect_code 0 "a preset's name alone: no warning" "$memest" --model qwen3-30b-a3b "${ARGS[@]}"
[ -s "$tmp/err" ] && bad "a preset's name alone: $(head -c 200 "$tmp/err")"

[ "$fails" -eq 0 ] && echo "special files: all checks passed"
exit $((fails > 0))
