# Shared helpers for tests/integration/*.sh (sourced).
#
# pass NAME / fail NAME WHY / skip NAME WHY print the runner's protocol lines.
# json_get FILE PATH... prints a value of fio's JSON (tests/py/lib/fiojson.py:
# PATH is keys and indexes joined by '/', e.g. jobs/0/read/iops).
# pytool NAME ARGS... runs the test helper tests/py/NAME.py.
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

# The tests' helpers are Python: Debian's python3, with the modules make
# deps installs (python3-zstandard), ahead of another python3 on PATH.
PYTHON=${PYTHON:-$(command -v /usr/bin/python3 || command -v python3 || true)}
if [ -z "$PYTHON" ]; then
	fail python3 "python3 is not installed: run 'make deps' (apt-get install python3)"
	exit 1
fi
pytool() {
	"$PYTHON" "$TOP/tests/py/$1.py" "${@:2}"
}

json_get() {
	pytool lib/fiojson get "$@"
}

# make asan: the engine is built with ASan+UBSan, fio is not, so the ASan
# runtime must be the first library fio loads.  FIO then names a wrapper
# (also first in PATH as plain "fio") that preloads it, leaves fio's own
# leaks alone (detect_leaks=0; the engine's are found by the unit tests and
# nvanalyze runs) and turns any ASan or UBSan report into SIGABRT, so a test
# that expects fio to fail still sees a crash as a crash.  NV_ASAN is 1 then.
NV_ASAN=0
if ldd "$NVENGINE_SO" 2>/dev/null | grep -q 'libasan\.so'; then
	NV_ASAN=1
	nv_asan_rt=$(ldd "$NVENGINE_SO" | awk '/libasan\.so/ { print $3; exit }')
	nv_real_fio=$(command -v "$FIO")
	mkdir -p "$T/asan-bin"
	cat >"$T/asan-bin/fio" <<-EOF
	#!/bin/sh
	LD_PRELOAD="$nv_asan_rt\${LD_PRELOAD:+:\$LD_PRELOAD}" \\
	ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:\${ASAN_OPTIONS:-}" \\
	UBSAN_OPTIONS="abort_on_error=1:print_stacktrace=1:\${UBSAN_OPTIONS:-}" \\
	exec "$nv_real_fio" "\$@"
	EOF
	chmod +x "$T/asan-bin/fio"
	FIO=$T/asan-bin/fio
	PATH=$T/asan-bin:$PATH
fi

# nvfio ARGS...: fio with the engine under test loaded.
nvfio() {
	"$FIO" --ioengine="external:$NVENGINE_SO" "$@"
}

# fio leaves verify state files (*-verify.state) in its working directory.
cd "$T" || exit 1
