#!/usr/bin/env bash
# Installs what building and testing memest needs on Debian 12, and only what
# is missing: compilers, cJSON and libyaml (native), libcurl (the CLI), Python
# 3 with venv and wheel (the Python package), Emscripten and
# the Debian source packages of cJSON and libyaml (WebAssembly), Chromium (page
# tests), and the npm packages pinned in package-lock.json. Safe to run again;
# quick when nothing is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
for pkg in build-essential cmake pkg-config libcjson-dev emscripten chromium dpkg-dev clang libclang-rt-14-dev; do
  have_pkg "$pkg" || need_apt+=("$pkg")
done
# libcurl, for the CLI's downloads of hub models' configs (the CLI only).
have_pkg libcurl4-openssl-dev || need_apt+=(libcurl4-openssl-dev)
command -v node >/dev/null 2>&1 || need_apt+=(nodejs npm)
# Python: the Python package's wheel (python3-wheel packs it), its tests
# (a venv installs the wheel offline) and the launch-script differential test.
for pkg in python3 python3-venv python3-wheel; do
  have_pkg "$pkg" || need_apt+=("$pkg")
done
# {== libyaml: the W&B reader's YAML (core/trainer/wandb.c) ==
have_pkg libyaml-dev || need_apt+=(libyaml-dev)
# }== libyaml ==

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

if [ ${#need_apt[@]} -gt 0 ]; then
  echo "setup: installing ${need_apt[*]}"
  as_root apt-get update -q
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -q --no-install-recommends "${need_apt[@]}"
fi

# The one Node.js version check: the minimum is package.json's engines.node.
node_min=$(node -p 'require("./package.json").engines.node.replace(/^>=\s*/, "").split(".")[0]')
if [ "$(node -p 'process.versions.node.split(".")[0]')" -lt "$node_min" ]; then
  echo "setup: Node.js $node_min or later is needed (found $(node --version)); install it and run again" >&2
  exit 1
fi

# Debian's source packages (deb-src), for the libraries the WebAssembly build compiles.
ensure_deb_src() {
  if ! ls /etc/apt/sources.list.d/memest-deb-src.* >/dev/null 2>&1; then
    src=/etc/apt/sources.list.d/debian.sources
    if [ -f "$src" ]; then
      # Derive deb-src stanzas from the existing deb822 sources.
      sed -e 's/^Types: deb$/Types: deb-src/' "$src" | as_root tee /etc/apt/sources.list.d/memest-deb-src.sources >/dev/null
    elif [ -f /etc/apt/sources.list ]; then
      grep -E '^deb ' /etc/apt/sources.list | sed -e 's/^deb /deb-src /' | as_root tee /etc/apt/sources.list.d/memest-deb-src.list >/dev/null
    fi
    as_root apt-get update -q
  fi
}

# Unpacks Debian's source package $1 into third_party/$1-src and prints the
# folder it made ("" when apt-get gave none); all else goes to stderr.
unpack_source() {
  ensure_deb_src >&2
  rm -rf "third_party/$1-src"
  mkdir -p "third_party/$1-src"
  (cd "third_party/$1-src" && apt-get source -q "$1" >/dev/null)
  find "third_party/$1-src" -maxdepth 1 -mindepth 1 -type d -name "$1-*" | head -n 1
}

# cJSON's Debian source package, for the WebAssembly build (never committed).
if [ ! -f third_party/cjson/cJSON.c ]; then
  dir=$(unpack_source cjson)
  if [ -z "$dir" ] || [ ! -f "$dir/cJSON.c" ]; then
    echo "setup: 'apt-get source cjson' did not yield cJSON.c" >&2
    exit 1
  fi
  mkdir -p third_party/cjson
  cp "$dir/cJSON.c" "$dir/cJSON.h" third_party/cjson/
  grep -m1 'CJSON_VERSION_PATCH' third_party/cjson/cJSON.h >/dev/null
fi

# {== libyaml's Debian source package, for the WebAssembly build (never committed) ==
# Only the parser's files are kept (the reader needs no emitter), with the
# package's version in VERSION for scripts/build-wasm.sh's defines.
if [ ! -f third_party/libyaml/scanner.c ]; then
  dir=$(unpack_source libyaml)
  if [ -z "$dir" ] || [ ! -f "$dir/src/scanner.c" ] || [ ! -f "$dir/include/yaml.h" ]; then
    echo "setup: 'apt-get source libyaml' did not yield src/scanner.c and include/yaml.h" >&2
    exit 1
  fi
  mkdir -p third_party/libyaml
  cp "$dir"/src/api.c "$dir"/src/reader.c "$dir"/src/scanner.c "$dir"/src/parser.c \
     "$dir"/src/yaml_private.h "$dir"/include/yaml.h third_party/libyaml/
  basename "$dir" | sed -e 's/^libyaml-//' > third_party/libyaml/VERSION
fi
# }== libyaml ==

# npm packages, exactly as locked.
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
