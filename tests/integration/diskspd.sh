#!/usr/bin/env bash
# diskspd text reports (analyze/input/diskspd.c, issue 40):
#  - each direction's IOPS, MiB/s, mean latency and -L percentiles of a
#    2.0-layout report (CPU | Usage, IopsStdDev, no -L) and a 2.2-layout one
#    (Core | CPU, AvgLat/LatStdDev, the %-ile table) as an independent reader
#    (tests/py/diskspd_values.py) reads them, under jobs/diskspd/'s names,
#    and the real reports of tests/fixtures/diskspd (SOURCES.md: diskspd
#    2.0.21 and 2.2.0, the CPU table in four layouts, two without a command
#    line: named from their first target's input parameters; one of five
#    targets, whose per-target %-ile tables are not the totals);
#    IOPS, MB/s, bytes, runtime, mean/stdev/min/max latency, every
#    percentile level and the CPU split (tests/py/diskspd_values.py);
#  - CPU, IOs and runtime as printed; lat (submission to completion) shown;
#  - damaged reports (cut at and inside every line, a number of each total:
#    row garbled): an error naming the file and line, never a crash;
#  - the report row by row with a jobs/run results directory of jobs/diskspd/;
#  - XML reports (-Rxml): the real one of tests/fixtures/diskspd and the
#    generated XML of diskspd22-randrw-L.txt's run (tests/py/gen_diskspd_xml.py)
#    as tests/py/diskspdxml_values.py reads them with xml.etree; the same report
#    in UTF-16LE/BE with a BOM and UTF-8 with a BOM reads the same; several
#    timespans, threads and targets; the XML and the text of one run give the
#    same values (within the text's printing); damaged XML
#    (tests/py/diskspdxml_damage.py: cut at and inside every line, each element
#    removed, each number garbled, 600 random mutations): an error naming the
#    file and line, or exactly what remains.
source "$(dirname "$0")/../lib.sh"
source "$TOP/tests/damaged.sh"
need_nvanalyze || exit 0
D=$TOP/tests/data/diskspd
# Provenance: each real file has its SOURCES.md row, blob = git hash-object.
if out=$(pytool lib/sources "$TOP/tests/fixtures/diskspd" 2>&1); then
	pass "sources ($out)"
else
	fail sources "$out"
