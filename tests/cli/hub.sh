#!/usr/bin/env bash
# --model org/name: the presets' hub ids, the hub's cache, memest's cache and
# downloads from a stand-in hub (tests/cli/lib/fake_hub.py, started here on a
# free loopback port, HF_ENDPOINT pointed at it): found, kept and reused, not
# found, gated (a token is needed; the right one is sent, never printed, and
# not to another host, whose 401 says so), redirects (never to file://), a
# slow server (MEMEST_HUB_TIMEOUT), bodies over the config limit, a response
# header over libcurl's, a body memest cannot read, long and odd ETags,
# HF_HUB_OFFLINE, a fake hub cache tree and its refs/main, no network, a
# password in HF_ENDPOINT (sent, never shown), an endpoint with '?' or '#',
# six downloads at once, and ids refused before any path or URL is built.
# Usage: tests/cli/hub.sh path/to/memest   (run from the repository root)
set -u
memest=$(cd "$(dirname "${1:?usage: hub.sh path/to/memest}")" && pwd)/$(basename "$1")
. "$(dirname "$0")/lib/checks.sh"
command -v python3 >/dev/null || { echo "hub: python3 is needed for the stand-in hub; skipped"; exit 77; }

ARGS=(--pp-size 4 --ep-size 8 --cp-size 1 --total-gpus 32 --micro-batch-size 1
      --global-batch-size 1024 --sequence-length 4096 --gpu h100)
PLAN=(--gpu h100 --total-gpus 32 --global-batch-size 1024 --sequence-length 4096 --ep-size 8
      --cp-size 1 --micro-batch-size 1)
COMMIT=0123456789abcdef0123456789abcdef01234567
RENAMED_COMMIT=89abcdef0123456789abcdef0123456789abcdef
TOKEN=hf_fake_token_for_tests_only
config=presets/qwen3-30b-a3b.json   # what the stand-in serves

lacks() { # file, text, description
  grep -qF -- "$2" "$1" && bad "$3: '$2' should not be in $(head -c 400 "$1")"
  return 0
}
json() { # file, python expression over d
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1" 2>/dev/null
}
same() { # got, want, description
  [ "$1" = "$2" ] || bad "$3: got '$1', expected '$2'"
}
requests() { # how many requests the stand-in saw for paths starting with $1
  [ -f "$tmp/hub.log" ] || { echo 0; return; }
  grep -c -- "^$1" "$tmp/hub.log" || true
}

# The environment of one case: nothing from the caller's, every cache in
# the scratch folder, proxies off (the stand-in is on loopback).
unset HF_HOME HF_HUB_CACHE HF_TOKEN HF_HUB_OFFLINE HF_ENDPOINT MEMEST_HUB_TIMEOUT XDG_CACHE_HOME \
      http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY
export NO_PROXY='*' no_proxy='*'
export HOME="$tmp/home"
mkdir -p "$HOME"
fresh() { # a case with empty caches
  export HF_HUB_CACHE="$tmp/hub-cache-$1" XDG_CACHE_HOME="$tmp/xdg-$1"
}

python3 tests/cli/lib/fake_hub.py "$config" "$tmp/hub.log" "$tmp/port" &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 100); do [ -f "$tmp/port" ] && break; sleep 0.1; done
[ -f "$tmp/port" ] || { echo "FAIL: the stand-in hub did not start" >&2; exit 1; }
port=$(cat "$tmp/port")
export HF_ENDPOINT="http://127.0.0.1:$port/"   # the trailing '/' is dropped
url() { echo "http://127.0.0.1:$port/$1/resolve/main/config.json"; }

"$memest" --model "$config" "${ARGS[@]}" --json > "$tmp/file.json" || bad "the served config itself"
want_peak=$(json "$tmp/file.json" 'd["peak_bytes"]')
[ -n "$want_peak" ] || bad "no peak for the served config"

