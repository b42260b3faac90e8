#!/usr/bin/env bash
# memest check: snapshots written with CPython's pickle by
# tests/measured/gen_snapshot.py (known peaks, blocks from before the
# recording, interleaved frees, several ranks, pickle protocols 2 to 5) come
# out exact; the log's figures, its step time against the estimate's, the
# text report and the refusals.
# Usage: tests/cli/check.sh path/to/memest   (run from the repository root)
set -u
memest=${1:?usage: check.sh path/to/memest}
. "$(dirname "$0")/lib/checks.sh"
RUN=(--model qwen3-30b-a3b --pp-size 4 --ep-size 8 --cp-size 1 --total-gpus 32
     --micro-batch-size 1 --global-batch-size 1024 --sequence-length 4096 --gpu h100)
gen=tests/measured/gen_snapshot.py

# Compares memest's JSON ($1) with the generator's figures ($2): every rank's
# peak, largest live block, start and end figures, exactly.
compare() {
  python3 - "$1" "$2" <<'EOF'
import json, os, sys
got = json.load(open(sys.argv[1]))
want = json.load(open(sys.argv[2]))["files"]
bad = 0
for r in got["ranks"]:
    w = want[os.path.basename(r["source"])]
    s = r["snapshot"]
    pairs = [("peak", r["measured_peak_bytes"], w["peak"]),
             ("top", s["top"][0]["bytes"] if s["top"] else 0, w["top"]),
             ("start", s["start_allocated_bytes"], w["start"]),
             ("end allocated", s["end_allocated_bytes"], w["end_allocated"]),
             ("end reserved", s["end_reserved_bytes"], w["end_reserved"]),
             ("peak reserved", s["peak_reserved_bytes"], w["peak_reserved"]),
             ("events", s["events"], w["events"]),
             ("inconsistent", s["inconsistent"], 0),
             ("pp rank", r["pp_rank"], r["global_rank"] // 8)]
    for what, g, e in pairs:
        if g != e:
            print("%s: %s %s, expected %s" % (r["source"], what, g, e))
            bad += 1
peaks = [r["measured_peak_bytes"] for r in got["ranks"]]
if got["max"]["measured_peak_bytes"] != max(peaks):
    print("max is not the largest rank")
    bad += 1
print("ranks %d exact" % len(got["ranks"]) if not bad else "")
sys.exit(1 if bad else 0)
EOF
}

# Several ranks over all four pipeline ranks, each protocol pickle.dump has.
for proto in default 2 3 5; do
  args=()
  [ "$proto" = default ] || args=(--protocol "$proto")
  dir="$tmp/p$proto"
  python3 "$gen" "$dir" --rank-list 0,7,8,17,31 --events 700 --seed "${#proto}" "${args[@]}" \
    >"$tmp/want-$proto.json" || bad "generator failed for protocol $proto"
  expect_code 0 "check protocol $proto" "$memest" check --json --snapshot "$dir"/*.pickle "${RUN[@]}"
  cp "$tmp/out" "$tmp/got-$proto.json"
  compare "$tmp/got-$proto.json" "$tmp/want-$proto.json" >"$tmp/cmp" ||
    bad "protocol $proto: $(cat "$tmp/cmp")"
done

# A new frames list for every entry (as a real trace has), longer traces.
python3 "$gen" "$tmp/u" --ranks 3 --events 5000 --depth 30 --unique-lists --seed 9 >"$tmp/want-u.json"
expect_code 0 "check unique lists" "$memest" check --json --snapshot "$tmp"/u/*.pickle "${RUN[@]}"
cp "$tmp/out" "$tmp/got-u.json"
compare "$tmp/got-u.json" "$tmp/want-u.json" >"$tmp/cmp" || bad "unique lists: $(cat "$tmp/cmp")"

# The JSON's shape (docs/result-json.md) and the estimate side: the tensor
# peak of the snapshot's pipeline rank.
expect_code 0 "memest --pp-rank 1" "$memest" --json --pp-rank 1 "${RUN[@]}"
est1=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['tensor_peak_bytes'])" "$tmp/out" 2>/dev/null)
python3 - "$tmp/got-default.json" "$est1" <<'EOF' || bad "check JSON shape: $(python3 - "$tmp/got-default.json" "$est1" 2>&1 | tail -1)"
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["ranks"]:
    assert set(["pp_rank", "global_rank", "source", "measured_peak_bytes", "estimated_peak_bytes",
                "error_fraction"]) <= set(r), r.keys()
    want = (r["estimated_peak_bytes"] - r["measured_peak_bytes"]) / r["measured_peak_bytes"]
    assert abs(r["error_fraction"] - want) < 1e-6
r8 = [r for r in d["ranks"] if r["global_rank"] == 8][0]
assert r8["pp_rank"] == 1 and str(r8["estimated_peak_bytes"]) == sys.argv[2], (r8, sys.argv[2])
assert set(["measured_peak_bytes", "estimated_peak_bytes", "error_fraction"]) <= set(d["max"])
assert d["log"] is None and d["fragmentation"]["measured"] > 0
EOF

# Text: the table, the largest allocations with their frames, fragmentation.
expect_code 0 "check text" "$memest" check --snapshot "$tmp"/p2/*.pickle "${RUN[@]}"
has "$tmp/out" "pp rank  global rank" "check text"
has "$tmp/out" "snapshot-rank00017.pickle" "check text"
has "$tmp/out" "largest live allocations:" "check text"
has "$tmp/out" "by allocation site:" "check text"
has "$tmp/out" "Fragmentation of" "check text"
has "$tmp/out" "--fragmentation" "check text"

# The log: steps read and the figure compared joins the max.
cat >"$tmp/train.log" <<'EOF'
step 00000001/00000010 | step-time 9.000 sec | peak-gpu-memory 60.10 GB
step 00000002/00000010 | step-time 1.200 sec | peak-gpu-memory 51.25 GB
step 00000003/00000010 | step-time 1.200 sec | peak-gpu-memory 51.50 GB
EOF
expect_code 0 "check --log" "$memest" check --log "$tmp/train.log" --json "${RUN[@]}"
has "$tmp/out" '"max":{"measured_peak_bytes":55297703936,' "check --log"
has "$tmp/out" '"steady_from":2' "check --log"
expect_code 0 "check --log text" "$memest" check --log "$tmp/train.log" "${RUN[@]}"
has "$tmp/out" "Log: 3 peak-gpu-memory lines, steps 1..3; compared: the largest after the first step, 51.50 GiB" "check --log text"

# Log readings are measurements or are named: CR-only line ends are lines
# (the right step is compared); 0.00, 0x10, MB and a figure off its step line
# are refused by line and never compared; colour codes are taken out.
printf 'step 00000001/00000010 | peak-gpu-memory 60.10 GB\rstep 00000002/00000010 | peak-gpu-memory 51.25 GB\rstep 00000003/00000010 | peak-gpu-memory 51.50 GB\r' >"$tmp/cr.log"
expect_code 0 "check --log with CR line ends" "$memest" check --log "$tmp/cr.log" "${RUN[@]}"
has "$tmp/out" "Log: 3 peak-gpu-memory lines, steps 1..3; compared: the largest after the first step, 51.50 GiB" "CR line ends"
printf 'step 00000001/00000010 | peak-gpu-memory 60.10 GB\nstep 00000002/00000010 | peak-gpu-memory 0.00 GB\nstep 00000003/00000010 | peak-gpu-memory 0x10 GB\nstep 00000004/00000010 | peak-gpu-memory 512 MB\npeak-gpu-memory 70.00 GB\nstep 00000005/00000010 | \033[32mpeak-gpu-memory 52.25 GB\033[0m\n' >"$tmp/odd.log"
expect_code 0 "check --log with odd readings" "$memest" check --log "$tmp/odd.log" "${RUN[@]}"
has "$tmp/out" "compared: the largest after the first step, 52.25 GiB" "odd readings"
has "$tmp/out" "4 readings are not measurements, never compared:" "odd readings"
has "$tmp/out" "line 2: peak-gpu-memory 0.00 GB is zero, which is no measurement" "odd readings"
has "$tmp/out" "line 3: peak-gpu-memory 0x10 is not a number as the trainer prints it" "odd readings"
has "$tmp/out" "line 4: peak-gpu-memory 512 MB is not in GB" "odd readings"
has "$tmp/out" "line 5: peak-gpu-memory 70.00 GB is on a line without a step" "odd readings"
expect_code 0 "check --log --json with odd readings" "$memest" check --log "$tmp/odd.log" --json "${RUN[@]}"
python3 - "$tmp/out" >"$tmp/cmp" 2>&1 <<'PY' || bad "odd readings JSON: $(tail -1 "$tmp/cmp")"
import json, sys
d = json.load(open(sys.argv[1]))["log"]
assert d["steps"] == 2 and d["refused_count"] == 4, d
assert [r["line"] for r in d["refused"]] == [2, 3, 4, 5], d["refused"]
assert d["compared_bytes"] == round(52.25 * 2**30), d
PY
printf 'step 1 | peak-gpu-memory 0.00 GB\nstep 2 | peak-gpu-memory 0.00 GB\n' >"$tmp/zero.log"
expect_code 1 "a log of zeros" "$memest" check --log "$tmp/zero.log" "${RUN[@]}"
has "$tmp/err" "no peak-gpu-memory reading of the log is a measurement: line 1: peak-gpu-memory 0.00 GB is zero" "a log of zeros"
# The log far above the snapshots is said, not quietly taken.
expect_code 0 "check --log with snapshots" "$memest" check --log "$tmp/train.log" --snapshot "$tmp/p2/snapshot-rank00000.pickle" "${RUN[@]}"
has "$tmp/out" "Note: the log's 51.50 GiB and the largest snapshot peak" "log against snapshots"
expect_code 0 "check --log with snapshots, JSON" "$memest" check --json --log "$tmp/train.log" --snapshot "$tmp/p2/snapshot-rank00000.pickle" "${RUN[@]}"
has "$tmp/out" '"disagree":true}' "log against snapshots, JSON"

# {== Step time: the log's median over the steady steps beside the estimate's
# (tests/data/logs-time: a slow first step, a checkpoint save at step 6 and
# seven steady steps whose median is 14.251 s, 294,316 tokens/s).
LT=tests/data/logs-time
TRUN=("${RUN[@]}" --optimizer adamw)
# The launch line says benchmark=True: the run's routing is balanced.
expect_code 0 "memest --json, the estimate's step time" "$memest" --json "${TRUN[@]}" --routing balanced
cp "$tmp/out" "$tmp/est-time.json"
expect_code 0 "check --log, step time" "$memest" check --json --log $LT/slow-first.log "${TRUN[@]}"
cp "$tmp/out" "$tmp/check-time.json"
python3 - "$tmp/check-time.json" "$tmp/est-time.json" >"$tmp/cmp" 2>&1 <<'PY' || bad "step time JSON: $(tail -1 "$tmp/cmp")"
import json, sys
d = json.load(open(sys.argv[1]))
e = json.load(open(sys.argv[2]))
assert d["inputs"] == e["inputs"], "check's inputs are not memest's"
t, est = d["time"], e["time"]
lg = t["logged"]
assert (lg["step_seconds"], lg["steps"], lg["first_skipped"]) == (14.251, 7, True), lg
assert lg["first_step_seconds"] == 95.412 and lg["readings"] == 9 and lg["runs"] == 1, lg
assert lg["tokens_per_second"] == 294316, lg
assert lg["slow_count"] == 1 and lg["slow_steps"] == [{"step": 6, "line": 9, "step_seconds": 58.93}], lg
assert abs(t["estimated"]["step_seconds"] - est["step_seconds"]) < 1e-6, (t, est)
assert abs(t["estimated"]["tokens_per_second"] - est["tokens_per_second"]) < 0.1, (t, est)
want = (est["step_seconds"] - 14.251) / 14.251
assert abs(t["step_seconds_error"] - want) < 1e-5, (t["step_seconds_error"], want)
want = (est["tokens_per_second"] - 294316) / 294316
assert abs(t["tokens_per_second_error"] - want) < 1e-5, (t["tokens_per_second_error"], want)
tps = t["tokens_per_step"]
assert tps["inputs"] == 1024 * 4096 and abs(tps["difference_fraction"]) < 0.001 and not tps["disagree"], tps
assert "time_note" not in d and d["log"]["step_time"] == lg
PY
expect_code 0 "check --log, step time text" "$memest" check --log $LT/slow-first.log "${TRUN[@]}"
want=$(python3 -c "
import json, sys
e = json.load(open(sys.argv[1]))['time']
s, r = e['step_seconds'], e['tokens_per_second']
print('Step time: logged 14.25 s (median of 7 steps), estimated %.2f s, %+.1f%%' % (s, (s - 14.251) / 14.251 * 100))
print('Tokens/s: logged 294,316 (median of 7 steps), estimated {:,.0f}, {:+.1f}%'.format(r, (r - 294316) / 294316 * 100))
" "$tmp/est-time.json")
while IFS= read -r line; do has "$tmp/out" "$line" "step time text"; done <<<"$want"
has "$tmp/out" "the first step (95.41 s) is left out" "step time text"
has "$tmp/out" "1 slow step left out (over 3x the median of the others: a checkpoint save, an evaluation): step 6 58.93 s (line 9)" "step time text"
# The log's tokens a step far from the estimate's global batch x sequence.
expect_code 0 "check --log, another batch" "$memest" check --log $LT/slow-first.log "${RUN[@]:0:12}" \
  --global-batch-size 512 --sequence-length 4096 --gpu h100
has "$tmp/out" "Warning: the log's tokens-per-second x step-time is 4,194,303 tokens a step, the estimate's global batch x sequence 2,097,152 (+100.0%)" "another batch"
# A side without a figure: time is null and the note says which.
expect_code 0 "check --log, no step-time" "$memest" check --json --log $LT/no-time.log "${TRUN[@]}"
eq "$(json "$tmp/out" '" | ".join(map(str, (d["time"], d["time_note"], d["log"]["step_time"])))')" \
   "None | the log's step lines have no step-time (a trainer that did not print it) | None" "no step-time"
expect_code 0 "check --log, no GPU kind" "$memest" check --json --log $LT/slow-first.log \
  "${RUN[@]:0:16}" --optimizer adamw --gpu-memory-gb 80
eq "$(json "$tmp/out" '" ".join(map(str, (d["time"], d["time_note"].startswith("the estimate has no step time: "), d["log"]["step_time"]["step_seconds"])))')" \
   "None True 14.251" "no GPU kind"
expect_code 0 "check, snapshots only" "$memest" check --json --snapshot "$tmp/p2/snapshot-rank00000.pickle" "${TRUN[@]}"
has "$tmp/out" '"time":null,"time_note":"no log gives a step time' "snapshots only"
# A malformed step-time is an error naming its line.
expect_code 1 "check --log, malformed step-time" "$memest" check --log $LT/malformed.log "${TRUN[@]}"
has "$tmp/err" "line 7: step-time 14,305 is not a number as the trainer prints it (%.3f sec)" "malformed step-time"
# --require step-time-within=PCT: exit 3 outside PCT% either way, or with no
# comparison; a PCT that is no number above 0 is refused.
pct=$(python3 -c "import json,sys; t=json.load(open(sys.argv[1]))['time']; print(abs(t['step_seconds_error']) * 100)" "$tmp/check-time.json")
wide=$(python3 -c "print('%.3f' % (float('$pct') + 1))")
narrow=$(python3 -c "print('%.3f' % (float('$pct') - 1))")
expect_code 0 "--require step-time-within, inside" "$memest" check --log $LT/slow-first.log "${TRUN[@]}" --require "step-time-within=$wide"
expect_code 3 "--require step-time-within, outside" "$memest" check --log $LT/slow-first.log "${TRUN[@]}" --require "step-time-within=$narrow%"
has "$tmp/err" "the estimated step time is" "--require step-time-within, outside"
expect_code 3 "--require step-time-within, nothing compared" "$memest" check --log $LT/no-time.log "${TRUN[@]}" --require step-time-within=50
has "$tmp/err" "no step time was compared: the log's step lines have no step-time" "--require step-time-within, nothing compared"
expect_code 1 "--require step-time-within, no number" "$memest" check --log $LT/slow-first.log "${TRUN[@]}" --require step-time-within=-5
has "$tmp/err" "takes a number above 0 for PCT" "--require step-time-within, no number"
# W&B: output.log's step lines.
cp -r tests/trainer/wandb/run-20260723_100000-core "$tmp/wb"
grep ' step ' $LT/slow-first.log >"$tmp/wb/files/output.log"
expect_code 0 "check --wandb, step time" "$memest" check --json --wandb "$tmp/wb" "${TRUN[@]}"
eq "$(json "$tmp/out" '"%s %s" % (d["time"]["logged"]["step_seconds"], d["time"]["logged"]["steps"])')" "14.251 7" "W&B output.log"
# W&B without output.log: the summary's last step (infra/step-time,
# infra/tokens-per-second), one step.
rm "$tmp/wb/files/output.log"
printf '{"infra/peak-gpu-memory": 47.58, "infra/step-time": 14.5031, "infra/tokens-per-second": 289197.5, "train/step": 8, "_step": 8}' \
  >"$tmp/wb/files/wandb-summary.json"
expect_code 0 "check --wandb, the summary's step time" "$memest" check --json --wandb "$tmp/wb" "${TRUN[@]}"
eq "$(json "$tmp/out" '" ".join(map(str, (d["time"]["logged"][k] for k in ("step_seconds", "tokens_per_second", "steps", "first_skipped"))))')" \
   "14.5031 289197.5 1 False" "W&B summary"
expect_code 0 "check --wandb, the summary's step time, text" "$memest" check --wandb "$tmp/wb" "${TRUN[@]}"
has "$tmp/out" "Step time: logged 14.50 s (one step), estimated " "W&B summary text"
# }==

# Refusals, each with a message and exit status 1 (2 when inputs are missing).
expect_code 2 "check without files" "$memest" check "${RUN[@]}"
has "$tmp/err" "give --snapshot FILE..., --log FILE or --wandb DIR" "check without files"
expect_code 2 "check without the run" "$memest" check --log "$tmp/train.log"
expect_code 1 "missing snapshot" "$memest" check --snapshot "$tmp/nope-rank00001.pickle" "${RUN[@]}"
has "$tmp/err" "cannot read snapshot" "missing snapshot"
cp "$tmp/p2/snapshot-rank00000.pickle" "$tmp/renamed.pickle"
expect_code 1 "no rank in the name" "$memest" check --snapshot "$tmp/renamed.pickle" "${RUN[@]}"
has "$tmp/err" "cannot tell the global rank" "no rank in the name"
python3 -c "import pickle,sys; pickle.dump({'segments': set()}, open(sys.argv[1], 'wb'))" "$tmp/set-rank00001.pickle"
expect_code 1 "a set" "$memest" check --snapshot "$tmp/set-rank00001.pickle" "${RUN[@]}"
has "$tmp/err" "EMPTY_SET (a set)" "a set"
python3 -c "
import pickle, sys, collections
pickle.dump(collections.OrderedDict(a=1), open(sys.argv[1], 'wb'))" "$tmp/od-rank00001.pickle"
expect_code 1 "a class" "$memest" check --snapshot "$tmp/od-rank00001.pickle" "${RUN[@]}"
has "$tmp/err" "never imports or calls anything" "a class"
head -c 5000 "$tmp/p2/snapshot-rank00000.pickle" >"$tmp/cut-rank00000.pickle"
expect_code 1 "truncated" "$memest" check --snapshot "$tmp/cut-rank00000.pickle" "${RUN[@]}"
has "$tmp/err" "truncated" "truncated"
cp "$tmp/p2/snapshot-rank00031.pickle" "$tmp/snapshot-rank00040.pickle"
expect_code 1 "rank outside the run" "$memest" check --snapshot "$tmp/snapshot-rank00040.pickle" "${RUN[@]}"
has "$tmp/err" "is global rank 40, but the run has 32 GPUs" "rank outside the run"
echo "no figures here" >"$tmp/empty.log"
expect_code 1 "log without figures" "$memest" check --log "$tmp/empty.log" "${RUN[@]}"
has "$tmp/err" "peak-gpu-memory X GB" "log without figures"
expect_code 0 "check --help" "$memest" check --help
has "$tmp/out" "memory_profile_start" "check --help"

[ "$fails" -eq 0 ] && echo "check.sh: all checks passed"
exit $((fails > 0))
