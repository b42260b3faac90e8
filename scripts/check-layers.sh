#!/usr/bin/env bash
# check-layers.sh — the core's folders keep their layers (core/README.md,
# "Layers"): every folder under core/ is in the layers block; every file
# of a folder is named in its README.md; a file includes core headers only
# as "folder/name.h", and only from its own folder or the folders its
# line lists; and, given the built library (libmemest_core.a), no object
# calls a function defined in a folder its folder may not use.
# Usage: scripts/check-layers.sh [path/to/libmemest_core.a]
set -euo pipefail
cd "$(dirname "$0")/.."
lib="${1:-}"
status=0
fail() {
  echo "check-layers: $*" >&2
  status=1
}

# The layers block: "folder: allowed folders".
declare -A allowed=()
while IFS= read -r line; do
  name="${line%%:*}"
  allowed[$name]=" ${line#*:} "
done < <(awk '/^```layers$/{on=1; next} /^```$/{on=0} on && /^[a-z]+:/' core/README.md)
if [ "${#allowed[@]}" -eq 0 ]; then
  echo "check-layers: core/README.md has no layers block" >&2
  exit 1
fi

for f in core/*; do
  [ "$f" = core/README.md ] && continue
  if [ ! -d "$f" ]; then
    fail "$f lies outside the folders; move it into the folder that owns it"
    continue
  fi
  [ -n "${allowed[${f#core/}]+x}" ] || fail "folder $f is not in core/README.md's layers block"
done

# Folder of every core file, by its name (names are unique across folders).
declare -A folder_of=()
for path in core/*/*.[ch]; do
  base="${path##*/}"
  dir="${path#core/}"
  dir="${dir%%/*}"
  if [ -n "${folder_of[$base]+x}" ]; then
    fail "$base is in both core/${folder_of[$base]}/ and core/$dir/: give one another name"
  fi
  folder_of[$base]="$dir"
done

for dir in "${!allowed[@]}"; do
  [ -d "core/$dir" ] || { fail "core/README.md lists $dir/, which does not exist"; continue; }
  readme="core/$dir/README.md"
  [ -f "$readme" ] || fail "core/$dir/ has no README.md saying what it owns"
  for path in core/"$dir"/*.[ch]; do
    [ -e "$path" ] || continue
    base="${path##*/}"
    [ -f "$readme" ] && ! grep -q "\`$base\`" "$readme" && fail "$readme does not name $base"
    while IFS= read -r inc; do
      case "$inc" in
        memest.h) ;;
        */*)
          to="${inc%%/*}"
          if [ "$to" != "$dir" ] && [[ "${allowed[$dir]}" != *" $to "* ]]; then
            fail "$path includes $inc, but $dir/ may not use $to/ (core/README.md, Layers)"
          fi
          [ -f "core/$inc" ] || fail "$path includes $inc, which is not a core header"
          ;;
        *)
          if [ -n "${folder_of[$inc]+x}" ]; then
            fail "$path includes \"$inc\": write \"${folder_of[$inc]}/$inc\""
          fi
          ;;
      esac
    done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$path")
  done
done

# Calls: each object's undefined symbols against the objects that define them.
if [ -n "$lib" ]; then
  [ -f "$lib" ] || { echo "check-layers: no library at $lib" >&2; exit 1; }
  declare -A defined_in=()
  while read -r obj sym; do
    defined_in[$sym]="$obj"
  done < <(nm -A --defined-only "$lib" 2>/dev/null |
           awk '$2 ~ /^[TDRB]$/ {split($1, a, ":"); print a[2], $3}')
  checked=0
  while read -r obj sym; do
    from="${obj%.o}"
    from="${from%.c}.c"
    [ -n "${folder_of[$from]+x}" ] || continue
    [ -n "${defined_in[$sym]+x}" ] || continue
    def="${defined_in[$sym]%.o}"
    def="${def%.c}.c"
    [ -n "${folder_of[$def]+x}" ] || continue
    a="${folder_of[$from]}"
    b="${folder_of[$def]}"
    checked=$((checked + 1))
    if [ "$a" != "$b" ] && [[ "${allowed[$a]}" != *" $b "* ]]; then
      fail "core/$a/$from calls $sym (core/$b/$def), but $a/ may not use $b/ (core/README.md, Layers)"
    fi
  done < <(nm -A --undefined-only "$lib" 2>/dev/null | awk '{split($1, a, ":"); print a[2], $NF}')
  [ "$checked" -gt 0 ] || fail "no calls between the core's objects found in $lib"
  echo "check-layers: $checked calls between objects checked"
fi
[ "$status" -eq 0 ] && echo "check-layers: ${#allowed[@]} folders keep their layers"
exit "$status"
