#!/usr/bin/env bash
# Results as people paste them (issue 57, analyze/input/textlines.c, cdm.c,
# diskspd.c, multiout.c):
#  - real pages by others (tests/fixtures/paste, SOURCES.md): KDiskMark
#    exports, CrystalDiskMark exports pasted into Markdown (3.x to 8.x, the
#    Microsoft Store banner, quote markers), pages of several machines
#    under headings, read as an independent reader reads them
#    (tests/py/cdm_values.py, paste_values.py), values read by eye asserted;
#  - diskspd before 2.0.18 (real sessions of tests/fixtures/diskspd, and
#    files written from ResultParser.cpp, see tests/data/diskspd-old/gen.py):
#    the MB/s layout, its one %-ile table, cp1251 with a wrapped command
#    line, two runs in a PowerShell session, prose between two reports;
#  - CrystalDiskMark results pasted without their banner;
#  - encodings: UTF-16 with and without a BOM, cp932, cp1252 read the same
#    as UTF-8; HTML pastes (<pre>, &lt;) the same as the text;
#  - --split outputs|headings|none; an error that names the tool, version
#    and the line where reading stopped.
source "$(dirname "$0")/../lib.sh"
need_nvanalyze || exit 0
cd "$TOP" || exit 1
P=tests/fixtures/paste
K=tests/fixtures/fio-text/d-uzlov-k8s-homelab__test-fsync.md	# setups (fio-text/SOURCES.md)
O=tests/data/diskspd-old

if out=$(pytool lib/sources "$TOP/$P" 2>&1); then
	pass "sources ($out)"
else
	fail sources "$out"
fi

# json NAME FILE [ARGS...]: nvanalyze --format json FILE into $T/NAME.json
json() {
	local n=$1 f=$2
	shift 2
	"$NVANALYZE" --format json "$@" "$f" >"$T/$n.json" 2>"$T/$n.err"
}

# check NAME READER FILE: an independent reader against nvanalyze's JSON of FILE
check() {
	local n=$1 r=$2 f=$3 out
	if ! json "$n" "$f"; then
		fail "$n" "nvanalyze exited non-zero: $(head -c 300 "$T/$n.err")"
	elif out=$(pytool "$r" "$TOP/$f" "$T/$n.json" 2>&1); then
		pass "$n ($out)"
	else
		fail "$n" "$(echo "$out" | head -n 5 | tr '\n' ' ')"
	fi
}

for f in $P/KDiskMark__README-*.md $P/blog-docusaurus__fanxiang-s790.md; do
	check "values-$(basename "$f" .md)" cdm_values "$f"
done
for f in $P/zenn-docs__homeIT.md $P/vps-comparison__*.md $K \
	$P/racksetup__performance-readme.md \
	tests/fixtures/fio-text/dyu-vps-comparison__libaio-random-mixed-4K.md \
	tests/fixtures/fio-text/guonaihong-knowledge__fio-benchmark.md; do
	check "page-$(basename "$f" .md)" paste_values "$f"
done
for f in $O/diskspd-2.0.17-*.txt; do
	check "values-$(basename "$f" .txt)" diskspd_values "$f"
done

# value NAME JSON JOB DIR SIDE KEY WANT: one value of nvanalyze's JSON, read by eye
value() {
	local got
	got=$(pytool paste_checks value "$2" "$3" "$4" "$5" "$6")
	if [ "$got" = "$7" ]; then pass "$1"; else fail "$1" "$3 $4 $6: $got, the page $7"; fi
}
json k16 $P/KDiskMark__README-1.6.0.md
value eye-kdm16-seq "$T/k16.json" SEQ1M-Q8T1-read read "" bw_MB_per_s 542.516
value eye-kdm16-seq-iops "$T/k16.json" SEQ1M-Q8T1-read read "" iops 529.8
value eye-kdm16-lat "$T/k16.json" SEQ1M-Q8T1-read read "" lat_mean_ns 14415610.0
value eye-kdm16-q32t16 "$T/k16.json" RND4K-Q32T16-write write "" iops 41286.6
json k23 $P/KDiskMark__README-2.3.0.md
value eye-kdm23-rnd "$T/k23.json" RND4K-Q32T1-read read "" iops 84988.3
json k30 $P/KDiskMark__README-3.0.0.md
value eye-kdm30-seq "$T/k30.json" SEQ1M-Q1T1-write write "" bw_MB_per_s 333.085
if grep -q '"KDiskMark 3.0.0"' "$T/k30.json" && grep -q 'fio: fio-3.30' "$T/k30.json" &&
	grep -q 'OS: opensuse-tumbleweed 20220821' "$T/k30.json"; then
	pass eye-kdm30-context