# {== The presets' ids: no cache, no network.
fresh presets
export HF_HUB_OFFLINE=1
for pair in qwen3-30b-a3b:Qwen/Qwen3-30B-A3B deepseek-v2-lite:deepseek-ai/DeepSeek-V2-Lite \
            gpt-oss-20b:openai/gpt-oss-20b gpt-oss-120b:openai/gpt-oss-120b; do
  name=${pair%%:*} id=${pair#*:}
  expect_code 0 "preset id $id" "$memest" --model "$id" "${ARGS[@]}" --json
  cp "$tmp/out" "$tmp/by-id.json"
  "$memest" --model "$name" "${ARGS[@]}" --json > "$tmp/by-name.json"
  same "$(json "$tmp/by-id.json" 'd["peak_bytes"]')" "$(json "$tmp/by-name.json" 'd["peak_bytes"]')" "$id: the preset's peak"
  same "$(json "$tmp/by-id.json" 'd["inputs"]["model"], d["model_source"]["kind"], d["model_source"]["preset"]')" \
       "$id preset $name" "$id: inputs.model and model_source"
done
expect_code 0 "preset id, text" "$memest" --model Qwen/Qwen3-30B-A3B "${ARGS[@]}"
has "$tmp/out" "Config       the shipped preset qwen3-30b-a3b (Qwen/Qwen3-30B-A3B's config)" "preset id, text"
expect_code 0 "preset name, text" "$memest" --model qwen3-30b-a3b "${ARGS[@]}"
lacks "$tmp/out" "Config  " "preset name: the Model line says it all"
expect_code 0 "--list-models" "$memest" --list-models
for id in Qwen/Qwen3-30B-A3B deepseek-ai/DeepSeek-V2-Lite openai/gpt-oss-20b openai/gpt-oss-120b; do
  grep -qE "^[a-z0-9.-]+ +$id\$" "$tmp/out" || bad "--list-models lacks $id"
done
unset HF_HUB_OFFLINE
same "$(requests /)" 0 "preset ids asked the hub"
# ==}

# {== Found: downloaded, kept in memest's cache with the hub's commit.
fresh found
expect_code 0 "download" "$memest" --model test-org/Found-MoE "${ARGS[@]}" --json
kept="$XDG_CACHE_HOME/memest/hub/models--test-org--Found-MoE/snapshots/$COMMIT/config.json"
same "$(json "$tmp/out" 'd["peak_bytes"]')" "$want_peak" "download: the peak"
same "$(json "$tmp/out" 'd["inputs"]["model"]')" "test-org/Found-MoE" "download: inputs.model"
same "$(json "$tmp/out" 'd["model_source"]["kind"], d["model_source"]["revision"], d["model_source"]["url"], d["model_source"]["path"]')" \
     "download $COMMIT $(url test-org/Found-MoE) $kept" "download: model_source"
cmp -s "$kept" "$config" || bad "download: the kept config differs from the served one"
same "$(cat "$XDG_CACHE_HOME/memest/hub/models--test-org--Found-MoE/refs/main")" "$COMMIT" "download: refs/main"
ls -A "$XDG_CACHE_HOME/memest/hub/models--test-org--Found-MoE/snapshots/$COMMIT" | grep -q '^\.' &&
  bad "download: a temporary file was left behind"
[ -e "$HF_HUB_CACHE" ] && bad "download: something was written into the hub's cache"
same "$(requests "/test-org/Found-MoE/")" 1 "download: requests"
# The second run, and plan, compare and check, read memest's cache.
expect_code 0 "memest's cache" "$memest" --model test-org/Found-MoE "${ARGS[@]}" --json
same "$(json "$tmp/out" 'd["model_source"]["kind"], d["model_source"]["revision"], d["model_source"]["path"], d["model_source"]["url"]')" \
     "memest-cache $COMMIT $kept None" "memest's cache: model_source"
same "$(json "$tmp/out" 'd["peak_bytes"]')" "$want_peak" "memest's cache: the peak"
expect_code 0 "memest's cache, text" "$memest" --model test-org/Found-MoE "${ARGS[@]}"
has "$tmp/out" "Config       memest's cache, $kept (revision $COMMIT" "memest's cache, text"
expect_code 0 "plan from memest's cache" "$memest" plan --model test-org/Found-MoE "${PLAN[@]}" --json
same "$(json "$tmp/out" 'd["inputs"]["model"], d["model_source"]["kind"]')" "test-org/Found-MoE memest-cache" "plan: model_source"
expect_code 0 "compare from memest's cache" "$memest" compare --model test-org/Found-MoE "${PLAN[@]}" --pp-size 2,4
has "$tmp/out" "Config     memest's cache, $kept" "compare: the Config line"
printf 'step 00000001/00000003 | peak-gpu-memory 60.10 GB\nstep 00000002/00000003 | peak-gpu-memory 51.25 GB\n' > "$tmp/run.log"
expect_code 0 "check from memest's cache" "$memest" check --log "$tmp/run.log" --model test-org/Found-MoE "${ARGS[@]}" --json
same "$(json "$tmp/out" 'd["model_source"]["kind"], d["model_source"]["path"]')" "memest-cache $kept" "check: model_source"
same "$(requests "/test-org/Found-MoE/")" 1 "memest's cache: the hub was asked again"
# Offline, memest's cache still answers.
HF_HUB_OFFLINE=1 expect_code 0 "offline, memest's cache" "$memest" --model test-org/Found-MoE "${ARGS[@]}"
# Deleting the model's folder downloads it again.
rm -rf "$XDG_CACHE_HOME/memest/hub/models--test-org--Found-MoE"
expect_code 0 "download after deleting" "$memest" --model test-org/Found-MoE "${ARGS[@]}"
has "$tmp/out" "Config       downloaded from $(url test-org/Found-MoE) (revision $COMMIT), kept in $kept" "download, text"
same "$(requests "/test-org/Found-MoE/")" 2 "download after deleting: requests"
# Without XDG_CACHE_HOME, memest's cache is under HOME.
unset XDG_CACHE_HOME
expect_code 0 "memest's cache under HOME" "$memest" --model test-org/Found-MoE "${ARGS[@]}" --json
same "$(json "$tmp/out" 'd["model_source"]["path"]')" \
     "$HOME/.cache/memest/hub/models--test-org--Found-MoE/snapshots/$COMMIT/config.json" "memest's cache under HOME"
# ==}

# {== The hub's cache: a tree as huggingface_hub writes it, read, never asked.
fresh hubcache
snap="$HF_HUB_CACHE/models--test-org--Cached-MoE/snapshots/$COMMIT"
mkdir -p "$snap" "$HF_HUB_CACHE/models--test-org--Cached-MoE/blobs" "$HF_HUB_CACHE/models--test-org--Cached-MoE/refs"
cp "$config" "$HF_HUB_CACHE/models--test-org--Cached-MoE/blobs/5f0c1d"
ln -s ../../blobs/5f0c1d "$snap/config.json"
printf '%s' "$COMMIT" > "$HF_HUB_CACHE/models--test-org--Cached-MoE/refs/main"
HF_HUB_OFFLINE=1 expect_code 0 "hub cache" "$memest" --model test-org/Cached-MoE "${ARGS[@]}" --json
same "$(json "$tmp/out" 'd["model_source"]["kind"], d["model_source"]["revision"], d["model_source"]["path"]')" \
     "hub-cache $COMMIT $snap/config.json" "hub cache: model_source"
same "$(json "$tmp/out" 'd["peak_bytes"]')" "$want_peak" "hub cache: the peak"
expect_code 0 "hub cache, text" "$memest" --model test-org/Cached-MoE "${ARGS[@]}"
has "$tmp/out" "Config       the hub's cache, $snap/config.json (revision $COMMIT)" "hub cache, text"
# HF_HOME/hub when HF_HUB_CACHE is unset, and XDG_CACHE_HOME/huggingface/hub after it.
mkdir -p "$tmp/hf-home" && cp -r "$HF_HUB_CACHE" "$tmp/hf-home/hub"
(unset HF_HUB_CACHE; HF_HOME="$tmp/hf-home" HF_HUB_OFFLINE=1 "$memest" --model test-org/Cached-MoE "${ARGS[@]}" --json) > "$tmp/out"
same "$(json "$tmp/out" 'd["model_source"]["path"]')" "$tmp/hf-home/hub/models--test-org--Cached-MoE/snapshots/$COMMIT/config.json" "HF_HOME/hub"
mkdir -p "$tmp/xdg-hf/huggingface" && cp -r "$HF_HUB_CACHE" "$tmp/xdg-hf/huggingface/hub"
(unset HF_HUB_CACHE; XDG_CACHE_HOME="$tmp/xdg-hf" HF_HUB_OFFLINE=1 "$memest" --model test-org/Cached-MoE "${ARGS[@]}" --json) > "$tmp/out"
same "$(json "$tmp/out" 'd["model_source"]["kind"]')" "hub-cache" "XDG_CACHE_HOME/huggingface/hub"
# The hub's cache wins over memest's.
mkdir -p "$XDG_CACHE_HOME/memest/hub" && cp -r "$HF_HUB_CACHE/models--test-org--Cached-MoE" "$XDG_CACHE_HOME/memest/hub/"
HF_HUB_OFFLINE=1 expect_code 0 "hub cache before memest's" "$memest" --model test-org/Cached-MoE "${ARGS[@]}" --json
same "$(json "$tmp/out" 'd["model_source"]["kind"]')" "hub-cache" "the hub's cache first"
# A ref that names no commit is refused, not followed.
printf '../../../../etc' > "$HF_HUB_CACHE/models--test-org--Cached-MoE/refs/main"
expect_code 1 "a bad refs/main" "$memest" --model test-org/Cached-MoE "${ARGS[@]}"
has "$tmp/err" "cannot look up model 'test-org/Cached-MoE': its cache's ref '$HF_HUB_CACHE/models--test-org--Cached-MoE/refs/main' (the file that names the revision of the snapshot to read) does not hold a revision" "a bad refs/main"
# refs/main is named as what it is, never as a config file, whatever is wrong with it.
ref="$HF_HUB_CACHE/models--test-org--Cached-MoE/refs/main"
for kind in folder fifo huge unreadable; do
  rm -rf "$ref"
  case $kind in
    folder) mkdir "$ref" ;;
    fifo) mkfifo "$ref" ;;
    huge) head -c 2000000 /dev/zero | tr '\0' 0 > "$ref" ;;
    unreadable) printf '%s' "$COMMIT" > "$ref"; chmod 000 "$ref"
                [ -r "$ref" ] && continue ;;   # root reads it anyway
  esac
  HF_HUB_OFFLINE=1 expect_code 1 "refs/main: $kind" timeout 10 "$memest" --model test-org/Cached-MoE "${ARGS[@]}"
  has "$tmp/err" "its cache's ref '$ref' (the file that names the revision of the snapshot to read)" "refs/main: $kind"
  has "$tmp/err" "delete the folder $HF_HUB_CACHE/models--test-org--Cached-MoE" "refs/main: $kind"
  lacks "$tmp/err" "config file" "refs/main: $kind"
  chmod 600 "$ref" 2>/dev/null
