#!/usr/bin/env bash
# Rendering the figures of -o DIR (issue 42): a gnuplot per worker, not two
# per figure, each taking the next file when done, and a failure still the
# figure's own.  A gnuplot wrapper
# earlier on PATH logs each start.  Input: two hosts of a many-host run
# (gen_trace), 8 figures with --interval 0.02.
#  - -J 1: one gnuplot for every figure; -J 2: two; every figure rendered
#    once, as PNG (the default), no SVG; gnuplot.log empty;
#  - the files equal those of each script rendered on its own in a fresh
#    gnuplot with libnvpngfast.so preloaded, as nvanalyze runs it (PNG and,
#    with --figures png,svg, SVG byte for byte);
#  - as the user reruns a script (no preload): the same pixels, PNG rows
#    filtered by libpng's search where nvanalyze's are all filter 0 (the
#    preload took effect); NVANALYZE_PNGFAST=0: the user's files byte for
#    byte;
#  - a figure broken on purpose (a style.gp through NVANALYZE_PLOTS that
#    fails for it alone) in the middle of a batch: the message names it
#    and only it, every other figure is rendered and the same as above,
#    and only the broken figure is rendered again on its own;
#  - --figures svg, png, png,svg, none: only those files, the pages linking,
#    embedding or inlining what there is; a wrong value or no -o: exit 2.
source "$(dirname "$0")/../lib.sh"
need_unit_helper || exit 0
GNUPLOT=$(command -v gnuplot || true)
if [ -z "$GNUPLOT" ]; then
	skip all "gnuplot not installed: run 'make deps' (apt-get install gnuplot-nox)"
	exit 0
fi

# ---- the input: jobs/run --host's layout, two hosts (tools/bench.sh) ----
"$GEN" -p randread -q 8 -n 200000 "$T/t.nvt" >/dev/null || { fail gen "gen_trace failed"; exit 1; }
A=$T/A
mkdir -p "$A"
awk 'BEGIN {
	printf "{\"fio version\": \"fio-3.33\", \"client_stats\": ["
	for (h = 1; h <= 2; h++)
		printf "%s{\"jobname\": \"randread\", \"groupid\": 0, \"error\": 0, " \
			"\"job options\": {\"rw\": \"randread\", \"bs\": \"4k\", " \
			"\"nv_trace\": \"/tmp/nvengine-run.x/traces/suite\"}, \"read\": " \
			"{\"io_bytes\": 819200000, \"total_ios\": 200000, \"iops\": %d, " \
			"\"bw\": 800000, \"runtime\": 1000}, \"hostname\": \"host%03d\"}",
			(h > 1 ? ", " : ""), 200000 + h, h
	print "]}"
}' >"$A/suite.json"
for h in host001 host002; do
	mkdir -p "$A/$h/traces/suite"
	ln -f "$T/t.nvt" "$A/$h/traces/suite/randread.1.nvt"
done