else
	fail eye-kdm30-context \
		"version, fio or OS missing: $(grep -m1 -A2 descriptions "$T/k30.json")"
fi
json home $P/zenn-docs__homeIT.md
value eye-home-cdm3-seq "$T/home.json" Seq-read read "前世代 PC" bw_MB_per_s 505.825
value eye-home-cdm3-qd32 "$T/home.json" 4KQ32T1-write write "前世代 PC" iops 42650.1
value eye-home-uwp "$T/home.json" SEQ1M-Q8T1-read read "2020/12/16 OS ドライブを SSD" \
	bw_MB_per_s 2470.084
grep -q '"CrystalDiskMark 8.0.0"' "$T/home.json" && pass eye-home-uwp-version ||
	fail eye-home-uwp-version "the (UWP) banner's version not read"
json fx $P/blog-docusaurus__fanxiang-s790.md
value eye-fanxiang-mix "$T/fx.json" RND4K-Q32T16-mix mixed "" iops 139643.3
if grep -q 'fanxiang-s790.md:52: the CrystalDiskMark 8.0.4 export ends before' "$T/fx.err"; then
	pass fanxiang-prose-after-noted
else
	fail fanxiang-prose-after-noted "no note where the export ends: $(cat "$T/fx.err")"
fi

# CrystalDiskMark 7.x results pasted without their banner, two drives under
# one heading with prose between (backendcloud-3-hexo): read from each
# [Read] line, noted at the file's lines; a run per drive by the line
# naming each drive above it (not two repeats of one machine).
json wintel $P/backendcloud-3-hexo__wintel-entrap.md
if out=$(pytool paste_values "$TOP/$P/backendcloud-3-hexo__wintel-entrap.md" \
	"$T/wintel.json" 2>&1); then
	pass "page-wintel-no-banner ($out)"
else
	fail page-wintel-no-banner "$(echo "$out" | head -n 5 | tr '\n' ' ')"
fi
value eye-wintel-980pro "$T/wintel.json" RND4K-Q32T16-read read hyper-v iops 1060963.4
value eye-wintel-kioxia "$T/wintel.json" SEQ1M-Q8T1-write write "hyper-v #2" bw_MB_per_s \
	2797.679
value eye-wintel-kioxia-lat "$T/wintel.json" RND4K-Q1T1-write write "hyper-v #2" lat_mean_ns \
	55620.0
if grep -q 'wintel-entrap.md:38: CrystalDiskMark results without the export.s banner' \
	"$T/wintel.err" && grep -q 'wintel-entrap.md:54: CrystalDiskMark results without' \
	"$T/wintel.err" && grep -q '"CrystalDiskMark (no banner)"' "$T/wintel.json"; then
	pass wintel-no-banner-noted
else
	fail wintel-no-banner-noted "$(cat "$T/wintel.err")"
fi

# Tables that speak of the tool: no percentile rows for exports, one line
# on what the format holds; the context under the runs list.
"$NVANALYZE" $P/zenn-docs__homeIT.md >"$T/home.md" 2>/dev/null
if ! grep -q '^| lat p' "$T/home.md" && grep -q 'hold MB/s, IOPS and the mean latency' \
	"$T/home.md" && grep -q '^  - Test: 1000 MB \[C: 33.0%' "$T/home.md" &&
	grep -q 'zenn-docs__homeIT.md:32 (CrystalDiskMark 3.0.1)' "$T/home.md" &&
	! grep -q lat_percentiles "$T/home.md"; then
	pass cdm-tables-and-context
else
	fail cdm-tables-and-context "$(head -n 12 "$T/home.md" | tr '\n' ' ')"
fi

