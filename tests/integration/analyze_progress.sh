#!/usr/bin/env bash
# nvanalyze's progress line while it reads traces (issue 29,
# analyze/cli/progress.h): on a terminal (stderr a pseudo-terminal, made by
# tests/py/progress_pty.py) it names the trace and counts records done of the
# footer's total, rewritten in place (\r ... ESC[K) and erased at the end;
# the report on stdout is the same as without a terminal; redirected stderr
# never gets it; work shorter than the delay shows none.
# Also for `nvanalyze stat`.  NVANALYZE_PROGRESS_DELAY=0 shows the line
# from the first block, so that no test depends on how long the analysis
# takes.
source "$(dirname "$0")/../lib.sh"
need_nvanalyze || exit 0
need_engine || exit 0
mkdir -p "$T/tr"
nvfio --name=job --filename="$T/file" --size=16M --rw=randread --bs=4k --iodepth=4 \
	--nv_trace="$T/tr" --output-format=json >"$T/a.json" 2>"$T/a.err" ||
	fail fio_traced "$(tail -n 3 "$T/a.err")"
tr=$(cd "$T/tr" && ls job.*.nvt | head -1)

# a terminal: the line, in place, with records of the total; then erased
NVANALYZE_PROGRESS_DELAY=0 pytool progress_pty "$T/tty" "$T/tty.out" "$NVANALYZE" "$T/a.json"
st=$?
out=$(pytool progress_lines "$T/tty" "$tr" 4096 2>&1)
[ $? -eq 0 ] && [ $st -eq 0 ] && pass tty_progress_line ||
	fail tty_progress_line "exit $st: $(echo "$out" | head -3 | tr '\n' ' ')"

# the report is the same with and without a terminal
"$NVANALYZE" "$T/a.json" >"$T/plain.out" 2>"$T/plain.err"
cmp -s "$T/plain.out" "$T/tty.out" && pass report_unchanged_on_tty ||
	fail report_unchanged_on_tty "$(diff "$T/plain.out" "$T/tty.out" | head -5)"

# redirected: stderr to a file (also with a terminal on stdin) gets no line
NVANALYZE_PROGRESS_DELAY=0 "$NVANALYZE" "$T/a.json" >"$T/r.out" 2>"$T/r.err" </dev/null
if grep -q 'nvanalyze: reading' "$T/r.err" "$T/r.out" || grep -q $'\r' "$T/r.err" "$T/r.out"; then
	fail redirected_no_progress "$(od -c "$T/r.err" | head -3 | tr '\n' ' ')"
else
	pass redirected_no_progress
fi
# stdout on the terminal, stderr into a file: still none (the line is stderr's)
NVANALYZE_PROGRESS_DELAY=0 pytool progress_pty "$T/tty2" "$T/tty2.out" \
	sh -c 'exec 3>&2; "$0" "$1" 2>"$2" >&3' "$NVANALYZE" "$T/a.json" "$T/e2"
if grep -q '^| job' "$T/tty2" && ! grep -q 'nvanalyze: reading' "$T/tty2" "$T/e2"; then
	pass stderr_file_no_progress
else
	fail stderr_file_no_progress "$(od -c "$T/tty2" | head -3 | tr '\n' ' ')"
fi

# a delay longer than the work: no line even on a terminal
NVANALYZE_PROGRESS_DELAY=3600 pytool progress_pty "$T/tty3" "$T/tty3.out" "$NVANALYZE" "$T/a.json"
[ ! -s "$T/tty3" ] && pass short_work_no_line ||
	fail short_work_no_line "$(od -c "$T/tty3" | head -3 | tr '\n' ' ')"

# nvanalyze stat: the same line per pass on a terminal, the same report
NVANALYZE_PROGRESS_DELAY=0 pytool progress_pty "$T/stty" "$T/stty.out" \
	"$NVANALYZE" stat "$T/tr/$tr"
st=$?
"$NVANALYZE" stat "$T/tr/$tr" >"$T/splain.out" 2>&1
if [ $st -eq 0 ] && grep -q "nvanalyze: reading $tr, pass 1: [0-9]* of 4096 records" "$T/stty" &&
	[ "$(tail -c 4 "$T/stty" | od -An -c | tr -d ' ')" = '\r033[K' ] &&
	cmp -s "$T/splain.out" "$T/stty.out"; then
	pass stat_progress_line
else
	fail stat_progress_line "exit $st: $(od -c "$T/stty" | head -3 | tr '\n' ' ')"
fi