done
rm -rf "$ref"
printf '%s' "$COMMIT" > "$ref"
# A repo whose snapshot lacks config.json is downloaded.
mkdir -p "$HF_HUB_CACHE/models--test-org--Found-MoE/refs" "$HF_HUB_CACHE/models--test-org--Found-MoE/snapshots/$COMMIT"
printf '%s' "$COMMIT" > "$HF_HUB_CACHE/models--test-org--Found-MoE/refs/main"
before=$(requests "/test-org/Found-MoE/")
expect_code 0 "hub cache without config.json" "$memest" --model test-org/Found-MoE "${ARGS[@]}" --json
same "$(json "$tmp/out" 'd["model_source"]["kind"]')" "download" "hub cache without config.json"
same "$(requests "/test-org/Found-MoE/")" $((before + 1)) "hub cache without config.json: requests"
[ -e "$HF_HUB_CACHE/models--test-org--Found-MoE/snapshots/$COMMIT/config.json" ] &&
  bad "the download was written into the hub's cache"
# ==}

# {== Offline: no cache has it, no request is made.
fresh offline
before=$(requests /)
HF_HUB_OFFLINE=1 expect_code 1 "offline" "$memest" --model test-org/Found-MoE "${ARGS[@]}"
has "$tmp/err" "model 'test-org/Found-MoE' is in neither the hub's cache ($HF_HUB_CACHE/models--test-org--Found-MoE) nor memest's ($XDG_CACHE_HOME/memest/hub/models--test-org--Found-MoE)" "offline"
has "$tmp/err" "HF_HUB_OFFLINE=1 forbids downloading it from $(url test-org/Found-MoE)" "offline"
HF_HUB_OFFLINE=yes expect_code 1 "offline, yes" "$memest" plan --model test-org/Found-MoE "${PLAN[@]}"
has "$tmp/err" "HF_HUB_OFFLINE=1 forbids" "offline, yes"
HF_HUB_OFFLINE=sometimes expect_code 1 "HF_HUB_OFFLINE unknown" "$memest" --model test-org/Found-MoE "${ARGS[@]}"
has "$tmp/err" "HF_HUB_OFFLINE is 'sometimes'" "HF_HUB_OFFLINE unknown"
same "$(requests /)" "$before" "offline: the hub was asked"
[ -e "$XDG_CACHE_HOME" ] && bad "offline: memest's cache was made"
# ==}