# diskspd before 2.0.18: the version the layout tells, the wrapped command
# line joined inside its word, the code page's note.
json cp $O/diskspd-2.0.17-seqread-cp1251-wrapped.txt
if grep -q 'diskspd 2.0.x (before 2.0.18)' "$T/cp.json" &&
	grep -q 'Администратор\\\\Documents\\\\тест' "$T/cp.json" &&
	grep -q '"seqread-64k-t1-qd8-si"' "$T/cp.json" &&
	grep -q 'read as cp1251' "$T/cp.err"; then
	pass diskspd-old-cp1251-wrapped
else
	fail diskspd-old-cp1251-wrapped "$(head -c 300 "$T/cp.err") $(grep -m3 'Command\|"job"' \
		"$T/cp.json")"
fi
# The real 2.0.x sessions of tests/fixtures/diskspd (trying-out-diskspd):
# cp1251 with the console's 80-column wrap inside a word; two reports of one
# VM with a note and a prompt between them are two runs (C: and D:).
D=tests/fixtures/diskspd
json lenovo $D/trying-out-diskspd__Lenovo-G580.txt
if grep -q 'diskspd 2.0.x (before 2.0.18)' "$T/lenovo.json" &&
	grep -q 'Command Line: diskspd -w50 -W5 -b4K -c8G -F2 -o32 -Sh -L -r -d600 C:' \
		"$T/lenovo.json" && grep -qF 'd600 C:\\testfile.foo"' "$T/lenovo.json" &&
	grep -q '"randrw-4k-t2-qd32-w50"' "$T/lenovo.json" &&
	grep -q 'read as cp1251' "$T/lenovo.err"; then
	pass diskspd-real-cp1251-wrapped
else
	fail diskspd-real-cp1251-wrapped "$(head -c 300 "$T/lenovo.err") $(grep -m3 \
		'Command\|"job"' "$T/lenovo.json")"
fi
json azure $D/trying-out-diskspd__goodwinserverdc.txt
if [ "$(pytool paste_checks labels "$T/azure.json")" = \
	"trying-out-diskspd__goodwinserverdc|trying-out-diskspd__goodwinserverdc #2" ]; then
	pass diskspd-real-two-runs-prose-between
else
	fail diskspd-real-two-runs-prose-between "$(pytool paste_checks labels "$T/azure.json")"
fi
value eye-azure-hdd "$T/azure.json" randrw-4k-t2-qd32-w50 read \
	trying-out-diskspd__goodwinserverdc iops 197.44
value eye-azure-ssd "$T/azure.json" randrw-4k-t2-qd32-w50 read \
	"trying-out-diskspd__goodwinserverdc #2" iops 25197.22

# Two runs in one PowerShell session (4K then 64K): two runs of their own,
# each the same as its part read alone.
s=$O/diskspd-2.0.15-two-runs-session.txt
awk -v o="$T/part" '/^Command Line:/ {k++} k {print >(o k ".txt")}' "$s"
json two "$s"
json part1 "$T/part1.txt"
json part2 "$T/part2.txt"
if out=$(pytool paste_checks two-runs "$T/two.json" "$T/part1.json" "$T/part2.json" 2>&1)
then
	pass "diskspd-two-runs-session ($out)"
else
	fail diskspd-two-runs-session "$out $(head -c 300 "$T/two.err")"
fi

# Encodings: UTF-16LE without a BOM, UTF-16BE with one, cp932 (the page's
# Japanese headings), cp1252 (a comment with accents) read as the UTF-8 page.
mkdir -p "$T/enc"
strip() { pytool paste_checks strip "$1"; }	# the reading without names and labels
pytool paste_checks encodings "$TOP/$P/zenn-docs__homeIT.md" "$T/enc"
strip "$T/home.json" >"$T/enc/want"
for e in u16le u16be cp932; do
	json "enc-$e" "$T/enc/$e.md"
	if strip "$T/enc-$e.json" | cmp -s - "$T/enc/want"; then
		pass "encoding-$e"
	else
		fail "encoding-$e" "$(strip "$T/enc-$e.json" | diff - "$T/enc/want" | head -n 4 |
			tr '\n' ' ') $(head -c 200 "$T/enc-$e.err")"
	fi
done
grep -q 'read as cp932' "$T/enc-cp932.err" && pass encoding-cp932-noted ||
	fail encoding-cp932-noted "no note naming cp932: $(cat "$T/enc-cp932.err")"
c=tests/data/cdm/cdm8-nvme-crlf.txt
sed 's/^  test box NVMe.*/Comment: Café Crème SSD für Prüfung\r/' "$c" |
	iconv -f UTF-8 -t CP1252 >"$T/enc/cp1252.txt"
