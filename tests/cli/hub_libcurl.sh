#!/usr/bin/env bash
# libcurl is loaded when a download starts, not when memest starts: the
# program does not name it among the libraries it needs, every run that
# downloads nothing works where the libcurl found is broken, and a download
# there says that libcurl cannot be loaded and what to do.
# Usage: tests/cli/hub_libcurl.sh path/to/memest   (run from the repository root)
set -u
memest=$(cd "$(dirname "${1:?usage: hub_libcurl.sh path/to/memest}")" && pwd)/$(basename "$1")
. "$(dirname "$0")/lib/checks.sh"
lacks() { # file, text, description
  grep -qF -- "$2" "$1" && bad "$3: '$2' should not be in $(head -c 400 "$1")"
  return 0
}

ARGS=(--pp-size 4 --ep-size 8 --cp-size 1 --total-gpus 32 --micro-batch-size 1
      --global-batch-size 1024 --sequence-length 4096 --gpu h100)

# The libraries loaded at start (ldd: those needed and theirs in turn;
# else readelf: those the program names): none of libcurl's.
if command -v ldd >/dev/null; then
  ldd "$memest" > "$tmp/needed" || bad "ldd cannot list the program's libraries"
elif command -v readelf >/dev/null; then
  readelf -d "$memest" | grep NEEDED > "$tmp/needed" || bad "readelf found no NEEDED entry"
else
  echo "hub_libcurl: neither ldd nor readelf; the check of the libraries loaded at start is skipped"
  : > "$tmp/needed"
fi
for lib in libcurl libssl libcrypto libgssapi libldap libnghttp2 libssh; do
  lacks "$tmp/needed" "$lib" "the program loads $lib at start"
done

# A libcurl.so.4 that is no library, found first.
mkdir -p "$tmp/lib" "$tmp/home"
printf 'not a library\n' > "$tmp/lib/libcurl.so.4"
export LD_LIBRARY_PATH="$tmp/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
unset HF_HOME HF_HUB_CACHE HF_TOKEN HF_HUB_OFFLINE MEMEST_HUB_TIMEOUT
export HOME="$tmp/home" XDG_CACHE_HOME="$tmp/xdg" HF_HUB_CACHE="$tmp/hub-cache"
export HF_ENDPOINT="http://127.0.0.1:9"   # never reached: libcurl fails first

expect_code 0 "an estimate with a broken libcurl" "$memest" --model qwen3-30b-a3b "${ARGS[@]}" --json
[ -n "$(json "$tmp/out" 'd["peak_bytes"]')" ] || bad "an estimate with a broken libcurl: no peak"
expect_code 0 "a preset's hub id with a broken libcurl" "$memest" --model Qwen/Qwen3-30B-A3B "${ARGS[@]}"
expect_code 0 "--list-models with a broken libcurl" "$memest" --list-models
expect_code 1 "a download with a broken libcurl" "$memest" --model test-org/Found-MoE "${ARGS[@]}"
has "$tmp/err" "cannot download the config of 'test-org/Found-MoE' from http://127.0.0.1:9/test-org/Found-MoE/resolve/main/config.json: libcurl.so.4 cannot be loaded (" "a download with a broken libcurl"
has "$tmp/err" "install libcurl (Debian: apt-get install libcurl4), or give the model's config.json as a file" "a download with a broken libcurl"
[ -e "$XDG_CACHE_HOME" ] && bad "a download with a broken libcurl: memest's cache was made"

if [ "$fails" -eq 0 ]; then echo "hub_libcurl: all checks passed"; exit 0; fi
echo "hub_libcurl: $fails checks failed"; exit 1
