# Golden-output tests of the nvanalyze CLI (in the manner of zstd's
# tests/cli-tests): each case runs nvanalyze from the repository root and
# compares stdout, stderr and the exit status with tests/golden/NAME.out.
#
#   tests/run golden                      check (a mismatch prints a diff)
#   UPDATE_GOLDEN=1 tests/run golden      rewrite the expected outputs
#
# Inputs: the real-world fixtures in ../shared/fixtures/fio-json (cases SKIP
# when that directory is missing) and the fio outputs in tests/data/fio-json.
. "$(dirname "$0")/../lib.sh"

cd "$TOP" || exit 1
G=tests/golden
D=tests/data/fio-json
X=../shared/fixtures/fio-json
S=../shared/fixtures/study-outputs
mkdir -p "$G"

# golden NAME ARGS...: run nvanalyze ARGS and compare with $G/NAME.out.
golden() {
	local name=$1; shift
	local a
	for a in "$@"; do
		case "$a" in
		$X/*) [ -e "${a%%,*}" ] || { skip "$name" "no $X"; return; };;
		$S/*) [ -e "$a" ] || { skip "$name" "no $S"; return; };;
		esac
	done
	{
		printf '$ nvanalyze'
		[ $# -eq 0 ] || printf ' %q' "$@"
		printf '\n'
		"$NVANALYZE" "$@" 2>"$T/stderr"
		local rc=$?
		printf -- '--- stderr\n'
		cat "$T/stderr"
		printf -- '--- exit %d\n' "$rc"
	} >"$T/$name.out"
	if [ -n "${UPDATE_GOLDEN:-}" ]; then
		cp "$T/$name.out" "$G/$name.out"
		pass "$name (updated)"
	elif [ ! -f "$G/$name.out" ]; then
		fail "$name" "no $G/$name.out (run UPDATE_GOLDEN=1 tests/run golden)"
	elif diff -u "$G/$name.out" "$T/$name.out" >"$T/$name.diff"; then
		pass "$name"
	else
		sed 's/^/    /' "$T/$name.diff" | head -n 40
		fail "$name" "output differs from $G/$name.out (diff above)"
	fi
}

# Every real-world fixture on its own (Markdown), one also as text and CSV.
for f in PerfKitBenchmarker__fio-parser-sample-result SO-Kernel-trace-extraction__fio_output \
	 VirtualClient__FIOExample fio-analyzer__fio_client_1client \
	 fio-analyzer__fio_results_example_readwrite fio-blog__Figure1 \
	 fio-plot__HPDL380G8-H420i-Crucial-MX200_randread-1-1 fio-plot__deleteme-4k_randread-1-1 \
	 fio-plot__party-1m-run-1_write-64-1 fio-plot__test-data73gb10raptor_randread-4-2 \
	 SO-Kernel-trace-extraction__results_baseline_mix_1G_result_1G_run1 \
	 SO-Kernel-trace-extraction__results_ml_mix_1G_result_1G_run1; do
	golden "fixture-$f" "$X/$f.json"
done
golden fixture-text-perfkit --format text "$X/PerfKitBenchmarker__fio-parser-sample-result.json"
golden fixture-csv-readwrite --format csv "$X/fio-analyzer__fio_results_example_readwrite.json"
golden fixture-json-hdd --format json "$X/fio-plot__test-data73gb10raptor_randread-4-2.json"
# The fixtures' own A/B pair: "ml" kernel vs baseline kernel.
golden fixture-ab-ml-vs-baseline --label ml --label baseline \
	"$X/SO-Kernel-trace-extraction__results_ml_mix_1G_result_1G_run1.json" \
	"$X/SO-Kernel-trace-extraction__results_baseline_mix_1G_result_1G_run1.json"
# The suite summary over four real outputs (one row per job), both headline
# numbers; MiB/s, ratios and a wider about-equal threshold on the A/B pair.
golden fixture-summary-four --summary both \
	"$X/fio-plot__deleteme-4k_randread-1-1.json" \
	"$X/fio-plot__party-1m-run-1_write-64-1.json" \
	"$X/fio-analyzer__fio_results_example_readwrite.json" \
	"$X/PerfKitBenchmarker__fio-parser-sample-result.json"
golden fixture-units-ratio --units binary --change both --same-below 10 --format text \
	--label ml --label baseline \
	"$X/SO-Kernel-trace-extraction__results_ml_mix_1G_result_1G_run1.json" \
	"$X/SO-Kernel-trace-extraction__results_baseline_mix_1G_result_1G_run1.json"
golden fixture-ratio-only-csv --change ratio --summary iops --format csv \
	"$X/SO-Kernel-trace-extraction__results_ml_mix_1G_result_1G_run1.json" \
	"$X/SO-Kernel-trace-extraction__results_baseline_mix_1G_result_1G_run1.json"
golden fixture-claims-abs --claim 'random*:p95<=800ms' --claim 'iops>=300' \
	--claim 'sys_cpu<=1%' "$X/PerfKitBenchmarker__fio-parser-sample-result.json"
# Different jobs on both sides: unmatched jobs are listed.
golden fixture-unmatched "$X/fio-plot__deleteme-4k_randread-1-1.json" \
	"$X/fio-plot__HPDL380G8-H420i-Crucial-MX200_randread-1-1.json"

# Generated outputs.
golden two-runs "$D/uring-run1.json" "$D/psync-run1.json"
# fdatasync=1 (etcd's fsync test): the sync direction, total_ios 0, shown and
# compared by its fdatasync latencies (p99 ... max, the change column)
golden fdatasync-two-runs "$D/fdatasync-run1.json" "$D/fdatasync-run2.json"
# fio 3.41's JSON (tests/data/fio-json/fio-3.41, generate.sh with that fio)
golden fio341-two-runs "$D/fio-3.41/uring-run1.json" "$D/fio-3.41/psync-run1.json"
golden fio341-jsonplus "$D/fio-3.41/null-randrw-jsonplus.json"
golden fio333-vs-fio341 -l fio-3.33 "$D/uring-run1.json" -l fio-3.41 "$D/fio-3.41/uring-run1.json"
golden labels-interleaved -l io_uring "$D/uring-run1.json" -l psync "$D/psync-run1.json"
golden two-runs-baseline-first --baseline 1 --lat lat "$D/uring-run1.json" "$D/psync-run1.json"
golden repeats-text --format text -l io_uring -l psync \
	"$D/uring-run1.json,$D/uring-run2.json,$D/uring-run3.json" \
	"$D/psync-run1.json,$D/psync-run2.json,$D/psync-run3.json"
golden repeats-csv --format csv -j randread \
	"$D/uring-run1.json,$D/uring-run2.json,$D/uring-run3.json" \
	"$D/psync-run1.json,$D/psync-run2.json,$D/psync-run3.json"
golden repeats-json --format json -j randread -d read \
	"$D/uring-run1.json,$D/uring-run2.json,$D/uring-run3.json" \
	"$D/psync-run1.json,$D/psync-run2.json,$D/psync-run3.json"
golden repeats-best-text --format text --aggregate best -j seqwrite -d write \
	"$D/uring-run1.json,$D/uring-run2.json,$D/uring-run3.json" \
	"$D/psync-run1.json,$D/psync-run2.json,$D/psync-run3.json"
golden repeats-two-runs --format text -j randread -d read "$D/uring-run1.json,$D/uring-run2.json" \
	"$D/psync-run1.json,$D/psync-run2.json,$D/psync-run3.json"
golden repeats-same-file-twice "$D/uring-run1.json,$D/uring-run1.json,$D/uring-run2.json" \
	"$D/psync-run1.json"
golden price-claims -l i7i.large -l i4i.large --price i7i.large=0.1888 --price i4i.large=0.156 \
	--claim 'iops:+50%' --claim 'clat_mean:-50%' --claim 'stdev:-60%' -j randread -d read \
	"$D/uring-run1.json" "$D/psync-run1.json"
golden price-claims-json --format json -l new -l old --price new=0.1888 --claim 'iops:-10%' \
	-j randread -d read "$D/uring-run1.json" "$D/psync-run1.json"
# Claims per job, absolute, with a tolerance, a ratio; cannot tell with repeats.
golden claims-per-job --claim 'randread*:iops:+50%' --claim 'seq*:bw:-10%±5' --claim 'bw:0.5x' \
	"$D/uring-run1.json" "$D/psync-run1.json"
golden claims-abs-met --claim 'p95<=1000s' --claim 'randread:iops>=11800' --claim 'bw>=1MB/s' \
	-d read,write "$D/uring-run1.json" "$D/psync-run1.json"
golden claims-abs-not-met --format csv --claim 'p95<=1ns' "$D/uring-run1.json"
golden claims-repeats-json --format json -j randread -d read --claim 'iops:+10%' \
	--claim 'p99<=100us' "$D/uring-run1.json,$D/uring-run2.json,$D/uring-run3.json" \
	"$D/psync-run1.json,$D/psync-run2.json,$D/psync-run3.json"
golden err-claim-no-job --claim 'nomatch*:iops:+5%' "$D/uring-run1.json" "$D/psync-run1.json"
golden err-claim-no-metric --claim 'cost:-5%' "$D/uring-run1.json" "$D/psync-run1.json"
golden err-claim-no-unit --claim 'p95<=3' "$D/uring-run1.json"
golden client-2hosts "$D/client-2hosts.json"
golden client-vs-local "$D/client-1host.json" "$D/null-trim.json"
golden jsonplus-per-job "$D/null-randrw-jsonplus.json"
golden pctlist-missing "$D/null-grouped-pctlist.json"
golden unified-mixed "$D/null-unified-mixed.json" "$D/null-unified-both.json"
golden trim "$D/null-trim.json"
golden status-interval "$D/null-status-interval.json"
golden json-normal "$D/null-json-normal.json"
golden job-error "$D/psync-error.json"
golden verbose-idle -v "$D/psync-error.json" "$D/null-trim.json"
# Cost rows (issue 31): one run holding sequential (bandwidth) and random
# (IOPS) jobs: per GB/s for the first, per 1k IOPS for the others; both with
# --summary both; any percentile level, fio's levels as fio has them.
golden price-iops-and-bw --price 1=0.1888 --percentiles 25,50,99.5,99.9 \
	"$X/PerfKitBenchmarker__fio-parser-sample-result.json"
golden price-summary-both --summary both --price 1=0.1888 --format csv -d read \
	"$X/PerfKitBenchmarker__fio-parser-sample-result.json"
golden percentiles-fio-text --percentiles fio --format text -j 'random*' \
	"$X/PerfKitBenchmarker__fio-parser-sample-result.json"
golden claims-any-level --claim 'p99.5<=2ms' --claim 'randread:p30:-10%' \
	"$D/uring-run1.json" "$D/psync-run1.json"
golden price-by-position --price 1=0.1888 --price 2=0.156 -j randread -d read \
	"$D/uring-run1.json" "$D/psync-run1.json"
golden pairs -l i7i.large -l i4i.large -l i7i.2xl -l i4i.2xl --pair i7i.2xl:i4i.2xl \
	--pair i7i.large:i4i.large --claim 'rand*:iops:+5%' \
	"$D/uring-run1.json" "$D/psync-run1.json" \
	"$D/uring-run2.json" "$D/psync-run2.json"
golden pairs-json --format json -j randread -d read --pair 1:2 --pair 3:2 \
	"$D/uring-run1.json" "$D/psync-run1.json" "$D/uring-run2.json"
golden pairs-csv --format csv -j seqwrite --pair 2:1 "$D/uring-run1.json" "$D/psync-run1.json"
golden err-bad-pair --pair 1:3 "$D/uring-run1.json" "$D/psync-run1.json"
golden same-below-off --same-below 0 -j seqwrite "$D/uring-run1.json" "$D/psync-run1.json"
golden stray-char "$D/bad/stray-char.json"
golden pasted-twice "$D/bad/pasted-twice.json"
golden utf16le-crlf "$D/bad/utf16le-crlf.json"

# Errors: message naming the file (with line:column), exit 2.
golden err-truncated "$D/bad/truncated.json"
golden err-notfio "$D/bad/notfio.json"
golden err-garbage "$D/bad/garbage.txt"
golden err-empty "$D/bad/empty.json"
golden err-missing-file "$D/bad/no-such-file.json"
golden err-slat-missing --lat slat "$D/psync-run1.json"
golden err-bad-format --format xml "$D/psync-run1.json"
golden err-bad-claim --claim 'speed:+5%' "$D/psync-run1.json"
golden err-bad-price --price nosuch=1 "$D/psync-run1.json"
golden err-no-job-match -j nosuch "$D/psync-run1.json"
golden err-bad-units --units metric "$D/psync-run1.json"
golden err-bad-change --change x "$D/psync-run1.json"
golden err-bad-same-below --same-below -1 "$D/psync-run1.json"
golden err-bad-summary --summary latency "$D/psync-run1.json"
golden err-bad-buckets --buckets 1ms,0.1ms "$D/psync-run1.json"
# --percentiles (issue 31): lists refused with exit 2, each saying why.
golden err-bad-percentiles-empty --percentiles '' "$D/psync-run1.json"
golden err-bad-percentiles-zero --percentiles 0,50 "$D/psync-run1.json"
golden err-bad-percentiles-above --percentiles 50,100.1 "$D/psync-run1.json"
golden err-bad-percentiles-letters --percentiles 50,p9x "$D/psync-run1.json"
golden err-bad-percentiles-twice --percentiles 99,50,99.0 "$D/psync-run1.json"
golden err-bad-percentiles-decimals --percentiles 99.999999999 "$D/psync-run1.json"
# load curves (issue 27): bad options refused with exit 2; fio's own results
golden err-bad-sla --sla 'p99:+5%' "$D/psync-run1.json"
golden err-bad-sla-metric --sla 'speed<=1ms' "$D/psync-run1.json"
golden err-sla-no-sweep --sla 'p99<=1ms' "$D/psync-run1.json"
golden err-bad-knee --knee-p99 1 "$D/psync-run1.json"
golden err-bad-knee-iops --knee-iops 150 "$D/psync-run1.json"
golden err-bad-steady-window --steady-window 1 "$D/psync-run1.json"
golden steadystate-fio "$D/ss-iops-attained.json" "$D/ss-bwslope-attained.json" \
	"$D/ss-iops-not-attained.json"
golden latency-target-fio "$D/latency-target.json"
# fio's normal text output (issue 40): the I8g/I4g study's two pasted
# outputs (some indentation lost), I4g as the baseline as the study has it,
# binary units for its GiB totals.
golden study-i8g-vs-i4g --baseline 1 --units binary "$S/i4g-randread-128k.txt" \
	"$S/i8g-randread-128k.txt"
# Rounded values that differ by no more than their printing: "about equal
# (within the printed precision)" (IOPS 1965 vs 1964 with no issued counts,
# clat min 141 vs 140 us), a bigger change (avg 512.40 vs 508.40) a number.
golden text-within-precision --format text tests/data/fio-text/rounded-b.txt \
	tests/data/fio-text/rounded-a.txt
golden text-within-precision-json --format json tests/data/fio-text/rounded-b.txt \
	tests/data/fio-text/rounded-a.txt
# The EC2 i3 vs i2 study (CrystalDiskMark 5.2.1, issue 40): its table, one
# row per test, MB/s and IOPS per instance in the study's order, from its four
# text exports as printed (../shared/fixtures/study-outputs/SOURCES.md).
golden study-cdm-i3-vs-i2 --summary both --format text --baseline i2.xlarge \
	--label i2.xlarge --label i3.xlarge --label i3.4xlarge-ssd1 --label i3.4xlarge-ssd2 \
	"$X/../study-outputs/cdm-i2.xlarge.txt" "$X/../study-outputs/cdm-i3.xlarge.txt" \
	"$X/../study-outputs/cdm-i3.4xlarge-ssd1.txt" "$X/../study-outputs/cdm-i3.4xlarge-ssd2.txt"
golden study-cdm-i3-vs-i2-json --format json --label i2.xlarge --label i3.xlarge \
	"$X/../study-outputs/cdm-i2.xlarge.txt" "$X/../study-outputs/cdm-i3.xlarge.txt"
# A page of several machines read as runs (issue 57): three CrystalDiskMark
# exports under their headings (3.0.1, 8.0.0 UWP twice), one side each,
# labelled by the heading, its first line and context under the runs list;
# no percentile rows (exports hold none), one line saying so.
golden page-of-machines tests/fixtures/paste/zenn-docs__homeIT.md
golden page-of-machines-json --format json tests/fixtures/paste/zenn-docs__homeIT.md
# A KDiskMark export on Linux against a CrystalDiskMark 8 export: the same
# test names, no '-' rows.
golden kdiskmark-vs-cdm8 tests/fixtures/paste/KDiskMark__README-3.0.0.md \
	tests/fixtures/cdm/CrystalDiskMark-Parser__20210622162528.txt
golden err-no-args
golden err-unknown-option --frobnicate "$D/psync-run1.json"
golden help --help
