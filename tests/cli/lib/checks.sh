# What the command-line test scripts share (sourced, not run): a scratch
# folder removed on exit, a failure count, and the checks that add to it.
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
expect_code() { # want, description, command...
  local want=$1 what=$2; shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"; local got=$?
  [ "$got" -eq "$want" ] || bad "$what: exit $got, expected $want; stderr: $(head -c 300 "$tmp/err")"
}
has() { # file, text, description
  grep -qF -- "$2" "$1" || bad "$3: missing '$2' in $(head -c 400 "$1")"
}
json() { # file, python expression over d -> printed value
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1" 2>/dev/null
}
eq() { # got, want, description
  [ "$1" = "$2" ] || bad "$3: got '$1', expected '$2'"
}
