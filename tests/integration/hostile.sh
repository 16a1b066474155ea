#!/usr/bin/env bash
# Inputs are data, never code (issue 38, docs/analysis.md "Security"):
#  - a job name or label with `backquotes` (gnuplot substitutes them in
#    double-quoted strings) runs nothing when -o writes and renders the
#    figures: a canary file never appears;
#  - gnuplot runs with no init file (~/.gnuplot) and without GNUPLOT_LIB.
source "$(dirname "$0")/../lib.sh"
if [ ! -x "$NVANALYZE" ]; then
	skip all "nvanalyze missing"
	exit 0
fi
FIX=$TOP/../shared/fixtures/fio-json/fio-analyzer__fio_results_example_readwrite.json
[ -f "$FIX" ] || FIX=/work/shared/fixtures/fio-json/fio-analyzer__fio_results_example_readwrite.json
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
