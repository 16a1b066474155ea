#!/bin/bash
# Real fio 2.x output (tests/fixtures/fio2: fio 2.21 and 2.2.10 built from
# their tags and run here), each reading against fio's own JSON (issue 60
# items 8-12).  fio 2.21 prints normal, terse and JSON of one run in one
# file: nvanalyze's own check of the three must agree, and the normal and
# terse parts alone must equal the JSON part within their printed precision
# (gen_textcmp).  fio 2.2.10 takes one format a run: its normal and terse
# files are separate runs of the JSON's seeded job, so only the IO counts
# and bytes are compared (its JSON's io_bytes is KiB: within 1 KiB).
. "$(dirname "$0")/../lib.sh"

cd "$TOP" || exit 1
need_unit_helper gen_textcmp || exit 0
FX=tests/fixtures/fio2

# one_job NAME FILE N: FILE reads as the one job "status", its last of N
# status-interval snapshots.
one_job() {
	"$NVANALYZE" --format csv "$2" >"$T/$1.csv" 2>"$T/$1.err"
	if [ "$(cut -d, -f1 "$T/$1.csv" | sort -u | grep -vc -e '^job$' -e '^$')" = 1 ] &&
	   grep -q '^status,read,' "$T/$1.csv" &&
	   grep -q "$3 status-interval snapshots of one fio run.*the last is read" \
		"$T/$1.err"; then
		pass "$1"
	else
		fail "$1" "$(cut -d, -f1 "$T/$1.csv" | sort -u | tr '\n' ' ')" \
			"$(head -c 300 "$T/$1.err")"
	fi
}

# fio 2.21, one run in three formats.
for n in kb1000 unified bits fracbs; do
	f=$FX/fio-2.21-$n.out
	"$NVANALYZE" --format csv "$f" >"$T/$n.csv" 2>"$T/$n.err"
	rc=$?
	if [ "$rc" -eq 0 ] &&
	   grep -Eq 'the normal output agrees with the JSON \([1-9][0-9]* values' "$T/$n.err" &&
	   grep -Eq 'the terse output agrees with the JSON \([1-9][0-9]* values' "$T/$n.err" &&
	   ! grep -q disagrees "$T/$n.err"; then
		pass "2.21-$n-three-formats-agree"
	else
		fail "2.21-$n-three-formats-agree" "exit $rc:" \
			"$(grep -v 'bytes of text' "$T/$n.err" | head -n 4 | tr '\n' ' ')"
	fi
	fio_split "$f" "$T/s-$n"
	textcmp_eq "2.21-$n-normal-equals-json" "$T/s-$n.txt" "$T/s-$n.json"
	textcmp_eq "2.21-$n-terse-equals-json" "$T/s-$n.terse" "$T/s-$n.json"
done

# Item 11: kb_base=1000 in fio 2.21 ("2000kB", bs 4000B): the bytes are the
# issued IOs times 4000 (489 reads, 511 writes).
if grep -q 'issued rwt: total=489,511,0' "$FX/fio-2.21-kb1000.out" &&
   grep -q '^kb1000,read,IO total,bytes,1956000$' "$T/kb1000.csv" &&
   grep -q '^kb1000,write,IO total,bytes,2044000$' "$T/kb1000.csv"; then
	pass 2.21-kb1000-bytes-are-issued-times-bs
else
	fail 2.21-kb1000-bytes-are-issued-times-bs \
		"$(grep 'IO total' "$T/kb1000.csv" | tr '\n' ' ')"
fi

# Item 8: terse with --status-interval (and its JSONs): one job, the last
# snapshot; the last terse line equals the last JSON object.
f=$FX/fio-2.21-status-interval.out
one_job 2.21-status-interval-one-job "$f" 3
grep '^3;' "$f" | tail -n 1 >"$T/si-last.terse"
awk '/^\{/{j=1; n++} j && n == 3 {print} /^\}/{j=0}' "$f" >"$T/si-last.json"
textcmp_eq 2.21-status-interval-last-terse-equals-json "$T/si-last.terse" "$T/si-last.json"

