#!/usr/bin/env bash
# With --json, every error is one JSON object on stdout, {"error": {code,
# message, field, fix}} (line and column for a config that is not JSON),
# nothing on stderr, and the exit codes of the text mode; its fix, applied,
# gives a valid run in one step.
# Usage: tests/cli/json_errors.sh path/to/memest   (run from the repository root)
set -u
memest=${1:?usage: json_errors.sh path/to/memest}
. "$(dirname "$0")/lib/checks.sh"
ARGS=(--cp-size 1 --micro-batch-size 1 --global-batch-size 1024 --sequence-length 4096 --gpu h100)
QWEN15=tests/data/published/qwen1.5-moe-a2.7b.json

# One object with these members, and nothing on stderr.
one_error() { # description, code, field, fix
  python3 - "$tmp/out" "$2" "$3" "$4" <<'PY' || bad "$1: $(head -c 400 "$tmp/out")"
import json, sys
text = open(sys.argv[1]).read()
obj = json.loads(text)
assert text.count('\n') == 1 and list(obj) == ['error'], text
e = obj['error']
assert {'code', 'message', 'field', 'fix'} <= set(e), e
assert e['code'] == sys.argv[2] and e['field'] == sys.argv[3] and e['fix'] == sys.argv[4], e
assert e['message'], e
PY
  [ -s "$tmp/err" ] && bad "$1: stderr is not empty: $(head -c 200 "$tmp/err")"
}

expect_code 1 "ep 8 on 60 experts" "$memest" --json --model "$QWEN15" --pp-size 4 --ep-size 8 --total-gpus 32 "${ARGS[@]}"
one_error "ep 8 on 60 experts" layout ep_size ep_size=4
expect_code 0 "its fix" "$memest" --json --model "$QWEN15" --pp-size 4 --ep-size 4 --total-gpus 32 "${ARGS[@]}"

expect_code 1 "pp 32 on 48 layers" "$memest" --model qwen3-30b-a3b --pp-size 32 --ep-size 8 --total-gpus 32 "${ARGS[@]}" --json
one_error "pp 32 on 48 layers" layout pp_size pp_size=4

expect_code 1 "ep 64" "$memest" --model deepseek-v3 --pp-size 4 --ep-size 64 --total-gpus 32 "${ARGS[@]}" --json
one_error "ep 64" unsupported ep_size ep_size=8

expect_code 2 "missing inputs" "$memest" --json --model qwen3-30b-a3b
one_error "missing inputs" missing pp_size ""

expect_code 1 "bad value before --json" "$memest" --pp-size zero --json
one_error "bad value before --json" value pp_size ""

expect_code 1 "unreadable config" "$memest" --json --model /no/such/config.json --pp-size 4 --ep-size 8 --total-gpus 32 "${ARGS[@]}"
one_error "unreadable config" io model ""

printf '{\n  "hidden_size": 64,\n}\n' > "$tmp/bad.json"
expect_code 1 "config not JSON" "$memest" --json --model "$tmp/bad.json" --pp-size 4 --ep-size 8 --total-gpus 32 "${ARGS[@]}"
one_error "config not JSON" json config ""
has "$tmp/out" '"line":3,"column":1' "config not JSON"

expect_code 1 "stray argument" "$memest" --json stray
one_error "stray argument" unknown "" ""

# memest check reports its errors the same way.
RUN=(--model qwen3-30b-a3b --pp-size 4 --ep-size 8 --total-gpus 32 "${ARGS[@]}")
expect_code 2 "check without files" "$memest" check --json "${RUN[@]}"
one_error "check without files" missing snapshot ""
expect_code 1 "check, unreadable snapshot" "$memest" check --json --snapshot /no/such.pickle "${RUN[@]}"
one_error "check, unreadable snapshot" io snapshot ""
printf 'not a pickle\n' > "$tmp/x.pickle"
expect_code 1 "check, not a pickle" "$memest" check --snapshot "$tmp/x.pickle" --json "${RUN[@]}"
one_error "check, not a pickle" value snapshot ""
has "$tmp/out" "x.pickle: the file does not start like a pickle" "check, not a pickle"
expect_code 1 "check, bad value before --json" "$memest" check --snapshot "$tmp/x.pickle" --pp-size zero --json
one_error "check, bad value before --json" value pp_size ""
expect_code 1 "check, text mode" "$memest" check --snapshot "$tmp/x.pickle" "${RUN[@]}"
has "$tmp/err" "memest check: error: $tmp/x.pickle: the file does not start like a pickle" "check, text mode"

# Without --json, the same error is text on stderr.
expect_code 1 "text mode" "$memest" --model "$QWEN15" --pp-size 4 --ep-size 8 --total-gpus 32 "${ARGS[@]}"
has "$tmp/err" "memest: a valid choice: ep_size=4" "text mode"
[ -s "$tmp/out" ] && bad "text mode: stdout is not empty"

if [ "$fails" -ne 0 ]; then echo "json_errors: $fails checks failed"; exit 1; fi
echo "json_errors: all checks passed"
