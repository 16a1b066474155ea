#!/usr/bin/env bash
# The emulated-NVMe tests, as run by tests/run (`tests/run vm`).
#
# Boots the guest once (tests/vm/boot.sh) with every tests/vm/cases/*.sh,
# prints the guest's PASS/FAIL/SKIP/INFO lines prefixed with "vm/", then
# runs tests/vm/host-checks/CASE.sh for each case that ran (host-side checks
# of the files the case brought back, with python3).  Prints
# "SKIP: vm (reason)" and exits 0 when QEMU cannot run here; a boot that
# fails or hangs is "FAIL: vm/boot" with the console tail.  The results stay
# in build/vm/results (or next to a non-default $NVENGINE_SO) (console.log,
# CASE.log, CASE/, dmesg.txt) until the next run.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${TOP:=$(cd "$here/../.." && pwd)}"
: "${TESTTMP:=$(mktemp -d /tmp/nvtest.XXXXXX)}"
: "${NVVM_BUILD:=$TOP/build/vm}"
export TOP TESTTMP NVVM_BUILD

# The boot writes into this run's own TESTTMP (other engineers' runs may boot
# at the same time); the finished results are then copied to build/vm/results
# (the default engine) or next to a non-default $NVENGINE_SO (make asan:
# build/asan/vm-results) or to $NVVM_KEEP, and the lines name that copy.
: "${NVENGINE_SO:=$TOP/libnvengine.so}"
# make asan: the guest's uninstrumented fio cannot load an ASan engine (the
# engine cases would all skip), and the other cases test nothing of ours.
if ldd "$NVENGINE_SO" 2>/dev/null | grep -q 'libasan\.so'; then
	echo "SKIP: vm (the engine is an ASan build: the guest's fio cannot load it;" \
		"make check runs the VM cases)"
	exit 0
fi
if [ -n "${NVVM_KEEP:-}" ]; then
	keep=$NVVM_KEEP # make compat: one per kernel
elif [ "$NVENGINE_SO" -ef "$TOP/libnvengine.so" ] || ! [ -e "$NVENGINE_SO" ]; then
	keep=$NVVM_BUILD/results
else
	keep=$(dirname "$NVENGINE_SO")/vm-results
fi
out=$TESTTMP/vm/results

# main ARGS: everything above, printing the lines; its output is scanned
# for FAIL lines for the exit status.
main() {
	local bootlog=$TESTTMP/vm/boot.out rc t0 t1 c h name suite steps
	t0=$(date +%s.%N)
	bash "$here/boot.sh" --out "$out" --work "$TESTTMP/vm/work" "$@" >"$bootlog" 2>&1
	rc=$?
	t1=$(date +%s.%N)

	if [ $rc -eq 77 ]; then
		echo "SKIP: vm ($(sed -n 's/^boot: skip: //p' "$bootlog" | head -n 1))"
		return 0
	fi
	# (sed: a log cut mid-line must not swallow the verdict line below it)
	sed -e '$a\' "$bootlog"
	if [ $rc -eq 0 ]; then
		echo "PASS: vm/boot"
	else
		steps='^boot: \(fetching\|building\|booting\)'
		echo "FAIL: vm/boot: $(grep -v "$steps" "$bootlog" |
			grep -m1 '^boot: ' | sed 's/^boot: //; s/[;:]* console tail:$//' ||
			echo "boot.sh exited $rc") (console: $keep/console.log)"
		# The runner shows INFO lines: boot.sh's console tail reaches CI's output.
		sed -n 's/^    | /INFO: vm\/console: /p' "$bootlog" | tail -n 15
	fi

	# The guest's lines, with the vm/ prefix.
	if [ -f "$out/summary" ]; then
		sed -E 's/^(PASS|FAIL|SKIP|INFO): /\1: vm\//' "$out/summary"
	fi
	# A case with no line at all never ran (the boot died before it).
	for c in "$here"/cases/*.sh; do
		name=$(basename "$c" .sh)
		suite=$(echo "$name" | sed 's/^[0-9]*-//')
		grep -qE "^(PASS|FAIL|SKIP): $suite(/|:)" "$out/summary" 2>/dev/null ||
			echo "FAIL: vm/$suite: did not finish" \
				"(the boot died during or before it; see $keep/console.log)"
	done

	for h in "$here"/host-checks/*.sh; do
		[ -f "$h" ] || continue
		name=$(basename "$h" .sh)
		[ -d "$out/$name" ] || continue
		VMOUT=$out VMRES=$out/$name bash "$h"
	done

	if [ -f "$out/boot-info" ]; then
		awk -v q="$(cat "$out/qemu-seconds" 2>/dev/null)" \
			-v tot="$(echo "$t0 $t1" | awk '{printf "%.1f", $2 - $1}')" '
			$1 == "init_s" { i = $2 }
			$1 == "cases_start_s" { s = $2 }
			$1 == "cases_end_s" { e = $2 }
			END {
				printf "INFO: vm/timing: kernel to /init %ss, ", i
				printf "cases %.1fs, QEMU %ss, with build %ss\n", e - s, q, tot
			}
		' "$out/boot-info"
	fi
}

rm -rf "$out"
mkdir -p "$out" "$TESTTMP/vm"
main "$@" | tee "$TESTTMP/vm/run.out"
if [ -f "$out/console.log" ]; then
	mkdir -p "$(dirname "$keep")"
	rm -rf "$keep.$$" && cp -r "$out" "$keep.$$" && rm -rf "$keep" && mv "$keep.$$" "$keep"
fi
! grep -q '^FAIL:' "$TESTTMP/vm/run.out"
