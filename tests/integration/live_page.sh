#!/usr/bin/env bash
# The live page of the watch's HTTP output (issue 56) in headless Chromium
# while the stand-in watcher gen_live serves intervals every 500 ms (the real
# sink): two screenshots seconds apart differ, and two DOM dumps show the
# charts drawn for every job and op, moving, and a hostile job name as text
# (tests/py/live_page_check.py).
source "$(dirname "$0")/../lib.sh"
need_unit_helper gen_live || exit 0
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
	skip all "chromium not installed (make deps installs it)"
	exit 0
fi
hn="x\"'><img src=x onerror=\"document.title='PWNED_IMG'\">"
hn+="<script>document.title='PWNED_SCRIPT'</script>"
hn+="<svg onload=document.title='PWNED_SVG'>&lt;b&gt;"
printf '%s' "$hn" >"$T/hname"
port=$(pytool free_port 127.0.0.1)
timeout 300 "$GEN" --listen "127.0.0.1:$port" --job-file "$T/hname" --job plain \
	--intervals 1000 --period-ms 500 >"$T/gen.out" 2>"$T/gen.err" &
gpid=$!
for _ in $(seq 100); do
	grep -q '^listening' "$T/gen.out" 2>/dev/null && break
	sleep 0.1
done
sleep 2	# a few intervals to draw
export HOME=$T/home
mkdir -p "$HOME"
cr() {
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$T/profile" --no-first-run --disable-extensions \
		--window-size=1300,1600 --virtual-time-budget=3000 "$@" 2>>"$T/chromium.log"
}
url=http://127.0.0.1:$port/
cr --screenshot="$T/a.png" "$url" >/dev/null
cr --dump-dom "$url" >"$T/a.html"
sleep 3	# six more intervals
cr --screenshot="$T/b.png" "$url" >/dev/null
cr --dump-dom "$url" >"$T/b.html"
kill "$gpid" 2>/dev/null
wait "$gpid"
if [ ! -s "$T/a.png" ] || [ ! -s "$T/b.png" ]; then
	fail screenshots "no screenshot: $(tail -n 3 "$T/chromium.log" | tr '\n' ' ')"
elif cmp -s "$T/a.png" "$T/b.png"; then
	fail screenshots "the two screenshots 3 s apart are the same"
else
	pass "screenshots: two, 3 s apart, differ"
fi
if why=$(pytool live_page_check "$T/a.html" "$T/b.html" "$T/hname"); then
	pass "charts_names: $why"
else
	fail charts_names "$why"
fi