json enc-cp1252 "$T/enc/cp1252.txt"
if grep -q 'Café Crème SSD für Prüfung' "$T/enc-cp1252.json" &&
	grep -q 'read as cp1252' "$T/enc-cp1252.err"; then
	pass encoding-cp1252
else
	fail encoding-cp1252 "$(head -c 300 "$T/enc-cp1252.err")"
fi

# Word's quotes and dashes (0x80-0x9F, the same in cp1251 and cp1252): a
# comment of nothing else is still read as its code page (it was kept as
# bytes that are not UTF-8), as in the real cp1251 session trying-out-diskspd__Lenovo-G580
# ("It’s").
sed 's/^  test box NVMe.*/Comment: Mike’s SSD – “fast”\r/' "$c" |
	iconv -f UTF-8 -t CP1252 >"$T/enc/quotes.txt"
json enc-quotes "$T/enc/quotes.txt"
if grep -q 'Mike’s SSD – “fast”' "$T/enc-quotes.json" &&
	grep -q 'read as cp1252' "$T/enc-quotes.err"; then
	pass encoding-cp125x-quotes
else
	fail encoding-cp125x-quotes "$(head -c 300 "$T/enc-quotes.err")"
fi

# A paste into an HTML page: <pre> around the export, &lt; &gt; for < >.
{ printf '<p>My new SSD:</p>\n<pre class="lang:default decode:true">'
  sed -e 's/</\&lt;/g' -e 's/>/\&gt;/g' tests/data/cdm/cdm8-nvme-crlf.txt
  printf '</pre>\n<p>Fast.</p>\n'; } >"$T/enc/post.html"
json html "$T/enc/post.html"
json plain tests/data/cdm/cdm8-nvme-crlf.txt
if strip "$T/html.json" | cmp -s - <(strip "$T/plain.json"); then
	pass html-pre-entities
else
	fail html-pre-entities "$(strip "$T/html.json" | diff - <(strip "$T/plain.json") |
		head -n 4 | tr '\n' ' ') $(head -c 200 "$T/html.err")"
fi

# A page's machine tested by two fio runs under its heading (the write
# test, then the read test: the same job name, another options line) is one
# side, the runs joined as '+' joins files: the jobs told apart as "myjob #1"
# and "myjob #2", their options under the side, every machine beside the
# baseline in both rows (each test apart compared writes with reads: n/a)
"$NVANALYZE" $P/vps-comparison__fio-iodepth-32_fio-128K.md >"$T/vps.md" 2>/dev/null
if grep -A1 -F -- '- **aws ec2 micro - 990M**: ' "$T/vps.md" | grep -q '^  - myjob #1: '\
'rw=write, bs=(R) 128KiB-128KiB.*; myjob #2: rw=read, bs=(R) 128KiB-128KiB'; then
	pass fio-context-under-runs
else
	fail fio-context-under-runs "$(sed -n 3,6p "$T/vps.md")"
fi
row=$(grep -F '| myjob #2 · read  | bandwidth |' "$T/vps.md" | head -n 1)
if grep -qF -- '- **upcloud - 992M** (baseline): ' "$T/vps.md" &&
	[ "$(grep -c '^- \*\*' "$T/vps.md")" = 5 ] &&
	echo "$row" | grep -q ' 64.96 MB/s .* 419.8 MB/s | *-84.5% (worse) |' &&
	! grep -q 'absent' "$T/vps.md"; then
	pass page-machine-tests-joined
else
	fail page-machine-tests-joined "$(grep -c '^- \*\*' "$T/vps.md") sides: $row"
fi

# A heading's parenthesised remark is left out, what follows it kept: the
# setups of racksetup's page differ only after "(aoc supermicro card x4)"
"$NVANALYZE" $P/racksetup__performance-readme.md >"$T/rack.md" 2>/dev/null
if grep -qF -- '- **2 x Samsung 9a3 pci 4.0 libaio raid0**: ' "$T/rack.md" &&
	grep -qF -- '- **2 x Samsung 1733 pci 4.0 iouring raid0**: ' "$T/rack.md"; then
	pass heading-text-after-remark
else
	fail heading-text-after-remark "$(grep '^- \*\*' "$T/rack.md" | tr '\n' ' ')"
