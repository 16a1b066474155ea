# shellcheck shell=bash
# tools/bench-sections/vm.sh: section 2 of `make bench`
# (BENCH_SECTIONS=vm), sourced by tools/bench.sh, whose settings and
# helpers (timed, log, die) it uses.

# --- 2. passthrough in the emulated-NVMe guest -------------------------------
section_vm() {
	local d=$W/vm rc=0
	mkdir -p "$d/cases"
	cp "$TOP/tools/bench-vm/50-bench-passthru.sh" "$d/cases/"
	printf 'ROUNDS=%s\nRUNTIME=%s\nQDS="%s"\n' "$VM_ROUNDS" "$VM_RUNTIME" "$QDS" \
		>"$d/bench-vm.conf"
	local extra=(--extra "$d/bench-vm.conf")
	if [ -n "${BENCH_VM_ALT_SO:-}" ]; then
		# a second engine build, run beside the first (tools/bench-vm)
		cp "$BENCH_VM_ALT_SO" "$d/libnvengine-alt.so"
		extra+=(--extra "$d/libnvengine-alt.so")
	fi
	log "vm: booting the emulated-NVMe guest ($VM_ROUNDS rounds of ${VM_RUNTIME}s runs)"
	TESTTMP=$d NVENGINE_SO=$NVENGINE_SO NVANALYZE=$NVANALYZE bash "$TOP/tests/vm/boot.sh" \
		--cases "$d/cases" --out "$d/results" --work "$d/work" "${extra[@]}" \
		--timeout 1800 >"$d/boot.out" 2>&1 || rc=$?
	echo "$rc" >"$d/boot.rc"
	rm -rf "$d/work"
	case $rc in
	0) ;;
	77) log "vm: skipped: $(sed -n 's/^boot: skip: //p' "$d/boot.out" | head -n 1)";;
	*) log "vm: boot failed (status $rc), see $d/boot.out";;
	esac
}
