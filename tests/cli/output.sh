#!/usr/bin/env bash
# What memest writes, whatever it was given. Every write is checked: a full
# disk or a closed stdout exits 1 with a message on stderr, a failing stderr
# exits 1, a reader that went away ends the program quietly as SIGPIPE does.
# --json output is strict UTF-8 JSON (docs/result-json.md) for file names,
# snapshot frames, configs and logs that are not UTF-8; terminal text shows
# controls, bidi marks and invalid bytes as visible escapes. --version,
# --list-models and --list-gpus have JSON forms, and a bad flag is refused
# alike in text and JSON. Each check runs memest, plan, compare and check.
# Usage: tests/cli/output.sh path/to/memest   (run from the repository root)
set -u
memest=${1:?usage: output.sh path/to/memest}
. "$(dirname "$0")/lib/checks.sh"
strict() { python3 "$(dirname "$0")/lib/strict_output.py" "$@" >"$tmp/why" || bad "$(cat "$tmp/why")"; }
ARGS=(--pp-size 4 --ep-size 8 --cp-size 1 --total-gpus 32 --micro-batch-size 1
      --global-batch-size 1024 --sequence-length 4096 --gpu h100)
PLAN=(--gpu h100 --total-gpus 32 --global-batch-size 1024 --sequence-length 4096 --ep-size 8
      --cp-size 1 --micro-batch-size 1)
python3 tests/measured/gen_snapshot.py "$tmp/run" --rank-list 0,8 >/dev/null ||
  bad "gen_snapshot.py failed"
SNAP=(--snapshot "$tmp/run/snapshot-rank00000.pickle" "$tmp/run/snapshot-rank00008.pickle")
printf 'step 00000001/00000002 | peak-gpu-memory 60.10 GB\nstep 00000002/00000002 | peak-gpu-memory 51.25 GB\n' \
  >"$tmp/train.log"

# Runs a command that may accept or refuse its input (exit 0 or 1): what it
# prints is checked after.
expect_code_any() { # description, command...
  local what=$1 got; shift
  "$@" >"$tmp/out" 2>"$tmp/err"
  got=$?
  [ "$got" -le 1 ] || bad "$what: exit $got"
}

# Calls $1 (a function taking a description and memest's arguments) once
# for each command, with the rest of the arguments added at the end.
each_command() {
  local run=$1; shift
  "$run" "estimate" --model qwen3-30b-a3b "${ARGS[@]}" "$@"
  "$run" "plan" plan --model qwen3-30b-a3b "${PLAN[@]}" --pp-size 2,4 "$@"
  "$run" "compare" compare --model qwen3-30b-a3b "${PLAN[@]}" --pp-size 2,4 "$@"
  "$run" "check" check "${SNAP[@]}" --log "$tmp/train.log" --model qwen3-30b-a3b "${ARGS[@]}" "$@"
}

# {======================================================================
# Writers report failure.
# ======================================================================
full_disk() { # description, args...
  local what=$1; shift
  expect_code 1 "$what >/dev/full" sh -c 'exec "$@" >/dev/full' sh "$memest" "$@"
  has "$tmp/err" "cannot write the output to stdout: No space left on device" "$what >/dev/full"
  expect_code 1 "$what >&-" sh -c 'exec "$@" >&-' sh "$memest" "$@"
  has "$tmp/err" "stdout is closed" "$what >&-"
}
each_command full_disk
each_command full_disk --json
full_disk "--list-models" --list-models
full_disk "--list-gpus --json" --list-gpus --json
full_disk "--version" --version
full_disk "--help" --help
full_disk "plan --help" plan --help
full_disk "a --json error" --model qwen3-30b-a3b "${ARGS[@]}" --ep-size 7 --json
full_disk "check, a --json error" check --log "$tmp/no-such.log" --model qwen3-30b-a3b \
  "${ARGS[@]}" --json

# A failing stderr cannot carry a message: the status says it (1, not 2).
expect_code 1 "missing inputs, 2>/dev/full" sh -c 'exec "$@" 2>/dev/full' sh "$memest" --pp-size 4
expect_code 1 "a bad flag, 2>/dev/full" sh -c 'exec "$@" 2>/dev/full' sh "$memest" plan --bogus 1

