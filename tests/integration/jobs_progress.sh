#!/usr/bin/env bash
# jobs/run's progress lines: jobs/schedule.awk's plan of a job file (groups
# split by stonewall, the longest section of a group, runtime + ramp_time,
# fio's time units, ${VAR} from the environment, untimed sections), and a
# real run of a file with a size-based precondition then two timed sections,
# twice (-r 2): the plan, each section announced as its trace appears (so
# the order holds on a loaded machine), the time left counting down over
# both runs.
. "$(dirname "$0")/../lib.sh"

SCHED=$TOP/jobs/schedule.awk

cat >"$T/plan.fio" <<'EOF'
[global]
ramp_time=${RAMP}
[precondition]
rw=write
[a]
stonewall
runtime=1m
[b]
runtime=90s
ramp_time=0
[c]
stonewall
timeout=2000ms
EOF
got=$(RAMP=10 awk -f "$SCHED" "$T/plan.fio" | tr '\n' '|')
want='0 -1 precondition|0 90 a,b|90 12 c|total 102 1|'
if [ "$got" = "$want" ]; then pass schedule; else fail schedule "got '$got', want '$want'"; fi

cat >"$T/gsw.fio" <<'EOF'
[global]
stonewall
runtime=5
[x]
[y]
EOF
got=$(awk -f "$SCHED" "$T/gsw.fio" | tr '\n' '|')
want='0 5 x|5 5 y|total 10 0|'
if [ "$got" = "$want" ]; then
	pass schedule-global-stonewall
else
	fail schedule-global-stonewall "got '$got', want '$want'"
fi

# a real run: 8 MiB written first (untimed), then a and b, 2 s each, each
# announced when its trace appears
dd if=/dev/zero of="$T/target.img" bs=1M count=8 status=none
cat >"$T/pre.fio" <<'EOF'
[global]
ioengine=external:${NVENGINE_SO}
filename=${NVDEV}
direct=${NVDIRECT}
nv_trace=${NVTRACE}
size=8m
[precondition]
rw=write
bs=128k
[a]
stonewall
rw=randread
time_based
runtime=${RUNTIME}
[b]
stonewall
rw=randread
time_based
runtime=${RUNTIME}
EOF
out=$(cd "$T" && NVDEV="$T/target.img" RUNTIME=2 "$TOP/jobs/run" -r 2 -o "$T/res" pre.fio 2>&1)
st=$?
p=$(grep -F 'pre.fio: ' <<<"$out" | sed 's/^jobs\/run: pre.fio: //')
want="4 s by the runtimes, plus 1 untimed (size-based) section(s); 8 s left in all
now precondition (untimed: until its size is done)
now a (2 s), about 4 s left in this file, 8 s in all
now b (2 s), about 2 s left in this file, 6 s in all
4 s by the runtimes, plus 1 untimed (size-based) section(s); 4 s left in all
now precondition (untimed: until its size is done)
now a (2 s), about 4 s left in this file, 4 s in all
now b (2 s), about 2 s left in this file, 2 s in all"
if [ $st -eq 0 ] && [ "$p" = "$want" ]; then
	pass run-progress-untimed
else
	fail run-progress-untimed "exit $st: $(diff <(echo "$want") <(echo "$p") | tr '\n' ' ')"
fi

# The progress ticker ends by itself once the job file's subshell that
# started it is gone, even when that subshell's kill never reaches it (a
# shell drops a signal landing before its child reset its traps: an
# orphaned ticker waiting for the next section's traces held make asan's
# `out=$(jobs/run ...)` open for ever).  Here the subshell is SIGKILLed
# while the ticker waits for section b's traces, which never come.
mkdir -p "$T/orph/bin" "$T/orph/tr"
cat >"$T/orph/bin/fio" <<'EOF2'
#!/bin/sh
case " $* " in *" --parse-only "*|*" --version "*) exec fio "$@";; esac
echo "$$" >"$ORPH/fio"
echo "$PPID" >"$ORPH/owner"
exec sleep 60
EOF2
chmod +x "$T/orph/bin/fio"
(cd "$T" && ORPH=$T/orph FIO=$T/orph/bin/fio NVDEV="$T/target.img" NVTRACE=$T/orph/tr \
	RUNTIME=2 "$TOP/jobs/run" -o "$T/orph/res" pre.fio >/dev/null 2>&1 &)
for _ in $(seq 600); do [ -s "$T/orph/owner" ] && break; sleep 0.1; done
owner=$(cat "$T/orph/owner" 2>/dev/null)
if [ -z "$owner" ]; then
	fail ticker-ends-without-owner "the fake fio never ran"
else
	kill -KILL "$owner" "$(cat "$T/orph/fio")" 2>/dev/null
	left=1
	for _ in $(seq 300); do	# the ticker looks each second; 30 s for a loaded machine
		pgrep -f "jobs/run -o $T/orph/res" >/dev/null || { left=0; break; }
		sleep 0.1
	done
	if [ $left -eq 0 ]; then
		pass ticker-ends-without-owner
	else
		still=$(pgrep -af "jobs/run -o $T/orph/res" | head -n 3 | tr '\n' ' ')
		fail ticker-ends-without-owner "still running: $still"
		pkill -KILL -f "jobs/run -o $T/orph/res"
	fi
fi
