#!/usr/bin/env bash
# The build's guard rails: the fio source must match the fio binary ($FIO,
# the one the engine under test is for; FIO_SRC its tree, default build/fio-src).
. "$(dirname "$0")/../lib.sh"
fio_src=${FIO_SRC:-$TOP/build/fio-src}

fake=$T/fio-3.99
mkdir -p "$fake"
printf 'DEF_VER=fio-3.99\n' >"$fake/FIO-VERSION-GEN"
out=$(FIO=$FIO "$TOP/tools/fio-src.sh" --check "$fake" 2>&1)
rc=$?
have=$("$FIO" --version | sed -n 's/^\(fio-[0-9.]*\).*/\1/p')
mismatch="version mismatch: fio $(command -v "$FIO") is $have"
if [ $rc -ne 0 ] &&
   echo "$out" | grep -qF "$mismatch but the source in $fake is fio-3.99" &&
   echo "$out" | grep -q "make FIO_SRC="; then
	pass fio_src_version_mismatch
else
	fail fio_src_version_mismatch "rc=$rc: $out"
fi

printf 'DEF_VER=%s\n' "$have" >"$fake/FIO-VERSION-GEN"
out=$(FIO=$FIO "$TOP/tools/fio-src.sh" --check "$fake" 2>&1)
rc=$?
if [ $rc -ne 0 ] && echo "$out" | grep -q "is not configured (no config-host.h)"; then
	pass fio_src_not_configured
else
	fail fio_src_not_configured "rc=$rc: $out"
fi

out=$(FIO=$FIO "$TOP/tools/fio-src.sh" --check "$T" 2>&1)
rc=$?
if [ $rc -ne 0 ] && echo "$out" | grep -q "is not a fio source tree"; then
	pass fio_src_not_a_tree
else
	fail fio_src_not_a_tree "rc=$rc: $out"
fi

# the tree the build uses matches
if FIO=$FIO "$TOP/tools/fio-src.sh" --check "$fio_src" >/dev/null 2>&1; then
	pass fio_src_default_matches
else
	fail fio_src_default_matches "$(FIO=$FIO "$TOP/tools/fio-src.sh" --check "$fio_src" 2>&1)"
fi

# make FIO=PATH checks the tree against that binary and names both
mkdir -p "$T/fakebin"
printf '#!/bin/sh\necho fio-3.99\n' >"$T/fakebin/fio"
chmod +x "$T/fakebin/fio"
out=$(make -s -C "$TOP" O="$T/o" FIO_SRC="$fio_src" FIO="$T/fakebin/fio" fio-src 2>&1)
rc=$?
if [ $rc -ne 0 ] && echo "$out" |
	grep -qF "fio $T/fakebin/fio is fio-3.99 but the source in $fio_src is $have"; then
	pass make_fio_binary_mismatch
else
	fail make_fio_binary_mismatch "rc=$rc: $out"
fi

# fio loads the engine under its registered name
out=$("$FIO" --ioengine="external:$NVENGINE_SO" --name=p --filename="$T/p" --size=64k 2>&1)
if echo "$out" | grep -q "ioengine=nvengine"; then
	pass engine_loads
else
	fail engine_loads "$(echo "$out" | tail -n 2)"
fi

# the engine exports only what fio looks up (engine/libnvengine.map)
syms=$(nm -D --defined-only "$NVENGINE_SO" 2>&1 | awk '{print $3}' | grep -v '^$' | tr '\n' ' ')
if [ "$syms" = "ioengine " ]; then
	pass engine_exports_only_ioengine
else
	fail engine_exports_only_ioengine "exported: $(echo "$syms" | cut -c1-300)"
fi

# every option fio's io_uring engine has, and ours, with a help text
help=$("$FIO" --enghelp="$NVENGINE_SO" 2>&1)
missing=
for o in hipri fixedbufs registerfiles sqthread_poll sqthread_poll_cpu nonvectored force_async \
	 nowait cmd_type write_mode readfua writefua md_per_io_size pi_act pi_chk apptag \
	 apptag_mask pi_gen trim_ranges nv_trace nv_trace_level nv_trace_block nv_trace_sync; do
	echo "$help" | grep -Eq "^$o +: .{10,}" || missing="$missing $o"
