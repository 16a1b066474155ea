#!/usr/bin/env bash
# Inputs are data, never code (issue 38, docs/analysis.md "Security"):
#  - a job name or label with `backquotes` (gnuplot substitutes them in
#    double-quoted strings) runs nothing when -o writes and renders the
#    figures: a canary file never appears;
#  - gnuplot runs with no init file (~/.gnuplot) and without GNUPLOT_LIB;
#  - every hostile name through every reader (fio JSON, normal, terse,
#    CrystalDiskMark, diskspd) and output, sweeps' data files included,
#    and report.html in the headless Chromium.
source "$(dirname "$0")/../lib.sh"
need_nvanalyze || exit 0
FIX=$TOP/../shared/fixtures/fio-json/fio-analyzer__fio_results_example_readwrite.json
[ -f "$FIX" ] ||
	FIX=/work/shared/fixtures/fio-json/fio-analyzer__fio_results_example_readwrite.json
if [ ! -f "$FIX" ]; then
	skip all "fixture $FIX missing"
	exit 0
fi
have_gp=0
command -v gnuplot >/dev/null && have_gp=1

# ---- the reproduction: backquotes in the job name and in a label ----
pytool hostile_json "$FIX" "$T/x.json" "x\`touch $T/CANARY\`y"
"$NVANALYZE" -l "L\`touch $T/CANARY2\`" -o "$T/repro" "$T/x.json" >"$T/repro.out" 2>"$T/repro.err"
rc=$?
if [ -e "$T/CANARY" ] || [ -e "$T/CANARY2" ]; then
	fail repro_backquote "a job name or label ran a command through gnuplot: $(ls "$T")"
elif [ $rc -ne 0 ]; then
	fail repro_backquote "nvanalyze -o exited $rc: $(head -c 300 "$T/repro.err")"