fi

# ... but one word in parentheses is the label's (andrewpatto/s3bfg's
# disk.md heads its outputs "### Raw nvme disk speed (m5d.8xlarge)" and
# "... (m5d.4xlarge)": two instances, not "Raw nvme disk speed #2")
for t in 8 4; do
	printf '### Raw nvme disk speed (m5d.%sxlarge)\n\n```\n' $t
	sed -n '307,345p' $K | grep -v '^```'
	printf '```\n\n'
done >"$T/inst.md"
"$NVANALYZE" "$T/inst.md" >"$T/inst.out" 2>&1
if grep -qF -- '- **Raw nvme disk speed (m5d.8xlarge)**: ' "$T/inst.out" &&
	grep -qF -- '- **Raw nvme disk speed (m5d.4xlarge)** (baseline): ' "$T/inst.out"; then
	pass heading-one-word-remark-kept
else
	fail heading-one-word-remark-kept "$(grep '^- \*\*' "$T/inst.out" | tr '\n' ' ')"
fi

# Fenced fio outputs of one job under one heading, each below a caption
# naming its setup ("ZFS, block 4k:", then "Raw device, block 4k:"; the
# shell's command line between the caption and the output): setups of that
# drive, not repeats to average, while "run 1:" / "run 2:" stay repeats
"$NVANALYZE" $K >"$T/k8s.md" 2>/dev/null
if grep -qF -- '- **NVMe Intel Optane M10 16GB #3**: ' "$T/k8s.md" &&
	grep -qF -- '- **Slow vdev + Optane Special #2**: ' "$T/k8s.md" &&
	! grep -q '^- \*\*.*\.md:[0-9]* (fio-[0-9.]*), ' "$T/k8s.md"; then
	pass fenced-fio-captions-setups
else
	fail fenced-fio-captions-setups "$(grep '^- \*\*' "$T/k8s.md" | head -n 8 | tr '\n' ' ')"
fi
{
	printf '## disk\n\n'
	for r in 1 2; do
		printf 'run %s:\n\n```\n' $r
		sed -n '307,345p' $K | grep -v '^```'
		printf '```\n\n'
	done
	printf '## other disk\n\n```\n'
	sed -n '524,558p' $K | grep -v '^```'
	printf '```\n'
} >"$T/runs.md"
"$NVANALYZE" "$T/runs.md" >"$T/runs.out" 2>&1
if grep -qF -- "- **disk**: $T/runs.md:6 (fio-3.25), $T/runs.md:" "$T/runs.out" &&
	[ "$(grep -c '^- \*\*' "$T/runs.out")" = 2 ]; then
	pass fenced-fio-run-captions-repeats
else
	fail fenced-fio-run-captions-repeats "$(grep -A3 '^- \*\*' "$T/runs.out" | head -n 4)"
fi

# --split: outputs (every output), headings (the same here), none (one run).
labels() { pytool paste_checks labels "$1"; }
json none $P/zenn-docs__homeIT.md --split none
if grep -q 'zenn-docs__homeIT.md:55: CrystalDiskMark 3.0.1 export, read up to here: a second' \
	"$T/none.err"; then
	pass split-none
else
	fail split-none "$(cat "$T/none.err")"
fi
json heads $P/vps-comparison__fio-iodepth-32_fio-128K.md --split headings
json outs tests/fixtures/fio-text/dyu-vps-comparison__linode-randread.log --split outputs
json auto tests/fixtures/fio-text/dyu-vps-comparison__linode-randread.log
if [ "$(labels "$T/heads.json" | cut -d'|' -f1-3)" = \
	"aws ec2 micro - 990M|gcloud micro - 585M|vultr - 488M" ] &&
	[ "$(labels "$T/outs.json" | sed 's/dyu-vps-comparison__linode-randread/L/g')" = \
		"L|L #2|L #3|L #4|L #5" ] &&
	[ "$(labels "$T/auto.json")" = "dyu-vps-comparison__linode-randread" ] &&
	grep -q '"runs": 5' "$T/auto.json"; then
	pass split-outputs-headings-auto