# fio 2.2.10: same seeded job, one run a format.  same210 NAME FORM: the
# FORM file's IO counts equal the JSON's, its bytes within the JSON's KiB.
same210() {
	local c=$T/210-$1-$2.cmp
	"$GEN" "$FX/fio-2.2.10-$1.$2" "$FX/fio-2.2.10-$1.json" >"$c" 2>&1
	if [ $? -ne 2 ] && grep -q '^compared [1-9]' "$c" &&
	   awk '/ ios: / { bad++ }
		/ io_bytes: text / { t = $(NF - 2) + 0; j = $NF + 0; sub(/,$/, "", t)
			if (t - j < 0 || t - j >= 1024) bad++ }
		END { exit bad > 0 }' "$c"; then
		pass "2.2.10-$1-$2-io-equals-json"
	else
		fail "2.2.10-$1-$2-io-equals-json" "$(grep -E ' ios:| io_bytes:|read|empty' "$c" |
			head -n 4 | tr '\n' ' ')"
	fi
}
for n in kb1000 unified bits fracbs; do
	same210 "$n" normal
	same210 "$n" terse
done
same210 status-interval terse
# Item 8 in fio 2.2.10: its status-interval terse lines are one job.
one_job 2.2.10-status-interval-one-job "$FX/fio-2.2.10-status-interval.terse" 4

# Item 12 in fio 2.2.10's form: its terse line alone prints the mixed
# totals as read (the line cannot say so: docs/analysis.md); they are the
# JSON's mixed bytes.
"$NVANALYZE" --format csv "$FX/fio-2.2.10-unified.terse" >"$T/ut.csv" 2>"$T/ut.err"
"$NVANALYZE" --format csv "$FX/fio-2.2.10-unified.json" >"$T/uj.csv" 2>>"$T/ut.err"
if grep -q '^unified,read,IO total,bytes,4194304$' "$T/ut.csv" &&
   grep -q '^unified,mixed,IO total,bytes,4194304$' "$T/uj.csv"; then
	pass 2.2.10-unified-terse-read-is-json-mixed
else
	fail 2.2.10-unified-terse-read-is-json-mixed \
		"$(grep -h 'IO total' "$T/ut.csv" "$T/uj.csv" | tr '\n' ' ')" \
		"$(head -c 200 "$T/ut.err")"
fi

# Item 11 in fio 2.2.10's own form: "io=2128.0KB" with kb_base=1000 is
# 532 reads x 4000 bytes (a warning says which base), not 2128 KiB.
"$NVANALYZE" --format csv "$FX/fio-2.2.10-kb1000.normal" >"$T/k2.csv" 2>"$T/k2.err"
if grep -q 'total=r=532/w=468/d=0' "$FX/fio-2.2.10-kb1000.normal" &&
   grep -q '^kb1000,read,IO total,bytes,2128000$' "$T/k2.csv" &&
   grep -q '^kb1000,write,IO total,bytes,1872000$' "$T/k2.csv" &&
   grep -q 'read as 1000 bytes (kb_base=1000)' "$T/k2.err"; then
	pass 2.2.10-kb1000-KB-is-1000
else
	fail 2.2.10-kb1000-KB-is-1000 "$(cat "$T/k2.err" "$T/k2.csv" | tr '\n' ' ' | head -c 400)"
fi

# Item 10 in fio 2.2.10's form: unit_base=1 prints "bw=12820Kbit/s" (KiB
# of bits: 1024 bits).
"$NVANALYZE" --format csv "$FX/fio-2.2.10-bits.normal" >"$T/b2.csv" 2>"$T/b2.err"
if grep -q 'bw=[0-9.]*Kbit/s' "$FX/fio-2.2.10-bits.normal" &&
   grep -q '^bits,read,bandwidth,MB/s,' "$T/b2.csv"; then
	pass 2.2.10-bits-reads
else
	fail 2.2.10-bits-reads "$(head -c 300 "$T/b2.err")"
fi

# Two runs' terse lines appended (the second's counts anew): repeats, each
# source at its line, and no empty context line for runs whose format
# prints no options ("  - FILE:1: " with nothing after it).
head -n 1 "$FX/fio-2.2.10-status-interval.terse" >"$T/rep.terse"
sed 's/;0;0;220;/;0;0;221;/' "$T/rep.terse" >>"$T/rep.terse"
sed -i 'p; s/;status;/;second;/' "$T/rep.terse"
"$NVANALYZE" "$T/rep.terse" >"$T/rep.md" 2>"$T/rep.err"
if grep -q "rep.terse:1 (fio-2.2.10), $T/rep.terse:3 (fio-2.2.10)" "$T/rep.md" &&
   ! grep -q '^  - .*: *$' "$T/rep.md"; then
	pass 2.2.10-terse-runs-sources
else
	fail 2.2.10-terse-runs-sources "$(grep -- '- ' "$T/rep.md" | head -n 4 | tr '\n' ' ')"
fi
