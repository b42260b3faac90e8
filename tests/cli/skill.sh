#!/usr/bin/env bash
# skills/estimate-memory/SKILL.md, the assistant skill: its front matter is
# what a skills folder reads (name = folder name, a description), every
# flag it names is one the CLI knows, and every memest command in its
# ```sh blocks runs as written (exit 0, a status in its output).
# Usage: tests/cli/skill.sh path/to/memest   (run from the repository root)
set -u
memest=$(realpath "${1:?usage: skill.sh path/to/memest}")
skill=skills/estimate-memory/SKILL.md
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad() { echo "skill: $*" >&2; failed=1; }

[ -f "$skill" ] || { echo "skill: $skill is missing" >&2; exit 1; }
[ "$(sed -n 1p "$skill")" = "---" ] || bad "the file does not open with front matter"
front=$(sed -n '2,/^---$/p' "$skill")
grep -qx "name: estimate-memory" <<<"$front" || bad "front matter: name is not the folder's name, estimate-memory"
grep -q "^description: .\{80,\}" <<<"$front" || bad "front matter: no description of at least 80 characters"

# Every --flag the skill names is in some --help of the CLI.
help=$("$memest" --help 2>&1; "$memest" plan --help 2>&1; "$memest" compare --help 2>&1; "$memest" 2>&1)
for flag in $(grep -o -- '--[a-z][a-z0-9-]*' "$skill" | sort -u); do
  grep -q -- "$flag\b" <<<"$help" || bad "the skill names $flag, which no --help lists"
done

# Each command of a ```sh block, continuation lines joined, runs.
n=0
while IFS= read -r cmd; do
  n=$((n + 1))
  out=$(cd "$tmp" && eval "\"$memest\"${cmd#memest}" 2>&1) || { bad "exit $?: $cmd"; continue; }
  grep -qE '\b(OK|TIGHT|OOM)\b' <<<"$out" || bad "no status in the output of: $cmd"
done < <(awk '/^ *```sh$/{on=1; next} /^ *```$/{on=0} on' "$skill" | sed -e 's/^ *//' -e ':a' -e '/\\$/N; s/\\\n *//; ta' | grep '^memest ')
[ "$n" -ge 2 ] || bad "only $n commands found in the sh blocks"
[ "$failed" -eq 0 ] && echo "skill: front matter, flags and $n commands ok"
exit "$failed"
