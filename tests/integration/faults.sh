#!/usr/bin/env bash
# Faults: a read-only target for a write job, a target that goes away during
# the run, damaged fio JSON and damaged traces through the nvanalyze CLI.
# Each must end in a clear error (or, for traces, a clean partial read), never
# a crash and never a wrong number.  (SIGKILL mid-run and a full trace
# filesystem are in engine_trace.sh; NVMe error statuses and too-large
# passthrough transfers in tests/vm/cases/30-nvengine-passthru.sh.)
. "$(dirname "$0")/../lib.sh"

if ! [ -f "$NVENGINE_SO" ] || ! [ -x "$NVANALYZE" ]; then
	fail setup "build first: make all unit ($NVENGINE_SO, $NVANALYZE)"
	exit 1
fi
GEN=${UNIT_DIR:-$TOP/build/tests/unit}/gen_trace
# The damaged-input loops run nvanalyze thousands of times: use a copy, so a
# rebuild in the same checkout meanwhile cannot fail them half way.
cp "$NVANALYZE" "$T/nvanalyze" && NVANALYZE=$T/nvanalyze
root=0
[ "$(id -u)" -eq 0 ] && root=1

# expect_fio_error NAME OUTFILE RC PATTERN...: fio failed cleanly (non-zero,
# not a signal) and its output has every PATTERN (grep -E).
expect_fio_error() {
	local name=$1 out=$2 rc=$3 p
	shift 3
	if [ "$rc" -eq 0 ]; then
		fail "$name" "fio exited 0: $(tail -n 3 "$out" | tr '\n' ' ')"
		return 1
	elif [ "$rc" -ge 128 ]; then
		fail "$name" "fio died with signal $((rc - 128)): $(grep -m3 -E 'ERROR|Sanitizer|runtime error' "$out" | tr '\n' ' ')"
		return 1
	fi
	for p in "$@"; do
		if ! grep -qE -- "$p" "$out"; then
			fail "$name" "no '$p' in: $(grep -v '^ *$' "$out" | tail -n 4 | tr '\n' ' ')"
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
		expect_fio_error readonly_mount_write "$T/robind.out" $? "$T/ro/data" "Read-only file system"
		nvfio --name=r --filename="$T/ro/data" --size=4M --rw=randread --iodepth=8 \
			--output-format=json --output="$T/robind-read.json" >"$T/robind-read.out" 2>&1
		rc=$?
		if [ $rc -eq 0 ] && [ "$(json_get "$T/robind-read.json" "j['jobs'][0]['read']['total_ios']")" = 1024 ]; then
			pass readonly_mount_read_works
		else
			fail readonly_mount_read_works "rc=$rc: $(tail -n 3 "$T/robind-read.out" | tr '\n' ' ')"
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
	expect_fio_error readonly_loop_write "$T/roloop.out" $? "$rodev" "Read-only file system|Permission denied|Operation not permitted"
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
			"$fio_bin" --ioengine="external:$W/engine.so" --name=w --filename="$W/ro-file" \
			--size=1M --rw=randwrite --iodepth=4) >"$T/perm.out" 2>&1
		expect_fio_error readonly_mode_0444_write "$T/perm.out" $? "$W/ro-file" "Permission denied"
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
		fail target_gone_fio_stops "fio still running 30 s after the device lost its capacity"
		wait $fpid
	else
		wait $fpid
		expect_fio_error target_gone_fio_stops "$T/gone.out" $? "$gonedev" \
			"Input/output error|No space left on device"
	fi
	losetup -d "$gonedev"
	out=$(python3 - "$T/gone.json" "$NVANALYZE" "$T"/gone/*.nvt <<'PY' 2>&1
import csv, io, json, subprocess, sys
js, nva, trace = sys.argv[1], sys.argv[2], sys.argv[3]
txt = open(js).read()
job = json.loads(txt[txt.index('{'):])['jobs'][0]
st = subprocess.run([nva, 'stat', trace], capture_output=True, text=True)
if st.returncode != 0 or 'footer: present' not in st.stdout:
    sys.exit('trace not complete: rc %d: %s' % (st.returncode, st.stderr.strip()))
d = subprocess.run([nva, 'dump', trace], capture_output=True, text=True)
rows = list(csv.DictReader(io.StringIO(d.stdout)))
problems = []
for op in ('read', 'write'):
    n = sum(1 for r in rows if r['op'] == op)
    if n != job[op]['total_ios']:
        problems.append('%s: trace %d records, fio total_ios %d' % (op, n, job[op]['total_ios']))
errs = [r for r in rows if r['status'] != '0']
if not errs:
    problems.append('no failed IO in the trace')
elif not {r['status'] for r in errs} <= {'-5', '-28'}:
    problems.append('failed IOs with status other than -EIO/-ENOSPC: %s' % sorted({r['status'] for r in errs}))
elif '-%d' % job['error'] not in {r['status'] for r in errs}:
    problems.append('fio job error %d not among the trace statuses %s' % (job['error'], sorted({r['status'] for r in errs})))
print('; '.join(problems) if problems else 'ok %d records, %d failed' % (len(rows), len(errs)))
PY
)
	case "$out" in
	ok*) pass target_gone_trace_counts; echo "info: target gone: ${out#ok }";;
	*) fail target_gone_trace_counts "$out";;
	esac
else
	skip target_gone "needs root and a free loop device"
fi

# ---- damaged fio JSON through nvanalyze -------------------------------------

# Truncated at 300 offsets, single bit flips at 400, numbers too big for any
# type, 100000-deep nesting of arrays and of objects, NUL bytes: nvanalyze
# exits 0 (the damage left a fio object whole: the same table) or 2 with a
# one-line message naming the file (syntax errors with line:col); never a
# signal, never a hang (10 s per run).
src=$TOP/tests/data/fio-json/psync-run1.json
out=$(python3 - "$NVANALYZE" "$src" "$T/json" <<'PY' 2>&1
import os, random, re, subprocess, sys
nva, src, work = sys.argv[1:4]
os.makedirs(work, exist_ok=True)
orig = open(src, 'rb').read()
path = os.path.join(work, 'run.json')

def run(data):
    with open(path, 'wb') as f:
        f.write(data)
    try:
        p = subprocess.run([nva, '-f', 'csv', path], capture_output=True, timeout=10)
    except subprocess.TimeoutExpired:
        return None, b'', b'timeout'
    return p.returncode, p.stdout, p.stderr

rc0, good, _ = run(orig)
if rc0 != 0:
    sys.exit('undamaged sample fails: rc %d' % rc0)
problems = []
stats = {}

def check(kind, data, at):
    rc, out, err = run(data)
    stats[(kind, rc)] = stats.get((kind, rc), 0) + 1
    what = '%s at %s' % (kind, at)
    if rc is None:
        problems.append(what + ': hangs')
    elif rc < 0 or rc >= 128:
        problems.append('%s: killed by signal %d: %s' % (what, -rc if rc < 0 else rc - 128, err[-200:]))
    elif rc == 2:
        lines = err.decode(errors='replace').strip().split('\n')
        msg = [l for l in lines if not l.startswith('nvanalyze: warning')]
        if len(msg) != 1 or path not in msg[0]:
            problems.append('%s: not one message naming the file: %r' % (what, msg))
        elif 'not valid JSON' in msg[0] and not re.search(re.escape(path) + r':\d+', msg[0]):
            problems.append('%s: syntax error without a position: %s' % (what, msg[0]))
        elif 'unable to decode' in msg[0] and not re.search(re.escape(path) + r':\d+:\d+', msg[0]):
            problems.append('%s: undecodable byte without line:col: %s' % (what, msg[0]))
    elif rc == 0:
        if kind == 'truncate' and out != good:
            problems.append('%s: exit 0 with a different table' % what)
    else:
        problems.append('%s: exit %d' % (what, rc))

rnd = random.Random(9)
n = len(orig)
for k in sorted(set([0, 1, n - 1, n - 2] + [rnd.randrange(n) for _ in range(300)])):
    check('truncate', orig[:k], k)
for _ in range(400):
    k = rnd.randrange(n)
    b = bytearray(orig)
    b[k] ^= 1 << rnd.randrange(8)
    check('bitflip', bytes(b), k)
for num in (b'1' * 400, b'-' + b'9' * 30, b'1e400', b'-1e999', b'1' * 20 + b'.5e308'):
    check('huge number', re.sub(rb'("total_ios" : )\d+', rb'\g<1>' + num, orig, count=1), num[:12].decode())
    check('huge number', re.sub(rb'("mean" : )[0-9.]+', rb'\g<1>' + num, orig, count=1), num[:12].decode())
depth = 100000
check('deep arrays', b'{"jobs": ' + b'[' * depth + b']' * depth + b'}', depth)
check('deep objects', b'{"jobs": [' + b'{"a": ' * depth + b'1' + b'}' * depth + b']}', depth)
check('deep unclosed', b'{"jobs": ' + b'[' * depth, depth)
check('nul bytes', orig[:n // 2] + b'\0' * 16 + orig[n // 2:], n // 2)
summary = ' '.join('%s/%s:%d' % (k, r, c) for (k, r), c in sorted(stats.items(), key=str))
print('; '.join(problems[:5]) if problems else 'ok ' + summary)
PY
)
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
if [ -x "$GEN" ] && "$GEN" -p mixed -n 40 -b 8 -s 3 "$T/small.nvt" && "$GEN" -p seqwrite -n 30 -b 10 -s 4 "$T/seq.nvt"; then
	out=$(python3 - "$NVANALYZE" "$T/small.nvt" "$T/seq.nvt" "$T/trace" <<'PY' 2>&1
import os, struct, subprocess, sys
nva, traces, work = sys.argv[1], sys.argv[2:4], sys.argv[4]
os.makedirs(work, exist_ok=True)
path = os.path.join(work, 'damaged.nvt')
problems = []
counts = {}

def dump(data):
    with open(path, 'wb') as f:
        f.write(data)
    try:
        p = subprocess.run([nva, 'dump', path], capture_output=True, timeout=10)
    except subprocess.TimeoutExpired:
        return None, [], ''
    return p.returncode, p.stdout.decode().splitlines()[1:], p.stderr.decode()

def blocks(data):
    """(end offset, records) of each block, from docs/trace-format.md."""
    pos = 16 + struct.unpack_from('<I', data, 12)[0] + 4
    out, total = [], 0
    while data[pos:pos + 4] == b'NVTB':
        nrec, comp = struct.unpack_from('<I', data, pos + 8)[0], struct.unpack_from('<I', data, pos + 16)[0]
        pos += 48 + comp
        total += nrec
        out.append((pos, total))
    return pos, out

def note(kind, rc):
    counts[(kind, rc)] = counts.get((kind, rc), 0) + 1

for tr in traces:
    orig = open(tr, 'rb').read()
    rc, good, err = dump(orig)
    if rc != 0 or err:
        sys.exit('undamaged %s: rc %s %s' % (tr, rc, err))
    hdr_end = 16 + struct.unpack_from('<I', orig, 12)[0] + 4
    foot_at, blk = blocks(orig)
    for k in range(len(orig)):
        rc, rows, err = dump(orig[:k])
        note('cut', rc)
        want = max([t for end, t in blk if end <= k], default=0)
        what = '%s cut at %d' % (os.path.basename(tr), k)
        if rc is None or rc < 0 or rc >= 128:
            problems.append('%s: rc %s' % (what, rc))
        elif k < hdr_end and k > 0:
            if rc != 2 or 'header' not in err:
                problems.append('%s: inside the header: rc %d %s' % (what, rc, err.strip()))
        elif k >= hdr_end:
            if rc != 0 or rows != good[:want] or 'truncated' not in err:
                problems.append('%s: rc %d, %d rows (want %d): %s' % (what, rc, len(rows), want, err.strip()[:200]))
    for k in range(len(orig)):
        b = bytearray(orig)
        b[k] ^= 1 << (k % 8)
        rc, rows, err = dump(bytes(b))
        note('flip', rc)
        what = '%s bit %d flipped at %d' % (os.path.basename(tr), k % 8, k)
        if rc is None or rc < 0 or rc >= 128:
            problems.append('%s: rc %s' % (what, rc))
        elif rows != good[:len(rows)]:
            problems.append('%s: printed a row that is not in the undamaged trace' % what)
        elif rc == 0 and k >= foot_at and rows == good and 'footer missing' in err:
            pass    # a footer length now past the end reads as a cut footer
        elif rc != 2 or path not in err:
            problems.append('%s: rc %d, %d rows: %s' % (what, rc, len(rows), err.strip()[:200]))
    # versions: another major is refused; a later minor is read as 1.0
    for major, minor, want_rc in ((2, 0, 2), (0, 0, 2), (1, 7, 0)):
        b = bytearray(orig)
        struct.pack_into('<HH', b, 8, major, minor)
        # the header CRC covers the version: recompute it, as a writer would
        import zlib
        struct.pack_into('<I', b, hdr_end - 4, zlib.crc32(bytes(b[:hdr_end - 4])))
        rc, rows, err = dump(bytes(b))
        what = '%s version %d.%d' % (os.path.basename(tr), major, minor)
        if rc != want_rc or (rc == 0 and rows != good) or (rc == 2 and (rows or 'version' not in err)):
            problems.append('%s: rc %s, %d rows: %s' % (what, rc, len(rows), err.strip()[:200]))

# foreign files
for name, data in (('elf', open('/bin/true', 'rb').read()), ('gzip', b'\x1f\x8b\x08\x00' + b'\0' * 60),
                   ('json', b'{"jobs": []}\n'), ('empty', b''), ('magic only', b'NVTRACE\0'),
                   ('zeros', b'\0' * 4096), ('text', b'hello, world\n' * 10)):
    rc, rows, err = dump(data)
    note('foreign', rc)
    if rc != 2 or rows or path not in err:
        problems.append('foreign %s: rc %s, %d rows: %s' % (name, rc, len(rows), err.strip()[:200]))
summary = ' '.join('%s/%s:%d' % (k, r, c) for (k, r), c in sorted(counts.items(), key=str))
print('; '.join(problems[:5]) + (' (+%d more)' % (len(problems) - 5) if len(problems) > 5 else '')
      if problems else 'ok ' + summary)
PY
)
	case "$out" in
	ok*) pass damaged_traces_never_wrong; echo "info: damaged traces (kind/exit:count): ${out#ok }";;
	*) fail damaged_traces_never_wrong "$out";;
	esac
else
	fail damaged_traces_never_wrong "gen_trace failed ($GEN)"
fi
