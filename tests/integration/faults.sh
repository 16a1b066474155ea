#!/usr/bin/env bash
# Faults: a read-only target for a write job, a target that goes away during
# the run, damaged fio JSON and damaged traces through the nvanalyze CLI.
# Each must end in a clear error (or, for traces, a clean partial read), never
# a crash and never a wrong number.  (SIGKILL mid-run and a full trace
# filesystem are in engine_trace.sh; NVMe error statuses and too-large
# passthrough transfers in tests/vm/cases/30-nvengine-passthru.sh.)
. "$(dirname "$0")/../lib.sh"

require_built || exit 1
GEN=${UNIT_DIR:-$TOP/build/tests/unit}/gen_trace
# The damaged-input loops run nvanalyze thousands of times: use a copy, so a
# rebuild in the same checkout meanwhile cannot fail them half way.
cp "$NVANALYZE" "$T/nvanalyze" && NVANALYZE=$T/nvanalyze
root=0
[ "$(id -u)" -eq 0 ] && root=1

# expect_fio_error NAME OUTFILE RC PATTERN...: fio failed cleanly (non-zero,
# not a signal) and its output has every PATTERN (grep -E).
expect_fio_error() {
	local name=$1 out=$2 rc=$3 p errs
	shift 3
	if [ "$rc" -eq 0 ]; then
		fail "$name" "fio exited 0: $(tail -n 3 "$out" | tr '\n' ' ')"
		return 1
	elif [ "$rc" -ge 128 ]; then
		errs=$(grep -m3 -E 'ERROR|Sanitizer|runtime error' "$out" | tr '\n' ' ')
		fail "$name" "fio died with signal $((rc - 128)): $errs"
		return 1
	fi
	for p in "$@"; do
		if ! grep -qE -- "$p" "$out"; then
			fail "$name" \
				"no '$p' in: $(grep -v '^ *$' "$out" | tail -n 4 | tr '\n' ' ')"
			return 1
		fi
	done
	pass "$name"
}

# ---- read-only targets ------------------------------------------------------

head -c 4M /dev/zero >"$T/data"

# A file on a read-only bind mount: the write job fails naming the file and
# EROFS; a read job on the same file still works.
if [ $root -eq 1 ] && mkdir -p "$T/ro" && mount --bind "$T" "$T/ro" 2>/dev/null; then
	if mount -o remount,bind,ro "$T/ro" 2>/dev/null; then
		nvfio --name=w --filename="$T/ro/data" --size=4M --rw=randwrite --iodepth=8 \
			>"$T/robind.out" 2>&1
		expect_fio_error readonly_mount_write "$T/robind.out" $? "$T/ro/data" \
			"Read-only file system"
		nvfio --name=r --filename="$T/ro/data" --size=4M --rw=randread --iodepth=8 \
			--output-format=json --output="$T/robind-read.json" \
			>"$T/robind-read.out" 2>&1
		rc=$?
		if [ $rc -eq 0 ] &&
			[ "$(json_get "$T/robind-read.json" jobs/0/read/total_ios)" = 1024 ]; then
			pass readonly_mount_read_works
		else
			fail readonly_mount_read_works \
				"rc=$rc: $(tail -n 3 "$T/robind-read.out" | tr '\n' ' ')"
		fi
	else
		skip readonly_mount_write "cannot remount a bind mount read-only here"
	fi
	umount "$T/ro"
else
	skip readonly_mount_write "needs root for a read-only bind mount"
fi

# A read-only loop device (losetup -r): the write job fails naming the device.
if [ $root -eq 1 ] && command -v losetup >/dev/null &&
   rodev=$(losetup -r -f --show "$T/data" 2>/dev/null); then
	nvfio --name=w --filename="$rodev" --size=4M --rw=randwrite --iodepth=8 --direct=1 \
		>"$T/roloop.out" 2>&1
	expect_fio_error readonly_loop_write "$T/roloop.out" $? "$rodev" \
		"Read-only file system|Permission denied|Operation not permitted"
	losetup -d "$rodev"