# {== The hub's refusals.
fresh refusals
expect_code 1 "not found" "$memest" --model test-org/Missing "${ARGS[@]}"
has "$tmp/err" "the hub has no model 'test-org/Missing' ($(url test-org/Missing): HTTP 404: \"Repository not found\")" "not found"
has "$tmp/err" "neither the hub's cache ($HF_HUB_CACHE/models--test-org--Missing) nor memest's ($XDG_CACHE_HOME/memest/hub/models--test-org--Missing) has it" "not found: the caches named"
expect_code 1 "no config.json" "$memest" --model test-org/No-Config "${ARGS[@]}"
has "$tmp/err" "model 'test-org/No-Config' has no config.json on the hub" "no config.json"
expect_code 1 "not found, JSON" "$memest" --model test-org/Missing "${ARGS[@]}" --json
same "$(json "$tmp/out" 'd["error"]["code"], d["error"]["field"]')" "io model" "not found, JSON"
expect_code 1 "gated, no token" "$memest" --model test-org/Gated-MoE "${ARGS[@]}"
has "$tmp/err" "HTTP 401" "gated, no token"
has "$tmp/err" "a token is needed: set HF_TOKEN" "gated, no token"
has "$tmp/err" "no token was sent" "gated, no token"
HF_TOKEN=hf_wrong_token expect_code 1 "gated, a wrong token" "$memest" --model test-org/Gated-MoE "${ARGS[@]}"
has "$tmp/err" "HTTP 403" "gated, a wrong token"
has "$tmp/err" "HF_TOKEN was sent, but its account has no access" "gated, a wrong token"
lacks "$tmp/err" "hf_wrong_token" "gated, a wrong token: the token printed"
HF_TOKEN=$TOKEN expect_code 0 "gated, the token" "$memest" --model test-org/Gated-MoE "${ARGS[@]}" --json
same "$(json "$tmp/out" 'd["model_source"]["kind"], d["peak_bytes"]')" "download $want_peak" "gated, the token"
lacks "$tmp/out" "$TOKEN" "gated: the token printed"
same "$(grep -c "^/test-org/Gated-MoE/.* Bearer_$TOKEN " "$tmp/hub.log")" 1 "gated: the token sent once"
HF_TOKEN="$(printf 'hf_a\r\nX-Injected: 1')" expect_code 1 "a token with a line break" "$memest" --model test-org/Gated-MoE "${ARGS[@]}"
has "$tmp/err" "HF_TOKEN holds a space, a line break" "a token with a line break"
lacks "$tmp/err" "hf_a" "a token with a line break: printed"
expect_code 1 "server error" "$memest" --model test-org/Broken "${ARGS[@]}"
has "$tmp/err" "HTTP 500" "server error"
# ==}