fi
for f in "$D"/*.txt "$TOP"/tests/fixtures/diskspd/*.txt "$D"/*.xml \
	"$TOP"/tests/fixtures/diskspd/*.xml; do
	name=values-$(basename "$f" .txt) checker=diskspd_values
	case $f in *.xml) checker=diskspdxml_values;; esac
	if ! "$NVANALYZE" --format json "$f" >"$T/$name.json" 2>"$T/$name.err"; then
		fail "$name" "nvanalyze exited non-zero: $(head -c 300 "$T/$name.err")"
	elif out=$(pytool "$checker" "$f" "$T/$name.json" 2>&1); then
		pass "$name ($out)"
	else
		fail "$name" "$out"
	fi
done

# diskspd 2.2 heads the per-target %-ile tables "Latency distribution: PATH"
# and the totals' "Total latency distribution:" (ResultParser.cpp): the
# five-target report in that spelling reads the same totals, with a note.
w8=$TOP/tests/fixtures/diskspd/VirtualClient__Write8k.txt
sed -e 's/^\([A-Z]:\\diskspd-test.dat\)\r*$/Latency distribution: \1/' \
	-e 's/^total:\r*$/Total latency distribution:/' "$w8" >"$T/w8-22.txt"
if ! "$NVANALYZE" --format json "$T/w8-22.txt" >"$T/w8-22.json" 2>"$T/w8-22.err"; then
	fail values-22-target-tables "nvanalyze exited non-zero: $(head -c 300 "$T/w8-22.err")"
elif ! grep -q 'Latency distribution: I:' "$T/w8-22.txt" ||
	! grep -q 'per-target latency percentiles left out' "$T/w8-22.err"; then
	fail values-22-target-tables \
		"no 2.2 headings made, or no note: $(head -c 300 "$T/w8-22.err")"
elif out=$(pytool diskspd_values "$T/w8-22.txt" "$T/w8-22.json" 2>&1); then
	pass "values-22-target-tables ($out)"
else
	fail values-22-target-tables "$out"
fi

out=$("$NVANALYZE" --format text "$D/diskspd22-randrw-L.txt" 2>&1)
for want in 'Latency: lat \(total\)' "randrw-4k-t4-qd32-w30 · read" "CPU user +4.50%" \
	"CPU system +34.50%" "runtime +10.0 s" "IO total +5.73 GB" "lat p99.9 +1.45 ms"; do
	if ! grep -Eq "$want" <<<"$out"; then
		fail report-fields "no '$want' in the report"
		out=
		break
	fi
done
[ -n "$out" ] && pass report-fields

for f in "$D"/*.txt "$TOP"/tests/fixtures/diskspd/*.txt; do
	damaged "$f" diskspd_values '^total: *[0-9]' 's/| *\([0-9]\)\([0-9.]*\) *|/| \1x\2 |/'
done

# Row by row with a jobs/run results directory of jobs/diskspd/: the report's
# test meets randrw-4k-t4-qd32-w30.fio's section by name, read and write;
# randread-4k-t4-qd32, run on the fio side only, is "absent" on the other.
diskspd_rows() {
	local d
	"$NVANALYZE" --no-traces --summary iops --label diskspd --label linux \
		"$D/diskspd22-randrw-L.txt" "$T/res" >"$T/rows.md" 2>"$T/rows.err"
	for d in read write; do
		grep -Eq "^\| randrw-4k-t4-qd32-w30 · $d +\| +IOPS +\| +[0-9,]+ \| +[0-9,]+ \|" \
			"$T/rows.md" || echo -n " randrw-$d"
	done
	grep -Eq "^\| randread-4k-t4-qd32 · read +\| +IOPS +\| +absent \| +[0-9,]+ \|" \
		"$T/rows.md" || echo -n " randread"
	grep -q 'Latency: lat (total)' "$T/rows.md" || echo -n " lat-kind"
}
rows_vs_jobs_run rows-vs-jobs-run diskspd_rows -- "$TOP/jobs/diskspd/randrw-4k-t4-qd32-w30.fio" \
	"$TOP/jobs/diskspd/randread-4k-t4-qd32.fio"

# The same XML report as PowerShell's > writes it (UTF-16LE with a BOM; also
# with a declaration and CRLF), in UTF-16BE and in UTF-8 with a BOM: the
# same reading, byte for byte.
X=$TOP/tests/fixtures/diskspd/PerfKitBenchmarker__diskspd_result.xml
mkdir -p "$T/enc/plain" "$T/enc/u16le" "$T/enc/u16be" "$T/enc/u8bom" "$T/enc/u16decl"
cp "$X" "$T/enc/plain/r.xml"
{ printf '\xff\xfe'; iconv -f UTF-8 -t UTF-16LE "$X"; } >"$T/enc/u16le/r.xml"
{ printf '\xfe\xff'; iconv -f UTF-8 -t UTF-16BE "$X"; } >"$T/enc/u16be/r.xml"
{ printf '\xef\xbb\xbf'; cat "$X"; } >"$T/enc/u8bom/r.xml"
# with an XML declaration that says utf-16, and CRLF line ends
{ printf '\xff\xfe'
  { printf '<?xml version="1.0" encoding="utf-16"?>\r\n'; sed 's/$/\r/' "$X"; } |
	iconv -f UTF-8 -t UTF-16LE; } >"$T/enc/u16decl/r.xml"
(cd "$T/enc/plain" && "$NVANALYZE" --format json r.xml >../plain.json 2>../plain.err)
bad=
for e in u16le u16be u8bom u16decl; do
	(cd "$T/enc/$e" && "$NVANALYZE" --format json r.xml >"../$e.json" 2>"../$e.err")
	cmp -s "$T/enc/plain.json" "$T/enc/$e.json" && cmp -s "$T/enc/plain.err" "$T/enc/$e.err" ||
		bad="$bad $e"
done
if [ -z "$bad" ] && pytool diskspdxml_values "$T/enc/u16le/r.xml" "$T/enc/u16le.json" >/dev/null
then pass xml-utf16; else fail xml-utf16 "other output for:$bad"; fi

# Elements nested deeper than the reader tracks and names longer than it
# keeps (none of diskspd's): left alone, the report read as without them.
pytool diskspdxml_deep "$X" >"$T/enc/plain/deep.xml"
(cd "$T/enc/plain" && cp deep.xml r2.xml && cp r.xml r3.xml &&
 "$NVANALYZE" --format json r2.xml >../deep.json 2>&1 && mv r3.xml r2.xml &&
 "$NVANALYZE" --format json r2.xml >../nodeep.json 2>&1)
if cmp -s "$T/enc/deep.json" "$T/enc/nodeep.json"; then pass xml-deep; else
	fail xml-deep "other output: $(head -c 300 "$T/enc/deep.json")"; fi

# Several timespans (one job each, " #N" from the second), several threads
# and targets (summed), -L and -D: a generated report.
"$PYTHON" "$TOP/tests/py/gen_diskspd_xml.py" --timespans 3 --threads 3 --targets 2 --buckets 4 \
	>"$T/ts3.xml"
"$NVANALYZE" --format json "$T/ts3.xml" >"$T/ts3.json" 2>"$T/ts3.err"
if out=$(pytool diskspdxml_values "$T/ts3.xml" "$T/ts3.json" 2>&1) &&
   grep -q '"job": "randrw-4k-t3-qd32-w30 #3"' "$T/ts3.json"; then
	pass "xml-timespans ($out)"
else
	fail xml-timespans "$out $(head -c 300 "$T/ts3.err")"
fi

# XML and text of one run: every value within the text's printing.
"$NVANALYZE" --format json "$D/diskspd22-randrw-L.xml" >"$T/pair-x.json" 2>/dev/null
"$NVANALYZE" --format json "$D/diskspd22-randrw-L.txt" >"$T/pair-t.json" 2>/dev/null
if out=$(pytool diskspd_xml_vs_text "$T/pair-x.json" "$T/pair-t.json"); then
	pass "xml-vs-text ($out)"
else
	fail xml-vs-text "$out"
fi

# Damaged XML (the big generated one: every 7th line, and 600 mutations).
mkdir -p "$T/xmldmg"
for f in "$X" "$D/diskspd22-randrw-L.xml"; do
	every=1
	[ "$f" = "$X" ] || every=7
	if out=$(pytool diskspdxml_damage "$NVANALYZE" "$f" "$T/xmldmg" "$every" 2>&1); then
		pass "damaged-xml-$(basename "$f" .xml) ($out)"
	else
		fail "damaged-xml-$(basename "$f" .xml)" "$(head -c 600 <<<"$out")"
	fi
done

# VirtualClient's DiskSpd parser tests assert every level of the %-ile table
# down to 9-nines and its Total column (all operations): the same values
# from nvanalyze (tests/py/diskspd_vc_expect.py; the expectations extracted
# in tests/fixtures/diskspd, SOURCES.md).  i59-3: the nines need
# --percentiles at diskspd's precision and a key each; i59-4: Total is the
# "mixed" direction of a test that reads and writes.
VC=$TOP/tests/fixtures/diskspd/VirtualClient__DiskSpdMetricsParserTests.latency.tsv
NINES=25,50,75,90,95,99,99.9,99.99,99.999,99.9999,99.99999,99.999999,99.9999999
for f in $(cut -f1 "$VC" | grep -v '^#' | sort -u); do
	name=i59-vc-$(basename "$f" .txt)
	if ! "$NVANALYZE" --format json --percentiles "$NINES" \
		"$TOP/tests/fixtures/diskspd/$f" >"$T/$name.json" 2>"$T/$name.err"; then
		fail "$name" "nvanalyze: $(head -c 300 "$T/$name.err")"
	elif out=$(pytool diskspd_vc_expect "$VC" "$f" "$T/$name.json" 2>&1); then
		pass "$name ($out)"
	else
		fail "$name" "$out"
	fi
done
# the nines' keys are distinct: 8-nines and 9-nines do not collide with 100
"$NVANALYZE" --format json --percentiles 99.999999,99.9999999,100 \
	"$TOP/tests/fixtures/diskspd/VirtualClient__DiskSpdExample-WriteOnly.txt" \
	>"$T/keys.json" 2>"$T/keys.err"
got=$($PYTHON -c 'import json, sys
r = [x for x in json.load(open(sys.argv[1]))["results"] if x["direction"] == "write"][0]
s = next(iter(r["sides"].values()))
print(s.get("lat_p99.999999_ns"), s.get("lat_p99.9999999_ns"), s.get("lat_p100_ns"),
      sorted(k for k in s["fio_lat_percentiles_ns"] if k.startswith("99.99999")))' \
	"$T/keys.json" 2>&1)
if [ "$got" = "159270000.0 159270000.0 None ['99.999990', '99.999999', '99.9999999']" ]; then
	pass i59-3-nines-keys-distinct
else
	fail i59-3-nines-keys-distinct "$got $(head -c 200 "$T/keys.err")"
fi
# i59-4 alone (default levels): the 70/30 run's Total column is its mixed
# direction: min 0.036, p50 0.297, p99 4.713, max 35.257 ms (VirtualClient)
"$NVANALYZE" --format json \
	"$TOP/tests/fixtures/diskspd/VirtualClient__DiskSpdExample-ReadWrite.txt" \
	>"$T/total.json" 2>"$T/total.err"
got=$($PYTHON -c 'import json, sys
r = [x for x in json.load(open(sys.argv[1]))["results"] if x["direction"] == "mixed"]
s = next(iter(r[0]["sides"].values())) if r else {}
print(*(s.get("lat_%s_ns" % k) for k in ("min", "p50", "p99", "max")))' "$T/total.json" 2>&1)
if [ "$got" = "36000.0 297000.0 4713000.0 35257000.0" ]; then
	pass i59-4-total-column-mixed
else
	fail i59-4-total-column-mixed "mixed min p50 p99 max: $got"
fi
# Under each table, the '-' percentile rows are explained by the tool that
# left them out, never by fio's lat_percentiles hint (these are no fio runs):
# 99.5 is a level this diskspd did not print; CrystalDiskMark prints none.
"$NVANALYZE" --percentiles 50,99.5 \
	"$TOP/tests/fixtures/diskspd/VirtualClient__DiskSpdExample-ReadWrite.txt" \
	"$TOP/tests/fixtures/diskspd/VirtualClient__Write8k.txt" >"$T/hint.md" 2>"$T/hint.err"
if grep -q 'diskspd did not print every level' "$T/hint.md" &&
   ! grep -q 'lat_percentiles=1' "$T/hint.md"; then
	pass dash-rows-named-by-their-tool
else
	fail dash-rows-named-by-their-tool "$(grep 'percentiles `-`' "$T/hint.md" | sort -u |
		tr '\n' ' ')"
fi
# Percentile levels out of order (damage: diskspd writes them ascending, min
# to max) are refused with the line, in text and in XML (make fuzz found an
# XML report read with 26 after 50, the points no longer ascending).
sed '78{h;d};79{G}' "$D/diskspd22-randrw-L.txt" >"$T/order.txt"
"$NVANALYZE" --format json "$T/order.txt" >"$T/order.json" 2>"$T/order.err"
rc=$?
if [ $rc = 2 ] && grep -q "order.txt:79: .*a %-ile row out of order" "$T/order.err"; then
	pass pct-order-text
else
	fail pct-order-text "rc $rc: $(head -c 300 "$T/order.err")"
fi
R=$TOP/tests/fuzz/regress/fuzz_diskspdxml/bucket-26-after-50.xml
"$NVANALYZE" --format json "$R" >"$T/order.json" 2>"$T/order.err"
rc=$?
if [ $rc = 2 ] && grep -q "50.xml:401: a Latency Bucket's Percentile 26 after 50" "$T/order.err"
then pass pct-order-xml; else fail pct-order-xml "rc $rc: $(head -c 300 "$T/order.err")"; fi
# A README with one whole report, then other machines' fragments (a CPU
# table, a Total IO table) under their headings: the report ends at its last
# table, its CPU its own (the last fragment's overwrote it), the rest noted.
R=$TOP/tests/fixtures/diskspd/diskspd-containers__README.md
"$NVANALYZE" --format json "$R" >"$T/pl.json" 2>"$T/pl.err"
if out=$(pytool diskspd_values "$R" "$T/pl.json" 2>&1) &&
	grep -q 'README.md:169: the diskspd report ends before this line' "$T/pl.err"; then
	pass "readme-report-then-fragments ($out)"
else
	fail readme-report-then-fragments "$out $(head -c 300 "$T/pl.err")"
fi
