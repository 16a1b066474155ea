#!/usr/bin/env bash
# nvanalyze dump / stat on traces written by the real writer (gen_trace):
# dump against the generator's own CSV and against an independent Python
# reader written from docs/trace-format.md; stat's numbers against Python
# over the dump; truncation, damage, foreign files, usage.
source "$(dirname "$0")/../lib.sh"
need_unit_helper || exit 0

# The independent reader (tests/py/lib/nvtrace_reader.py, written from
# docs/trace-format.md) prints the dump CSV body, then "#blocks N footer F
# unused U"; tests/py/trace_stats.py prints stat's rows from a dump CSV.
# --- a mixed trace, many blocks ---
"$GEN" -p mixed -n 30000 -b 1000 -q 16 -s 5 "$T/m.nvt" "$T/m.expect" || fail gen "gen_trace failed"
if "$NVANALYZE" dump "$T/m.nvt" >"$T/m.csv" 2>"$T/m.err"; then
	if [ "$(head -n1 "$T/m.csv")" = \
		"submit_ns,complete_ns,lat_ns,offset,length,op,status,qd,file" ] &&
	   tail -n +2 "$T/m.csv" | cmp -s - "$T/m.expect"; then
		pass dump_matches_writer_input
	else
		fail dump_matches_writer_input "dump differs from the records appended"
	fi
	[ -s "$T/m.err" ] && fail dump_quiet "stderr: $(head -c 300 "$T/m.err")" || pass dump_quiet
else
	fail dump_matches_writer_input "exit $?: $(head -c 300 "$T/m.err")"
fi

if pytool lib/nvtrace_reader "$T/m.nvt" >"$T/m.py" 2>"$T/py.err"; then
	if grep -v '^#' "$T/m.py" | cmp -s - "$T/m.expect" &&
		grep -q '^#blocks 30 footer 1 unused 0$' "$T/m.py"; then
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
	want=$(pytool trace_stats "$csvf")
	if [ -n "$want" ] && [ "$got" = "$want" ]; then
		pass "$name"
	else
		fail "$name" "stat rows differ: got [$got] want [$want]"
	fi
}
check_stat stat_mixed "$T/m.nvt" "$T/m.csv"
"$GEN" -p randread -n 200000 -q 32 -s 9 "$T/r.nvt" "$T/r.expect"
{
	echo "submit_ns,complete_ns,lat_ns,offset,length,op,status,qd,file"
	cat "$T/r.expect"
} >"$T/r.csv"
check_stat stat_randread "$T/r.nvt" "$T/r.csv"
grep -q '^records: 200000$' "$T/stat_randread.stat" &&
	grep -q '^  job.name = gen$' "$T/stat_randread.stat" &&
	grep -q 'footer: present' "$T/stat_randread.stat" &&
	grep -q '^  smart.after.temperature = 305$' "$T/stat_randread.stat" &&
	grep -q 'MB = 10^6 bytes' "$T/stat_randread.stat" &&
	pass stat_header_footer || fail stat_header_footer "$(head -n 20 "$T/stat_randread.stat")"

# --- several traces: dump concatenates, one header line ---
"$NVANALYZE" dump "$T/m.nvt" "$T/r.nvt" >"$T/mr.csv" 2>/dev/null
[ "$(wc -l <"$T/mr.csv")" -eq $((1 + 30000 + 200000)) ] &&
	[ "$(grep -c '^submit_ns' "$T/mr.csv")" -eq 1 ] && pass dump_many ||
	fail dump_many "$(wc -l <"$T/mr.csv") lines"

# --- truncation: the complete blocks, a warning, exit 0 ---
size=$(stat -c %s "$T/m.nvt")
head -c $((size * 2 / 3)) "$T/m.nvt" >"$T/cut.nvt"
pytool lib/nvtrace_reader "$T/cut.nvt" >"$T/cut.py"
nb=$(sed -n 's/^#blocks \([0-9]*\) footer 0 unused \([0-9]*\)$/\1/p' "$T/cut.py")
unused=$(sed -n 's/^#blocks \([0-9]*\) footer 0 unused \([0-9]*\)$/\2/p' "$T/cut.py")
cutmsg="$unused bytes after block $((nb - 1)) unusable; footer missing"
if "$NVANALYZE" dump "$T/cut.nvt" >"$T/cut.csv" 2>"$T/cut.err" &&
   [ -n "$nb" ] && [ "$(wc -l <"$T/cut.csv")" -eq $((1 + nb * 1000)) ] &&
   tail -n +2 "$T/cut.csv" | cmp -s - <(head -n $((nb * 1000)) "$T/m.expect") &&
   grep -q "trace $T/cut.nvt: truncated: $cutmsg" "$T/cut.err"; then
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
pytool flip_bit "$T/m.nvt" "$T/flip.nvt"
"$NVANALYZE" stat "$T/flip.nvt" >/dev/null 2>"$T/flip.err"; rc=$?
[ $rc -eq 2 ] && grep -q "$T/flip.nvt: damaged: block [0-9]* at offset [0-9]*" "$T/flip.err" &&
	pass damaged_stat || fail damaged_stat "exit $rc: $(cat "$T/flip.err")"
"$NVANALYZE" dump "$T/flip.nvt" >"$T/flip.csv" 2>"$T/flip.err"; rc=$?
# what was printed before the error is a correct prefix
n=$(($(wc -l <"$T/flip.csv") - 1))
[ $rc -eq 2 ] && [ $n -lt 30000 ] && tail -n +2 "$T/flip.csv" |
	cmp -s - <(head -n $n "$T/m.expect") &&
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
[ $rc -eq 2 ] && grep -q 'no trace file' "$T/u.err" && pass usage_error ||
	fail usage_error "exit $rc"
"$NVANALYZE" dump --bogus x >/dev/null 2>"$T/u.err"; rc=$?
[ $rc -eq 2 ] && grep -q 'unknown option --bogus' "$T/u.err" && pass unknown_option ||
	fail unknown_option "exit $rc"
exit 0