# {== Redirects: a renamed repo (307) to the file store (302); the token
# goes to the hub's host and not to another.
fresh redirects
expect_code 0 "redirects" "$memest" --model test-org/Old-Name "${ARGS[@]}" --json
same "$(json "$tmp/out" 'd["model_source"]["kind"], d["model_source"]["revision"], d["model_source"]["url"], d["peak_bytes"]')" \
     "download $RENAMED_COMMIT $(url test-org/Old-Name) $want_peak" "redirects: the commit along the way"
[ -f "$XDG_CACHE_HOME/memest/hub/models--test-org--Old-Name/snapshots/$RENAMED_COMMIT/config.json" ] ||
  bad "redirects: kept under the id asked for"
HF_TOKEN=$TOKEN expect_code 0 "redirect to another host" "$memest" --model test-org/Other-Host "${ARGS[@]}"
grep -q "^/test-org/Other-Host/resolve/main/config.json Bearer_$TOKEN " "$tmp/hub.log" || bad "the token did not reach the hub"
grep -q "^/elsewhere/config.json - localhost:$port" "$tmp/hub.log" || bad "the token followed a redirect to another host: $(grep elsewhere "$tmp/hub.log")"
expect_code 1 "a redirect loop" "$memest" --model test-org/Loop "${ARGS[@]}"
has "$tmp/err" "met over 10 redirects" "a redirect loop"
# ==}

# {== What the hub sends but memest does not keep.
fresh bodies
expect_code 1 "a body over the limit" "$memest" --model test-org/Huge "${ARGS[@]}"
has "$tmp/err" "the config of 'test-org/Huge' from $(url test-org/Huge) is over MEMEST_MAX_CONFIG_BYTES = 1048576 bytes" "a body over the limit"
expect_code 1 "a chunked body over the limit" "$memest" --model test-org/Huge-Chunked "${ARGS[@]}"
has "$tmp/err" "is over MEMEST_MAX_CONFIG_BYTES = 1048576 bytes" "a chunked body over the limit"
expect_code 1 "not a config" "$memest" --model test-org/Not-Json "${ARGS[@]}"
has "$tmp/err" "the config of 'test-org/Not-Json' downloaded from $(url test-org/Not-Json) is not one memest reads" "not a config"
[ -e "$XDG_CACHE_HOME/memest/hub/models--test-org--Not-Json" ] && bad "not a config: it was kept"
[ -e "$XDG_CACHE_HOME/memest/hub/models--test-org--Huge" ] && bad "a body over the limit: it was kept"
# No revision named: used, not kept, asked again next time.
expect_code 0 "no revision" "$memest" --model test-org/No-Revision "${ARGS[@]}" --json
same "$(json "$tmp/out" 'd["model_source"]["kind"], d["model_source"]["revision"], d["model_source"]["path"]')" "download None None" "no revision"
expect_code 0 "no revision, text" "$memest" --model test-org/No-Revision "${ARGS[@]}"
has "$tmp/out" "the server named no revision, so it was not kept" "no revision, text"
same "$(requests "/test-org/No-Revision/")" 2 "no revision: requests"
expect_code 0 "an ETag only" "$memest" --model test-org/Etag-Only "${ARGS[@]}" --json
same "$(json "$tmp/out" 'd["model_source"]["revision"]')" "etag-abc123" "an ETag only"
[ -f "$XDG_CACHE_HOME/memest/hub/models--test-org--Etag-Only/snapshots/etag-abc123/config.json" ] || bad "an ETag only: not kept"
# A cache folder that cannot be made: the download is not used silently.
fresh unwritable
printf 'a file' > "$tmp/in-the-way"
XDG_CACHE_HOME="$tmp/in-the-way" expect_code 1 "memest's cache cannot be made" "$memest" --model test-org/Found-MoE "${ARGS[@]}"
has "$tmp/err" "was downloaded from $(url test-org/Found-MoE), but memest cannot keep it in its cache: cannot make the folder '$tmp/in-the-way/memest'" "memest's cache cannot be made"
# ==}