# A reader that stops after one byte: quiet, and the status SIGPIPE gives
# (141 in a shell; 0 when everything fitted in the pipe first), whether
# SIGPIPE is left alone or ignored.
pipe_quiet() { # description, args...
  local what=$1 status ignore; shift
  for ignore in "" "trap '' PIPE;"; do
    status=$(ERR="$tmp/err" bash -c "$ignore"' "$0" "$@" 2>"$ERR" | head -c1 >/dev/null
      echo "${PIPESTATUS[0]}"' "$memest" "$@")
    [ "$status" = 141 ] || [ "$status" = 0 ] ||
      bad "$what | head -c1 ${ignore:+(SIGPIPE ignored)}: exit $status, expected 141 or 0"
    [ -s "$tmp/err" ] && bad "$what | head -c1 ${ignore:+(SIGPIPE ignored)}: stderr $(head -c 200 "$tmp/err")"
  done
}
pipe_quiet "a long timeline" --model qwen3-30b-a3b "${ARGS[@]}" --timeline --timeline-limit 0
pipe_quiet "a long timeline, --json" --model qwen3-30b-a3b "${ARGS[@]}" --timeline \
  --timeline-limit 0 --json
pipe_quiet "plan, every row" plan --model qwen3-30b-a3b --gpu h100 --total-gpus 64 \
  --global-batch-size 1024 --sequence-length 4096 --top 0
# }======================================================================

# {======================================================================
# --json is strict UTF-8 JSON.
# ======================================================================
# A config under a Latin-1 name: its name is U+FFFD where the byte was.
latin="$tmp/caf"$'\xe9'".json"
cp presets/qwen3-30b-a3b.json "$latin"
expect_code 0 "Latin-1 name --json" "$memest" --model "$latin" "${ARGS[@]}" --json
strict json "$tmp/out" "inputs.model=$tmp/caf\\ufffd.json"
expect_code 0 "plan, Latin-1 name --json" "$memest" plan --model "$latin" "${PLAN[@]}" --json
strict json "$tmp/out" "inputs.model=$tmp/caf\\ufffd.json"
expect_code 0 "compare, Latin-1 name --json" "$memest" compare --model "$latin" "${PLAN[@]}" \
  --pp-size 2,4 --json
strict json "$tmp/out" "inputs.model=$tmp/caf\\ufffd.json"
mkdir "$tmp/caf"$'\xe9'
cp "$tmp/run/snapshot-rank00000.pickle" "$tmp/caf"$'\xe9'/
expect_code 0 "check, Latin-1 names --json" "$memest" check --snapshot \
  "$tmp/caf"$'\xe9'/snapshot-rank00000.pickle --model "$latin" "${ARGS[@]}" --json
strict json "$tmp/out" "ranks.0.source=$tmp/caf\\ufffd/snapshot-rank00000.pickle" \
  "max.source=$tmp/caf\\ufffd/snapshot-rank00000.pickle"

# Errors that quote a name that is not UTF-8, in every command: each ill-formed
# span is one U+FFFD, as Python's bytes.decode("utf-8", "replace") has it.
json_error() { # description, args...: refused for a file named no-$want.json
  local what=$1; shift
  expect_code 1 "$what, missing $want --json" "$memest" "$@" --json
  strict json "$tmp/out" "error.code=io"
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["error"]["message"].encode("ascii", "backslashreplace").decode())' \
    "$tmp/out" >"$tmp/message" 2>&1
  has "$tmp/message" "no-$want.json" "$what, missing $want --json"
}
for name in $'caf\xe9' $'sur\xed\xa0\x80' $'over\xc0\xaf\xe0\x80\xaf' $'cut\xe2\x82' $'top\xf4\x90\x80\x80' \
            $'ff\xff\xfe' $'bidi\xe2\x80\xae\xc2\x85'; do
  want=$(printf '%s' "$name" | python3 -c 'import sys; print(sys.stdin.buffer.read().decode("utf-8", "replace").encode("ascii", "backslashreplace").decode())')
  missing="$tmp/no-$name.json"
  json_error "estimate" --model "$missing" "${ARGS[@]}"
  json_error "plan" plan --model "$missing" "${PLAN[@]}"
  json_error "compare" compare --model "$missing" "${PLAN[@]}" --pp-size 2,4
  json_error "check --log" check --log "$missing" --model qwen3-30b-a3b "${ARGS[@]}"
done

# Frames that are not UTF-8 or hold controls (tests/measured/hostile_frames.py):
# every site as Python decodes it (a C0 control may be read as '?').
mkdir "$tmp/hostile"
python3 tests/measured/hostile_frames.py "$tmp/hostile/snapshot-rank00008.pickle" >"$tmp/sites.json" ||
  bad "hostile_frames.py failed"
expect_code 0 "hostile frames --json" "$memest" check --snapshot "$tmp/hostile/snapshot-rank00008.pickle" \
  --model qwen3-30b-a3b "${ARGS[@]}" --json
strict json "$tmp/out"
python3 - "$tmp/out" "$tmp/sites.json" >"$tmp/why" <<'EOF' || bad "hostile frames: $(cat "$tmp/why")"
import json, re, sys
got = json.load(open(sys.argv[1]))["ranks"][0]["snapshot"]
want = json.load(open(sys.argv[2]))["sites"]
def pattern(s):
    return "".join("[%s?]" % re.escape(c) if ord(c) < 0x20 or ord(c) == 0x7f else re.escape(c)
                   for c in s)
