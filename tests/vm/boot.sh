#!/usr/bin/env bash
# Boot the emulated-NVMe test guest once and bring its results back.
#
#   tests/vm/boot.sh --out DIR [--cases DIR] [--extra PATH]... [--work DIR]
#                    [--timeout SECS] [--case-timeout SECS]
#                    [--drive IMG [--cuts N --cut-window MIN:MAX --after-cut CMD]]
#
# Boots Debian's cloud kernel in QEMU (TCG) with a busybox initramfs that
# carries fio and its libraries, $NVENGINE_SO and $NVANALYZE (when they exist)
# and every *.sh of the cases directory; the guest's /init (tests/vm/guest/init)
# runs the cases in name order, one per process group with a timeout, and
# writes /results as a tar stream onto a raw results namespace, which is
# extracted into --out.  --extra copies files or directories to /extra/NAME in
# the guest.  See tests/vm/README.md for the namespace map.
#
# Exit status: 0 when the guest ran every case and its results are in --out
# (the cases' own PASS/FAIL lines are in DIR/summary); 77 when QEMU cannot run
# here at all (the reason is printed as "boot: skip: WHY"); 1 when the boot
# failed or hung (the console log tail is printed; the log is DIR/console.log).
# A guest that started no case is booted once more (an "INFO: vm/boot-retry:"
# line says why; its console is DIR/console-try1.log); the guest must reach
# /init within a fifth of --timeout.
#
# Power cuts: --drive IMG attaches the raw image IMG as namespace 1 of a third
# controller (serial nvdrive) that QEMU opens with cache=none (O_DIRECT: what
# the guest wrote and QEMU completed is in IMG, nothing waits in the host's
# page cache).  With --cuts N the guest is booted N times from the same
# initramfs; each time, once the console shows the line "nvvm: cut-armed",
# QEMU is killed with SIGKILL after a random MIN..MAX seconds (decimal),
# and CMD runs (bash -c) with CUT (1..N), CUT_DELAY (seconds after the
# armed line) and CONSOLE (that boot's console log) set: it reads IMG back
# and prepares it for the next boot (exit 3: stop, the next cuts cannot go
# better).  The exit status is then 0 when every boot reached the armed line
# and every CMD exited 0 (1 otherwise); CMD's own lines are its own.
#
# Environment: TOP (repo root), NVENGINE_SO, NVANALYZE, TESTTMP, FIO (the fio
# binary the guest runs as /usr/bin/fio, default fio on PATH), and
# NVVM_KERNEL_SUITE (the Debian suite whose cloud kernel boots: bullseye 5.10,
# bookworm 6.1, trixie 6.12; default: the host's own apt sources),
# NVVM_TIMEOUT_SCALE (whole number, default 1: multiplies the boot's and every
# case's timeout, for a machine busy with other work), NVVM_ACCEL
# (default tcg), NVVM_MEM (1G), NVVM_SMP (2), NVVM_BUILD
# (build/vm: kernel and base initramfs cache), NVVM_NS_MB (namespace size
# scale, default 128), NVVM_RESULTS_MB (512).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${TOP:=$(cd "$here/../.." && pwd)}"
: "${NVENGINE_SO:=$TOP/libnvengine.so}"
: "${NVANALYZE:=$TOP/nvanalyze}"
: "${NVVM_BUILD:=$TOP/build/vm}"
: "${NVVM_ACCEL:=tcg}"
: "${NVVM_MEM:=1G}"
: "${NVVM_SMP:=2}"
: "${NVVM_NS_MB:=128}"
: "${NVVM_RESULTS_MB:=512}"
: "${NVVM_KERNEL_SUITE:=}"
: "${NVVM_TIMEOUT_SCALE:=1}"
: "${FIO:=fio}"
KERNEL_META=linux-image-cloud-amd64

cases=$here/cases
out=
work=
timeout=600
case_timeout=120
extras=()
drive=
cuts=0
cut_window=1:3
after_cut=true

usage() {
	sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
	exit 2
}