# {== Time limits and no network.
fresh slow
MEMEST_HUB_TIMEOUT=0.5 expect_code 1 "a slow hub" timeout 8 "$memest" --model test-org/Slow "${ARGS[@]}"
has "$tmp/err" "downloading the config of 'test-org/Slow' from $(url test-org/Slow) took over 0.5 s" "a slow hub"
MEMEST_HUB_TIMEOUT=soon expect_code 1 "a bad MEMEST_HUB_TIMEOUT" "$memest" --model test-org/Slow "${ARGS[@]}"
has "$tmp/err" "MEMEST_HUB_TIMEOUT is 'soon'" "a bad MEMEST_HUB_TIMEOUT"
closed=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
HF_ENDPOINT="http://127.0.0.1:$closed" expect_code 1 "no network" "$memest" --model test-org/Found-MoE "${ARGS[@]}"
has "$tmp/err" "cannot download the config of 'test-org/Found-MoE' from http://127.0.0.1:$closed/test-org/Found-MoE/resolve/main/config.json: Failed to connect to 127.0.0.1 port $closed" "no network"
HF_ENDPOINT="ftp://127.0.0.1" expect_code 1 "an endpoint that is not http" "$memest" --model test-org/Found-MoE "${ARGS[@]}"
has "$tmp/err" "cannot look up model 'test-org/Found-MoE': HF_ENDPOINT 'ftp://127.0.0.1' is not an http:// or https:// URL" "an endpoint that is not http"
# ==}