sites = [s["site"] for s in got["sites"]]
frames = [t["frames"][0] for t in got["top"] if t["frames"]]
for w in want:
    for what, have in (("sites", sites), ("top frames", frames)):
        if not any(re.fullmatch(pattern(w), h) for h in have):
            print("%s: no %r in %r" % (what, w, have))
            sys.exit(1)
EOF

# A log whose lines hold bytes that are not UTF-8 and terminal escapes.
{
  printf 'caf\xe9 \x1b[31mstarting\x1b[0m \xe2\x80\xae\xc2\x85\x85\r\n'
  printf 'step 00000001/00000002 | \x1b[1mpeak-gpu-memory 60.10 GB\x1b[0m \xff\n'
  printf 'step 00000002/00000002 | peak-gpu-memory 51.25 GB \xed\xa0\x80\n'
  printf 'step 00000003/00000002 | peak-gpu-memory \xe9\xe9 GB\n'
} >"$tmp/hostile.log"
expect_code_any "a hostile log --json" "$memest" check --log "$tmp/hostile.log" --model qwen3-30b-a3b \
  "${ARGS[@]}" --json
strict json "$tmp/out"
expect_code_any "a hostile log" "$memest" check --log "$tmp/hostile.log" --model qwen3-30b-a3b \
  "${ARGS[@]}"
strict text "$tmp/out"
strict text "$tmp/err"

# A config whose names hold a bidi override and a lone surrogate (\ud800).
python3 - "$tmp/hostile.json" <<'EOF'
import json, sys
c = json.load(open("presets/qwen3-30b-a3b.json"))
c["model_type"] = "qwen3_moe\u202e\ud800\u0085"
c["\u001b[31munread\u202e"] = 1
open(sys.argv[1], "w").write(json.dumps(c))
EOF
expect_code_any "a hostile config --json" "$memest" --model "$tmp/hostile.json" "${ARGS[@]}" --json
strict json "$tmp/out"
expect_code_any "a hostile config" "$memest" --model "$tmp/hostile.json" "${ARGS[@]}"
strict text "$tmp/out" 'qwen3_moe\u202e'
strict text "$tmp/err"

# --version, --list-models and --list-gpus as JSON: the text's names.
expect_code 0 "--version --json" "$memest" --version --json
strict json "$tmp/out" "memest_version=$("$memest" --version | cut -d' ' -f2)"
expect_code 0 "--list-models --json" "$memest" --list-models --json
strict json "$tmp/out" "models.0.name=$("$memest" --list-models | head -1 | cut -d' ' -f1)"
[ "$(python3 -c 'import json,sys; print(" ".join(m["name"] for m in json.load(open(sys.argv[1]))["models"]))' "$tmp/out")" = \
  "$("$memest" --list-models | cut -d' ' -f1 | paste -sd' ')" ] || bad "--list-models --json: not the text's models"
expect_code 0 "--list-gpus --json" "$memest" --list-gpus --json
strict json "$tmp/out" "gpus.0.name=h100" "gpus.0.bytes=85027979264"
[ "$(python3 -c 'import json,sys; print(" ".join(g["name"] for g in json.load(open(sys.argv[1]))["gpus"]))' "$tmp/out")" = \
  "$("$memest" --list-gpus | cut -d' ' -f1 | paste -sd' ')" ] || bad "--list-gpus --json: not the text's GPUs"
# }======================================================================

# {======================================================================
# A bad flag is refused alike in text and JSON, wherever --json stands.
# ======================================================================
alike() { # description, args... (the refusal's text message comes first)
  local what=$1 text; shift
  expect_code 1 "$what --bogus" "$memest" "$@" --bogus
  text=$(sed -n '1s/^[^:]*: error: //p' "$tmp/err")
  has "$tmp/err" "unknown parameter '--bogus'" "$what --bogus"
  expect_code 1 "$what --json --bogus" "$memest" "$@" --json --bogus
  strict json "$tmp/out" "error.message=$text" "error.code=unknown"
  expect_code 1 "$what --bogus --json" "$memest" "$@" --bogus --json
  strict json "$tmp/out" "error.message=$text" "error.code=unknown"
  expect_code 1 "$what --json=true" "$memest" "$@" --json=true
  has "$tmp/err" "--json takes no value" "$what --json=true"
  text=$(sed -n '1s/^[^:]*: error: //p' "$tmp/err")
  expect_code 1 "$what --json=true --json" "$memest" "$@" --json=true --json
  strict json "$tmp/out" "error.message=$text" "error.field=json"
  expect_code 1 "$what --optimizer" "$memest" "$@" --optimizer
  has "$tmp/err" "--optimizer needs a value" "$what --optimizer"
  text=$(sed -n '1s/^[^:]*: error: //p' "$tmp/err")
  expect_code 1 "$what --optimizer --json" "$memest" "$@" --optimizer --json
  strict json "$tmp/out" "error.message=$text" "error.field=optimizer"
}
each_command alike
# }======================================================================

