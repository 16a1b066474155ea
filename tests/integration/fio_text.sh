#!/bin/bash
# fio's text outputs read as runs (issue 40): one fio run (ioengine=null)
# with --output-format=normal,terse,json; the normal and terse readings must
# equal the JSON reading within the printed precision, field by field
# (gen_textcmp); a changed value must be caught; damaged texts (cut at
# every line, a unit garbled) give an error naming file and line, or a
# reading, never a crash.
. "$(dirname "$0")/../lib.sh"

cd "$TOP" || exit 1
CMP=${UNIT_DIR:-$TOP/build/tests/unit}/gen_textcmp
[ -x "$CMP" ] || { fail setup "no $CMP (run make unit)"; exit 0; }
command -v "$FIO" >/dev/null || { skip consistency "no fio"; exit 0; }

# randrw with numjobs=2 (per-job entries), randtrim, and a second group with
# group_reporting and lat_percentiles; a percentile_list.
cat >"$T/jobs.fio" <<'JOBS'
[global]
ioengine=null
size=64m
bs=4k
percentile_list=10:50:90:99:99.9:99.99
[rw]
rw=randrw
numjobs=2
[trimjob]
rw=randtrim
[grp]
new_group
stonewall
rw=randread
numjobs=2
group_reporting
lat_percentiles=1
JOBS
if ! (cd "$T" && "$FIO" --output-format=normal,terse,json --output=all.out jobs.fio \
	>"$T/fio.log" 2>&1); then
	fail fio-run "$(tail -n 3 "$T/fio.log" | tr '\n' ' ')"
	exit 0
fi
# fio writes terse, then JSON, then normal: split them.
awk '/^\{/{j=1} j{print} /^\}/{j=0}' "$T/all.out" >"$T/run.json"
awk '/^\{/{j=1} /^[0-9];fio-/{next} !j{print} /^\}/{j=0}' "$T/all.out" >"$T/run.txt"
"$NVANALYZE" --format csv "$T/run.txt" >"$T/run.txt.csv" 2>/dev/null

if "$CMP" "$T/run.txt" "$T/run.json" >"$T/cmp.out" 2>&1 &&
   grep -q 'text format fio-normal' "$T/cmp.out" &&
   grep -Eq 'compared [1-9][0-9]{2,} \(buckets [1-9][0-9]*\), mismatches 0' "$T/cmp.out"; then
	pass normal-equals-json
else
	fail normal-equals-json "$(head -n 8 "$T/cmp.out" | tr '\n' ' ')"
fi

# The same normal output quoted as a mail quotes it (a reply's "> ", a
# reply to it "> > ", "> " on the blank lines, every line spaced by a quoted
# blank line as an HTML mail's text part is; fio's ">=64=" kept) and as a
# Markdown blockquote (">" without a blank): the same reading as the JSON.
awk '{print "> > " $0; print "> "}' "$T/run.txt" >"$T/mailq.txt"
sed 's/^/>/' "$T/run.txt" >"$T/bquote.txt"
for q in mailq bquote; do
	if "$CMP" "$T/$q.txt" "$T/run.json" >"$T/$q.out" 2>&1 &&
	   grep -q '>=64=' "$T/$q.txt" &&
	   grep -Eq 'compared [1-9][0-9]{2,} \(buckets [1-9][0-9]*\), mismatches 0' \
		"$T/$q.out"; then
		pass "normal-quoted-$q-equals-json"
	else
		fail "normal-quoted-$q-equals-json" "$(head -n 4 "$T/$q.out" | tr '\n' ' ')"
	fi
done

# Two outputs of the same jobs pasted into a message, each below its own
# caption and command line (a post comparing two file systems): two setups
# side by side, not repeats averaged; below the same command line each (a
# terminal's runs of one command) they stay repeats of one run.
for c in "FIO on Erofs:|fio --filename=/mnt/erofs/f job.fio" \
	"FIO on SquashFs:|fio --filename=/mnt/sqsh/f job.fio"; do
	printf '%s\n\nhost:~> %s\n' "${c%%|*}" "${c#*|}"
	cat "$T/run.txt"
	printf '\n'