done
if [ -z "$missing" ]; then
	pass engine_options_have_help
else
	fail engine_options_have_help "missing:$missing"
fi

# The layout's one-way rules (README "Layout"): the pure code (nvme/, trace/)
# and the analyzer include nothing of engine/, the fio glue ...
bad=$(cd "$TOP" &&
	grep -rlE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"engine/' analyze trace nvme)
if [ -z "$bad" ]; then
	pass pure_code_includes_no_engine_header
else
	fail pure_code_includes_no_engine_header "$(echo $bad): they include engine/ headers"
fi

# ---- the engine's rooms and fio's headers (README "Layout") ----------------
# engine/ is the fio glue: the only folder whose files include fio's headers
# (a quoted include found in the fio tree, not in ours), and each of its
# files does (directly or through an engine/ header that does).  sys/, nvme/
# and trace/ include nothing of engine/ and nothing of fio.
# incs FILE: the quoted includes of FILE, one a line
incs() { sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$1"; }
# is_fio INC: INC names a fio header (in the fio tree, not in ours)
is_fio() { [ ! -e "$TOP/$1" ] && [ -e "$fio_src/$1" ]; }
# fio_direct FILE: FILE includes a fio header itself
fio_direct() { local i; for i in $(incs "$1"); do is_fio "$i" && return 0; done; return 1; }
fio_users=
for f in $(cd "$TOP" && ls sys/*.[ch] nvme/*.[ch] trace/*.[ch] analyze/*.[ch] analyze/*/*.[ch] \
	   tests/unit/*.[ch] tools/*.c 2>/dev/null); do
	fio_direct "$TOP/$f" && fio_users="$fio_users $f"
done
if [ ! -e "$fio_src/fio.h" ]; then
	fail engine_only_includes_fio "no fio tree at $fio_src (make fio-src)"
elif [ -z "$fio_users" ]; then
	pass engine_only_includes_fio
else
	fail engine_only_includes_fio "outside engine/, these include fio headers:$fio_users"
fi
# engine/ files with fio: those including it directly, then those including them
with_fio=" "
for f in "$TOP"/engine/*.[ch]; do fio_direct "$f" && with_fio="$with_fio engine/${f##*/} "; done
grew=1
while [ $grew = 1 ]; do
	grew=0
	for f in "$TOP"/engine/*.[ch]; do
		case "$with_fio" in *" engine/${f##*/} "*) continue;; esac
		for i in $(incs "$f"); do
			case "$with_fio" in
			*" $i "*) with_fio="$with_fio engine/${f##*/} "; grew=1; break;;
			esac
		done
	done
