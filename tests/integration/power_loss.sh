#!/usr/bin/env bash
# Power loss: what a trace keeps when the machine loses power mid-run.
#
# The promise (README "What survives what", docs/trace-format.md
# "Durability"): blocks reach the file in order, and with nv_trace_sync=MS
# (default 1000) a written block is fdatasync'ed within MS, so after a power
# cut at time T the file holds every record completed before T minus (the
# span of its block + MS + W), W the time a block takes to compress, write
# and sync; the reader never accepts a damaged block (CRC per block header
# and payload).
#
# How: the emulated-NVMe guest (tests/vm/boot.sh --drive --cuts) traces a
# sequential 4k read at QD 1 (record i reads offset i*4096 modulo the
# namespace, so every recovered record can be checked) onto an ext4 file
# system on a namespace QEMU opens with cache=none; QEMU is killed with
# SIGKILL a random 0.5-2.5 s after the trace appeared, POWER_LOSS_CUTS times
# (default 20), one boot each.  After each cut the host replays the journal
# (e2fsck, as a reboot's mount would), copies the trace out (debugfs) and
# reads it with `nvanalyze dump` and `stat`: records recovered, time lost
# (the guest's last clock tick on the console before the cut, plus one tick
# period, minus the last record's completion), and records that contradict
# the workload (a damaged record accepted: must be 0).  W is allowed 1 s
# (TCG on a shared 2-core host; the measured lag is printed).
. "$(dirname "$0")/../lib.sh"

CUTS=${POWER_LOSS_CUTS:-20}
if [ "$NV_ASAN" = 1 ]; then	# as tests/vm/run.sh: the guest's fio cannot load it
	why="the engine is an ASan build: the guest's fio cannot load it;"
	skip power_loss "$why make check runs this test"
	exit 0
fi
if ! command -v mke2fs >/dev/null || ! command -v debugfs >/dev/null ||
   ! command -v e2fsck >/dev/null; then
	skip power_loss "needs mke2fs, e2fsck and debugfs (apt-get install e2fsprogs)"
	exit 0
fi
require_built || exit 1
mkdir -p "$T/cases" "$T/root/t" "$T/cuts"
cp "$TOP/tests/vm/power-loss/50-power-loss.sh" "$T/cases/"
IMG=$T/drive.img
fresh_fs() {
	rm -f "$IMG"
	mke2fs -q -F -t ext4 -d "$T/root" "$IMG" 64M >/dev/null
}
fresh_fs

# after_cut: runs in boot.sh after each kill (CUT, CUT_DELAY, CONSOLE).
export T IMG NVANALYZE PYTHON TOP
after_cut() {
	local d=$T/cuts/$CUT
	mkdir -p "$d"
	cp "$CONSOLE" "$d/console.log"
	if grep -q '^nvvm: cut-armed no-engine' "$CONSOLE"; then
		echo "cut $CUT no-engine"
		return 0
	fi
	if grep -q '^nvvm: cut-armed fio-failed' "$CONSOLE"; then
		echo "cut $CUT $(grep -m1 '^nvvm: cut-armed fio-failed' "$CONSOLE" | cut -c 18-)"
		return 3	# every boot runs the same fio: stop here
	fi
	e2fsck -fy "$IMG" >"$d/fsck.out" 2>&1	# 1: journal replayed or fixed
	[ $? -le 1 ] ||
		{ echo "cut $CUT fsck-failed $(tail -n 2 "$d/fsck.out" | tr '\n' ' ')"; return 0; }
	debugfs -R "dump /t/pl.1.nvt $d/pl.nvt" "$IMG" >"$d/debugfs.out" 2>&1
	[ -f "$d/pl.nvt" ] || : >"$d/pl.nvt"	# not even created on the disk: all lost
	"$NVANALYZE" dump "$d/pl.nvt" >"$d/dump.csv" 2>"$d/dump.err"
	echo $? >"$d/dump.rc"
	"$NVANALYZE" stat "$d/pl.nvt" >"$d/stat.out" 2>&1
	echo "cut $CUT $CUT_DELAY $("$PYTHON" "$TOP/tests/py/power_loss_check.py" "$d")"
	fresh_fs
}
export -f after_cut fresh_fs

t0=$(date +%s.%N)
bash "$TOP/tests/vm/boot.sh" --out "$T/out" --work "$T/work" --cases "$T/cases" \
	--drive "$IMG" --cuts "$CUTS" --cut-window 0.5:2.5 --timeout 120 \
	--after-cut after_cut >"$T/boot.out" 2>"$T/boot.err"
rc=$?
t1=$(date +%s.%N)
secs=$(echo "$t0 $t1" | awk '{printf "%.0f", $2 - $1}')
if [ $rc -eq 77 ]; then
	skip power_loss "$(sed -n 's/^boot: skip: //p' "$T/boot.out" | head -n 1)"
	exit 0
fi
grep '^cut ' "$T/boot.out" >"$T/cuts.txt"
if grep -q ' no-engine$' "$T/cuts.txt"; then
	why="the guest has no libnvengine.so (it did not build or its libraries did"
	skip power_loss "$why not resolve)"
	exit 0
fi
# one line per cut: cut N DELAY records R lost_s L bound_s B lag_s W damaged D end E
awk -v secs="$secs" -v want="$CUTS" '
	$1 == "cut" && $4 == "records" {
		n++; rec += $5; if ($7 > maxlost) maxlost = $7; lost += $7
		if ($13 > 0) dmg += $13
		if ($7 > $9) over++
		if ($11 > maxlag) maxlag = $11
		if ($15 == "damaged") rejected++
	}
	$1 == "cut" && $4 != "records" { bad++ }
	END {
		printf "info: power_loss: %d cuts in %s s, %d records recovered, ", n, secs, rec
		printf "time lost mean %.2f s max %.2f s, lag max %.2f s, ",
			n ? lost / n : 0, maxlost, maxlag
		printf "%d cut(s) ending in a damaged block (rejected), ", rejected
		printf "%d damaged records accepted\n", dmg
		print n + 0, want, bad + 0, over + 0, dmg + 0 > "/dev/stderr"
	}' "$T/cuts.txt" 2>"$T/sum.txt"
sed 's/^/info: power_loss: /' "$T/cuts.txt"
read -r n want bad over dmg <"$T/sum.txt"
if [ $rc -ne 0 ] || [ "$n" -ne "$want" ] || [ "$bad" -ne 0 ]; then
	fail cuts \
		"$n of $want cuts read back (boot.sh exited $rc: $(grep -v '^cut ' "$T/boot.out" |
			head -n 3 | tr '\n' ' '); logs: $T)"
else
	pass cuts
fi
[ "$n" -gt 0 ] && [ "$dmg" -eq 0 ] && pass no_damaged_record_accepted ||
	fail no_damaged_record_accepted "$dmg records against the workload accepted (see $T/cuts)"
[ "$n" -gt 0 ] && [ "$over" -eq 0 ] && pass within_promise ||
	fail within_promise "$over of $n cuts lost more than the promise (see $T/cuts.txt)"