done >"$T/twofs.txt"
for r in 1 2; do printf 'host:~> fio job.fio\n'; cat "$T/run.txt"; done >"$T/twice.txt"
"$NVANALYZE" "$T/twofs.txt" >"$T/twofs.md" 2>"$T/twofs.err"
"$NVANALYZE" "$T/twice.txt" >"$T/twice.md" 2>"$T/twice.err"
if [ "$(grep -c '^- \*\*' "$T/twofs.md")" = 2 ] && grep -qF -- '- **twofs #2** (baseline)' \
	"$T/twofs.md" && ! grep -q 'repeats of one run' "$T/twofs.err" &&
	[ "$(grep -c '^- \*\*' "$T/twice.md")" = 1 ] &&
	grep -q 'read as repeats of one run' "$T/twice.err"; then
	pass normal-captioned-setups-not-repeats
else
	fail normal-captioned-setups-not-repeats "$(grep '^- \*\*' "$T/twofs.md" "$T/twice.md" |
		tr '\n' ' ') $(head -c 200 "$T/twice.err")"
fi

# fsync's block ("fsync/fdatasync/sync_file_range:", "sync (nsec): min=...",
# "sync percentiles"): the sync direction's latency and count, as the JSON's.
if (cd "$T" && "$FIO" --name=fs --ioengine=null --rw=randwrite --bs=4k --size=8m --fsync=4 \
	--output-format=normal,json --output=sync.out >"$T/fio.log" 2>&1); then
	awk '/^\{/{j=1} j{print} /^\}/{j=0}' "$T/sync.out" >"$T/sync.json"
	awk '/^\{/{j=1} !j{print} /^\}/{j=0}' "$T/sync.out" >"$T/sync.txt"
	if grep -q 'sync percentiles' "$T/sync.txt" &&
	   "$CMP" "$T/sync.txt" "$T/sync.json" >"$T/scmp.out" 2>&1 &&
	   grep -Eq 'compared [1-9][0-9]+ \(buckets [1-9][0-9]*\), mismatches 0' \
		"$T/scmp.out"; then
		pass sync-equals-json
	else
		fail sync-equals-json "$(head -n 6 "$T/scmp.out" | tr '\n' ' ')"
	fi
else
	fail sync-equals-json "fio: $(tail -n 2 "$T/fio.log" | tr '\n' ' ')"
fi

# fdatasync= (etcd's fsync test, on a file here): fio counts no sync IO
# ("sync": {"total_ios": 0}, issued rwts S=0) but measures every fdatasync
# ("lat_ns" N > 0, the text's "sync (usec)" and "sync percentiles").  The
# sync latency is read from both, equal (a changed sync min is caught), and
# shown: its rows in the CSV of each, and two runs compare (the p99 change).
fds_run() {	# NAME: a normal,json fdatasync run, split into NAME.txt, NAME.json
	(cd "$T" && "$FIO" --name=fds --ioengine=sync --rw=write --bs=2300 --size=1m \
		--fdatasync=1 --filename="$T/$1.dat" --output-format=normal,json \
		--output="$1.out" >"$T/fio.log" 2>&1) || return 1
	rm -f "$T/$1.dat"
	awk '/^\{/{j=1} j{print} /^\}/{j=0}' "$T/$1.out" >"$T/$1.json"
	awk '/^\{/{j=1} !j{print} /^\}/{j=0}' "$T/$1.out" >"$T/$1.txt"
}
if fds_run fds1 && fds_run fds2; then
	sed 's/\(sync ([a-z]*): min=\)[ ]*[0-9.]*/\199999/' "$T/fds1.txt" >"$T/fds1c.txt"
	if grep -A1 '"sync" : {' "$T/fds1.json" | grep -q '"total_ios" : 0,' &&
	   grep -q 'sync percentiles' "$T/fds1.txt" &&
	   "$CMP" "$T/fds1.txt" "$T/fds1.json" >"$T/fcmp.out" 2>&1 &&
	   grep -Eq 'compared [1-9][0-9]+ \(buckets [1-9][0-9]*\), mismatches 0' "$T/fcmp.out" &&
	   ! "$CMP" "$T/fds1c.txt" "$T/fds1.json" >"$T/fcmp2.out" 2>&1 &&
	   grep -q '^fds sync lat min: text' "$T/fcmp2.out"; then
		pass fdatasync-equals-json
	else
		fail fdatasync-equals-json \
			"$(head -n 6 "$T/fcmp.out" "$T/fcmp2.out" | tr '\n' ' ')"
	fi
	"$NVANALYZE" --format csv "$T/fds1.json" >"$T/fds1.json.csv" 2>/dev/null
	"$NVANALYZE" --format csv "$T/fds1.txt" >"$T/fds1.txt.csv" 2>/dev/null
	rows=$(grep -c '^fds,sync,lat \(min\|mean\|p99\|max\),ns,[0-9]' "$T/fds1.json.csv")
	if [ "$rows" = 4 ] && grep -q '^fds,sync,lat p99,' "$T/fds1.txt.csv" &&
	   ! grep -q '^fds,sync,IOPS' "$T/fds1.json.csv" "$T/fds1.txt.csv" &&
	   pytool fio_text_check "$T/fds1.txt" "$T/fds1.txt.csv" >"$T/fds.chk" 2>&1; then
		pass fdatasync-rows
	else
		fail fdatasync-rows "$rows rows: $(head -n 4 "$T/fds.chk" | tr '\n' ' ')"
	fi
	"$NVANALYZE" --format csv "$T/fds1.json" "$T/fds2.json" >"$T/fds12.csv" 2>&1
	if grep -Eq '^fds,sync,lat p99,ns,[0-9.]+,[0-9.]+,-?[0-9.]+' "$T/fds12.csv"; then
		pass fdatasync-compare
	else
		fail fdatasync-compare "$(grep ',sync,' "$T/fds12.csv" | head -n 3 | tr '\n' ' ')"
	fi
