#!/usr/bin/env bash
# The emulated-NVMe boot's own failure path (tests/vm/boot.sh, run.sh).
#
# Once on CI the guest never started a case and the verdict line was lost:
# the console tail ended mid-line, so "FAIL: vm/boot: ..." was glued to it
# and the runner showed only the cases' "did not finish" lines.  Here a
# --timeout of 5 s gives the guest 1 s to reach /init, which it cannot under
# TCG: QEMU must be killed early (not at the limit), booted once more with
# an INFO line naming why and the first console kept, and the failure must
# reach the runner as a line of its own with the console's end as INFO lines.
. "$(dirname "$0")/../lib.sh"

if [ "$NV_ASAN" = 1 ]; then	# as tests/vm/run.sh
	skip all "the engine is an ASan build: tests/vm/run.sh skips; make check runs this test"
	exit 0
fi
keep=$T/keep
out=$T/run.out
t0=$SECONDS
NVVM_TIMEOUT_SCALE=1 NVVM_KEEP=$keep TESTTMP=$T bash "$TOP/tests/vm/run.sh" --timeout 5 \
	>"$out" 2>&1
rc=$?
took=$((SECONDS - t0))
if grep -q '^SKIP: vm' "$out"; then
	skip all "$(grep -m1 '^SKIP: vm' "$out" | cut -c 7-)"
	exit 0
fi
# Lines of the run, shown with a prefix (a raw FAIL line would count here).
show() { sed 's/^/  > /' "$out" | head -n 30 | tr '\n' '|'; }

if [ $rc -ne 0 ]; then pass exit_status; else fail exit_status "run.sh exited 0: $(show)"; fi
if grep -q '^FAIL: vm/boot: the guest did not reach /init within [0-9]*s (console: ' "$out"; then
	pass verdict_line_of_its_own
else
	fail verdict_line_of_its_own \
		"no line 'FAIL: vm/boot: the guest did not reach /init': $(show)"
fi
retry='^INFO: vm/boot-retry: the guest started no case (the guest did not reach /init'
n=$(grep -c "$retry" "$out")
if [ "$n" = 1 ]; then pass one_retry_named; else fail one_retry_named "$n retry lines: $(show)"; fi
if [ "$(grep -c '^boot: booting ' "$out")" = 2 ]; then
	pass booted_twice
else
	fail booted_twice "want 2 'boot: booting' lines: $(show)"
fi
if grep -q '^INFO: vm/console: .*SeaBIOS' "$out" && ! grep -q $'\x1b' "$out"; then
	pass console_tail_as_info
else
	fail console_tail_as_info "want the console's end as INFO lines without escapes: $(show)"
fi
if [ -s "$keep/console-try1.log" ] && [ -f "$keep/console.log" ]; then
	pass first_console_kept
else
	fail first_console_kept "$keep: $(ls "$keep" 2>&1 | tr '\n' ' ')"
fi
if [ "$(grep -c "did not finish" "$out")" -ge 4 ]; then
	pass cases_reported_unfinished
else
	fail cases_reported_unfinished "$(show)"
fi
echo "info: vm_boot_watch: run.sh took ${took}s"
