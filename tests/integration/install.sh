#!/usr/bin/env bash
# make install, and the brief's two lines as written with the installed
# files: in a directory holding ./libnvengine.so and jobs/,
#   fio --ioengine=external:./libnvengine.so jobs/randread.fio
#   nvanalyze a.json b.json          # tables; with -o DIR also figures
# with nvanalyze found on PATH (PREFIX/bin) and the figures' style found
# beside it (PREFIX/share/nvanalyze/plots); man finds the pages in
# PREFIX/share/man; nvengine-run lists the installed job files; make
# uninstall removes everything.
# The runs are stopped after 2 s (fio's --trigger-timeout) instead of the
# job file's 20 s.
. "$(dirname "$0")/../lib.sh"

# The build under test: ./nvanalyze is O=build's, any other is $O/nvanalyze.
o=build
[ "$NVANALYZE" = "$TOP/nvanalyze" ] || o=$(dirname "$NVANALYZE")
root=$T/root prefix=/usr/local
if out=$(make -s -C "$TOP" O="$o" DESTDIR="$root" PREFIX="$prefix" install 2>&1) &&
   [ -x "$root$prefix/bin/nvanalyze" ] && [ -f "$root$prefix/lib/nvengine/libnvengine.so" ] &&
   [ -f "$root$prefix/share/nvanalyze/plots/style.gp" ] &&
   cmp -s "$root$prefix/lib/nvanalyze/libnvpngfast.so" "$(dirname "$NVANALYZE")/libnvpngfast.so" &&
   cmp -s "$root$prefix/share/man/man1/nvanalyze.1" "$TOP/docs/man/nvanalyze.1" &&
   cmp -s "$root$prefix/share/man/man7/nvengine.7" "$TOP/docs/man/nvengine.7" &&
   cmp -s "$root$prefix/share/man/man1/nvengine-run.1" "$TOP/docs/man/nvengine-run.1" &&
   cmp -s "$root$prefix/bin/nvanalyze" "$NVANALYZE" &&
   cmp -s "$root$prefix/lib/nvengine/libnvengine.so" "$NVENGINE_SO"; then
	pass install
else
	fail install \
		"$(echo "$out" | tail -n 3 | tr '\n' ' ') $(find "$root" -type f | tr '\n' ' ')"
fi

# man finds the installed pages through PREFIX/share/man (MANPATH)
for p in nvanalyze:1 nvengine:7 nvengine-run:1; do
	txt=$(MANPATH="$root$prefix/share/man" MANWIDTH=80 man "${p#*:}" "${p%:*}" 2>&1)
	if grep -q '^NAME' <<<"$txt" && grep -q "^ *${p%:*} " <<<"$txt"; then
		pass "man-${p%:*}"
	else
		fail "man-${p%:*}" "$(head -n 3 <<<"$txt" | tr '\n' ' ')"
	fi
done

# nvengine-run (jobs/run) from PREFIX/bin: the job files it lists are the
# installed ones, each parsed with the installed engine (found from there)
want=$(cd "$TOP/jobs" && find . -name '*.fio' | wc -l)
list=$(env -u NVENGINE_SO -u NVDEV "$root$prefix/bin/nvengine-run" -n 2>&1)
st=$?
got=$(grep -c "share/nvengine/jobs/.*\.fio$" <<<"$list")
if [ $st -eq 0 ] && [ "$got" = "$want" ] && [ "$want" -ge 20 ]; then
	pass nvengine-run
else
	fail nvengine-run \
		"exit $st, $got of $want job files: $(tail -n 3 <<<"$list" | tr '\n' ' ')"
fi

# O_DIRECT on the test directory (tmpfs has none): else a directory in build/.
d=$T/brief
if ! dd if=/dev/zero of="$T/odirect" bs=4096 count=1 oflag=direct 2>/dev/null; then
	d=$(mktemp -d "$TOP/build/install.XXXXXX") || exit 1
	trap 'rm -rf "$d"' EXIT
fi
rm -f "$T/odirect"
mkdir -p "$d"
ln -s "$root$prefix/lib/nvengine/libnvengine.so" "$d/libnvengine.so"
ln -s "$TOP/jobs" "$d/jobs"
ok=1
for run in a b; do
	if ! out=$(cd "$d" && env -i PATH="$PATH" HOME="$d" "$FIO" \
		--ioengine=external:./libnvengine.so jobs/randread.fio --trigger-timeout=2 \
		--output-format=json --output=$run.json 2>&1); then
		fail brief_fio_line "run $run: $(echo "$out" | tail -n 3 | tr '\n' ' ')"
		ok=0
	fi
done
[ $ok = 1 ] && pass brief_fio_line

# nvanalyze a.json b.json, nvanalyze taken from PATH as a user types it
rep=$(cd "$d" && env -i PATH="$root$prefix/bin:$PATH" HOME="$d" nvanalyze a.json b.json 2>&1)
st=$?
if [ $st -eq 0 ] && grep -q '^| clat .*(exact)' <<<"$rep" &&
	grep -Eq '[+-][0-9.]+%' <<<"$rep"; then
	pass brief_nvanalyze_line
else
	fail brief_nvanalyze_line "exit $st: $(echo "$rep" | head -n 5 | tr '\n' ' ')"
fi

# -o DIR: the figures need style.gp, found next to the installed binary, and
# are encoded through lib/nvanalyze/libnvpngfast.so (every PNG row filter 0)
rep=$(cd "$d" &&
	env -i PATH="$root$prefix/bin:$PATH" HOME="$d" nvanalyze -o out a.json b.json 2>&1)
st=$?
npng=$(find "$d/out" -maxdepth 1 -name '*.png' 2>/dev/null | wc -l)
other=$(pytool png_pixels "$d"/out/*.png 2>&1 | grep -v ' filters=0$' | head -n 2)
if [ $st -eq 0 ] && [ -f "$d/out/report.md" ] && [ -f "$d/out/style.gp" ] && [ "$npng" -ge 1 ] &&
   [ -z "$other" ]; then
	pass installed_figures
else
	fail installed_figures \
		"exit $st, $npng PNG, $other: $(echo "$rep" | tail -n 3 | tr '\n' ' ')"
fi

out=$(make -s -C "$TOP" O="$o" DESTDIR="$root" PREFIX="$prefix" uninstall 2>&1)
left=$(find "$root" ! -type d | tr '\n' ' ')
if [ -z "$left" ]; then
	pass uninstall
else
	fail uninstall "left: $left $(echo "$out" | tail -n 2)"
fi