# {== Values that are not ids are refused before any path or URL is built:
# no request, no cache folder, and the message says why it is no id.
fresh bad-ids
before=$(requests /)
long="o/$(printf 'n%.0s' $(seq 95))"
for pair in "../x|organisation starts or ends" "a/b/c|more than one '/'" "org/|its name is empty" \
            "-org/name|organisation starts or ends" "org/name.|name starts or ends" \
            "a--b/c|\"--\" or \"..\"" "org/a..b|\"--\" or \"..\"" "org/name.git|ends in \".git\"" \
            "org/na me|character other than" "$long|97 characters long, over the hub's 96" \
            "./test-org/Found-MoE|more than one '/'"; do
  value=${pair%%|*} why=${pair#*|}
  expect_code 1 "not an id: $value" "$memest" --model "$value" "${ARGS[@]}"
  has "$tmp/err" "cannot read config file '$value'" "not an id: $value"
  has "$tmp/err" "nor is it a hub id: " "not an id: $value"
  has "$tmp/err" "$why" "not an id: $value"
done
same "$(requests /)" "$before" "bad ids: the hub was asked"
[ -e "$XDG_CACHE_HOME" ] && bad "bad ids: memest's cache was made"
# A path that exists wins over an id of the same form, as for transformers.
mkdir -p "$tmp/work/test-org/Found-MoE"
cp presets/deepseek-v2-lite.json "$tmp/work/test-org/Found-MoE/config.json"
(cd "$tmp/work" && "$memest" --model test-org/Found-MoE "${ARGS[@]}" --json) > "$tmp/out"
same "$(json "$tmp/out" 'd["model_source"]["kind"], d["model_source"]["path"], d["model"]["model_type"]')" \
     "file test-org/Found-MoE/config.json deepseek_v2" "an existing folder wins"
same "$(requests /)" "$before" "an existing folder: the hub was asked"
# ==}

# {== A user name and password in HF_ENDPOINT are sent, never shown: not in
# the Config line, model_source.url, an error (text or JSON) or the cache.
fresh userinfo
secret=s3cret-pw
with_user="http://someone:$secret@127.0.0.1:$port"
HF_ENDPOINT=$with_user expect_code 0 "user-info: download" "$memest" --model test-org/Found-MoE "${ARGS[@]}" --json
same "$(json "$tmp/out" 'd["model_source"]["kind"], d["model_source"]["url"]')" "download $(url test-org/Found-MoE)" "user-info: model_source.url"
lacks "$tmp/out" "$secret" "user-info: JSON"
lacks "$tmp/out" "someone" "user-info: JSON"
grep -q "^/test-org/Found-MoE/resolve/main/config.json Basic_" "$tmp/hub.log" || bad "user-info: the credentials were not sent"
grep -rq "$secret" "$XDG_CACHE_HOME" && bad "user-info: the password is in memest's cache"
rm -rf "$XDG_CACHE_HOME"
HF_ENDPOINT=$with_user expect_code 0 "user-info: text" "$memest" --model test-org/Found-MoE "${ARGS[@]}"
has "$tmp/out" "Config       downloaded from $(url test-org/Found-MoE) (revision $COMMIT)" "user-info: the Config line"
lacks "$tmp/out" "$secret" "user-info: text"
for id in test-org/Missing test-org/Gated-MoE test-org/Huge test-org/Not-Json test-org/Userinfo-Redirect; do
  HF_ENDPOINT=$with_user expect_code 1 "user-info: $id" "$memest" --model "$id" "${ARGS[@]}"
  has "$tmp/err" "$(url "$id")" "user-info: $id names the URL"
  lacks "$tmp/err" "$secret" "user-info: $id"
  lacks "$tmp/err" "someone:" "user-info: $id"
  HF_ENDPOINT=$with_user expect_code 1 "user-info: $id, JSON" "$memest" --model "$id" "${ARGS[@]}" --json
  lacks "$tmp/out" "$secret" "user-info: $id, JSON"
done
HF_ENDPOINT=$with_user expect_code 1 "user-info: a redirect's password" "$memest" --model test-org/Userinfo-Redirect "${ARGS[@]}"
has "$tmp/err" "redirected to $(url test-org/Missing)" "user-info: a redirect's password"
lacks "$tmp/err" "hunter2" "user-info: a redirect's password"
HF_ENDPOINT=$with_user HF_HUB_OFFLINE=1 expect_code 1 "user-info: offline" "$memest" --model test-org/Other-MoE "${ARGS[@]}"
has "$tmp/err" "forbids downloading it from $(url test-org/Other-MoE)" "user-info: offline"
lacks "$tmp/err" "$secret" "user-info: offline"
HF_ENDPOINT="ftp://someone:$secret@127.0.0.1" expect_code 1 "user-info: not http" "$memest" --model test-org/Found-MoE "${ARGS[@]}"
has "$tmp/err" "HF_ENDPOINT 'ftp://127.0.0.1' is not an http:// or https:// URL" "user-info: not http"
lacks "$tmp/err" "$secret" "user-info: not http"
HF_ENDPOINT="http://someone:pa/$secret@127.0.0.1:$port" expect_code 1 "user-info: a '/' in the password" "$memest" --model test-org/Found-MoE "${ARGS[@]}"
has "$tmp/err" "HF_ENDPOINT holds an '@' after its host" "user-info: a '/' in the password"
lacks "$tmp/err" "$secret" "user-info: a '/' in the password"
# ==}

# {== An endpoint with a query or a fragment would ask every id at one URL.
fresh query
before=$(requests /)
for end in "/?x=" "/#top" "?rev=1"; do
  HF_ENDPOINT="http://127.0.0.1:$port$end" expect_code 1 "an endpoint with $end" "$memest" --model test-org/Found-MoE "${ARGS[@]}"
  has "$tmp/err" "HF_ENDPOINT 'http://127.0.0.1:$port$end' holds a '${end//[^?#]/}'" "an endpoint with $end"
  has "$tmp/err" "set HF_ENDPOINT to the hub's address alone, without '?' or '#'" "an endpoint with $end"
done
same "$(requests /)" "$before" "an endpoint with a query: the hub was asked"
[ -e "$XDG_CACHE_HOME" ] && bad "an endpoint with a query: memest's cache was made"
# ==}

# {== A 401 from another host the hub redirects to: the token was not sent
# there, and the message says so rather than that it was refused.
fresh other-host
HF_TOKEN=$TOKEN expect_code 1 "401 from another host" "$memest" --model test-org/Other-Host-Gated "${ARGS[@]}"
has "$tmp/err" "the config of 'test-org/Other-Host-Gated' ($(url test-org/Other-Host-Gated), redirected to http://localhost:$port/elsewhere-gated/config.json) was refused by localhost:$port (HTTP 401: \"Signature expired\")" "401 from another host"
has "$tmp/err" "HF_TOKEN is set but was not sent there, since memest sends it only to the endpoint's host 127.0.0.1:$port" "401 from another host"
lacks "$tmp/err" "HF_TOKEN was sent" "401 from another host"
lacks "$tmp/err" "set HF_TOKEN" "401 from another host"
lacks "$tmp/err" "$TOKEN" "401 from another host: the token printed"
grep -q "^/elsewhere-gated/config.json - " "$tmp/hub.log" || bad "401 from another host: the token followed the redirect"
expect_code 1 "401 from another host, no token" "$memest" --model test-org/Other-Host-Gated "${ARGS[@]}"
has "$tmp/err" "was refused by localhost:$port (HTTP 401: \"Signature expired\"), where the hub sent memest; no token was sent there (HF_TOKEN is unset), nor would one be" "401 from another host, no token"
# A 401 from the endpoint's own host after a redirect: the token was sent there, and refused.
HF_TOKEN=hf_wrong_token expect_code 1 "401 after a redirect on the hub's host" "$memest" --model test-org/Renamed-Gated "${ARGS[@]}"
has "$tmp/err" "redirected to $(url test-org/Gated-Target): HTTP 401: \"Invalid credentials\")" "401 after a redirect on the hub's host"
has "$tmp/err" "(HF_TOKEN was sent, and refused: check that it is valid)" "401 after a redirect on the hub's host"
same "$(grep -c "^/test-org/Gated-Target/.* Bearer_hf_wrong_token " "$tmp/hub.log")" 1 "401 after a redirect on the hub's host: the token went along"
HF_TOKEN=$TOKEN expect_code 0 "a redirect on the hub's host, the token" "$memest" --model test-org/Renamed-Gated "${ARGS[@]}"
# ==}

# {== A response header over libcurl's limit is named, not "out of memory".
fresh big-header
expect_code 1 "a 200 KiB header" "$memest" --model test-org/Big-Header "${ARGS[@]}"
has "$tmp/err" "the answer for the config of 'test-org/Big-Header' ($(url test-org/Big-Header)) has a response header over the 102400 bytes libcurl takes for one header" "a 200 KiB header"
lacks "$tmp/err" "Out of memory" "a 200 KiB header"
[ -e "$XDG_CACHE_HOME/memest/hub/models--test-org--Big-Header" ] && bad "a 200 KiB header: kept"
# ==}

# {== ETags are never cut: one that cannot name a folder as it is (long,
# or with other characters) is named by its SHA-256.
fresh etags
for id in test-org/Long-Etag-A test-org/Long-Etag-B test-org/Odd-Etag; do
  case $id in
    *-A) etag=$(printf 'e%.0s' $(seq 64))$(printf 'A%.0s' $(seq 36)) ;;
    *-B) etag=$(printf 'e%.0s' $(seq 64))$(printf 'B%.0s' $(seq 36)) ;;
    *) etag='ab+/cd==' ;;
  esac
  want="etag-sha256-$(printf '%s' "$etag" | sha256sum | cut -d' ' -f1)"
  expect_code 0 "ETag of $id" "$memest" --model "$id" "${ARGS[@]}" --json
  same "$(json "$tmp/out" 'd["model_source"]["revision"]')" "$want" "ETag of $id: the revision"
  [ -f "$XDG_CACHE_HOME/memest/hub/models--${id/\//--}/snapshots/$want/config.json" ] || bad "ETag of $id: not kept under $want"
  expect_code 0 "ETag of $id, again" "$memest" --model "$id" "${ARGS[@]}" --json
  same "$(json "$tmp/out" 'd["model_source"]["kind"], d["model_source"]["revision"]')" "memest-cache $want" "ETag of $id: read back"