# ---- a gnuplot that logs its starts ----
mkdir -p "$T/bin"
cat >"$T/bin/gnuplot" <<EOF
#!/bin/sh
echo "\$*" >>"$T/starts"
exec "$GNUPLOT" "\$@"
EOF
chmod +x "$T/bin/gnuplot"
# nva J OUT [ENV...]: nvanalyze -J J -o OUT ($NVA_ARGS too) through the
# wrapper; starts in OUT.starts
nva() {
	local j=$1 out=$2
	shift 2
	rm -rf "$out" "$T/starts"
	# shellcheck disable=SC2086 # NVA_ARGS: words
	env PATH="$T/bin:$PATH" "$@" "$NVANALYZE" -J "$j" ${NVA_ARGS:-} --interval 0.02 \
		-o "$out" "$A" \
		>/dev/null 2>"$out.err"
	echo $? >"$out.rc"
	mv "$T/starts" "$out.starts" 2>/dev/null || : >"$out.starts"
}
# figs OUT: the figures' names (the scripts but style.gp)
figs() {
	local gp
	for gp in "$1"/*.gp; do
		[ "$(basename "$gp")" = style.gp ] || basename "$gp" .gp
	done
}

# ---- a gnuplot per worker ----
for j in 1 2; do
	nva $j "$T/j$j"
	n=$(figs "$T/j$j" | wc -l)
	starts=$(wc -l <"$T/j$j.starts")
	missing=""
	for f in $(figs "$T/j$j"); do
		[ -s "$T/j$j/$f.png" ] && [ ! -e "$T/j$j/$f.svg" ] || missing="$missing $f"
	done
	if [ "$(cat "$T/j$j.rc")" = 0 ] && [ "$n" -ge 8 ] && [ "$starts" -eq $j ] &&
	   [ "$(find "$T/j$j" -maxdepth 1 -name '*.svg' | wc -l)" = 0 ] &&
	   [ -z "$missing" ] && [ -f "$T/j$j/gnuplot.log" ] && [ ! -s "$T/j$j/gnuplot.log" ]; then
		pass "gnuplot_per_worker_J$j ($n figures, $starts gnuplot)"
	else
		fail "gnuplot_per_worker_J$j" \
			"rc $(cat "$T/j$j.rc"), $n figures, $starts starts," \
			"missing (or an SVG):$missing;" \
			"$(head -c 300 "$T/j$j.err" "$T/j$j/gnuplot.log")"
	fi
done
# both formats when asked: two gnuplots at -J 2, a PNG and an SVG per figure
NVA_ARGS="--figures png,svg" nva 2 "$T/both"
missing=""
for f in $(figs "$T/both"); do
	[ -s "$T/both/$f.png" ] && [ -s "$T/both/$f.svg" ] || missing="$missing $f"
done
[ "$(cat "$T/both.rc")" = 0 ] && [ "$(wc -l <"$T/both.starts")" = 2 ] && [ -z "$missing" ] &&
	[ ! -s "$T/both/gnuplot.log" ] && pass gnuplot_per_worker_both_formats_J2 ||
	fail gnuplot_per_worker_both_formats_J2 "rc $(cat "$T/both.rc"), starts" \
		"$(wc -l <"$T/both.starts"), missing:$missing; $(head -c 300 "$T/both.err")"

# ---- the same files as each script rendered on its own ----
PNGFAST=$(cd "$(dirname "$NVANALYZE")" && pwd)/libnvpngfast.so
[ -f "$PNGFAST" ] || fail pngfast_built "no $PNGFAST next to $NVANALYZE (make all builds it)"
# alone DIR [ENV...]: every script of j1 rendered in DIR, each in a fresh gnuplot
alone() {
	local dir=$1 f
	shift
	mkdir -p "$dir"
	cp -r "$T/j1/data" "$T/j1/style.gp" "$T/j1"/*.gp "$dir/"
	(cd "$dir" && for f in $(figs .); do
		env "$@" "$GNUPLOT" --default-settings "$f.gp" &&
			env "$@" "$GNUPLOT" --default-settings -e "fmt='svg'" "$f.gp"
	done) >"$dir.log" 2>&1
}
R=$T/alone
alone "$R" LD_PRELOAD="$PNGFAST"
diffs=""
for f in $(figs "$T/j1"); do
	cmp -s "$R/$f.png" "$T/j1/$f.png" || diffs="$diffs $f.png(J1)"
	cmp -s "$R/$f.png" "$T/j2/$f.png" || diffs="$diffs $f.png(J2)"
	for x in png svg; do
		cmp -s "$R/$f.$x" "$T/both/$f.$x" || diffs="$diffs $f.$x(both)"
	done
done
[ -z "$diffs" ] && [ ! -s "$T/alone.log" ] && pass same_files_as_one_by_one ||
	fail same_files_as_one_by_one "differ:$diffs $(head -c 200 "$T/alone.log")"

# ---- the user's rerun (gnuplot's own PNG encoder): the same pixels ----
P=$T/plain
alone "$P"
why=""
for f in $(figs "$T/j1"); do
	pytool png_pixels "$T/j1/$f.png" >"$T/px.fast" 2>&1 || why="$why $(cat "$T/px.fast");"
	pytool png_pixels "$P/$f.png" >"$T/px.plain" 2>&1 || why="$why $(cat "$T/px.plain");"
	read -r _ dims _ fast ffil <"$T/px.fast"
	read -r _ pdims _ plain pfil <"$T/px.plain"
	[ "$dims $fast" = "$pdims $plain" ] || why="$why $f: pixels differ;"
	[ "$ffil" = filters=0 ] || why="$why $f: nvanalyze's rows $ffil;"
	[ "$pfil" = filters=0 ] || searched=1
	cmp -s "$T/both/$f.svg" "$P/$f.svg" || why="$why $f.svg differs;"
done
[ "${searched:-0}" = 1 ] ||
	why="$why no rerun used another filter than 0 (is libpng's search gone?);"
[ -z "$why" ] && [ ! -s "$P.log" ] && pass pngfast_same_pixels_as_users_rerun ||
	fail pngfast_same_pixels_as_users_rerun "$why $(head -c 200 "$P.log")"
nva 1 "$T/off" NVANALYZE_PNGFAST=0
diffs=""
for f in $(figs "$T/j1"); do
	cmp -s "$P/$f.png" "$T/off/$f.png" || diffs="$diffs $f.png"
done
[ "$(cat "$T/off.rc")" = 0 ] && [ -z "$diffs" ] && pass pngfast_off_users_files ||
	fail pngfast_off_users_files \
		"rc $(cat "$T/off.rc"), differ:$diffs $(head -c 200 "$T/off.err")"

# ---- a slow figure holds up no other: the gnuplots take the next file ----
# summary.png (the first file) takes 4 s more; with -J 2 the other gnuplot
# renders every other file meanwhile (a fixed share of the files would
# leave half of them behind the slow one), PNGs and SVGs asked for.
mkdir -p "$T/slow"
cp "$TOP/plots/style.gp" "$T/slow/"
echo 'if (out eq "summary" && fmt eq "png") { pause 4 }' >>"$T/slow/style.gp"
NVA_ARGS="--figures png,svg" nva 2 "$T/s2" NVANALYZE_PLOTS="$T/slow"
later=$(find "$T/s2" -maxdepth 1 \( -name '*.png' -o -name '*.svg' \) ! -name summary.png \
	-newer "$T/s2/summary.png" | wc -l)
nfiles=$(find "$T/s2" -maxdepth 1 \( -name '*.png' -o -name '*.svg' \) | wc -l)
[ "$(cat "$T/s2.rc")" = 0 ] && [ "$nfiles" -ge 16 ] && [ "$later" = 0 ] &&
	pass slow_figure_holds_up_none_J2 ||
	fail slow_figure_holds_up_none_J2 \
		"rc $(cat "$T/s2.rc"), $nfiles files, $later after the slow one"

# ---- a broken figure among good ones ----
mkdir -p "$T/plots"
cp "$TOP/plots/style.gp" "$T/plots/"
broken=nines_randread_read
echo "if (out eq \"$broken\") { plot no_such_variable }" >>"$T/plots/style.gp"
for j in 1 2; do
	o=$T/b$j
	nva $j "$o" NVANALYZE_PLOTS="$T/plots"
	why=""
	[ "$(cat "$o.rc")" != 0 ] || why="exit 0;"
	grep -q "gnuplot failed on $o/$broken.gp (see $o/gnuplot.log)$" "$o.err" ||
		why="$why message: $(head -c 300 "$o.err");"
	for f in $(figs "$o"); do
		[ "$f" = "$broken" ] && continue
		cmp -s "$R/$f.png" "$o/$f.png" && [ ! -e "$o/$f.svg" ] ||
			why="$why $f differs;"
	done
	grep -q no_such_variable "$o/gnuplot.log" ||
		why="$why log: $(head -c 200 "$o/gnuplot.log");"
	alone=$(grep -c -- "-e fmt=" "$o.starts")
	others=$(grep -- "-e fmt=" "$o.starts" | grep -vc " $broken.gp$")
	[ "$alone" -ge 1 ] && [ "$others" -eq 0 ] ||
		why="$why again on its own: $(tr '\n' ';' <"$o.starts")"
	[ -z "$why" ] && pass "broken_figure_named_others_rendered_J$j" ||
		fail "broken_figure_named_others_rendered_J$j" "$why"
done

# ---- --figures: the files rendered, and the pages linking them ----
# svg (J 2): no PNG, every SVG as a script renders it alone, report.md
# linking the SVGs, report.html inlining every one; rerun into a directory
# of the default -o, its PNGs go.  png (the default): no SVG, report.md
# linking the PNGs, report.html embedding every one as a data: URI of the
# file's bytes; without gnuplot it says how to render each PNG.  png,svg:
# report.md links the PNGs, report.html inlines the SVGs.  none: no
# gnuplot started, report.md says why.  A wrong value, or --figures
# without -o: exit 2 naming the option.
nfig=$(figs "$T/j1" | wc -l)
cp -r "$T/j1" "$T/fsvg"	# the default's files: its PNGs must go
env PATH="$T/bin:$PATH" "$NVANALYZE" -J 2 --interval 0.02 --figures svg -o "$T/fsvg" "$A" \
	>/dev/null 2>"$T/fsvg.err"
rc=$?
why=""
[ "$rc" = 0 ] || why="exit $rc: $(head -c 200 "$T/fsvg.err");"
[ -z "$(find "$T/fsvg" -maxdepth 1 -name '*.png')" ] || why="$why PNGs left;"
for f in $(figs "$T/fsvg"); do
	cmp -s "$R/$f.svg" "$T/fsvg/$f.svg" || why="$why $f.svg differs;"
done
links=$(grep -c '^!\[.*\]([^)]*\.svg)$' "$T/fsvg/report.md")
pngs=$(grep -c '\.png)$' "$T/fsvg/report.md")
inl=$(grep -c '<svg' "$T/fsvg/report.html")
[ "$links" = "$nfig" ] && [ "$pngs" = 0 ] && [ "$inl" = "$nfig" ] ||
	why="$why $links SVG links, $pngs PNG links, $inl inlined, of $nfig;"
[ -z "$why" ] && pass "figures_svg_only ($nfig figures)" || fail figures_svg_only "$why"

env PATH="$T/bin:$PATH" "$NVANALYZE" -J 1 --interval 0.02 --figures png -o "$T/fpng" "$A" \
	>/dev/null 2>"$T/fpng.err"
rc=$?
npng=$(find "$T/fpng" -maxdepth 1 -name '*.png' | wc -l)
nsvg=$(find "$T/fpng" -maxdepth 1 -name '*.svg' | wc -l)
links=$(grep -c '^!\[.*\]([^)]*\.png)$' "$T/fpng/report.md")
emb=$(pytool report_html_pngs "$T/fpng/report.html" "$T/fpng")
[ "$rc" = 0 ] && [ "$npng" = "$nfig" ] && [ "$nsvg" = 0 ] && [ "$links" = "$nfig" ] &&
	[ "$emb" = "$nfig" ] && ! grep -q '<svg' "$T/fpng/report.html" &&
	diff -r -x report.html -x report.md -x '*.err' "$T/j1" "$T/fpng" >/dev/null &&
	pass figures_png_default_embedded ||
	fail figures_png_default_embedded "exit $rc, $npng PNG, $nsvg SVG, $links links," \
		"embedded: $emb of $nfig"
mkdir -p "$T/nognuplot"	# an empty PATH: no gnuplot on it
env PATH="$T/nognuplot" "$NVANALYZE" -J 1 --interval 0.02 -o "$T/fnog" "$A" \
	>/dev/null 2>"$T/fnog.err"
rc=$?
notes=$(grep -c "not rendered: run <code>gnuplot [a-z_0-9]*\.gp</code>" "$T/fnog/report.html")
[ "$rc" = 0 ] && [ "$notes" = "$nfig" ] && grep -q 'do gnuplot "$f"; done$' "$T/fnog.err" &&
	pass figures_png_no_gnuplot_says_how ||
	fail figures_png_no_gnuplot_says_how "exit $rc, $notes notes of $nfig;" \
		"$(head -c 300 "$T/fnog.err")"

env PATH="$T/bin:$PATH" "$NVANALYZE" -J 2 --interval 0.02 --figures png,svg -o "$T/fboth" "$A" \
	>/dev/null 2>"$T/fboth.err"
rc=$?
links=$(grep -c '^!\[.*\]([^)]*\.png)$' "$T/fboth/report.md")
inl=$(grep -c '<svg' "$T/fboth/report.html")
[ "$rc" = 0 ] && [ "$links" = "$nfig" ] && [ "$inl" = "$nfig" ] &&
	! grep -q '<img' "$T/fboth/report.html" && pass figures_both_svg_inlined ||
	fail figures_both_svg_inlined "exit $rc, $links PNG links, $inl inlined of $nfig"

rm -f "$T/starts"
env PATH="$T/bin:$PATH" "$NVANALYZE" -J 2 --interval 0.02 --figures none -o "$T/fnone" "$A" \
	>/dev/null 2>"$T/fnone.err"
rc=$?
files=$(find "$T/fnone" -maxdepth 1 \( -name '*.png' -o -name '*.svg' \) | wc -l)
scripts=$(figs "$T/fnone" | wc -l)
[ "$rc" = 0 ] && [ "$files" = 0 ] && [ "$scripts" = "$nfig" ] && [ ! -e "$T/starts" ] &&
	grep -q 'not rendered\*\* (`--figures none`)' "$T/fnone/report.md" &&
	grep -q "not rendered: --figures none" "$T/fnone.err" &&
	pass figures_none_no_gnuplot ||
	fail figures_none_no_gnuplot "exit $rc, $files figure files, $scripts scripts," \
		"starts: $(cat "$T/starts" 2>/dev/null | tr '\n' ';')" \
		"$(head -c 200 "$T/fnone.err")"

"$NVANALYZE" --figures gif -o "$T/fbad" "$A" >/dev/null 2>"$T/fbad.err"
rc1=$?
"$NVANALYZE" --figures svg "$A" >/dev/null 2>"$T/fnoo.err"
rc2=$?
[ "$rc1" = 2 ] && grep -q "^nvanalyze: --figures 'gif': use png,svg, svg, png or none" \
	"$T/fbad.err" && [ "$rc2" = 2 ] && grep -q "add -o DIR" "$T/fnoo.err" &&
	[ ! -e "$T/fbad" ] && pass figures_bad_value_named ||
	fail figures_bad_value_named "exit $rc1/$rc2: $(head -c 200 "$T/fbad.err" "$T/fnoo.err")"

# -o DIR with stdout's reader gone (`nvanalyze -o DIR A | head`: a pipe
# closed before the tables are written): the report is written all the
# same and the exit status is 0 (SIGPIPE ignored under -o); without -o the
# process ends on SIGPIPE as any filter does; stdout full (/dev/full): an
# error, exit 2
pytool closed_pipe "$NVANALYZE" -J 2 --interval 0.02 -o "$T/fpipe" "$A" 2>"$T/fpipe.err"
rc1=$?
pytool closed_pipe "$NVANALYZE" -J 2 --interval 0.02 "$A" 2>/dev/null
rc2=$?
"$NVANALYZE" -J 2 --interval 0.02 -o "$T/ffull" "$A" >/dev/full 2>"$T/ffull.err"
rc3=$?
[ "$rc1" = 0 ] && [ -s "$T/fpipe/report.md" ] && [ -s "$T/fpipe/report.html" ] &&
	[ "$(ls "$T"/fpipe/*.png | wc -l)" = 8 ] && [ "$rc2" = 13 ] && [ "$rc3" = 2 ] &&
	grep -q "writing the output failed" "$T/ffull.err" &&
	pass outdir_written_when_stdout_closed ||
	fail outdir_written_when_stdout_closed "exit $rc1 (-o), $rc2 (no -o), $rc3 (/dev/full):" \
		"$(ls "$T/fpipe" 2>&1 | head -3) $(head -c 200 "$T/fpipe.err")"
