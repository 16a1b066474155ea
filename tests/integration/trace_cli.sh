#!/usr/bin/env bash
# nvanalyze dump / stat on traces written by the real writer (gen_trace):
# dump against the generator's own CSV and against an independent Python
# reader written from docs/trace-format.md; stat's numbers against Python
# over the dump; truncation, damage, foreign files, usage.
source "$(dirname "$0")/../lib.sh"
: "${UNIT_DIR:=$TOP/build/tests/unit}"
GEN=$UNIT_DIR/gen_trace
if [ ! -x "$GEN" ] || [ ! -x "$NVANALYZE" ]; then
	skip all "build first: make all unit ($GEN, $NVANALYZE)"
	exit 0
fi

# Independent reader: prints the dump CSV body, then "#blocks N footer F unused U".
cat >"$T/nvtread.py" <<'PY'
import struct, sys, zlib

def varint(b, p):
    x = s = 0
    while True:
        c = b[p]; p += 1
        x |= (c & 0x7f) << s; s += 7
        if not c & 0x80:
            return x, p

def column(b, p, m):
    w = b[p]; p += 1
    base, p = varint(b, p)
    vals = [base] * m
    for k in range(w):
        plane = b[p:p + m]; p += m
        for i in range(m):
            vals[i] += plane[i] << (8 * k)
    return vals, p

def unzz(u):
    return (u >> 1) ^ -(u & 1)

M64 = (1 << 64) - 1
OPS = ["read", "write", "trim", "flush", "zeroes", "uncor", "verify"]

def records(raw, n):
    c0, p = varint(raw, 0)
    d, p = column(raw, p, n - 1)
    comp = [c0]
    for x in d:
        comp.append((comp[-1] + unzz(x)) & M64)
    lat, p = column(raw, p, n)
    sub = [(c - unzz(l)) & M64 for c, l in zip(comp, lat)]
    shift, mode = raw[p], raw[p + 1]; p += 2
    if mode == 1:
        first, p = varint(raw, p)
        deltas, p = column(raw, p, n - 1)
        lens, p = column(raw, p, n)
        lens = [x << shift for x in lens]
        offs = [first << shift]
        for i in range(1, n):
            offs.append((offs[-1] + lens[i - 1] + (unzz(deltas[i - 1]) << shift)) & M64)
    else:
        offs, p = column(raw, p, n)
        offs = [x << shift for x in offs]
        lens, p = column(raw, p, n)
        lens = [x << shift for x in lens]
    st, p = column(raw, p, n)
    qd, p = column(raw, p, n)
    op, p = column(raw, p, n)
    fi, p = column(raw, p, n)
    assert p == len(raw), "payload not consumed"
    for i in range(n):
        lat_ns = (comp[i] - sub[i]) & M64
        if lat_ns >= 1 << 63:
            lat_ns -= 1 << 64
        print("%d,%d,%d,%d,%d,%s,%d,%d,%d" % (sub[i], comp[i], lat_ns, offs[i], lens[i],
              OPS[op[i]], unzz(st[i]), qd[i], fi[i]))

b = open(sys.argv[1], "rb").read()
assert b[:8] == b"NVTRACE\0"
major, minor, kvlen = struct.unpack_from("<HHI", b, 8)
assert major == 1
assert struct.unpack_from("<I", b, 16 + kvlen)[0] == zlib.crc32(b[:16 + kvlen])
p = 20 + kvlen
blocks = 0
footer = 0
while p + 4 <= len(b):
    if b[p:p + 4] == b"NVTF":
        blen, = struct.unpack_from("<I", b, p + 4)
        if p + 20 + blen > len(b):
            break
        assert struct.unpack_from("<I", b, p + 8 + blen)[0] == zlib.crc32(b[p:p + 8 + blen])
        nb, nr = struct.unpack_from("<IQ", b, p + 8)
        assert nb == blocks
        footer = 1
        p += 20 + blen
        break
    assert b[p:p + 4] == b"NVTB"
    if p + 48 > len(b):
        break
    seq, n, rawlen, clen, pcrc, lo, hi, codec = struct.unpack_from("<IIIIIQQB", b, p + 4)
    assert struct.unpack_from("<I", b, p + 44)[0] == zlib.crc32(b[p:p + 44])
    assert seq == blocks and codec == 1
    if p + 48 + clen > len(b):
        break
    payload = b[p + 48:p + 48 + clen]
    assert zlib.crc32(payload) == pcrc
    raw = zlib.decompress(payload)
    assert len(raw) == rawlen
    records(raw, n)
    blocks += 1
    p += 48 + clen
