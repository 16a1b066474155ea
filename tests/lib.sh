# Shared helpers for tests/integration/*.sh (sourced).
#
# pass NAME / fail NAME WHY / skip NAME WHY print the runner's protocol lines.
# json_get FILE EXPR evaluates a Python expression over the parsed JSON `j`.
# FIO runs the installed fio; NVENGINE_SO is the engine under test.
set -u
: "${TOP:=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
: "${NVENGINE_SO:=$TOP/libnvengine.so}"
: "${NVANALYZE:=$TOP/nvanalyze}"
: "${TESTTMP:=$(mktemp -d /tmp/nvtest.XXXXXX)}"
FIO=${FIO:-fio}
SUITE=${SUITE:-$(basename "$0" .sh)}
T=$(mktemp -d "$TESTTMP/$SUITE.XXXXXX")

pass() { echo "PASS: $SUITE/$1"; }
fail() { echo "FAIL: $SUITE/$1: $2"; }
skip() { echo "SKIP: $SUITE/$1 ($2)"; }

# check NAME CMD...: run CMD, PASS if it succeeds, FAIL with its output otherwise.
check() {
	local name=$1; shift
	local out
	if out=$("$@" 2>&1); then pass "$name"; else fail "$name" "$(echo "$out" | tail -n 5 | tr '\n' ' ')"; fi
}

json_get() {
	python3 - "$1" "$2" <<'PY'
import json, sys
with open(sys.argv[1]) as f:
    txt = f.read()
j = json.loads(txt[txt.index('{'):])
print(eval(sys.argv[2]))
PY
}

# nvfio ARGS...: fio with the engine under test loaded.
nvfio() {
	"$FIO" --ioengine="external:$NVENGINE_SO" "$@"
}

# fio leaves verify state files (*-verify.state) in its working directory.
cd "$T" || exit 1