done
same "$(requests /test-org/Long-Etag-A/)" 1 "a long ETag: requests"
# ==}

# {== What held before: a redirect to file:// is refused, and downloads at
# once of one id leave one good file and no temporary ones.
fresh file-redirect
expect_code 1 "a redirect to file://" "$memest" --model test-org/To-File "${ARGS[@]}"
has "$tmp/err" "cannot download the config of 'test-org/To-File' from $(url test-org/To-File), redirected to" "a redirect to file://"
lacks "$tmp/err" "root:" "a redirect to file://"
fresh at-once
pids=()
for i in 1 2 3 4 5 6; do
  "$memest" --model test-org/Slowish "${ARGS[@]}" --json > "$tmp/at-once-$i.json" 2> "$tmp/at-once-$i.err" &
  pids+=($!)
done
for i in 1 2 3 4 5 6; do
  wait "${pids[$((i - 1))]}" || bad "downloads at once: run $i failed: $(head -c 300 "$tmp/at-once-$i.err")"
  same "$(json "$tmp/at-once-$i.json" 'd["peak_bytes"]')" "$want_peak" "downloads at once: run $i's peak"
done
folder="$XDG_CACHE_HOME/memest/hub/models--test-org--Slowish"
cmp -s "$folder/snapshots/$COMMIT/config.json" "$config" || bad "downloads at once: the kept config"
same "$(cat "$folder/refs/main")" "$COMMIT" "downloads at once: refs/main"
same "$(find "$folder" -type f | wc -l)" 2 "downloads at once: files left ($(find "$folder" -type f))"
# ==}

if [ "$fails" -eq 0 ]; then echo "hub: all checks passed"; exit 0; fi
echo "hub: $fails checks failed"; exit 1