print("#blocks %d footer %d unused %d" % (blocks, footer, len(b) - p))
PY

# Independent statistics over the dump CSV, in stat's row format.
cat >"$T/stats.py" <<'PY'
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
first = min(int(r["submit_ns"]) for r in rows)
last = max(int(r["complete_ns"]) for r in rows)
span = (last - first) / 1e9
def rank(p, n):
    return max(1, min(n, -(-round(p * 1e4) * n // 1000000)))
out = []
groups = {}
for r in rows:
    groups.setdefault(r["op"], []).append(r)
order = ["read", "write", "trim", "flush", "zeroes", "uncor", "verify"]
names = [o for o in order if o in groups] + (["all"] if len(groups) != 1 else [])
for name in names:
    g = rows if name == "all" else groups[name]
    lat = sorted(int(r["lat_ns"]) for r in g)
    n = len(lat)
    mean = sum(lat) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in lat) / (n - 1)) if n > 1 else 0.0
    errs = sum(1 for r in g if r["status"] != "0")
    byts = sum(int(r["length"]) for r in g)
    pct = [lat[rank(p, n) - 1] for p in (50, 90, 95, 99, 99.9, 99.99)]
    print(name, n, errs, "%.1f" % (n / span), "%.3f" % (byts / span / 1e6), lat[0],
          *pct, lat[-1], "%.1f" % mean, "%.1f" % sd)
PY

# --- a mixed trace, many blocks ---
"$GEN" -p mixed -n 30000 -b 1000 -q 16 -s 5 "$T/m.nvt" "$T/m.expect" || fail gen "gen_trace failed"
if "$NVANALYZE" dump "$T/m.nvt" >"$T/m.csv" 2>"$T/m.err"; then
	if [ "$(head -n1 "$T/m.csv")" = "submit_ns,complete_ns,lat_ns,offset,length,op,status,qd,file" ] &&
	   tail -n +2 "$T/m.csv" | cmp -s - "$T/m.expect"; then
		pass dump_matches_writer_input
	else
		fail dump_matches_writer_input "dump differs from the records appended"
	fi
	[ -s "$T/m.err" ] && fail dump_quiet "stderr: $(head -c 300 "$T/m.err")" || pass dump_quiet
else
	fail dump_matches_writer_input "exit $?: $(head -c 300 "$T/m.err")"
fi

if python3 "$T/nvtread.py" "$T/m.nvt" >"$T/m.py" 2>"$T/py.err"; then
	if grep -v '^#' "$T/m.py" | cmp -s - "$T/m.expect" && grep -q '^#blocks 30 footer 1 unused 0$' "$T/m.py"; then
		pass independent_reader
	else
		fail independent_reader "python reader disagrees: $(tail -n1 "$T/m.py")"
	fi
else
	fail independent_reader "python reader failed: $(tail -n 3 "$T/py.err")"
fi

# --- stat against Python over the dump ---
check_stat() {	# NAME TRACE CSV
	local name=$1 tr=$2 csvf=$3 got want
	if ! "$NVANALYZE" stat "$tr" >"$T/$name.stat" 2>"$T/$name.stat.err"; then
		fail "$name" "stat exit $?: $(head -c 300 "$T/$name.stat.err")"
		return
	fi
	got=$(awk '/^op /{t=1; next} t && /^latency/{t=0} t' "$T/$name.stat" | tr -s ' ')
	want=$(python3 "$T/stats.py" "$csvf")
	if [ -n "$want" ] && [ "$got" = "$want" ]; then
		pass "$name"
	else
		fail "$name" "stat rows differ: got [$got] want [$want]"
	fi
}
check_stat stat_mixed "$T/m.nvt" "$T/m.csv"
"$GEN" -p randread -n 200000 -q 32 -s 9 "$T/r.nvt" "$T/r.expect"
{ echo "submit_ns,complete_ns,lat_ns,offset,length,op,status,qd,file"; cat "$T/r.expect"; } >"$T/r.csv"
check_stat stat_randread "$T/r.nvt" "$T/r.csv"
grep -q '^records: 200000$' "$T/stat_randread.stat" && grep -q '^  job.name = gen$' "$T/stat_randread.stat" &&
	grep -q 'footer: present' "$T/stat_randread.stat" && grep -q '^  smart.after.temperature = 305$' "$T/stat_randread.stat" &&
	grep -q 'MB = 10^6 bytes' "$T/stat_randread.stat" &&
	pass stat_header_footer || fail stat_header_footer "$(head -n 20 "$T/stat_randread.stat")"

# --- several traces: dump concatenates, one header line ---
"$NVANALYZE" dump "$T/m.nvt" "$T/r.nvt" >"$T/mr.csv" 2>/dev/null
[ "$(wc -l <"$T/mr.csv")" -eq $((1 + 30000 + 200000)) ] &&
	[ "$(grep -c '^submit_ns' "$T/mr.csv")" -eq 1 ] && pass dump_many || fail dump_many "$(wc -l <"$T/mr.csv") lines"

# --- truncation: the complete blocks, a warning, exit 0 ---
size=$(stat -c %s "$T/m.nvt")
head -c $((size * 2 / 3)) "$T/m.nvt" >"$T/cut.nvt"
python3 "$T/nvtread.py" "$T/cut.nvt" >"$T/cut.py"
nb=$(sed -n 's/^#blocks \([0-9]*\) footer 0 unused \([0-9]*\)$/\1/p' "$T/cut.py")
unused=$(sed -n 's/^#blocks \([0-9]*\) footer 0 unused \([0-9]*\)$/\2/p' "$T/cut.py")
if "$NVANALYZE" dump "$T/cut.nvt" >"$T/cut.csv" 2>"$T/cut.err" &&
   [ -n "$nb" ] && [ "$(wc -l <"$T/cut.csv")" -eq $((1 + nb * 1000)) ] &&
   tail -n +2 "$T/cut.csv" | cmp -s - <(head -n $((nb * 1000)) "$T/m.expect") &&
   grep -q "trace $T/cut.nvt: truncated: $unused bytes after block $((nb - 1)) unusable; footer missing" "$T/cut.err"; then
	pass truncated_dump
else
	fail truncated_dump "blocks=$nb unused=$unused: $(cat "$T/cut.err")"
fi
if "$NVANALYZE" stat "$T/cut.nvt" >"$T/cut.stat" 2>"$T/cut.stat.err" &&
   grep -q "^records: $((nb * 1000))$" "$T/cut.stat" && grep -q 'footer: missing' "$T/cut.stat" &&
   grep -q 'truncated' "$T/cut.stat.err"; then
	pass truncated_stat
else
	fail truncated_stat "$(cat "$T/cut.stat.err") $(grep records "$T/cut.stat")"
fi

# --- damage: a flipped bit in a payload is an error naming block and offset ---
python3 - "$T/m.nvt" "$T/flip.nvt" <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
b[len(b) // 2] ^= 0x04
open(sys.argv[2], "wb").write(b)
PY
"$NVANALYZE" stat "$T/flip.nvt" >/dev/null 2>"$T/flip.err"; rc=$?
[ $rc -eq 2 ] && grep -q "$T/flip.nvt: damaged: block [0-9]* at offset [0-9]*" "$T/flip.err" &&
	pass damaged_stat || fail damaged_stat "exit $rc: $(cat "$T/flip.err")"
"$NVANALYZE" dump "$T/flip.nvt" >"$T/flip.csv" 2>"$T/flip.err"; rc=$?
# what was printed before the error is a correct prefix
n=$(($(wc -l <"$T/flip.csv") - 1))
[ $rc -eq 2 ] && [ $n -lt 30000 ] && tail -n +2 "$T/flip.csv" | cmp -s - <(head -n $n "$T/m.expect") &&
	pass damaged_dump || fail damaged_dump "exit $rc, $n lines: $(cat "$T/flip.err")"

# --- foreign file, missing file, usage ---
echo "just text" >"$T/foreign.txt"
"$NVANALYZE" stat "$T/foreign.txt" >/dev/null 2>"$T/f.err"; rc=$?
[ $rc -eq 2 ] && grep -q "$T/foreign.txt: not an nvtrace file" "$T/f.err" &&
	pass foreign || fail foreign "exit $rc: $(cat "$T/f.err")"
"$NVANALYZE" dump "$T/nope.nvt" >/dev/null 2>"$T/n.err"; rc=$?
[ $rc -eq 2 ] && grep -q "$T/nope.nvt: No such file" "$T/n.err" &&
	pass missing || fail missing "exit $rc: $(cat "$T/n.err")"
"$NVANALYZE" stat -h >"$T/h.out" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q '^usage: nvanalyze stat' "$T/h.out" && pass help || fail help "exit $rc"
"$NVANALYZE" dump >/dev/null 2>"$T/u.err"; rc=$?
[ $rc -eq 2 ] && grep -q 'no trace file' "$T/u.err" && pass usage_error || fail usage_error "exit $rc"
"$NVANALYZE" dump --bogus x >/dev/null 2>"$T/u.err"; rc=$?
[ $rc -eq 2 ] && grep -q 'unknown option --bogus' "$T/u.err" && pass unknown_option || fail unknown_option "exit $rc"
exit 0
