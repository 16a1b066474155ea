#!/usr/bin/env bash
# Many threads: 64 job threads traced at once (numjobs=64, fio --thread):
# every trace complete (footer present) and exact (records equal to the
# IOs fio counted for that job thread: each job does number_ios=5000), and
# the trace writers' memory as the README documents it (engine section,
# "Traces"): per traced job thread at least the 4 chunks of nv_trace_block
# records (10 MiB at the default 65536, resident from the start; 9 MiB allows
# for the untraced run's own noise) and at most
# 16 MiB, measured as fio's peak RSS traced minus untraced over 64.
. "$(dirname "$0")/../lib.sh"

require_built || exit 1
N=64
head -c 64M /dev/zero >"$T/data"
# run NAME ARGS...: the 64 jobs, peak RSS (KiB) into NAME.rss
run() {
	local name=$1
	shift
	/usr/bin/time -f "%M" -o "$T/$name.rss" "$FIO" --thread \
		--ioengine="external:$NVENGINE_SO" --name=many --numjobs=$N --filename="$T/data" \
		--rw=randread --bs=4k --iodepth=4 --number_ios=5000 --output-format=json \
		--output="$T/$name.json" "$@" >"$T/$name.out" 2>&1
}
mkdir -p "$T/tr"	# (a created directory is said on stderr, which --output also gets)
run traced --nv_trace="$T/tr"
rc=$?
ntr=$(ls "$T"/tr/many.*.nvt 2>/dev/null | wc -l)
bad=0
for f in "$T"/tr/many.*.nvt; do
	[ -f "$f" ] || continue
	"$NVANALYZE" stat "$f" >"$f.stat" 2>&1
	grep -q '^records: 5000$' "$f.stat" && grep -q 'footer: present' "$f.stat" ||
		bad=$((bad + 1))
done
fio_ok=$(pytool lib/fiojson expect "$T/traced.json" "#jobs == $N" "jobs/*/read/total_ios == 5000" \
	"jobs/*/error == 0" 2>&1)
if [ $rc -eq 0 ] && [ "$ntr" -eq $N ] && [ $bad -eq 0 ] && [ "$fio_ok" = ok ]; then
	pass traces_complete_and_exact
else
	why="rc=$rc: $ntr traces, $bad without footer or 5000 records"
	fail traces_complete_and_exact \
		"$why; fio's JSON: $(echo "$fio_ok" | head -n 2 | tr '\n' ' ')"
fi
run plain
traced_kb=$(cat "$T/traced.rss") plain_kb=$(cat "$T/plain.rss")
per=$(( (traced_kb - plain_kb) / N ))
echo "info: many_threads: fio peak RSS $traced_kb KiB traced, $plain_kb KiB untraced:" \
	"$per KiB per traced job thread ($(( (traced_kb - plain_kb) / 1024 )) MiB for $N)"
if [ $per -ge 9216 ] && [ $per -le 16384 ]; then
	pass writer_memory_as_documented
else
	fail writer_memory_as_documented "$per KiB per traced job thread, documented 9-16 MiB"
fi