else
	fail fdatasync-equals-json "fio: $(tail -n 2 "$T/fio.log" | tr '\n' ' ')"
fi

# The terse lines of the same run (version 3, fio's default), then runs
# with --terse-version=5 (trim, sample counts), 4 (trim) and 2: each
# against its JSON.
grep -E '^[2-5];fio-' "$T/all.out" >"$T/run.terse"
terse_cmp() {
	if "$CMP" "$1" "$2" >"$T/tcmp.out" 2>&1 && grep -q 'text format fio-terse' "$T/tcmp.out" &&
	   grep -Eq 'compared [1-9][0-9]+ \(buckets [1-9][0-9]*\), mismatches 0' \
		"$T/tcmp.out"; then
		pass "$3"
	else
		fail "$3" "$(head -n 8 "$T/tcmp.out" | tr '\n' ' ')"
	fi
}
terse_cmp "$T/run.terse" "$T/run.json" terse-v3-equals-json
for v in 5 4 2; do
	if (cd "$T" && "$FIO" --output-format=terse,json --terse-version=$v --output=v$v.out \
		jobs.fio >"$T/fio.log" 2>&1); then
		grep -E '^[2-5];' "$T/v$v.out" >"$T/v$v.terse"
		awk '/^\{/{j=1} j{print} /^\}/{j=0}' "$T/v$v.out" >"$T/v$v.json"
		terse_cmp "$T/v$v.terse" "$T/v$v.json" "terse-v$v-equals-json"
	else
		fail "terse-v$v-equals-json" "fio: $(tail -n 2 "$T/fio.log" | tr '\n' ' ')"
	fi
done

# The whole normal,terse,json file: the JSON is read, the others checked.
"$NVANALYZE" "$T/all.out" >/dev/null 2>"$T/multi.err"
rc=$?
if [ "$rc" -eq 0 ] && grep -q 'the normal output agrees with the JSON' "$T/multi.err" &&
   grep -q 'the terse output agrees with the JSON' "$T/multi.err"; then
	pass multi-output-agrees
else
	fail multi-output-agrees "exit $rc: $(grep -v 'note:' "$T/multi.err" | head -c 300)"
fi
sed '0,/\(clat ([a-z]*sec): [^v]*avg=\)/s//\19/' "$T/all.out" >"$T/multi2.out"
"$NVANALYZE" "$T/multi2.out" >/dev/null 2>"$T/multi2.err"
if grep -q 'the normal output disagrees with the JSON: rw #1 read clat mean' "$T/multi2.err"; then
	pass multi-output-disagrees
