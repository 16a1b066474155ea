#!/usr/bin/env bash
# jobs/run never drops what the user asked for: fio lets a job file's option
# win over the command line's, so jobs/run writes a job option (or alias)
# given after -- into NAME.fio in place of the file's lines, puts engine
# options into [global], refuses an abbreviated or unknown name; IODEPTH,
# NUMJOBS, BS, SIZE do the same; -P leaves preconditioning out; a missing
# NVDEV file is not answered with fallocate.
. "$(dirname "$0")/../lib.sh"

RUN=$TOP/jobs/run
J=$TOP/jobs
target=$T/target.img
truncate -s 64M "$target"
export NVDEV=$target

# The issue's command: -- before the job file; a real run at iodepth 16.
res=$T/qd16
out=$(RUNTIME=1 "$RUN" -o "$res" -- --iodepth=16 "$J/instance/randread.fio" 2>&1)
st=$?
got="$(json_get "$res/instance-randread.json" "jobs/0/job options/iodepth" 2>&1)"
got="$got $(json_get "$res/instance-randread.json" "global options/iodepth" 2>&1)"
got="$got $(json_get "$res/instance-randread.json" "jobs/0/iodepth_level/16" 2>&1)"
set -- $got
if [ $st -eq 0 ] && [ "${1:-}" = 16 ] && [ "${2:-}" = 16 ] && [ "${3%.*}" -ge 99 ] 2>/dev/null &&
	grep -qx 'iodepth=16' "$res/instance-randread.fio" &&
	! grep -q '^iodepth=64' "$res/instance-randread.fio" &&
	grep -q -- '--iodepth=16: iodepth=16 in place of' <<<"$out"; then
	pass iodepth-16-honoured
else
	fail iodepth-16-honoured \
		"exit $st, JSON job/global iodepth and % at depth 16: '$got': $(echo "$out" |
			tail -n 2 | tr '\n' ' ')"
fi
# the same after the job file, and without jobs/run's rewrite fio would drop it
sed -n 's/^iodepth=//p' "$J/instance/randread.fio" | grep -qx 64 &&
	pass study-file-sets-iodepth-64 ||
	fail study-file-sets-iodepth-64 "jobs/instance/randread.fio"

# run_as NAME EXPECT_RE FILE [ENV...] -- ARGS: with FIO=echo, NAME.fio must
# match EXPECT_RE (grep -x).
as_run() {
	local name=$1 want=$2 file=$3 o=$T/$1 base
	shift 3
	base=$(basename "$(dirname "$file")")-$(basename "$file" .fio)
	out=$(env "$@" "$RUN" -o "$o" "$file" 2>&1 >/dev/null)
	if grep -qx "$want" "$o/$base.fio" 2>/dev/null; then
		pass "$name"
	else
		fail "$name" \
			"no line '$want' in $o/$base.fio: $(echo "$out" | tail -n 2 | tr '\n' ' ')"
	fi
}
# jobs/run with fio replaced by a script that runs the real fio only for
# --cmdhelp/--enghelp/--help (the option lookup) and prints the rest.
mkdir -p "$T/bin"
cat >"$T/bin/fio" <<EOF
#!/bin/sh
case \$1 in --cmdhelp=*|--enghelp=*|--help) exec "$FIO" "\$@";; esac
echo "\$@"
EOF
chmod +x "$T/bin/fio"
export FIO_FAKE=$T/bin/fio

n=0
for v in IODEPTH=8 NUMJOBS=3 BS=8k; do
	var=${v%%=*}
	opt=$(tr 'A-Z' 'a-z' <<<"$var")
	lines=$(env "$v" FIO="$FIO_FAKE" RUNTIME=1 "$RUN" -o "$T/var-$var" \
		"$J/instance/suite.fio" 2>/dev/null >/dev/null;
		grep -c "^$opt=" "$T/var-$var/instance-suite.fio")
	same=$(grep -cx "$opt=${v#*=}" "$T/var-$var/instance-suite.fio")
	if [ "$lines" -ge 7 ] && [ "$lines" = "$same" ] &&
		grep -qx "$v" "$T/var-$var/instance-suite.env"; then
		pass "variable-$var"
	else
		fail "variable-$var" "$same of $lines $opt= lines are ${v#*=}"
	fi
done
# SIZE: the instance files set no size=: it goes on fio's command line.
out=$(SIZE=1g FIO="$FIO_FAKE" "$RUN" -o "$T/var-SIZE" "$J/instance/latency.fio" 2>/dev/null)
if grep -q -- "--size=1g" <<<"$out" && ! grep -q '^size=' "$T/var-SIZE/instance-latency.fio"; then
	pass variable-SIZE-command-line
else
	fail variable-SIZE-command-line "fio got: $out"
fi
# without the variables, the study's values
FIO="$FIO_FAKE" "$RUN" -o "$T/novar" "$J/instance/suite.fio" >/dev/null 2>&1
if cmp -s "$J/instance/suite.fio" "$T/novar/instance-suite.fio"; then
	pass no-variables-study-values