elif [ $have_gp = 1 ] && ! ls "$T/repro"/*.png >/dev/null 2>&1; then
	fail repro_backquote "no figure rendered: $(head -c 300 "$T/repro/gnuplot.log")"
elif ! grep -qF "x\\\`touch $T/CANARY\\\`y" "$T/repro/report.md"; then
	fail repro_backquote "the job name is not in report.md, its backquotes escaped"
else
	pass repro_backquote
fi

# ---- gnuplot's environment: no ~/.gnuplot, no GNUPLOT_LIB ----
if [ $have_gp = 1 ]; then
	mkdir -p "$T/home" "$T/gplib"
	echo "system('touch $T/CANARY_INIT')" >"$T/home/.gnuplot"
	HOME=$T/home GNUPLOT_LIB=$T/gplib "$NVANALYZE" -o "$T/envrun" "$T/x.json" \
		>/dev/null 2>"$T/env.err"
	rc=$?
	if [ -e "$T/CANARY_INIT" ]; then
		fail gnuplot_env "gnuplot read \$HOME/.gnuplot"
	elif [ $rc -ne 0 ]; then
		fail gnuplot_env "nvanalyze -o exited $rc: $(head -c 300 "$T/env.err")"
	else
		pass gnuplot_env
	fi
else
	skip gnuplot_env "gnuplot not installed"
fi

# ---- every hostile name through every output ----
# Each name is the job name (when fio's JSON can hold it) and the -l label,
# through -f md|text|csv|json and -o (report.md, report.html, data files,
# gnuplot scripts rendered); tests/py/hostile_check.py reads each back.
long=$(head -c 65536 /dev/zero | tr '\0' 'L')
names=(
	"bq\`touch $T/CANARY_bq\`x"
	"dollar\$(touch $T/CANARY_dollar)x"
	"at@a @@b at@"
	"quotes\"dq\" 'sq' \"\"\"''"
	'back\slash\\ \" \n\ end\'
	"pipe|a||b|"
	$'new\nline\r\nand\ttab\x1b[31m'
	'<img src=x onerror=alert(1)><script>alert(2)</script>&amp;</td>'
	"=cmd|' /C calc'!A0"
	"-2+3"
	"@SUM(1)"
	"${long}\`touch $T/CANARY_long\`"
	$'bad\xff\xfeutf8\xc3'
)
nout=5
ok=0
for i in "${!names[@]}"; do
	n=${names[$i]}
	printf '%s' "$n" >"$T/name$i"
	job=$n
	# JSON holds UTF-8
	iconv -f UTF-8 -t UTF-8 "$T/name$i" >/dev/null 2>&1 || job="job$i"
	pytool hostile_json "$FIX" "$T/h$i.json" "$job"
	bad=""
	for fmt in md text csv json; do
		"$NVANALYZE" -f $fmt -l "$n" "$T/h$i.json" >"$T/out$i.$fmt" \
			2>"$T/out$i.$fmt.err" || {
			bad="$bad -f $fmt exited $?: $(head -c 200 "$T/out$i.$fmt.err");"
			continue
		}
		why=$(pytool hostile_check $fmt "$T/out$i.$fmt" "$T/name$i")
		[ "$why" = ok ] || bad="$bad -f $fmt: $why;"
	done
	if "$NVANALYZE" -l "$n" -o "$T/o$i" "$T/h$i.json" >/dev/null 2>"$T/o$i.err"; then
		why=$(pytool hostile_check dir "$T/o$i" "$T/name$i")
		[ "$why" = ok ] || bad="$bad -o: $why;"
		ngp=$(find "$T/o$i" -maxdepth 1 -name '*.gp' ! -name style.gp | wc -l)
		npng=$(find "$T/o$i" -maxdepth 1 -name '*.png' | wc -l)
		[ $have_gp = 0 ] || { [ "$ngp" -gt 0 ] && [ "$ngp" = "$npng" ]; } ||
			bad="$bad -o: $npng PNGs of $ngp scripts;"
	else
		bad="$bad -o exited $?: $(head -c 200 "$T/o$i.err");"
	fi
	if [ -n "$bad" ]; then
		fail "name$i" "$(printf '%q' "${n:0:60}"):$bad"
	else
		ok=$((ok + 1))
	fi
done

# ---- every hostile name through every other reader ----
# The text readers take the name from the input only (no -l): fio normal
# output and fio terse output (the job name), a CrystalDiskMark export (its
# free comment line: shown in -f json only, the others checked for shape),
# a fio terse job's description tail (as the CrystalDiskMark comment),
# a diskspd report (target path and computer name: shown nowhere, every
# output checked for shape).  A text job name cannot hold a newline (nor a
# terse one a ';': fio's field separator): hostile_text.py exits 3 and
# those names are skipped for that reader, said in one SKIP line.
DS=$TOP/tests/data
readers="fionormal:$DS/fio-text/rounded-a.txt fioterse:- fioterse_desc:-
	cdm:$DS/cdm/cdm8-nvme-crlf.txt
	diskspd:$DS/diskspd/diskspd22-randrw-L.txt"
nread=0
nrd_ok=0
nrd_all=0
for r in $readers; do
	rd=${r%%:*}
	nread=$((nread + 1))
	skipped=""
	for i in "${!names[@]}"; do
		pytool hostile_text "$rd" "${r#*:}" "$T/$rd$i.in" "$T/name$i"
		rc=$?
		if [ $rc = 3 ]; then
			skipped="$skipped name$i"
			continue
		elif [ $rc != 0 ]; then
			fail "$rd/name$i" "hostile_text.py exited $rc"
			continue
		fi
		nrd_all=$((nrd_all + 1))
		bad=""
		for fmt in md text csv json; do
			mode=""
			case $rd:$fmt in
			cdm:json | fioterse_desc:json) ;;
			cdm:* | diskspd:* | fioterse_desc:*) mode=shape ;;
			esac
			"$NVANALYZE" -f $fmt "$T/$rd$i.in" >"$T/$rd$i.$fmt" \
				2>"$T/$rd$i.$fmt.err" || {
				bad="$bad -f $fmt exited $?: $(head -c 200 "$T/$rd$i.$fmt.err");"
				continue
			}
			why=$(pytool hostile_check $fmt "$T/$rd$i.$fmt" "$T/name$i" $mode)
			[ "$why" = ok ] || bad="$bad -f $fmt: $why;"
		done
		mode=""
		case $rd in cdm | diskspd | fioterse_desc) mode=shape ;; esac
		if "$NVANALYZE" -o "$T/$rd$i.o" "$T/$rd$i.in" >/dev/null 2>"$T/$rd$i.o.err"; then
			why=$(pytool hostile_check dir "$T/$rd$i.o" "$T/name$i" $mode)
			[ "$why" = ok ] || bad="$bad -o: $why;"
			ngp=$(find "$T/$rd$i.o" -maxdepth 1 -name '*.gp' ! -name style.gp | wc -l)
			npng=$(find "$T/$rd$i.o" -maxdepth 1 -name '*.png' | wc -l)
			[ $have_gp = 0 ] || [ "$ngp" = "$npng" ] ||
				bad="$bad -o: $npng PNGs of $ngp scripts;"
		else
			bad="$bad -o exited $?: $(head -c 200 "$T/$rd$i.o.err");"
		fi
		if [ -n "$bad" ]; then
			fail "$rd/name$i" "$(printf '%q' "${names[$i]:0:60}"):$bad"
		else
			nrd_ok=$((nrd_ok + 1))
		fi
	done
	[ -z "$skipped" ] ||
		skip "$rd/names" \
			"the format cannot hold a newline (terse: nor ';') in that field:$skipped"
done

# ---- names fio's JSON cannot hold: a clear error naming the file ----
printf '{"fio version":"fio-3.33","jobs":[{"jobname":"bad\xff"}]}' >"$T/u8.json"
printf '{"fio version":"fio-3.33","jobs":[{"jobname":"nul\\u0000cut"}]}' >"$T/nul.json"
for f in u8 nul; do
	"$NVANALYZE" -o "$T/bad_$f" "$T/$f.json" >/dev/null 2>"$T/$f.err"
	rc=$?
	if [ $rc -ge 1 ] && [ $rc -lt 128 ] && grep -q "$f.json" "$T/$f.err"; then
		pass "json_$f"
	else
		fail "json_$f" "exit $rc: $(head -c 200 "$T/$f.err")"
	fi
done

# ---- jobs/run with a hostile job section name, then nvanalyze -o ----
if command -v "$FIO" >/dev/null && [ -f "$NVENGINE_SO" ]; then
	head -c 16M /dev/zero >"$T/target.img"
	sect="j\`touch $T/CANARY_job\`|<b>@x \$(touch $T/CANARY_job2)"
	SECT=$sect "$PYTHON" -c 'import os, sys
t = open(sys.argv[1]).read().replace("[randread-4k-qd64-j4]", "[" + os.environ["SECT"] + "]")
sys.stdout.write(t.replace("iodepth=64", "iodepth=4").replace("numjobs=4", "numjobs=1"))' \
		"$TOP/jobs/instance/randread.fio" >"$T/hostile.fio"
	NVDEV=$T/target.img RUNTIME=1 "$TOP/jobs/run" -o "$T/jr" "$T/hostile.fio" \
		>"$T/jr.out" 2>&1
	rc=$?
	res=$(find "$T/jr" -name 'hostile*.json' | head -n 1)
	printf '%s' "$sect" >"$T/sect"
	if [ $rc -ne 0 ] || [ -z "$res" ]; then
		fail jobs_run "jobs/run exited $rc: $(tail -n 3 "$T/jr.out" | tr '\n' ' ')"
	elif ! "$NVANALYZE" -o "$T/jro" "$res" >/dev/null 2>"$T/jro.err"; then
		fail jobs_run "nvanalyze -o exited: $(head -c 200 "$T/jro.err")"
	elif why=$(pytool hostile_check dir "$T/jro" "$T/sect") && [ "$why" != ok ]; then
		fail jobs_run "$why"
	else
		pass jobs_run
	fi
else
	skip jobs_run "fio or $NVENGINE_SO missing"
fi

# ---- a load curve and a matrix (sweeps) with a hostile label ----
# curve_figs.c writes the label into data-file comments ("# run LABEL",
# the matrix header): a newline there must not start a data line.  Sweep
# JSON made up as tests/integration/sweep.sh does.
O="rw=randread;bs=4k"
pytool sweep_synth "$T/sw1.json" "q1/$O;iodepth=1/1000/100" "q2/$O;iodepth=2/2000/200" \
	"q4/$O;iodepth=4/3000/900" "q8/$O;iodepth=8/3100/3000"
pytool sweep_synth "$T/sw2.json" "a/$O;iodepth=1/1000/100" "b/$O;iodepth=8/3000/200" \
	"c/rw=randread;bs=8k;iodepth=1/800/150"
sl=$'S\nINJ 1 2 3 "q\\ `touch '"$T"$'/CANARY_sweep` @x\r\n'
printf '%s' "$sl" >"$T/swname"
for sw in sw1 sw2; do
	if ! "$NVANALYZE" -l "$sl" -o "$T/$sw" "$T/$sw.json" >/dev/null 2>"$T/$sw.err"; then
		fail "sweep_$sw" "nvanalyze -o exited: $(head -c 200 "$T/$sw.err")"
		continue
	fi
	why=$(pytool hostile_check dir "$T/$sw" "$T/swname")
	inj=$(grep -l '^INJ' "$T/$sw"/data/* 2>/dev/null | head -n 3 | tr '\n' ' ')
	ngp=$(find "$T/$sw" -maxdepth 1 -name '*.gp' ! -name style.gp | wc -l)
	npng=$(find "$T/$sw" -maxdepth 1 -name '*.png' | wc -l)
	nfig=$(find "$T/$sw" -maxdepth 1 \( -name 'curve*.gp' -o -name 'matrix*.gp' -o \
		-name 'load*.gp' \) | wc -l)
	if [ -n "$inj" ]; then
		fail "sweep_$sw" "the label's newline starts a data line in $inj"
	elif [ "$why" != ok ]; then
		fail "sweep_$sw" "$why"
	elif [ $have_gp = 1 ] && [ "$ngp" != "$npng" ]; then
		fail "sweep_$sw" "$npng PNGs of $ngp scripts: $(head -c 200 "$T/$sw/gnuplot.log")"
	else
		pass "sweep_$sw ($nfig curve figures)"
	fi
done

# ---- report.html in the headless Chromium: the name is text, nothing ran ----
# A job name and a label that would inject an element, an attribute and a
# script; each would set document.title to PWNED_* when run, which the
# dumped DOM shows (the page's own title holds the name as text, escaped).
# As tests/integration/report_outputs.sh runs it.
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
	skip html_chromium "chromium not installed (make deps installs it)"
else
	hn="x\"'><img src=x onerror=\"document.title='PWNED_IMG'\">"
	hn+="<script>document.title='PWNED_SCRIPT'</script>"
	hn+="<svg onload=document.title='PWNED_SVG'>&lt;b&gt;"
	printf '%s' "$hn" >"$T/hname"
	pytool hostile_json "$FIX" "$T/hh.json" "$hn"
	if ! "$NVANALYZE" -l "L$hn" -o "$T/hh" "$T/hh.json" >/dev/null 2>"$T/hh.err"; then
		fail html_chromium "nvanalyze -o exited: $(head -c 200 "$T/hh.err")"
	else
		mkdir -p "$T/crhome"
		HOME=$T/crhome timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
			--user-data-dir="$T/crprofile" --no-first-run --disable-extensions \
			--dump-dom "file://$T/hh/report.html" >"$T/hh.dom" 2>"$T/chromium.log"
		why=$(pytool hostile_check html "$T/hh.dom" "$T/hname")
		if [ ! -s "$T/hh.dom" ]; then
			fail html_chromium \
				"no DOM dumped: $(tail -n 3 "$T/chromium.log" | tr '\n' ' ')"
		elif grep -qE '<title>PWNED_' "$T/hh.dom"; then
			fail html_chromium \
				"a script from the name ran: $(grep -o '<title>[^<]*' "$T/hh.dom")"
		elif [ "$why" != ok ]; then
			fail html_chromium "$why"
		else
			pass html_chromium
		fi
	fi
fi

# ---- every hostile name through the watch's HTTP output (issue 56) ----
# The stand-in watcher gen_live serves one job per name on a localhost port:
# /metrics (label values escaped as the exposition format requires), the
# live page (escape.c's text form, HTML-escaped) and its JSON hold each as
# given (tests/py/hostile_live.py).
GEN_LIVE=${UNIT_DIR:-$TOP/build/tests/unit}/gen_live
if [ ! -x "$GEN_LIVE" ]; then
	skip live_http "build first: make unit ($GEN_LIVE)"
else
	port=$(pytool free_port 127.0.0.1)
	jargs=()
	nfiles=()
	for i in "${!names[@]}"; do
		jargs+=(--job-file "$T/name$i")
		nfiles+=("$T/name$i")
	done
	timeout -k 60 120 "$GEN_LIVE" --listen "127.0.0.1:$port" "${jargs[@]}" --intervals 2 \
		--period-ms 100 --hold-ms 60000 >"$T/live.out" 2>"$T/live.err" &
	lpid=$!
	# Until every record is served: under ASan on a loaded 2-core machine
	# that is seconds, so the bound is the process's own 120 s timeout.
	wait_line "$lpid" "$T/live.out" '^done'
	why=$(pytool hostile_live "$port" "${nfiles[@]}" 2>&1 | tail -n 3)
	kill "$lpid" 2>/dev/null
	wait "$lpid"
	lrc=$?
	if ! grep -q '^closed' "$T/live.out"; then
		msg="gen_live did not serve and close (exit $lrc; served: $why):"
		fail live_http "$msg $(head -c 300 "$T/live.err")"
	elif [ "$why" != ok ]; then
		fail live_http "$why"
	else
		pass "live_http: ${#names[@]} names through /metrics, /api/intervals and /"
	fi
fi

canaries=$(find "$T" -name 'CANARY*' | wc -l)
if [ "$canaries" != 0 ]; then
	fail canary "$canaries canary files: an input ran a command"
elif [ $ok = ${#names[@]} ] && [ $nrd_ok = $nrd_all ]; then
	msg="all: ${#names[@]} names x $nout outputs through fio JSON, $nrd_all name cases x"
	msg+=" $nout outputs through $nread text readers"
	pass "$msg ($(( (${#names[@]} + nrd_all) * nout )) checked), no canary"
else
	msg="$ok of ${#names[@]} names (fio JSON), $nrd_ok of $nrd_all (text readers)"
	fail all "$msg x $nout outputs well-formed"
fi