else
	fail multi-output-disagrees "$(grep -v 'note:' "$T/multi2.err" | head -c 300)"
fi

# The same file pasted twice: the JSON object counted once, the text
# outputs' repeated job entries checked as copies (no job said missing),
# and a value changed in the second copy caught.
cat "$T/all.out" "$T/all.out" >"$T/twice.out"
"$NVANALYZE" "$T/twice.out" >/dev/null 2>"$T/twice.err"
rc=$?
if [ "$rc" -eq 0 ] && grep -q 'the same JSON object appears 2 times' "$T/twice.err" &&
	grep -q 'the normal output agrees with the JSON (.*the output pasted again)' \
		"$T/twice.err" &&
	grep -q 'the terse output agrees with the JSON' "$T/twice.err" &&
	! grep -q 'has no job' "$T/twice.err"; then
	pass multi-output-pasted-twice
else
	fail multi-output-pasted-twice "exit $rc: $(head -c 400 "$T/twice.err")"
fi
awk '/^trimjob: \(groupid=/ {n++} n == 2 && /clat \([a-z]*sec\):/ && !done {
	sub(/avg=[0-9.]*/, "avg=987654.00"); done = 1 } { print }' "$T/twice.out" >"$T/twice2.out"
"$NVANALYZE" "$T/twice2.out" >/dev/null 2>"$T/twice2.err"
if ! cmp -s "$T/twice.out" "$T/twice2.out" &&
	grep -q 'the normal output disagrees with the JSON: trimjob trim clat mean 987654' \
		"$T/twice2.err"; then
	pass multi-output-pasted-twice-copy-checked
else
	fail multi-output-pasted-twice-copy-checked "$(head -c 400 "$T/twice2.err")"
fi

# Real outputs (tests/fixtures/fio-text, SOURCES.md) and the I8g/I4g study's
# pasted outputs: an independent reader (tests/py/fio_text_check.py) finds
# the same IOPS, clat and CPU values in nvanalyze's CSV.
for f in tests/fixtures/fio-text/*.md tests/fixtures/fio-text/*.log \
	../shared/fixtures/study-outputs/i?g-*.txt; do
	[ -e "$f" ] && [ "${f##*/}" != SOURCES.md ] || continue
	b=$(basename "$f")
	# --split none: the whole page as one run, its outputs the entries the
	# independent reader counts (pages as runs of their own: paste.sh)
	"$NVANALYZE" --split none --format csv "$f" >"$T/$b.csv" 2>"$T/$b.err"
	n=$(sed -n 's/.*: \([0-9]*\) runs of the same fio jobs in one file.*/\1/p' "$T/$b.err")
	if [ -n "$n" ]; then	# a log of repeated runs (multiout.h): each run on its own
		rm -f "$T/$b".run*
		awk -v o="$T/$b.run" '/: \(g=[0-9]+\): rw=/ && st {k++; st=0}
			/^ *Run status group/ {st=1} {print >(o (k + 0))}' "$f"
		bad=
		[ "$(ls "$T/$b".run* | wc -l)" = "$n" ] || bad="not $n runs;"
		for r in "$T/$b".run*; do
			"$NVANALYZE" --format csv "$r" >"$r.csv" 2>/dev/null
			pytool fio_text_check "$r" "$r.csv" >"$r.chk" 2>&1 ||
				bad="$bad $(head -n 2 "$r.chk" | tr '\n' ' ')"
		done
		if [ -z "$bad" ]; then
			pass "independent-$b ($n repeats)"
		else
			fail "independent-$b" "$bad"
		fi
		continue
	fi
	if pytool fio_text_check "$f" "$T/$b.csv" >"$T/$b.chk" 2>&1; then
		pass "independent-$b"
	else
		fail "independent-$b" "$(head -n 4 "$T/$b.chk" "$T/$b.err" | tr '\n' ' ')"
	fi