else
	fail split-outputs-headings-auto "$(labels "$T/heads.json") / $(labels "$T/outs.json") / \
$(labels "$T/auto.json")"
fi
"$NVANALYZE" --split sideways $P/zenn-docs__homeIT.md >/dev/null 2>"$T/bad.err"
rc=$?
if [ $rc -eq 2 ] && grep -q "split 'sideways': use auto, outputs, headings or none" "$T/bad.err"
then
	pass split-bad-word
else
	fail split-bad-word "exit $rc: $(cat "$T/bad.err")"
fi

# A file that names its tool but cannot be read: one message with the tool,
# its version, the line and what was expected there.
sed '28s/MB\/s/MB\/x/' $P/KDiskMark__README-3.0.0.md >"$T/bad-kdm.md"
line=$(grep -n 'MB/x' "$T/bad-kdm.md" | cut -d: -f1)
"$NVANALYZE" "$T/bad-kdm.md" >/dev/null 2>"$T/bad-kdm.err"
rc=$?
if [ $rc -eq 2 ] && [ "$(wc -l <"$T/bad-kdm.err")" -eq 1 ] &&
	grep -q "bad-kdm.md:$line: KDiskMark 3.0.0 export, read up to here: .*expected 'TEST" \
		"$T/bad-kdm.err"; then
	pass error-names-tool-line-expected
else
	fail error-names-tool-line-expected "exit $rc: $(cat "$T/bad-kdm.err")"
fi
sed 's/|     MB\/s   |/|     MB\/q   |/' $O/diskspd-2.0.17-randrw-L.txt >"$T/bad-ds.txt"
"$NVANALYZE" "$T/bad-ds.txt" >/dev/null 2>"$T/bad-ds.err"
if grep -q 'bad-ds.txt:[0-9]*: diskspd text report, read up to here: an IO table header' \
	"$T/bad-ds.err" && grep -q 'expected .thread | bytes' "$T/bad-ds.err"; then
	pass error-diskspd-header
else
	fail error-diskspd-header "$(cat "$T/bad-ds.err")"
fi

# A blog post as the issue's user pasted it: four CrystalDiskMark 5.2.1
# exports (the i3/i2 study's real ones) indented, labels re-padded by hand,
# the banner without "(C)", no footer, another tool's table and prose
# between them, no headings: four machines, each read as its export alone.
S=$TOP/../shared/fixtures/study-outputs
if [ -d "$S" ]; then
	exports=("$S"/cdm-i2.xlarge.txt "$S"/cdm-i3.xlarge.txt "$S"/cdm-i3.4xlarge-ssd1.txt \
		"$S"/cdm-i3.4xlarge-ssd2.txt)
	pytool paste_checks blog-post "$T/post.md" "${exports[@]}"
	json post "$T/post.md"
	if out=$(pytool paste_checks blog-post-check "$T/post.json" "$NVANALYZE" "${exports[@]}" \
		2>&1); then
		pass "blog-post-four-exports ($out)"
	else
		fail blog-post-four-exports "$out $(head -c 300 "$T/post.err")"
	fi
else
	skip blog-post-four-exports "no $S"
fi

# Under a heading, "run 2:" between two exports of one machine keeps them
# its repeats (the page of section 14 of make bench, 20 outputs: ten
# machines of two runs).
python3 "$TOP/tools/bench_report.py" --grow-page \
	"$TOP/tests/fixtures/cdm/CrystalDiskMark-Parser__20210622162528.txt" 20 \
	"$T/page20.md" >/dev/null
json page20 "$T/page20.md"
if [ "$(labels "$T/page20.json" | tr '|' '\n' | wc -l)" = 10 ] &&
	[ "$(grep -c '"runs": 2' "$T/page20.json")" -ge 10 ]; then
	pass repeats-under-a-heading-with-prose
else
	fail repeats-under-a-heading-with-prose "$(labels "$T/page20.json")"
fi

# A file that names its tool but holds none of its results: what was
# recognised and what was expected, at the banner's line.
printf 'Notes\n\n  KDiskMark (3.2.0): https://github.com/JonMagon/KDiskMark\n' >"$T/bare.md"
"$NVANALYZE" "$T/bare.md" >/dev/null 2>"$T/bare.err"
if grep -q "bare.md:3: a KDiskMark 3.2.0 export without its results: expected result lines" \
	"$T/bare.err"; then
	pass named-tool-without-results
else
	fail named-tool-without-results "$(cat "$T/bare.err")"
fi