while [ $# -gt 0 ]; do
	case $1 in
	--cases) cases=$(cd "$2" && pwd); shift 2;;
	--out) out=$2; shift 2;;
	--extra) extras+=("$2"); shift 2;;
	--work) work=$2; shift 2;;
	--timeout) timeout=$2; shift 2;;
	--case-timeout) case_timeout=$2; shift 2;;
	--drive) drive=$2; shift 2;;
	--cuts) cuts=$2; shift 2;;
	--cut-window) cut_window=$2; shift 2;;
	--after-cut) after_cut=$2; shift 2;;
	-h|--help) usage;;
	*) echo "boot: unknown argument '$1' (see --help)" >&2; exit 2;;
	esac
done
[ -n "$out" ] || { echo "boot: --out DIR is required" >&2; exit 2; }
case $NVVM_TIMEOUT_SCALE in
''|*[!0-9]*|0)
	echo "boot: NVVM_TIMEOUT_SCALE=$NVVM_TIMEOUT_SCALE: want a whole number >= 1" >&2; exit 2;;
esac
timeout=$((timeout * NVVM_TIMEOUT_SCALE))
for x in "${extras[@]+"${extras[@]}"}"; do
	[ -e "$x" ] || { echo "boot: --extra $x: no such file or directory" >&2; exit 2; }
done
[ -z "$drive" ] || [ -f "$drive" ] || { echo "boot: --drive $drive: no such file" >&2; exit 2; }
case $cuts in ''|*[!0-9]*) echo "boot: --cuts $cuts: want a whole number" >&2; exit 2;; esac
[ "$cuts" -eq 0 ] || [ -n "$drive" ] || { echo "boot: --cuts needs --drive IMG" >&2; exit 2; }
case $cut_window in
*[!0-9.:]*|:*|*:|*:*:*|[!0-9]*)
	echo "boot: --cut-window $cut_window: want MIN:MAX seconds" >&2; exit 2;;
*:*) ;;
*) echo "boot: --cut-window $cut_window: want MIN:MAX seconds" >&2; exit 2;;
esac

skip() { echo "boot: skip: $*"; exit 77; }
die() { echo "boot: error: $*" >&2; exit 1; }
log() { echo "boot: $*" >&2; }

# The namespaces of the test controller (serial nvtest0): nsid, role, size in
# units of NVVM_NS_MB/128 MiB, nvme-ns properties.  The guest gets this table
# as /vm/namespaces; 00-devices.sh checks the guest sees exactly this.
NAMESPACES="\
1 ns512  128 logical_block_size=512,physical_block_size=512
2 ns4k   128 logical_block_size=4096,physical_block_size=4096
3 pi     64  logical_block_size=512,physical_block_size=512,ms=8,mset=0,pi=1,pil=0
4 piext  64  logical_block_size=512,physical_block_size=512,ms=8,mset=1,pi=1,pil=0
5 zoned  128 logical_block_size=4096,physical_block_size=4096,zoned=true,zoned.zone_size=16M"

# ensure_qemu: QEMU, busybox and cpio present; skips (exit 77) naming what
# installs them when they are not (the tests install nothing: make deps does).
ensure_qemu() {
	command -v qemu-system-x86_64 >/dev/null ||
		skip "qemu-system-x86_64 not installed:" \
			"run 'make deps' (apt-get install qemu-system-x86)"
	command -v cpio >/dev/null ||
		skip "cpio not installed: run 'make deps' (apt-get install cpio)"
	[ -x /bin/busybox ] ||
		skip "/bin/busybox missing: run 'make deps' (apt-get install busybox-static)"
	ldd /bin/busybox >/dev/null 2>&1 &&
		skip "/bin/busybox is dynamically linked; install busybox-static"
	qemu-system-x86_64 -device nvme-ns,help 2>/dev/null | grep -q 'ms=' ||
		skip "this QEMU has no nvme-ns device with metadata (need QEMU >= 6.1)"
}

# apt_k CMD ARGS...: apt-get or apt-cache for the kernel's suite: the host's
# own sources, or NVVM_KERNEL_SUITE's through tools/apt-suite.sh (private
# package lists in build/apt; /etc/apt is not changed).
apt_k() {
	if [ -n "$NVVM_KERNEL_SUITE" ]; then
		"$TOP/tools/apt-suite.sh" "$NVVM_KERNEL_SUITE" "$@"
	else
		"$@"
	fi
}

