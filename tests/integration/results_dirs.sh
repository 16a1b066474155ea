#!/usr/bin/env bash
# Results directories as runs (analyze/input/runset.c) and jobs/run -r N:
#  - jobs/run on two job files into results/a and results/b, and -r 3 into
#    results/c-1 .. c-3;
#  - `nvanalyze results/a results/b` is one run per directory, labelled a and
#    b, with the jobs of both files and their traces found inside (also from
#    another working directory, where nv_trace's relative path is not valid);
#  - a '+' join of the files equals the directory;
#  - results/c-1,results/c-2,results/c-3 are three repeats labelled c;
#  - a comma list of files holding different jobs is refused, saying how
#    to join them; an empty directory is refused; a job name found in two
#    files of one run keeps both (keys FILE:NAME).
source "$(dirname "$0")/../lib.sh"
need_nvanalyze && need_engine || exit 0
RUN=$TOP/jobs/run
cd "$T" || exit 1
mkdir jf
for spec in "rr randread randread 4" "wr seqwrite write 2" "dup randread read 1"; do
	set -- $spec
	cat >"jf/$1.fio" <<-EOF
	[global]
	ioengine=external:\${NVENGINE_SO}
	filename=\${NVDEV}
	nv_trace=\${NVTRACE}
	size=4M
	bs=4k
	[$2]
	rw=$3
	iodepth=$4
	number_ios=600
	EOF
done
truncate -s 4M dev
export NVDEV=$T/dev
ok=1
# runfail NAME LOG: a failed jobs/run (not counted when io_uring was switched off meanwhile).
runfail() {
	ok=0
	grep -q 'io_uring is disabled' "$2" ||
		fail "$1" "$(grep -v '^jobs/run: .*\(->\|traces in\)' "$2" | tail -n 4)"
}
for h in a b; do
	"$RUN" -o results/$h jf/rr.fio jf/wr.fio >"run-$h.log" 2>&1 ||
		runfail "jobs-run-$h" "run-$h.log"
done
"$RUN" -r 3 -o results/c jf/rr.fio jf/wr.fio >run-c.log 2>&1 || runfail jobs-run-r3 run-c.log
if [ $ok -eq 0 ]; then
	# another test may have switched io_uring off for a moment (kernel.io_uring_disabled)
	grep -q 'io_uring is disabled' run-*.log &&
		skip dirs "io_uring was disabled while this ran"
	exit 0
fi

# -r 3: three numbered directories, each a whole run, and the line to compare them.
if [ -f results/c-1/jf-rr.json ] && [ -f results/c-3/jf-wr.json ] && [ ! -e results/c-4 ] &&
	ls results/c-2/traces/jf-wr/seqwrite.*.nvt >/dev/null 2>&1 &&
	grep -q 'nvanalyze results/c-1,results/c-2,results/c-3 OTHER' run-c.log; then
	pass jobs-run-r3-dirs
else
	fail jobs-run-r3-dirs "$(ls results | tr '\n' ' '); $(tail -n 1 run-c.log)"
fi
out=$("$RUN" -r 0 jf/rr.fio 2>&1)
[ $? -eq 2 ] && grep -q "'0': a number of runs from 1 to 1000" <<<"$out" &&
	pass jobs-run-r-bad || fail jobs-run-r-bad "$out"

# sides / exact: "label:runs:jobs,..." per side, and the sources of clat
# p99 per side and job ("exact" when the traces were read), from --format json.
sides() { pytool report_json sides; }
exact() { pytool report_json exact; }

want_exact="a/randread=exact a/seqwrite=exact b/randread=exact b/seqwrite=exact"
"$NVANALYZE" -f json results/a results/b >ab.json 2>ab.err
got=$(sides <ab.json 2>&1)
[ "$got" = "a:1:randread,seqwrite b:1:randread,seqwrite" ] && pass dirs-one-run-each ||
	fail dirs-one-run-each "$got $(head -n 2 ab.err)"
got=$(exact <ab.json 2>&1)
[ "$got" = "$want_exact" ] && [ ! -s ab.err ] && pass dirs-traces-inside ||
	fail dirs-traces-inside "$got; $(head -n 2 ab.err)"
"$NVANALYZE" results/a results/b >ab.md 2>/dev/null
grep -q '^| metric .*| *a *| *b *| *a vs b |$' ab.md &&
	grep -qx -- '- \*\*a\*\*: results/a (fio-[0-9.]*)' ab.md &&
	pass dirs-labels-md || fail dirs-labels-md "$(head -n 4 ab.md)"
# From elsewhere: nv_trace=results/a/traces/... is relative; the traces are found next to
# the JSON (-v: the note saying so).
got=$(cd / && "$NVANALYZE" -v -f json "$T/results/a" "$T/results/b" 2>"$T/far.err" | exact 2>&1)
[ "$got" = "$want_exact" ] &&
	grep -q 'using the traces in .*results/a/traces/jf-rr next to the JSON' far.err &&
	pass dirs-traces-from-elsewhere ||
	fail dirs-traces-from-elsewhere "$got; $(head -n 2 far.err)"

# A '+' join is the same run as its directory (the path aside).
"$NVANALYZE" -f json results/a/jf-rr.json+results/a/jf-wr.json results/b/ >join.json 2>join.err
got=$(sides <join.json 2>&1)
if [ "$got" = "a:1:randread,seqwrite b:1:randread,seqwrite" ] &&
	pytool report_json same-results ab.json join.json; then
	pass plus-join-equals-dir
else
	fail plus-join-equals-dir "$got $(head -n 2 join.err)"
fi

# Repeats of directories: one side of three runs, labelled by the common name.
got=$("$NVANALYZE" -f json results/c-1,results/c-2,results/c-3 results/a 2>&1 | sides 2>&1)
[ "$got" = "c:3:randread,seqwrite a:1:randread,seqwrite" ] && pass dir-repeats-label ||
	fail dir-repeats-label "$got"

# Files of different jobs given as repeats: refused, with the join spelled out.
jobs="results/a/jf-rr.json: randread; results/a/jf-wr.json: seqwrite"
join="join them with '+' (results/a/jf-rr.json+results/a/jf-wr.json)"
out=$("$NVANALYZE" results/a/jf-rr.json,results/a/jf-wr.json results/b 2>&1)
if [ $? -eq 2 ] && grep -qF "hold different jobs ($jobs)" <<<"$out" &&
	grep -qF "$join or give the directory" <<<"$out"; then
	pass repeats-different-jobs-refused
else
	fail repeats-different-jobs-refused "$out"
fi
mkdir empty
out=$("$NVANALYZE" empty results/b 2>&1)
[ $? -eq 2 ] && grep -qF 'empty: no fio JSON file (*.json) in this directory' <<<"$out" &&
	pass empty-dir-refused || fail empty-dir-refused "$out"

# The same job name in two files of one run: both kept, keyed by file.
"$RUN" -o results/d jf/rr.fio jf/dup.fio >run-d.log 2>&1
got=$("$NVANALYZE" -f json results/d 2>&1 | sides 2>&1)
[ "$got" = "d:1:jf-dup:randread,jf-rr:randread" ] && pass same-name-two-files ||
	fail same-name-two-files "$got"
rm -rf "$T"
