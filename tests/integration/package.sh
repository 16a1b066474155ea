#!/usr/bin/env bash
# make deb: the Debian package builds (tools/deb.sh), lintian reports no
# error on it, its control file depends on the libraries' packages and on
# exactly the fio the engine was built for; unpacked into a scratch root
# (dpkg -x), the brief's two commands work with the installed paths (fio
# loads ROOT/usr/lib/nvengine/libnvengine.so and traces a short randread
# twice, ROOT/usr/bin/nvanalyze reads a.json b.json with exact rows and
# finds its figures' style), nvanalyze --version says the package's
# version, nvengine-run finds the installed engine and job files, and
# `man -l` renders the three pages without a warning.  Also: every option
# of engine/options.c is in nvengine.7, every option of nvanalyze --help in
# nvanalyze.1, every option of jobs/run --help in nvengine-run.1; and the
# same in the docs: docs/engine.md's table, docs/*.md, jobs/README.md.
# Without dpkg-deb (not a Debian system) the package checks SKIP.
. "$(dirname "$0")/../lib.sh"

MAN=$TOP/docs/man

# roff_has PAGE OPT: the page names option OPT (dashes written \-).
roff_has() {
	local o=${2//-/\\\\-}
	grep -Eq "(^|[^a-z_])$o([^a-z_]|$)" "$1"
}

# --- the man pages cover every option (no package needed)
missing=
for o in $(sed -n 's/^[[:space:]]*\.name[[:space:]]*=[[:space:]]*"\([a-z_0-9]*\)".*/\1/p' \
	"$TOP/engine/options.c"); do
	grep -Eq "^\.BI? $o(=| |$)" "$MAN/nvengine.7" || missing="$missing $o"
done
n=$(grep -c '^[[:space:]]*\.name[[:space:]]*=[[:space:]]*"' "$TOP/engine/options.c")
if [ "$n" -ge 20 ] && [ -z "$missing" ]; then
	pass man-engine-options
else
	fail man-engine-options "$n options in engine/options.c; not in nvengine.7:$missing"
fi

# covered NAME PAGE MIN WHAT OPT...: PASS when at least MIN options were
# found in WHAT and PAGE names every one.
covered() {
	local name=$1 page=$2 min=$3 what=$4 o missing=
	shift 4
	for o in "$@"; do
		roff_has "$MAN/$page" "$o" || missing="$missing $o"
	done
	if [ $# -ge "$min" ] && [ -z "$missing" ]; then
		pass "$name"
	else
		fail "$name" "$# options in $what; not in $page:$missing"
	fi
}

# nvanalyze --help, all its commands: every -x and --long-name; the commands
opts=$({ "$NVANALYZE" --help; "$NVANALYZE" dump --help; "$NVANALYZE" stat --help; } 2>&1 |
	grep -oE '(^|[ ,])--?[a-z][a-z-]*' | sed 's/^[ ,]//' | LC_ALL=C sort -u)
covered man-nvanalyze-options nvanalyze.1 25 "nvanalyze --help" $opts
for c in dump stat; do
	grep -q "^\.BI \"$c " "$MAN/nvanalyze.1" && pass "man-nvanalyze-$c" ||
		fail "man-nvanalyze-$c" "no '.BI \"$c ...' in nvanalyze.1"
done

# jobs/run --help: the options of its "Options:" list
opts=$("$TOP/jobs/run" --help | sed -n '/^Options:/,/^$/p' | grep -oE '^  -[a-zA-Z-]+' |
	LC_ALL=C sort -u)
covered man-run-options nvengine-run.1 5 "jobs/run --help" $opts

# --- the guide pages agree with the same lists (docs/*.md, jobs/README.md)
# doc_has WORD FILE...: WORD as a whole word (an option) in one of FILE.
doc_has() {
	local w=$1; shift
	grep -Eq -- "(^|[^a-z_-])$w([^a-z_-]|\$)" "$@"
}
# docs_cover NAME MIN WHAT FILES OPT...: every OPT in one of FILES (a list).
docs_cover() {
	local name=$1 min=$2 what=$3 files=$4 o missing=
	shift 4
	for o in "$@"; do
		# shellcheck disable=SC2086
		doc_has "$o" $files || missing="$missing $o"
	done
	if [ $# -ge "$min" ] && [ -z "$missing" ]; then
		pass "$name"
	else
		fail "$name" "$# options in $what; not in $files:$missing"
	fi
}
eng=$(sed -n 's/^[[:space:]]*\.name[[:space:]]*=[[:space:]]*"\([a-z_0-9]*\)".*/\1/p' \
	"$TOP/engine/options.c")
missing=
for o in $eng; do
	grep -q "^| \`$o\` |" "$TOP/docs/engine.md" || missing="$missing $o"
done
extra=
for o in $(sed -n 's/^| `\([a-z_0-9]*\)` |.*/\1/p' "$TOP/docs/engine.md"); do
	grep -qx "$o" <<<"$eng" || extra="$extra $o"
done
if [ -z "$missing$extra" ]; then
	pass docs-engine-options
else
	fail docs-engine-options "docs/engine.md's table lacks:${missing:- none}; names what" \
		"engine/options.c does not have:${extra:- none}"
fi
opts=$({ "$NVANALYZE" --help; "$NVANALYZE" dump --help; "$NVANALYZE" stat --help; } 2>&1 |
	grep -oE '(^|[ ,])--[a-z][a-z-]*' | sed 's/^[ ,]//' | LC_ALL=C sort -u)
docs_cover docs-nvanalyze-options 25 "nvanalyze --help" "$(echo "$TOP"/docs/*.md)" $opts
opts=$("$TOP/jobs/run" --help | sed -n '/^Options:/,/^$/p' | grep -oE '^  -[a-zA-Z-]+' |
	LC_ALL=C sort -u)
docs_cover docs-run-options 5 "jobs/run --help" "$(echo "$TOP"/jobs/README.md "$TOP"/docs/*.md)" \
	$opts

# make asan: the package is the plain build's (an ASan engine loads only into
# a fio that preloads the runtime, and FIO names the test's wrapper, which a
# package cannot depend on); make check builds and installs it.
if [ "$NV_ASAN" = 1 ]; then
	skip build "the engine is an ASan build: make check builds the package"
	exit 0
fi
for t in dpkg-deb dpkg-shlibdeps; do
	if ! command -v $t >/dev/null; then
		skip build "no $t: not a Debian system with dpkg-dev (make deps)"
		exit 0
	fi
done

# --- make deb, with the build under test
o=build
[ "$NVANALYZE" = "$TOP/nvanalyze" ] || o=$(dirname "$NVANALYZE")
debdir=$T/deb
out=$(make -s -C "$TOP" O="$o" DEB_DIR="$debdir" deb 2>&1)
deb=$(ls "$debdir"/nvengine_*.deb 2>/dev/null | head -n 1)
if [ -n "$deb" ] && dpkg-deb -I "$deb" >/dev/null 2>&1; then
	pass build
else
	fail build "$(echo "$out" | tail -n 3 | tr '\n' ' ')"
	exit 1
fi

ver=$("$TOP/tools/version.sh")
ctl=$(dpkg-deb -f "$deb" Package Version Depends Recommends)
fiover=$(dpkg-query -W -f='${Version}' fio 2>/dev/null)
bad=
grep -qx "Version: $ver" <<<"$ctl" || bad="$bad version not '$ver';"
for p in liburing2 libzstd1 zlib1g libjansson4 libexpat1 libc6; do
	grep -Eq "^Depends:.*(^|[ ,])$p( |,|$)" <<<"$ctl" || bad="$bad no $p;"
done
grep -qF "fio (= $fiover)" <<<"$ctl" || bad="$bad no 'fio (= $fiover)';"
grep -Eq '^Recommends:.*gnuplot' <<<"$ctl" || bad="$bad gnuplot not recommended;"
case $(basename "$deb") in
"nvengine_${ver}_"*.deb) ;;
*) bad="$bad file name $(basename "$deb");";;
esac
if [ -z "$bad" ]; then pass control; else fail control "$bad $(tr '\n' ' ' <<<"$ctl")"; fi

if command -v lintian >/dev/null; then
	lint=$(lintian "$deb" 2>&1)
	if ! grep -q '^E:' <<<"$lint"; then
		pass lintian
		grep '^W:' <<<"$lint" | sed 's/^/info: lintian /'
	else
		fail lintian "$(grep '^E:' <<<"$lint" | head -n 5 | tr '\n' ' ')"
	fi
else
	fail lintian "lintian is not installed: run 'make deps' (apt-get install lintian)"
fi

# --- unpacked into a scratch root
root=$T/root
dpkg -x "$deb" "$root"
so=$root/usr/lib/nvengine/libnvengine.so
ana=$root/usr/bin/nvanalyze
missing=
for f in usr/bin/nvanalyze usr/lib/nvengine/libnvengine.so usr/lib/nvanalyze/libnvpngfast.so \
	 usr/share/nvanalyze/plots/style.gp \
	 usr/share/man/man1/nvanalyze.1.gz usr/share/man/man7/nvengine.7.gz \
	 usr/share/man/man1/nvengine-run.1.gz usr/share/nvengine/jobs/randread.fio \
	 usr/share/nvengine/jobs/instance/suite.fio usr/share/nvengine/jobs/run \
	 usr/bin/nvengine-run \
	 usr/share/doc/nvengine/copyright usr/share/doc/nvengine/changelog.gz; do
	[ -e "$root/$f" ] || missing="$missing $f"
done
if [ -z "$missing" ]; then pass layout; else fail layout "missing:$missing"; fi

# the brief's two commands with the installed paths: a short randread,
# traced, twice; then the installed nvanalyze
d=$T/brief
mkdir -p "$d"
ok=1
for run in a b; do
	if ! out=$(cd "$d" && env -i PATH="$PATH" HOME="$d" "$FIO" --ioengine="external:$so" \
		--name=randread --rw=randread --bs=4k --size=8m --filename=data --iodepth=8 \
		--time_based --runtime=1 --nv_trace=traces \
		--output-format=json --output=$run.json 2>&1); then
		fail installed-engine "run $run: $(echo "$out" | tail -n 3 | tr '\n' ' ')"
		ok=0
	fi
done
ntr=$(ls "$d"/traces/randread.*.nvt 2>/dev/null | wc -l)
if [ $ok = 1 ] && [ "$ntr" -ge 1 ]; then pass installed-engine
elif [ $ok = 1 ]; then fail installed-engine "no trace in $d/traces"; fi

rep=$(cd "$d" && env -i PATH="$root/usr/bin:$PATH" HOME="$d" nvanalyze a.json b.json 2>&1)
st=$?
rows=$(grep -c '^| clat .*(exact)' <<<"$rep")
if [ $st -eq 0 ] && [ "$rows" -ge 8 ] && grep -Eq '[+-][0-9.]+%' <<<"$rep"; then
	pass installed-nvanalyze
else
	fail installed-nvanalyze \
		"exit $st, $rows exact clat rows: $(echo "$rep" | head -n 5 | tr '\n' ' ')"
fi

rep=$(cd "$d" && env -i PATH="$root/usr/bin:$PATH" HOME="$d" nvanalyze -o fig a.json b.json 2>&1)
st=$?
other=$(pytool png_pixels "$d"/fig/*.png 2>&1 | grep -v ' filters=0$' | head -n 2)
if [ $st -eq 0 ] && cmp -s "$d/fig/style.gp" "$root/usr/share/nvanalyze/plots/style.gp" &&
   [ -z "$other" ]; then
	pass installed-style
else
	fail installed-style "exit $st, $other: $(echo "$rep" | tail -n 3 | tr '\n' ' ')"
fi

v=$("$ana" --version 2>&1)
if [ "$(head -n 1 <<<"$v")" = "nvanalyze $ver" ] &&
	grep -q 'nvtrace format 1\.0 to 1\.[0-9]' <<<"$v"; then
	pass version
else
	fail version "want 'nvanalyze $ver' and the trace formats: $(tr '\n' ' ' <<<"$v")"
fi

# nvengine-run from the scratch root: its job files, the installed engine
njobs=$(cd "$root/usr/share/nvengine/jobs" && find . -name '*.fio' | wc -l)
list=$(env -u NVENGINE_SO -u NVDEV "$root/usr/bin/nvengine-run" -n 2>&1)
st=$?
nlist=$(grep -c "usr/share/nvengine/jobs/.*\.fio$" <<<"$list")
if [ $st -eq 0 ] && [ "$njobs" -ge 20 ] && [ "$nlist" = "$njobs" ]; then
	pass installed-run-list
else
	fail installed-run-list \
		"exit $st, $nlist of $njobs listed: $(echo "$list" | tail -n 3 | tr '\n' ' ')"
fi
truncate -s 16m "$T/target.img"
out=$(cd "$T" && env -u NVENGINE_SO FIO=echo NVDEV="$T/target.img" "$root/usr/bin/nvengine-run" \
	-o "$T/res" "$root/usr/share/nvengine/jobs/instance/latency.fio" 2>&1)
if grep -qx "NVENGINE_SO=$so" "$T/res/instance-latency.env" 2>/dev/null; then
	pass installed-run-engine
else
	fail installed-run-engine \
		"$(tr '\n' ' ' <"$T/res/instance-latency.env" 2>/dev/null) $(echo "$out" |
			tail -n 2)"
fi

# man -l renders every page, as lintian's check does, without a warning
for page in "$root"/usr/share/man/man1/nvanalyze.1.gz "$root"/usr/share/man/man7/nvengine.7.gz \
	    "$root"/usr/share/man/man1/nvengine-run.1.gz; do
	name=$(basename "$page" .gz)
	txt=$(LC_ALL=C.UTF-8 MANWIDTH=80 man -l "$page" 2>/dev/null)
	warn=$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z \
		"$page" 2>&1 >/dev/null)
	if [ -z "$warn" ] && grep -q '^NAME' <<<"$txt" && grep -q "^ *${name%.*} " <<<"$txt" &&
		grep -q 'OPTIONS' <<<"$txt"; then
		pass "man-$name"
	else
		fail "man-$name" \
			"${warn:-no NAME or OPTIONS in the page} $(head -n 3 <<<"$txt" |
				tr '\n' ' ')"
	fi
done