# {======================================================================
# Terminal text is escaped.
# ======================================================================
# A name with a bidi override, C1 controls (as UTF-8 and as a byte) and a
# Latin-1 byte: shown escaped in every report that names it.
odd="$tmp/r"$'\xe2\x80\xae'"nosj.x"$'\xc2\x85\x85\xe9'".json"
cp presets/qwen3-30b-a3b.json "$odd"
expect_code 0 "an odd name" "$memest" --model "$odd" "${ARGS[@]}"
strict text "$tmp/out" 'r\u202enosj.x\u0085\x85\xe9.json'
# The equivalent command stays exact: run again, it reads the same file.
cmd=$(head -1 "$tmp/out")
eval "set -- ${cmd#memest }"
expect_code 0 "the command line of an odd name" "$memest" "$@"
strict text "$tmp/out" 'r\u202enosj.x\u0085\x85\xe9.json'
expect_code 0 "plan, an odd name" "$memest" plan --model "$odd" "${PLAN[@]}"
strict text "$tmp/out" 'r\u202enosj.x\u0085\x85\xe9.json'
expect_code 0 "compare, an odd name" "$memest" compare --model "$odd" "${PLAN[@]}" --pp-size 2,4
strict text "$tmp/out" 'r\u202enosj.x\u0085\x85\xe9.json'
expect_code 0 "check, an odd name" "$memest" check --model "$odd" "${SNAP[@]}" "${ARGS[@]}"
strict text "$tmp/out"
expect_code 1 "a missing odd name" "$memest" --model "$odd.no" "${ARGS[@]}"
strict text "$tmp/err" 'r\u202enosj.x\u0085\x85\xe9.json.no'
expect_code 1 "plan, a missing odd name" "$memest" plan --model "$odd.no" "${PLAN[@]}"
strict text "$tmp/err" 'r\u202enosj.x\u0085\x85\xe9.json.no'
expect_code 1 "compare, a missing odd name" "$memest" compare --model "$odd.no" "${PLAN[@]}" --pp-size 2,4
strict text "$tmp/err" 'r\u202enosj.x\u0085\x85\xe9.json.no'

# Escape sequences and newlines in names only messages and sources show.
esc="$tmp/d"$'\x1b[2J\x1b]0;title\x07\n\tx\x7f'
mkdir "$esc"
cp "$tmp/hostile/snapshot-rank00008.pickle" "$esc/"
expect_code 0 "check, escapes in a source" "$memest" check --snapshot "$esc/snapshot-rank00008.pickle" \
  --model qwen3-30b-a3b "${ARGS[@]}"
strict text "$tmp/out" 'd\x1b[2J\x1b]0;title\x07\n\tx\x7f/snapshot-rank00008.pickle' \
  'caf\xe9.py:10:latin1_file' '\u202eyp.evil:15:bidi_\u2066isolate\u2069' 'fn_cut_\xe2\x82' \
  'fn_\xed\xa0\x80_surrogate' 'fn_\u0085_c1_\x85_raw'
for flag in --log --snapshot; do
  expect_code 1 "check $flag, a missing name with escapes" "$memest" check "$flag" "$esc/no.log" \
    --model qwen3-30b-a3b "${ARGS[@]}"
  strict text "$tmp/err" 'd\x1b[2J\x1b]0;title\x07\n\tx\x7f/no.log'
done
expect_code 1 "--model with escapes" "$memest" --model "$esc/no.json" "${ARGS[@]}"
strict text "$tmp/err"
expect_code 1 "an argument with escapes" "$memest" $'\x1b[31mword\xe2\x80\xae'
strict text "$tmp/err" "unexpected argument '\\x1b[31mword\\u202e'"
# }======================================================================

# {======================================================================
# Two snapshots of one rank are refused by their names, before either is
# read (neither file exists).
# ======================================================================
expect_code 1 "one rank twice" "$memest" check --snapshot "$tmp/a/snapshot-rank00008.pickle" \
  "$tmp/b/snapshot-rank00008.pickle" --model qwen3-30b-a3b "${ARGS[@]}"
has "$tmp/err" "snapshots '$tmp/a/snapshot-rank00008.pickle' and '$tmp/b/snapshot-rank00008.pickle' are both global rank 8" \
  "one rank twice"
# }======================================================================

[ "$fails" -eq 0 ] && echo "output: all checks passed"
exit $((fails > 0))
