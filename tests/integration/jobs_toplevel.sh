#!/usr/bin/env bash
# The top-level job files (jobs/*.fio) run as the README's first lines write
# them, with no environment variable set: in an empty directory holding only
# links to ./libnvengine.so and jobs/,
#   fio --ioengine=external:./libnvengine.so --output-format=json --output=a.json jobs/F.fio
# exits 0, lays out its test file there, leaves a trace in traces/ (the
# engine creates the directory and says so), and nvanalyze a.json marks the
# latency rows exact; nvanalyze also finds the traces from another
# directory (a relative nv_trace= is resolved next to the JSON).
#
# The files are run as shipped: fio's --trigger-timeout (not a job option,
# so no job file can override it) stops every job after a few seconds
# instead of the file's 10-30 s runtime, which is checked separately.
# jobs/run runs them too (RUNTIME=2), and jobs/run -n lists them with the rest.
. "$(dirname "$0")/../lib.sh"

want=(randread randwrite seqread seqwrite latency randrw)
mapfile -t files < <(cd "$TOP/jobs" && ls ./*.fio | sed 's|^\./||; s|\.fio$||' | LC_ALL=C sort)
missing=
for w in "${want[@]}"; do
	[ -f "$TOP/jobs/$w.fio" ] || missing="$missing $w.fio"
done
if [ -z "$missing" ]; then pass files-present; else fail files-present "missing:$missing"; fi

# O_DIRECT on the test directory (tmpfs has none): else a directory in build/.
if ! dd if=/dev/zero of="$T/odirect" bs=4096 count=1 oflag=direct 2>/dev/null; then
	T=$(mktemp -d "$TOP/build/jobs_toplevel.XXXXXX") || exit 1
	trap 'rm -rf "$T"' EXIT
fi
rm -f "$T/odirect"

# shipped FILE: the checks on the text of the file, as a new user reads it.
shipped() {
	local f=$1 path=$TOP/jobs/$1.fio rt bad=
	head -n 1 "$path" | grep -q '^# Reproduces: ..*' ||
		bad="$bad no '# Reproduces:' first line;"
	grep -qF "#   fio --ioengine=external:./libnvengine.so jobs/$f.fio" "$path" ||
		bad="$bad the comment does not show the plain command;"
	grep -qF -- "--filename=/dev/ng0n1 jobs/$f.fio" "$path" ||
		bad="$bad the comment does not show --filename=/dev/ng0n1;"
	grep -Eq '^[[:space:]]*(ioengine|filename|filename_format)[[:space:]]*=' "$path" &&
		bad="$bad sets ioengine or filename (the command line would lose);"
	grep -q '\${' "$path" && bad="$bad uses an environment variable;"
	grep -qx 'nv_trace=traces' "$path" || bad="$bad no nv_trace=traces;"
	rt=$(sed -n 's/^runtime=\([0-9]*\)$/\1/p' "$path")
	{ [ -n "$rt" ] && [ "$rt" -ge 10 ] && [ "$rt" -le 30 ]; } ||
		bad="$bad runtime '$rt' not 10-30 s;"
	grep -q "^# Runtime: $rt s" "$path" ||
		bad="$bad the comment does not state the runtime $rt s;"
	if [ -z "$bad" ]; then pass "$f/shipped-text"; else fail "$f/shipped-text" "$bad"; fi
}

for f in "${files[@]}"; do
	shipped "$f"
	# plain fio --parse-only, the engine on the command line
	if out=$(cd "$T" && env -i PATH="$PATH" "$FIO" --ioengine="external:$NVENGINE_SO" \
		--parse-only "$TOP/jobs/$f.fio" 2>&1) && [ -z "$out" ]; then
		pass "$f/parse"
	else
		fail "$f/parse" "$(echo "$out" | tail -n 3 | tr '\n' ' ')"
	fi

	d=$T/$f
	mkdir "$d"
	ln -s "$NVENGINE_SO" "$d/libnvengine.so"
	ln -s "$TOP/jobs" "$d/jobs"
	out=$(cd "$d" && env -i PATH="$PATH" HOME="$d" "$FIO" \
		--ioengine=external:./libnvengine.so --trigger-timeout=2 --output-format=json \
		--output=a.json "jobs/$f.fio" 2>&1)
	st=$?
	sec=$(sed -n 's/^\[\(.*\)\]$/\1/p' "$TOP/jobs/$f.fio" | grep -vx global | head -n 1)
	ntr=$(ls "$d"/traces/"$sec".*.nvt 2>/dev/null | wc -l)
	nlaid=$(ls "$d/$sec".*.0 2>/dev/null | wc -l)
	if [ $st -eq 0 ] && [ "$ntr" -ge 1 ] && [ "$nlaid" -ge 1 ] &&
		grep -q "nvengine: created the trace directory traces" <<<"$out"; then
		pass "$f/run"
	else
		fail "$f/run" \
			"exit $st, $ntr traces, $nlaid test files: $(echo "$out" | tail -n 3 |
				tr '\n' ' ')"
	fi
	# nvanalyze from there, and from elsewhere (the JSON's directory resolves traces/)
	for where in "$d" "$T"; do
		json=a.json
		[ "$where" = "$d" ] || json=$f/a.json
		rep=$(cd "$where" && "$NVANALYZE" "$json" 2>&1)
		rows=$(grep -c '^| clat .*(exact)' <<<"$rep")
		tag=analyze-exact
		[ "$where" = "$d" ] || tag=analyze-exact-elsewhere
		if [ "$rows" -ge 8 ] && ! grep -qi 'no .*nvt exists\|cannot pair' <<<"$rep"; then
			pass "$f/$tag"
		else
			fail "$f/$tag" \
				"$rows exact clat rows: $(echo "$rep" |
					grep -i 'warn\|trace\|exact' | head -n 3 | tr '\n' ' ')"
		fi
	done
	rm -rf "$d"
done


# jobs/run runs them too: the engine, NVDEV, NVDIRECT and NVTRACE put in as
# the files in jobs/*/ have them; RUNTIME=2 in place of the file's 20 s; a
# results directory nvanalyze reads (exact rows from its traces); progress
# lines on stderr.  The target: a written 16 MiB file, SIZE=8m.
dd if=/dev/zero of="$T/target.img" bs=1M count=16 status=none
res=$T/res
out=$(cd "$T" && NVDEV="$T/target.img" RUNTIME=2 SIZE=8m "$TOP/jobs/run" -o "$res" \
	"$TOP/jobs/randread.fio" 2>&1)
st=$?
asrun=$res/jobs-randread.fio
bad=
[ $st -eq 0 ] || bad="$bad exit $st;"
for l in 'ioengine=external:${NVENGINE_SO}' 'filename=${NVDEV}' 'direct=${NVDIRECT}' \
	 'nv_trace=${NVTRACE}' 'runtime=${RUNTIME}' 'size=8m'; do
	grep -qxF "$l" "$asrun" 2>/dev/null || bad="$bad no '$l' in $asrun;"
done
grep -qx 'RUNTIME=2' "$res/jobs-randread.env" 2>/dev/null || bad="$bad RUNTIME=2 not in the .env;"
rt=$(json_get "$res/jobs-randread.json" "global options/runtime" 2>&1)
[ "$rt" = 2 ] || bad="$bad the JSON's runtime '$rt';"
ls "$res"/traces/jobs-randread/randread-4k-qd64-j4.*.nvt >/dev/null 2>&1 || bad="$bad no traces;"
if [ -z "$bad" ]; then
	pass run-toplevel
else
	fail run-toplevel "$bad $(echo "$out" | tail -n 3 | tr '\n' ' ')"
fi
rep=$("$NVANALYZE" "$res" 2>&1)
rows=$(grep -c '^| clat .*(exact)' <<<"$rep")
if [ "$rows" -ge 8 ]; then
	pass run-toplevel-analyze
else
	fail run-toplevel-analyze "$rows exact rows: $(head -n 3 <<<"$rep" | tr '\n' ' ')"
fi
# progress: the plan, then the section with the time left (from runtime=2)
if grep -q "jobs/randread.fio: 2 s by the runtimes; 2 s left in all" <<<"$out" &&
	grep -q "jobs/randread.fio: now randread-4k-qd64-j4 (2 s), about 2 s left in this file" \
		<<<"$out"; then
	pass run-progress
else
	fail run-progress "$(grep 'jobs/run' <<<"$out" | tr '\n' ' ')"
fi

# jobs/run -n alone (no NVDEV): every job file under jobs/, top-level ones
# included, each once it parses
list=$(cd "$TOP" && env -u NVDEV jobs/run -n 2>&1)
st=$?
want=$(cd "$TOP" && find jobs -name '*.fio' | LC_ALL=C sort)
if [ $st -eq 0 ] && [ "$list" = "$want" ] && grep -qx 'jobs/randread.fio' <<<"$list"; then
	pass run-lists-all
else
	fail run-lists-all \
		"exit $st: $(diff <(echo "$want") <(echo "$list") | head -n 4 | tr '\n' ' ')"
fi
