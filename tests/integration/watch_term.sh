#!/usr/bin/env bash
# nvanalyze watch on a terminal (issue 55), driven in tmux and read with
# capture-pane: a job of 4 processes grouped (nv_nop, 400 IO/s each, 20 s);
# once its rows show 6 s, one process is killed: the watch names the trace
# whose writer is gone, goes on with the other three, and names the
# throughput step (4 -> 3 processes) while the run goes on.  The screen has
# the job's rows (last interval and so far), a p99 sparkline and at the end
# the totals.  No timing is asserted: the waits only bound a hang (300 s).
. "$(dirname "$0")/../lib.sh"
need_engine || exit 0
if ! command -v tmux >/dev/null; then
	skip all "no tmux"
	exit 0
fi
S=nvwatch$$
cleanup() {
	tmux kill-session -t "$S" 2>/dev/null
	[ -z "${fpid:-}" ] || kill "$fpid" 2>/dev/null
}
trap cleanup EXIT
screen() {
	tmux capture-pane -p -t "$S" 2>/dev/null
}
# wait_screen PATTERN: until the screen matches PATTERN (egrep; 1 after 300 s).
wait_screen() {
	local i
	for ((i = 0; i < 3000; i++)); do
		screen | grep -Eq -- "$1" && return 0
		sleep 0.1
	done
	return 1
}

head -c 1M /dev/zero >"$T/nop"
mkdir "$T/tr"
tmux new-session -d -s "$S" -x 200 -y 50 \
	"LANG=C.UTF-8 '$NVANALYZE' watch '$T/tr'; echo \"watch exit \$?\"; sleep 600"
# (in a subshell: fio, one process killed, may die at its end; that is not ours)
("$FIO" --ioengine="external:$NVENGINE_SO" --name=grp --numjobs=4 --group_reporting \
	--filename="$T/nop" --size=1M --bs=4k --rw=randread --rate_iops=400 --iodepth=4 \
	--runtime=20 --time_based --nv_nop=1 --nv_trace="$T/tr"; exit $?) >"$T/fio.out" 2>&1 &
fpid=$!
if wait_screen '^grp read ([6-9]|1[0-9]) s'; then
	screen >"$T/screen1"
	pass rows_shown
	pid=$("$NVANALYZE" stat "$T/tr/grp.4.nvt" 2>/dev/null | sed -n 's/^  job.pid = //p')
	[ -n "$pid" ] && kill -KILL "$pid"
else
	fail rows_shown "$(screen)"
fi
if grep -q 'so far' "$T/screen1" && grep -q 'p99, last minute' "$T/screen1"; then
	pass last_interval_and_so_far_rows
else
	fail last_interval_and_so_far_rows "$(cat "$T/screen1")"
fi
if grep -q '[▁▂▃▄▅▆▇█]' "$T/screen1"; then
	pass p99_sparkline
else
	fail p99_sparkline "$(cat "$T/screen1")"
fi
if wait_screen 'grp fault at .*grp.4.nvt has no footer and its writer .* is gone'; then
	pass killed_writer_named
else
	fail killed_writer_named "$(screen)"
fi
if wait_screen 'grp step at .*throughput step at'; then
	screen >"$T/screen2"
	if grep -Eq '^grp read ' "$T/screen2" && ! grep -q 'total' "$T/screen2"; then
		pass step_named_while_the_run_goes
	else
		fail step_named_while_the_run_goes "the run had ended: $(cat "$T/screen2")"
	fi
else
	fail step_named_while_the_run_goes "$(screen)"
fi
if wait_screen 'watch exit 1'; then
	if screen | grep -q 'grp read .*total (no footer)'; then
		pass totals_at_the_end
	else
		fail totals_at_the_end "$(screen)"
	fi
else
	fail totals_at_the_end "$(screen)"
fi
wait "$fpid" 2>/dev/null
fpid=