else
	fail no-variables-study-values \
		"$(diff "$J/instance/suite.fio" "$T/novar/instance-suite.fio" | head -n 3 |
			tr '\n' ' ')"
fi

# an alias (--timeout is runtime), a flag, an engine option not in the file
FIO="$FIO_FAKE" "$RUN" -o "$T/alias" "$J/instance/latency.fio" -- --timeout=7 --nv_trace_level=4 \
	>"$T/alias.out" 2>&1
if grep -qx 'runtime=7' "$T/alias/instance-latency.fio" &&
	! grep -q 'runtime=\$' "$T/alias/instance-latency.fio" &&
	[ "$(sed -n '/^\[global\]/{n;p;}' "$T/alias/instance-latency.fio")" = nv_trace_level=4 ] &&
	! grep '^--output-format' "$T/alias.out" | grep -q -- '--nv_trace_level' &&
	grep '^--output-format' "$T/alias.out" | grep -q -- '--timeout=7'; then
	pass alias-and-engine-option
else
	fail alias-and-engine-option \
		"$(grep -n 'runtime\|nv_trace_level' "$T/alias/instance-latency.fio" |
			tr '\n' ' ') $(tail -n 1 "$T/alias.out")"
fi
# and they parse (the real fio)
if out=$("$RUN" -n "$J/instance/latency.fio" -- --timeout=7 --nv_trace_level=4 \
	--iodepth=2 2>&1); then
	pass options-parse
else
	fail options-parse "$(echo "$out" | tail -n 2 | tr '\n' ' ')"
fi

# an abbreviation fio would take silently, an unknown name, "--opt value"
for a in --rwmixr=70 --iodep=3 --bogus=1; do
	out=$("$RUN" -n "$J/instance/latency.fio" -- "$a" 2>&1)
	st=$?
	if [ $st -eq 2 ] && grep -qF "fio option '${a%%=*}'" <<<"$out"; then
		pass "refuse${a%%=*}"
	else
		fail "refuse${a%%=*}" "exit $st: $out"
	fi
done
out=$("$RUN" -n "$J/instance/latency.fio" -- --iodepth 16 2>&1)
if [ $? -eq 2 ] &&
	grep -q "'16' after --: not a job file; give fio options as --name=value" <<<"$out"; then
	pass refuse-separate-value
else
	fail refuse-separate-value "$out"
fi
# fio's own options pass through untouched
out=$(FIO="$FIO_FAKE" "$RUN" -o "$T/own" "$J/instance/suite.fio" -- \
	--section=latency-4k-qd1 2>/dev/null)
if grep -q -- "--section=latency-4k-qd1" <<<"$out" &&
	cmp -s "$J/instance/suite.fio" "$T/own/instance-suite.fio"; then
	pass fio-option-passes
else
	fail fio-option-passes "$out"
fi

# -P: no precondition section; a file of nothing else is skipped
out=$(FIO="$FIO_FAKE" "$RUN" -P -o "$T/noprec" "$J/instance/suite.fio" \
	"$J/instance/precondition.fio" 2>&1)
st=$?
secs=$(grep -c '^\[' "$T/noprec/instance-suite.fio")
if [ $st -eq 0 ] && ! grep -q '^\[precondition' "$T/noprec/instance-suite.fio" &&
	[ "$secs" -eq 7 ] && ! [ -e "$T/noprec/instance-precondition.fio" ] &&
	grep -q 'precondition.fio has nothing but preconditioning; skipped' <<<"$out"; then
	pass skip-precondition
else
	fail skip-precondition "exit $st, $secs sections: $(echo "$out" | tail -n 2 | tr '\n' ' ')"
fi
if out=$("$RUN" -n -P "$J/instance/suite.fio" 2>&1); then
	pass skip-precondition-parses
else
	fail skip-precondition-parses "$(echo "$out" | tail -n 2 | tr '\n' ' ')"
fi

# A missing file target: create it with written data, never fallocate.
out=$(NVDEV=$T/absent.img "$RUN" -n "$J/instance/randread.fio" 2>&1)
if [ $? -eq 2 ] && grep -q "'$T/absent.img' does not exist" <<<"$out" &&
	grep -q 'dd if=' <<<"$out" &&
	! grep -q 'e.g. fallocate' <<<"$out"; then
	pass missing-file-message
else
	fail missing-file-message "$out"
fi
# A sparse file target (here the truncated target.img) is warned about.
out=$(FIO=true "$RUN" -o "$T/sparse" "$J/instance/randread.fio" 2>&1)
if [ $? -eq 0 ] && grep -q "warning: NVDEV file '$target' is sparse" <<<"$out" &&
	grep -q 'dd if=' <<<"$out"; then
	pass sparse-file-warning
else
	fail sparse-file-warning "$out"
fi