else
	skip readonly_loop_write "needs root and a free loop device"
fi

# A file with mode 0444 for a user without the right to write it (as root:
# setpriv to nobody).  fio and the engine must be reachable for that user,
# so this works in a world-readable directory of its own.
if [ $root -eq 1 ] && command -v setpriv >/dev/null && W=$(mktemp -d /tmp/nvfault.XXXXXX); then
	chmod 1777 "$W"
	cp "$NVENGINE_SO" "$W/engine.so"
	head -c 1M /dev/zero >"$W/ro-file"
	chmod 0444 "$W/ro-file"
	chmod 0644 "$W/engine.so"
	fio_bin=$FIO
	if [ "$NV_ASAN" = 1 ]; then	# the wrapper lives in $T, out of nobody's reach
		cp "$FIO" "$W/fio" && chmod 0755 "$W/fio" && fio_bin=$W/fio
	fi
	if setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
		(cd "$W" && setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$fio_bin" --ioengine="external:$W/engine.so" --name=w \
			--filename="$W/ro-file" --size=1M --rw=randwrite \
			--iodepth=4) >"$T/perm.out" 2>&1
		expect_fio_error readonly_mode_0444_write "$T/perm.out" $? \
			"$W/ro-file" "Permission denied"
	else
		skip readonly_mode_0444_write "setpriv cannot switch to uid 65534 here"
	fi
	rm -rf "$W"
else
	skip readonly_mode_0444_write "needs root (to become nobody) and setpriv"
fi

# ---- the target goes away during the run ----------------------------------

# A loop device whose backing file is cut to 0 bytes and whose capacity is
# re-read (losetup -c) 2 s into a time-based randrw job: every IO from then
# on fails, reads with EIO, writes with EIO or ENOSPC (past the end).  fio
# stops with the error; the trace is complete (with footer), holds the failed
# IOs with those statuses (fio's job error among them), and its per-op
# record counts equal fio's total_ios (which count the failed IOs too).
# (A plain losetup -d of a busy device only marks it for removal after the
# last close, and a deleted file stays open: neither makes IO fail.)
if [ $root -eq 1 ] && truncate -s 64M "$T/gone.img" &&
   gonedev=$(losetup -f --show "$T/gone.img" 2>/dev/null); then
	mkdir -p "$T/gone"
	nvfio --name=gone --filename="$gonedev" --rw=randrw --iodepth=8 --direct=1 --time_based \
		--runtime=20 --nv_trace="$T/gone" --output-format=json --output="$T/gone.json" \
		>"$T/gone.out" 2>&1 &
	fpid=$!
	sleep 2
	truncate -s 0 "$T/gone.img"
	losetup -c "$gonedev"
	# bounded: fio must notice within its runtime
	for _ in $(seq 1 300); do kill -0 $fpid 2>/dev/null || break; sleep 0.1; done
	if kill -0 $fpid 2>/dev/null; then
		kill -KILL $fpid
		fail target_gone_fio_stops \
			"fio still running 30 s after the device lost its capacity"
		wait $fpid
	else
		wait $fpid
		expect_fio_error target_gone_fio_stops "$T/gone.out" $? "$gonedev" \
			"Input/output error|No space left on device"
	fi
	losetup -d "$gonedev"
	out=$(pytool faults_target_gone "$T/gone.json" "$NVANALYZE" "$T"/gone/*.nvt 2>&1)
	case "$out" in
	ok*) pass target_gone_trace_counts; echo "info: target gone: ${out#ok }";;
	*) fail target_gone_trace_counts "$out";;
	esac
else
	skip target_gone "needs root and a free loop device"
fi

# ---- a file whose open fails after the engine set it up ---------------------

# cmd_type=nvme on a regular file: the open classifies the file, allocates
# the engine's per-file state, then refuses the file.  Under valgrind (fio
# built without ASan: not under make asan) nothing the engine allocated may
# be lost: the per-file state of a refused open is freed there.
if [ "$NV_ASAN" = 1 ]; then
	skip open_refused_frees_file_state "valgrind cannot run the ASan build"
elif ! command -v valgrind >/dev/null; then
	skip open_refused_frees_file_state "valgrind not installed: apt-get install valgrind"
else
	head -c 1M /dev/zero >"$T/refused"
	valgrind --leak-check=full --keep-debuginfo=yes --show-leak-kinds=definite \
		--log-file="$T/refused.vg" "$FIO" --thread --ioengine="external:$NVENGINE_SO" \
		--name=refused --filename="$T/refused" --size=1M --rw=read --cmd_type=nvme \
		>"$T/refused.out" 2>&1
	rc=$?
	# the loss records that name an engine function (nv_*)
	lost=$(awk '/definitely lost in loss record/ { rec = $0; next }
		    rec != "" && /by 0x[0-9A-F]+: nv/ { print rec " <- " $4; rec = "" }
		    /^==[0-9]+== $/ { rec = "" }' "$T/refused.vg")
	if [ $rc -eq 0 ] || ! grep -q "cmd_type=nvme needs" "$T/refused.out"; then
		fail open_refused_frees_file_state \
			"fio rc=$rc: $(tail -n 3 "$T/refused.out" | tr '\n' ' ')"
	elif ! grep -q "LEAK SUMMARY\|no leaks are possible" "$T/refused.vg"; then
		fail open_refused_frees_file_state "no leak check in $T/refused.vg"
	elif [ -n "$lost" ]; then
		fail open_refused_frees_file_state \
			"the engine leaks: $(echo "$lost" | tr '\n' ' ')"
	else
		pass open_refused_frees_file_state
	fi
fi

# ---- damaged fio JSON through nvanalyze -------------------------------------

# Truncated at 300 offsets, single bit flips at 400, numbers too big for any
# type, 100000-deep nesting of arrays and of objects, NUL bytes: nvanalyze
# exits 0 (the damage left a fio object whole: the same table) or 2 with a
# one-line message naming the file (syntax errors with line:col); never a
# signal, never a hang (10 s per run).
src=$TOP/tests/data/fio-json/psync-run1.json
out=$(pytool faults_damaged_json "$NVANALYZE" "$src" "$T/json" 2>&1)
case "$out" in
ok*) pass "damaged_json_clear_errors"; echo "info: damaged JSON (kind/exit:count): ${out#ok }";;
*) fail damaged_json_clear_errors "$out";;
esac

# ---- damaged traces through nvanalyze dump ----------------------------------

# A small trace (40 records, blocks of 8) cut at every byte offset, with one
# bit flipped at every byte offset, with another major and minor version,
# and foreign files.  The rows printed must always be the first rows of the
# undamaged dump: after a cut, exactly the records of the complete blocks
# before it (exit 0 and a "truncated" warning, or exit 2 for a cut inside the
# header); after a flip, at most the records of the blocks before the
# damaged one, then exit 2 naming the file (or, for a flip in the footer's
# length field, which then points past the end, every record and the
# warning that the footer is missing).  Never a signal.
if [ -x "$GEN" ] && "$GEN" -p mixed -n 40 -b 8 -s 3 "$T/small.nvt" &&
	"$GEN" -p seqwrite -n 30 -b 10 -s 4 "$T/seq.nvt"; then
	out=$(pytool faults_damaged_traces "$NVANALYZE" "$T/small.nvt" "$T/seq.nvt" \
		"$T/trace" 2>&1)
	case "$out" in
	ok*) pass damaged_traces_never_wrong
		echo "info: damaged traces (kind/exit:count): ${out#ok }";;
	*) fail damaged_traces_never_wrong "$out";;
	esac
else
	fail damaged_traces_never_wrong "gen_trace failed ($GEN)"
fi