# ensure_kernel: sets KERNEL (vmlinuz) and KMODDIR (its modules) from the
# image package linux-image-cloud-amd64 depends on (in NVVM_KERNEL_SUITE, or
# the host's suite), downloaded with `apt-get download` and unpacked with
# dpkg -x into $NVVM_BUILD/kernel/PKG; a previous unpack is reused.  Nothing
# is installed on the host.
ensure_kernel() {
	local pkg deb dir memo=$NVVM_BUILD/kernel/suite-${NVVM_KERNEL_SUITE:-host}
	pkg=$(apt_k apt-cache depends "$KERNEL_META" 2>/dev/null |
		awk '/Depends: linux-image-/{print $2; exit}') || true
	if [ -z "$pkg" ] && [ -z "$NVVM_KERNEL_SUITE" ] && [ "$(id -u)" -eq 0 ] &&
		! [ -f "$memo" ]; then
		# A fresh machine may have no package lists yet.
		apt-get update -qq >/dev/null 2>&1 || true
		pkg=$(apt-cache depends "$KERNEL_META" 2>/dev/null |
			awk '/Depends: linux-image-/{print $2; exit}') || true
	fi
	if [ -z "$pkg" ]; then
		# No apt metadata: reuse the kernel this suite had before.
		pkg=$(cat "$memo" 2>/dev/null) || true
		[ -n "$pkg" ] && [ -f "$NVVM_BUILD/kernel/$pkg/.unpacked" ] ||
			skip "cannot resolve" \
				"$KERNEL_META${NVVM_KERNEL_SUITE:+ in $NVVM_KERNEL_SUITE}" \
				"with apt-cache (run apt-get update) and no kernel cached in" \
				"$NVVM_BUILD/kernel"
	fi
	mkdir -p "$NVVM_BUILD/kernel"
	echo "$pkg" >"$memo"
	dir=$NVVM_BUILD/kernel/$pkg
	if ! [ -f "$dir/.unpacked" ]; then
		log "fetching kernel $pkg"
		rm -rf "$dir" && mkdir -p "$dir/deb"
		chmod 777 "$dir/deb" # apt's _apt user downloads into it
		if (cd "$dir/deb" &&
			apt_k apt-get download "$pkg" >/dev/null 2>"$dir/download.log"); then
			deb=$(ls "$dir"/deb/*.deb)
			dpkg -x "$deb" "$dir/root" || die "dpkg -x $deb failed"
			rm -f "$deb"
		elif [ -f "/boot/vmlinuz-${pkg#linux-image-}" ] &&
			[ -f "/boot/config-${pkg#linux-image-}" ]; then
			# Offline, but the host happens to have this kernel.
			log "apt-get download failed; using /boot/vmlinuz-${pkg#linux-image-}"
			mkdir -p "$dir/root/boot"
			cp "/boot/vmlinuz-${pkg#linux-image-}" \
				"/boot/config-${pkg#linux-image-}" "$dir/root/boot/"
			if [ -d "/lib/modules/${pkg#linux-image-}" ]; then
				mkdir -p "$dir/root/lib/modules"
				cp -r "/lib/modules/${pkg#linux-image-}" "$dir/root/lib/modules/"
			fi
		else
			skip "apt-get download $pkg failed: $(tail -n 1 "$dir/download.log")"
		fi
		touch "$dir/.unpacked"
	fi
	KERNEL=$(ls "$dir"/root/boot/vmlinuz-* 2>/dev/null | head -n 1)
	KCONFIG=$(ls "$dir"/root/boot/config-* 2>/dev/null | head -n 1)
	# trixie's packages put the modules under /usr/lib (merged /usr)
	KMODDIR=$(ls -d "$dir"/root/lib/modules/* "$dir"/root/usr/lib/modules/* 2>/dev/null |
		head -n 1) || true
	[ -n "$KERNEL" ] || skip "no vmlinuz in $pkg"
	[ -n "$KCONFIG" ] || die "no config file in $pkg; cannot tell whether NVMe is built in"
}

# add_ldd ROOT FILE...: copy each FILE's shared libraries (and the dynamic
# loader) into ROOT at their host paths.  Returns 1 with a message on stderr
# when ldd fails or cannot find a library.
add_ldd() {
	local root=$1 f lib out
	shift
	for f in "$@"; do
		if ! out=$(ldd "$f" 2>&1); then
			log "ldd $f failed: $out"
			return 1
		fi
		if grep -q 'not found' <<<"$out"; then
			log "$f: missing libraries:" \
				"$(grep 'not found' <<<"$out" | tr -s ' \t\n' ' ')"
			return 1
		fi
		for lib in $(awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}' \
			<<<"$out"); do
			[ -e "$root$lib" ] && continue
			grep -qxF "$lib" "$BASE.libs" 2>/dev/null && continue
			mkdir -p "$root$(dirname "$lib")"
			cp -L "$lib" "$root$lib"
			echo "$(dirname "$lib")" >>"$root/.libdirs"
		done
	done
}

# kernel_modules ROOT: when the kernel has NVMe as a module instead of built
# in, copy nvme.ko and its dependencies (in load order) into ROOT/lib/kmod
# and list them in ROOT/vm/modules for /init to insmod.
kernel_modules() {
	local root=$1 order=() seen=" "
	grep -q '^CONFIG_BLK_DEV_NVME=y' "$KCONFIG" && return 0
	grep -q '^CONFIG_BLK_DEV_NVME=m' "$KCONFIG" ||
		skip "kernel $(basename "$KERNEL") has no NVMe driver"
	[ -n "$KMODDIR" ] || die "NVMe is a module but the kernel package has no modules"
	add_mod() {
		local name=$1 ko dep
		case "$seen" in *" $name "*) return;; esac
		seen="$seen$name "
		ko=$(find "$KMODDIR" -name "$name.ko*" -print -quit)
		[ -n "$ko" ] || ko=$(find "$KMODDIR" -name "${name//_/-}.ko*" -print -quit)
		[ -n "$ko" ] || die "module $name not in the kernel package"
		for dep in $(modinfo -F depends "$ko" | tr ',' ' '); do add_mod "$dep"; done
		order+=("$ko")
	}
	add_mod nvme
	mkdir -p "$root/lib/kmod" "$root/vm"
	for ko in "${order[@]}"; do
		case $ko in
		*.xz) xz -dc "$ko" >"$root/lib/kmod/$(basename "$ko" .xz)";;
		*.zst) zstd -qdc "$ko" >"$root/lib/kmod/$(basename "$ko" .zst)";;
		*) cp "$ko" "$root/lib/kmod/";;
		esac
		echo "$(basename "${ko%.xz}" .zst)" >>"$root/vm/modules"
	done
}

# make_cpio DIR FILE: an uncompressed newc archive of DIR (uncompressed
# because unpacking under TCG is faster than gunzip).
make_cpio() {
	(cd "$1" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) >"$2"
}

# ensure_base: $BASE.cpio ($NVVM_BUILD/base-KERNEL) with busybox, fio ($FIO),
# their libraries and the kernel modules (if any); one per kernel, rebuilt
# when fio, busybox, the kernel or this script change.
ensure_base() {
	local stamp root a fio
	fio=$(command -v "$FIO") || skip "fio not installed ($FIO)"
	BASE=$NVVM_BUILD/base-$(basename "$KERNEL")
	stamp=$(cat "$fio" /bin/busybox "$KERNEL" "$0" | md5sum | cut -d' ' -f1)
	if [ -f "$BASE.cpio" ] && [ "$(cat "$BASE.stamp" 2>/dev/null)" = "$stamp" ]; then
		return 0
	fi
	log "building base initramfs (busybox, fio and libraries)"
	root=$NVVM_BUILD/base-root
	rm -rf "$root" "$BASE.libs"
	mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,etc,proc,sys,dev} \
		"$root"/{tmp,run,root,results,vm,nv,extra}
	cp /bin/busybox "$root/bin/busybox"
	for a in $(/bin/busybox --list); do
		[ "$a" = busybox ] || ln -s busybox "$root/bin/$a"
	done
	cp -L "$fio" "$root/usr/bin/fio"
	add_ldd "$root" "$fio" || die "cannot collect the libraries of $fio"
	kernel_modules "$root"
	printf '%s\n' 'root:x:0:0:root:/root:/bin/sh' \
		'nobody:x:65534:65534:nobody:/nonexistent:/bin/sh' >"$root/etc/passwd"
	printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"
	sort -u "$root/.libdirs" >"$BASE.libdirs"
	rm "$root/.libdirs"
	make_cpio "$root" "$BASE.cpio.tmp"
	mv "$BASE.cpio.tmp" "$BASE.cpio"
	(cd "$root" && find . -name '*.so*' | sed 's/^\.//') >"$BASE.libs"
	echo "$stamp" >"$BASE.stamp"
	rm -rf "$root"
}

# make_boot_cpio FILE: the per-boot archive: /init, the guest library, the
# namespace table, the engine and analyzer with their libraries, the cases
# and the extras.  Appended to base.cpio (the kernel unpacks both).
make_boot_cpio() {
	local root=$work/boot-root x
	rm -rf "$root"
	mkdir -p "$root/vm/cases" "$root/nv" "$root/extra"
	cp "$here/guest/init" "$root/init"
	chmod 755 "$root/init"
	cp "$here/guest/lib.sh" "$root/vm/lib.sh"
	# The guest's copy has the real sizes in MiB.
	echo "$NAMESPACES" |
		awk -v s="$NVVM_NS_MB" '{ $3 = int($3 * s / 128); print }' >"$root/vm/namespaces"
	cp "$cases"/*.sh "$root/vm/cases/" 2>/dev/null || die "no *.sh cases in $cases"
	# A missing or broken engine or analyzer is left out; the cases that
	# need them report SKIP with the reason.
	if [ -f "$NVENGINE_SO" ] && add_ldd "$root" "$NVENGINE_SO"; then
		cp -L "$NVENGINE_SO" "$root/nv/libnvengine.so"
	fi
	if [ -x "$NVANALYZE" ] && add_ldd "$root" "$NVANALYZE"; then
		cp -L "$NVANALYZE" "$root/nv/nvanalyze"
	fi
	for x in "${extras[@]+"${extras[@]}"}"; do
		cp -rL "$x" "$root/extra/"
	done
	cat "$BASE.libdirs" "$root/.libdirs" 2>/dev/null | sort -u | tr '\n' ':' |
		sed 's/:$//' >"$root/vm/libpath"
	rm -f "$root/.libdirs"
	{
		echo "CASE_TIMEOUT=$case_timeout"
		echo "TIMEOUT_SCALE=$NVVM_TIMEOUT_SCALE"
		echo "NS_COUNT=$(echo "$NAMESPACES" | wc -l)"
	} >"$root/vm/boot.conf"
	make_cpio "$root" "$1"
	rm -rf "$root"
}

# make_images: fresh sparse backing files for the namespaces and the
# results disk in $work; prints the matching QEMU arguments into QARGS.
make_images() {
	local nsid role size props img
	QARGS=(-device "nvme,id=nvme0,serial=nvtest0,addr=0x10")
	while read -r nsid role size props; do
		img=$work/ns$nsid-$role.img
		rm -f "$img"
		truncate -s "$((size * NVVM_NS_MB / 128))M" "$img" # same rounding as the awk above
		QARGS+=(-drive "file=$img,if=none,id=ns$nsid,format=raw,cache=unsafe,discard=unmap"
			-device "nvme-ns,drive=ns$nsid,bus=nvme0,nsid=$nsid,$props")
	done <<<"$NAMESPACES"
	rm -f "$work/results.img"
	truncate -s "${NVVM_RESULTS_MB}M" "$work/results.img"
	QARGS+=(-drive "file=$work/results.img,if=none,id=results,format=raw,cache=unsafe"
		-device "nvme,id=nvme1,serial=nvresults,addr=0x11"
		-device "nvme-ns,drive=results,bus=nvme1,nsid=1")
	if [ -n "$drive" ]; then
		QARGS+=(-drive "file=$drive,if=none,id=drive,format=raw,cache=none"
			-device "nvme,id=nvme2,serial=nvdrive,addr=0x12"
			-device "nvme-ns,drive=drive,bus=nvme2,nsid=1")
	fi
}

# The guest kernel's command line.  clocksource=tsc: see main().
# no_timer_check: on a host busy with other work the vCPUs can stall long
# enough for the kernel's IO-APIC timer check to fail, and the guest panics
# ("IO-APIC + timer doesn't work!") before /init; the check proves nothing
# about an emulated machine.
KARGS="console=ttyS0 rdinit=/init panic=-1 oops=panic mitigations=off loglevel=4"
KARGS+=" nvme.poll_queues=1 clocksource=tsc tsc=reliable no_timer_check"

# qemu_cmd: the QEMU command line of a boot (after make_images), into QCMD.
qemu_cmd() {
	QCMD=(qemu-system-x86_64
		-machine "q35,accel=$NVVM_ACCEL" -cpu max -m "$NVVM_MEM" -smp "$NVVM_SMP"
		-nographic -no-reboot -nic none -monitor none
		-serial "file:$1"
		-kernel "$KERNEL" -initrd "$initrd"
		-append "$KARGS"
		"${QARGS[@]}")
}

# cut_loop: --cuts N boots, each killed with SIGKILL a random time into the
# window after the guest's "nvvm: cut-armed" line, then --after-cut.  Each
# boot may take --timeout seconds to arm.  Return: 0 when every boot armed.
cut_loop() {
	local i pid t0 delay console armed bad=0 lo=${cut_window%:*} hi=${cut_window#*:}
	for ((i = 1; i <= cuts; i++)); do
		console=$out/console-cut$i.log
		qemu_cmd "$console"
		: >"$console"
		"${QCMD[@]}" </dev/null >"$work/qemu-cut$i.out" 2>&1 &
		pid=$!
		t0=$SECONDS
		armed=0
		while kill -0 "$pid" 2>/dev/null && [ $((SECONDS - t0)) -lt "$timeout" ]; do
			if grep -q '^nvvm: cut-armed' "$console"; then
				armed=1
				break
			fi
			sleep 0.05
		done
		delay=$(awk -v lo="$lo" -v hi="$hi" -v s="$RANDOM" \
			'BEGIN { srand(s); printf "%.2f", lo + (hi - lo) * rand() }')
		[ $armed -eq 1 ] && sleep "$delay"
		kill -KILL "$pid" 2>/dev/null || true	# (set -e) it may have died on its own
		wait "$pid" 2>/dev/null || true
		if [ $armed -eq 0 ]; then
			echo "boot: cut $i: the guest never armed; console tail:"
			console_tail "$console" 20
			bad=1
			continue
		fi
		CUT=$i CUT_DELAY=$delay CONSOLE=$console bash -c "$after_cut" || {
			[ $? -eq 3 ] && return 1	# CMD says the next cuts cannot go better
			bad=1
		}
	done
	return $bad
}

# console_text FILE: a console log as plain lines: no terminal escapes
# (SeaBIOS clears the screen), no carriage returns, the last line ended.
console_text() {
	sed -e 's/\x1b\[[0-9;?]*[A-Za-z]//g; s/\x1bc//g; s/\r//g' -e '$a\' "$1" 2>/dev/null
}

# console_tail FILE N: the last N lines of a console log, indented.
console_tail() {
	console_text "$1" | tail -n "$2" | sed 's/^/    | /'
}

# last_line FILE: the last non-empty line of a console log, for one-line reasons.
last_line() {
	console_text "$1" | grep -v '^[[:space:]]*$' | tail -n 1 | cut -c 1-160
}

# boot_watched CONSOLE: one boot of the test guest, its console into CONSOLE,
# its results (as far as the guest wrote them) extracted into $out.  QEMU is
# killed at --timeout, or earlier when the guest has not reached /init
# ("nvvm: init") within a fifth of it.  Return: sets BOOT_RC (0: QEMU exited
# and the guest left results; 1 otherwise) and BOOT_WHY (why not, in words).
boot_watched() {
	local console=$1 pid t0 t1 rc=0 init_limit=$((timeout / 5)) killed=
	qemu_cmd "$console"
	: >"$console"
	log "booting $(basename "$KERNEL") ($NVVM_ACCEL, timeout ${timeout}s," \
		"/init within ${init_limit}s)"
	t0=$(date +%s.%N)
	"${QCMD[@]}" </dev/null >"$work/qemu.out" 2>&1 &
	pid=$!
	SECONDS=0
	while kill -0 "$pid" 2>/dev/null; do
		if [ $SECONDS -ge "$timeout" ]; then
			killed="QEMU killed after ${timeout}s (hung guest)"
		elif [ $SECONDS -ge "$init_limit" ] && ! grep -q 'nvvm: init' "$console"; then
			killed="the guest did not reach /init within ${init_limit}s"
		fi
		if [ -n "$killed" ]; then
			kill -TERM "$pid" 2>/dev/null || true
			sleep 5
			kill -KILL "$pid" 2>/dev/null || true
			break
		fi
		sleep 0.5
	done
	wait "$pid" || rc=$?
	t1=$(date +%s.%N)
	echo "$t0 $t1" | awk '{printf "%.1f\n", $2 - $1}' >"$out/qemu-seconds"
	# The guest rewrites a tar stream at the start of the results namespace
	# after every case (tar stops at its end-of-archive blocks), so even a
	# boot that died later returns the cases that finished.
	tar -xf "$work/results.img" -C "$out" 2>"$work/tar.err" || true
	BOOT_RC=1
	if [ -n "$killed" ]; then
		BOOT_WHY=$killed
	elif [ $rc -ne 0 ]; then
		BOOT_WHY="QEMU exited $rc: $(tail -n 5 "$work/qemu.out" | tr '\n' ' ')"
	elif ! [ -f "$out/summary" ]; then
		BOOT_WHY="guest left no results ($(head -c 200 "$work/tar.err"))"
	else
		BOOT_RC=0
		BOOT_WHY=
	fi
}

main() {
	local t0 t1 rc initrd
	ensure_qemu
	mkdir -p "$NVVM_BUILD"
	# Concurrent boots (make check and make asan) share the cache.
	exec 9>"$NVVM_BUILD/.lock"
	flock 9
	ensure_kernel
	ensure_base
	if [ -z "$work" ]; then
		work=$(mktemp -d "${TESTTMP:-/tmp}/vm.XXXXXX")
	fi
	mkdir -p "$work" "$out"
	out=$(cd "$out" && pwd)
	make_boot_cpio "$work/boot.cpio"
	initrd=$work/initrd.cpio
	cat "$BASE.cpio" "$work/boot.cpio" >"$initrd"
	flock -u 9
	make_images
	if [ "$cuts" -gt 0 ]; then
		log "$cuts power cuts ($(basename "$KERNEL"), $NVVM_ACCEL," \
			"cut ${cut_window}s after arming)"
		cut_loop
		rc=$?
		rm -f "$initrd" "$work"/ns*.img "$work/results.img"
		return $rc
	fi

	local console=$out/console.log try
	# Before the first case the guest runs only the kernel and /init's device
	# wait, none of our code; a guest that hangs or stops there (seen once on
	# CI: not one case's line came back) is booted once more, and the first
	# console is kept as console-try1.log and named in an INFO line.
	for try in 1 2; do
		boot_watched "$console"
		if [ $BOOT_RC -eq 0 ] || [ $try -eq 2 ] || grep -q 'nvvm: case ' "$console"; then
			break
		fi
		mv "$console" "$out/console-try1.log"
		echo "INFO: vm/boot-retry: the guest started no case (${BOOT_WHY}); booted again" \
			"(first console: console-try1.log," \
			"last line: $(last_line "$out/console-try1.log"))"
		rm -rf "$out"/summary "$out"/done
		make_images
	done
	rm -f "$initrd" "$work/boot.cpio"
	if [ $BOOT_RC -ne 0 ]; then
		echo "boot: $BOOT_WHY; console tail:"
		console_tail "$console" 40
		return 1
	fi
	if ! [ -f "$out/done" ]; then
		echo "boot: guest stopped before finishing the cases; console tail:"
		console_tail "$console" 40
		return 1
	fi
	rm -f "$work"/*.img
	return 0
}

main
