#!/usr/bin/env bash
# Golden outputs: each case of tests/golden/cases.txt must print exactly
# tests/golden/<name>.txt (stdout, then stderr, then the exit status).
# After an intended change: bash tests/cli/golden.sh build/memest --update
set -u
memest=${1:?usage: golden.sh path/to/memest [--update]}
update=${2:-}
fails=0
while IFS='|' read -r name args; do
  name=$(echo "$name" | xargs)
  case "$name" in ''|'#'*) continue ;; esac
  read -r -a argv <<< "$args"
  out=$("$memest" "${argv[@]}" 2>&1; echo "exit status $?")
  file="tests/golden/$name.txt"
  if [ "$update" = "--update" ]; then
    printf '%s\n' "$out" > "$file"
  elif ! diff -u "$file" <(printf '%s\n' "$out") > /tmp/golden.diff.$$; then
    echo "FAIL: $name differs from $file:" >&2
    head -n 40 /tmp/golden.diff.$$ >&2
    fails=$((fails + 1))
  fi
done < tests/golden/cases.txt
rm -f /tmp/golden.diff.$$
if [ "$fails" -ne 0 ]; then echo "golden: $fails cases differ"; exit 1; fi
echo "golden: all cases match"