done
without=
for f in "$TOP"/engine/*.[ch]; do
	case "$with_fio" in *" engine/${f##*/} "*) ;; *) without="$without engine/${f##*/}";; esac
done
if [ -z "$without" ]; then
	pass engine_files_all_fio_glue
else
	fail engine_files_all_fio_glue \
		"in engine/ but no fio glue (move them to their room):$without"
fi
bad=
for f in $(cd "$TOP" && ls sys/*.[ch] nvme/*.[ch] trace/*.[ch]); do
	for i in $(incs "$TOP/$f"); do
		case "$i" in engine/*) bad="$bad $f:$i";; esac
		is_fio "$i" && bad="$bad $f:$i"
	done
done
if [ -z "$bad" ]; then
	pass lower_rooms_include_no_engine_or_fio
else
	fail lower_rooms_include_no_engine_or_fio "sys/, nvme/, trace/ include engine/ or fio:$bad"
fi
# ---- end of the engine's rooms ----------------------------------------------

# ... and no two engine/ objects call each other (nm: no pair in which each
# uses a symbol the other defines; nor a longer loop).  NV_ENGINE_OBJS may
# name other objects (e.g. an older build) to check instead.
engine_objs() {
	local src d
	d=$(dirname "$(dirname "${UNIT_DIR:-$TOP/build/tests/unit}")")/engine
	for src in "$TOP"/engine/*.c; do
		echo "$d/$(basename "$src" .c).o"
	done
}
objs=${NV_ENGINE_OBJS:-$(engine_objs)}
missing=
for o in $objs; do [ -f "$o" ] || missing="$missing $o"; done
if [ -n "$missing" ]; then
	fail engine_glue_one_way "missing objects:$missing (run 'make all' first)"
else
	# uses(A, B): symbols A needs that B defines
	uses() { comm -12 <(nm -u "$1" | awk '{print $NF}' | sort -u) \
			  <(nm --defined-only "$2" | awk '$2 ~ /^[A-Z]$/ {print $3}' | sort -u); }
	both= edges=
	for a in $objs; do
		for b in $objs; do
			[ "$a" = "$b" ] && continue
			ab=$(uses "$a" "$b" | tr '\n' ' ')
			[ -n "$ab" ] && edges="$edges$(basename "$a") $(basename "$b")"$'\n'
			[[ "$a" < "$b" ]] || continue
			ba=$(uses "$b" "$a" | tr '\n' ' ')
			if [ -n "$ab" ] && [ -n "$ba" ]; then
				both="$both $(basename "$a") uses ${ab}of $(basename "$b"),"
				both="$both which uses ${ba}of it;"
			fi
		done
	done
	loop=$(printf '%s' "$edges" | tsort 2>&1 >/dev/null | tr '\n' ' ')
	if [ -n "$both" ]; then
		fail engine_glue_one_way "$both"
	elif [ -n "$loop" ]; then
		fail engine_glue_one_way "a loop of calls between engine objects: $loop"
	else
		pass engine_glue_one_way
		calls=$(printf '%s' "$edges" | sed 's/\.o / -> /; s/\.o$//' | paste -sd, -)
		echo "info: engine calls: $calls"
	fi
fi

# The tests' Python lives in tests/py (modules the shell tests run with
# pytool), not in heredocs or -c strings inside the shell tests.
inline=$(cd "$TOP" &&
	grep -nE "python3?[[:space:]]+(-[[:space:]]|-c[[:space:]])|<<-?[[:space:]]*'?PY'?" \
		tests/integration/*.sh tests/lib.sh tests/vm/host-lib.sh \
		tests/vm/host-checks/*.sh |
	head -n 5)
if [ -z "$inline" ]; then
	pass tests_python_in_modules
else
	fail tests_python_in_modules \
		"inline Python (move it to tests/py): $(echo "$inline" | tr '\n' ' ')"
fi

# The analyzer's rooms (README "Layout"): each includes only the rooms below
# it -- input/ <- stats/ <- report/ <- figures/ <- publish/ <- cli/ -- and no
# two modules of analyze/ include each other's headers in a circle (a module
# is NAME.c with NAME.h; an edge A -> B when A includes B's header).
analyze_includes() {	# FILE...: "FILE INCLUDED" lines for analyze/ headers
	grep -HoE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"analyze/[^"]+"' "$@" |
		sed -E 's/:[^"]*"/ /; s/"$//'
}
rooms_bad=
for rule in "input:stats report figures publish cli" "stats:report figures publish cli" \
	    "report:figures publish cli" "figures:publish cli" "publish:cli"; do
	room=${rule%%:*}
	[ -d "$TOP/analyze/$room" ] || continue
	for other in ${rule#*:}; do
		hits=$(cd "$TOP" && analyze_includes analyze/"$room"/*.[ch] |
			awk -v o="analyze/$other/" 'index($2, o) == 1 {print $1 " includes " $2}')
		[ -n "$hits" ] && rooms_bad="$rooms_bad $(echo "$hits" | tr '\n' ';')"
	done
done
if [ -z "$rooms_bad" ]; then
	pass analyze_rooms_one_way
else
	fail analyze_rooms_one_way "a room includes a room above it:$rooms_bad"
fi
# the module graph: every edge, then tsort finds any circle
edges=$(cd "$TOP" && analyze_includes analyze/*.[ch] analyze/*/*.[ch] |
	sed -E 's/\.[ch] / /; s/\.h$//' | awk '$1 != $2')
loop=$(printf '%s\n' "$edges" | tsort 2>&1 >/dev/null |
       grep -v '^tsort: -: input contains a loop:' |
       sed 's/^tsort: //' | tr '\n' ' ')
if [ -z "$edges" ]; then
	fail analyze_includes_no_cycle "no includes found under $TOP/analyze"
elif [ -n "$loop" ]; then
	fail analyze_includes_no_cycle "modules that include each other in a circle: $loop"
else
	pass analyze_includes_no_cycle
fi