done
# Real terse outputs (tests/fixtures/fio-terse): a reader written from fio's
# HOWTO field list (tests/py/fio_terse_check.py) finds the same values.
terse_check() {	# NAME FILE: the independent terse reader against nvanalyze's
	local b=$T/$1
	"$NVANALYZE" --format csv "$2" >"$b.csv" 2>"$b.err" &&
		"$NVANALYZE" --lat lat --format csv "$2" >"$b.lat.csv" 2>>"$b.err" &&
		"$NVANALYZE" --format json "$2" >"$b.json" 2>>"$b.err" &&
		pytool fio_terse_check "$2" "$b.csv" "$b.lat.csv" "$b.json" >"$b.chk" 2>&1
}
for f in tests/fixtures/fio-terse/*.terse; do
	b=$(basename "$f")
	if terse_check "$b" "$f"; then
		pass "independent-$b"
	else
		fail "independent-$b" "$(head -n 4 "$T/$b.chk" "$T/$b.err" | tr '\n' ' ')"
	fi
done
# ... and it can fail: one IOPS field changed in the line, not in the CSV.
f=tests/fixtures/fio-terse/mcgrof-fio-tests__0001-bs4k-1j-1qd-read.terse
awk -F';' 'BEGIN { OFS=";" } { $8 = $8 + 1; print }' "$f" >"$T/changed.terse"
if "$NVANALYZE" --format csv "$f" >"$T/orig.csv" 2>/dev/null &&
   ! pytool fio_terse_check "$T/changed.terse" "$T/orig.csv" "$T/orig.csv" >/dev/null 2>&1; then
	pass independent-terse-can-fail
else
	fail independent-terse-can-fail "a changed IOPS field matched"
fi

# The description tail: fio's job description= at the end of the line (on
# the next line, after ';', for version 2), after continue_on_error's two
# counts, holding ';' (from the command line); and after a real line's disk
# block.  Each job's and the run's description, by the independent reader.
cat >"$T/desc.fio" <<'JOBS'
[global]
ioengine=null
size=4m
bs=4k
[first]
rw=randread
description=4k reads on the null engine
[second]
rw=write
continue_on_error=all
description=second job
[third]
rw=read
JOBS
for v in 2 3 4 5; do
	if ! (cd "$T" && "$FIO" --output-format=terse --terse-version=$v --output=desc$v.terse \
		desc.fio >"$T/fio.log" 2>&1 && "$FIO" --name=semi --ioengine=null --size=1m \
		--rw=read "--description=text; with a semicolon" --output-format=terse \
		--terse-version=$v >>desc$v.terse 2>>"$T/fio.log"); then
		fail "terse-v$v-description" "fio: $(tail -n 2 "$T/fio.log" | tr '\n' ' ')"
		continue
	fi
	if grep -q 'text; with a semicolon' "$T/desc$v.terse" && grep -q 'second job' \
		"$T/desc$v.terse" && terse_check "desc$v" "$T/desc$v.terse" &&
		grep -q '"4k reads on the null engine; second job; text; with a semicolon"' \
		"$T/desc$v.json"; then
		pass "terse-v$v-description"
	else
		fail "terse-v$v-description" \
			"$(head -n 4 "$T/desc$v.chk" "$T/desc$v.err" | tr '\n' ' ')"
	fi
done
{ tr -d '\n' <"$f"; printf ';3;5;after the disk block\n'; } >"$T/disktail.terse"
if terse_check disktail "$T/disktail.terse" &&
   grep -q '"description": "after the disk block"' "$T/disktail.json"; then
	pass terse-description-after-disks
else
	fail terse-description-after-disks "$(head -n 4 "$T/disktail.chk" | tr '\n' ' ')"
fi

# ... and that reader can fail: another file's CSV does not match.
if ! pytool fio_text_check tests/fixtures/fio-text/guonaihong-knowledge__fio-benchmark.md \
	"$T/run.txt.csv" >/dev/null 2>&1; then
	pass independent-can-fail
else
	fail independent-can-fail "a CSV of another run matched"
fi

# The comparison can fail: one changed mean is a mismatch.
sed '0,/\(clat ([a-z]*sec): [^v]*avg=\)/s//\19/' "$T/run.txt" >"$T/changed.txt"
if ! "$CMP" "$T/changed.txt" "$T/run.json" >"$T/cmp2.out" 2>&1 &&
   grep -q 'clat mean: text' "$T/cmp2.out"; then
	pass changed-value-caught
else
	fail changed-value-caught "$(head -n 4 "$T/cmp2.out" | tr '\n' ' ')"
fi

# Cut at every line (normal) and after every field of the first line
# (terse): each prefix reads or is refused with exit 2 naming the file; a
# normal output read without its "Run status group" line (cut short) is
# read with a warning naming the file and its last line, and only then.
cut_ok() {	# FILE: nvanalyze on it exits 0, or 2 naming it; else prints why
	"$NVANALYZE" "$1" >/dev/null 2>"$T/cut.err"
	local rc=$?
	echo "$rc" >"$T/cut.rc"
	[ "$rc" -eq 0 ] || { [ "$rc" -eq 2 ] && grep -q "$(basename "$1")" "$T/cut.err"; } ||
		echo "exit $rc: $(head -c 200 "$T/cut.err")"
}
cut_said() {	# FILE LINES: the cut-short warning there exactly when no status line
	local said=0 has=0
	grep -q '^Run status group' "$1" && has=1
	grep -q "$(basename "$1"):$2: no \"Run status group\" line after the job" \
		"$T/cut.err" && said=1
	[ "$has" != "$said" ] || echo "status line $has, warned $said: $(head -c 200 "$T/cut.err")"
}
bad=
n=$(wc -l <"$T/run.txt")
for i in $(seq 1 "$n"); do
	head -n "$i" "$T/run.txt" >"$T/cut.txt"
	why=$(cut_ok "$T/cut.txt")
	if [ -z "$why" ] && [ "$(cat "$T/cut.rc")" = 0 ]; then	# read: as a normal output
		why=$(cut_said "$T/cut.txt" "$i")
	fi
	[ -z "$why" ] || { bad="line $i: $why"; break; }
done
[ -z "$bad" ] && pass cut-every-line || fail cut-every-line "$bad"
bad=
nf=$(head -n 1 "$T/run.terse" | tr ';' '\n' | wc -l)
for i in $(seq 1 "$nf"); do
	head -n 1 "$T/run.terse" | cut -d';' -f"1-$i" >"$T/cut.terse"
	why=$(cut_ok "$T/cut.terse")
	[ -z "$why" ] || { bad="field $i: $why"; break; }
done
[ -z "$bad" ] && pass terse-cut-every-field || fail terse-cut-every-field "$bad"

# A garbled unit: the error names the file and the line.
sed '0,/clat ([a-z]*sec)/s//clat (xsec)/' "$T/run.txt" >"$T/garbled.txt"
"$NVANALYZE" "$T/garbled.txt" >/dev/null 2>"$T/garbled.err"
rc=$?
line=$(grep -n 'clat (xsec)' "$T/garbled.txt" | head -n 1 | cut -d: -f1)
if [ "$rc" -eq 2 ] && grep -q "garbled.txt:$line: a latency unit" "$T/garbled.err"; then
	pass garbled-unit
else
	fail garbled-unit "exit $rc: $(head -c 300 "$T/garbled.err")"
fi

# A terse field garbled: the error names the file, the line and the field.
awk -F';' 'BEGIN { OFS=";" } NR == 2 { $8 = "x" } { print }' "$T/run.terse" >"$T/garbled.terse"
"$NVANALYZE" "$T/garbled.terse" >/dev/null 2>"$T/garbled3.err"
rc=$?
if [ "$rc" -eq 2 ] &&
   grep -q 'garbled.terse:2: field 8 ("x") is not a number' "$T/garbled3.err"; then
	pass terse-garbled-field
else
	fail terse-garbled-field "exit $rc: $(head -c 300 "$T/garbled3.err")"
fi

# A number garbled: named, not read as zero.
sed '0,/IOPS=[0-9]/s//IOPS=x/' "$T/run.txt" >"$T/garbled2.txt"
"$NVANALYZE" "$T/garbled2.txt" >/dev/null 2>"$T/garbled2.err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q "garbled2.txt:[0-9]*: IOPS= is not a number" "$T/garbled2.err"; then
	pass garbled-number
else
	fail garbled-number "exit $rc: $(head -c 300 "$T/garbled2.err")"
fi
