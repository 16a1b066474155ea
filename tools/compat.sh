#!/usr/bin/env bash
# make compat: the engine against every fio and guest kernel of the matrix.
#
#   tools/compat.sh [--no-vm]
#
# 1. fio 3.41 built from sid's source package (tools/fio-build.sh, cached in
#    build/fio/3.41); fio 3.33 is the installed one (bookworm), its source
#    build/fio-src (tools/fio-src.sh).
# 2. The engine built against each: make O=build/compat/fio-VERSION
#    FIO_SRC=TREE FIO=BINARY (so the builds stay apart).
# 3. With each fio: the engine tests on files and block devices
#    (tests/integration/build.sh, engine_files.sh, engine_trace.sh: crc32c
#    verify jobs, trace record counts equal to fio's total_ios, the options).
# 4. With the newest fio: the emulated-NVMe suite (tests/vm) in guests booting
#    Debian's cloud kernels of bullseye (5.10), bookworm (6.1) and trixie
#    (6.12); on 5.10 the passthrough cases check the refusal messages and the
#    block path.  The guests' timeouts are tripled (NVVM_TIMEOUT_SCALE, default
#    3 here): they catch hangs, and a machine busy with other work runs TCG
#    several times slower.  --no-vm (or NVCOMPAT_VM=0) leaves this out.
#
# Lines are the test protocol with "compat/LABEL/" in front of the names
# (LABEL fio-3.33, fio-3.41, vm-bullseye, ...); each step's full output is in
# build/compat/LABEL.log.  Ends with the time of each step and
# "N passed, N failed, N skipped"; exits 1 when anything failed.
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"
MAKE=${MAKE:-make}
FIO341_DEB=${NVCOMPAT_FIO341:-3.41-2}
KERNEL_SUITES=${NVCOMPAT_KERNELS:-bullseye bookworm trixie}
vm=${NVCOMPAT_VM:-1}
[ "${1:-}" = "--no-vm" ] && vm=0
out=$top/build/compat
mkdir -p "$out"

pass=0 fail=0 skip=0
timing=()
t_all=$(date +%s)

# step LABEL CMD...: run CMD, its protocol lines prefixed with compat/LABEL/,
# counted; its whole output in build/compat/LABEL.log.  A CMD that exits
# non-zero without a FAIL line is one failure.
step() {
	local label=$1 t0 rc line f0=$fail
	shift
	t0=$(date +%s)
	"$@" >"$out/$label.log" 2>&1 </dev/null
	rc=$?
	while IFS= read -r line; do
		case $line in
		PASS:*) pass=$((pass + 1)); echo "PASS: compat/$label/${line#PASS: }";;
		FAIL:*) fail=$((fail + 1)); echo "FAIL: compat/$label/${line#FAIL: }";;
		SKIP:*) skip=$((skip + 1)); echo "SKIP: compat/$label/${line#SKIP: }";;
		esac
	done <"$out/$label.log"
	if [ $rc -ne 0 ] && [ $fail -eq $f0 ]; then
		fail=$((fail + 1))
		echo "FAIL: compat/$label: exited $rc (log: $out/$label.log)"
		tail -n 15 "$out/$label.log" | sed 's/^/    | /'
	fi
	timing+=("$label $(( $(date +%s) - t0 ))s")
}

# build_for LABEL TREE FIO: the engine and analyzer in build/compat/LABEL.
build_for() {
	nice "$MAKE" --no-print-directory -j"$(nproc)" O="$out/$1" FIO_SRC="$2" FIO="$3" all &&
		echo "PASS: engine built for $("$3" --version) ($2)"
}

# engine_tests LABEL TREE FIO: the engine tests with that fio and its engine.
engine_tests() {
	FIO=$3 FIO_SRC=$2 NVENGINE_SO=$out/$1/libnvengine.so NVANALYZE=$out/$1/nvanalyze \
		UNIT_DIR=$out/$1/tests/unit nice tests/run build engine_files engine_trace
}

fio341_tree() {
	tools/fio-build.sh "$FIO341_DEB" >"$out/fio-3.41.path" && echo "PASS: fio 3.41 built"
}

step fio-build fio341_tree
tree341=$(tail -n 1 "$out/fio-3.41.path" 2>/dev/null)
fio333=$(command -v fio)
if [ -z "$fio333" ]; then
	echo "FAIL: compat: no fio on PATH (make deps installs bookworm's 3.33)"
	exit 1
fi

labels=()
# build/fio-src as the Makefile's default, which it fetches when missing.
step build-fio-3.33 build_for fio-3.33 build/fio-src "$fio333"
labels+=("fio-3.33|$top/build/fio-src|$fio333")
if [ -n "$tree341" ] && [ -x "$tree341/fio" ]; then
	step build-fio-3.41 build_for fio-3.41 "$tree341" "$tree341/fio"
	labels+=("fio-3.41|$tree341|$tree341/fio")
fi
for l in "${labels[@]}"; do
	IFS='|' read -r label tree bin <<<"$l"
	[ -f "$out/$label/libnvengine.so" ] || continue
	step "$label" engine_tests "$label" "$tree" "$bin"
done

# The newest fio of the matrix runs in the guests.
IFS='|' read -r newest tree bin <<<"${labels[${#labels[@]}-1]}"
if [ "$vm" = 1 ] && [ -f "$out/$newest/libnvengine.so" ]; then
	for s in $KERNEL_SUITES; do
		step "vm-$s" env NVVM_KERNEL_SUITE="$s" FIO="$bin" \
			NVENGINE_SO="$out/$newest/libnvengine.so" \
			NVANALYZE="$out/$newest/nvanalyze" UNIT_DIR="$out/$newest/tests/unit" \
			NVVM_KEEP="$out/vm-$s-results" \
			NVVM_TIMEOUT_SCALE="${NVVM_TIMEOUT_SCALE:-3}" nice tests/run vm
	done
fi

echo "compat: times: ${timing[*]}, total $(( $(date +%s) - t_all ))s"
echo "compat: $pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
