# curveplot.awk - jobs/run --live --sweep: the load-curve tables of
# `nvanalyze` (markdown) as they are, each followed by a text plot of its
# points, clat p99 (log scale, up) against IOPS (across), the knee marked K
# once the rule found it:
#
#   nvanalyze --no-traces DIR | awk -f jobs/curveplot.awk
#
# A table: the rows after a "| KEY | IOPS | ... | clat p99 |" heading; the
# knee: the value after "Knee (RUN): KEY=" on a later line.
function us(s,	v, u) {	# "5.09 us" -> 5.09; ns, us, ms, s
	v = s; u = s
	sub(/ .*/, "", v); sub(/^[^ ]* /, "", u); sub(/ .*/, "", u)
	gsub(/,/, "", v)
	return u == "ns" ? v / 1000 : u == "ms" ? v * 1000 : u == "s" ? v * 1e6 : v + 0
}
function trim(s) { gsub(/^ +| +$/, "", s); return s }
function plot(	i, j, x, y, lo, hi, xmax, row, col, line, W, H, mark) {
	if (n < 2)
		return
	W = 50; H = 8; lo = 1e300; hi = 0; xmax = 0
	for (i = 1; i <= n; i++) {
		lo = p[i] < lo ? p[i] : lo; hi = p[i] > hi ? p[i] : hi
		xmax = q[i] > xmax ? q[i] : xmax
	}
	if (lo <= 0) lo = 0.001
	if (hi <= lo) hi = lo * 2
	for (row = H; row >= 0; row--)
		for (col = 0; col <= W; col++)
			g[row, col] = " "
	for (i = 1; i <= n; i++) {
		x = xmax > 0 ? int(q[i] / xmax * W + 0.5) : 0
		y = int(log(p[i] / lo) / log(hi / lo) * H + 0.5)
		mark = k[i] == knee ? "K" : "*"
		if (g[y, x] != "K") g[y, x] = mark
	}
	printf "clat p99 against IOPS (K: the knee):\n"
	for (row = H; row >= 0; row--) {
		line = ""
		for (col = 0; col <= W; col++) line = line g[row, col]
		printf "%10s |%s\n", row == H ? sprintf("%.3g us", hi) : row == 0 ? sprintf("%.3g us", lo) : "", line
	}
	line = ""
	for (col = 0; col <= W; col++) line = line "-"
	printf "%10s +%s\n", "", line
	printf "%10s  0%" W "s\n", "", sprintf("%.0f IO/s", xmax)
}
/^\| [^ ]+ +\| +IOPS +\|/ {
	n = 0; intable = 1; c99 = 0
	nh = split($0, hf, "|")
	for (i = 2; i <= nh; i++) if (trim(hf[i]) == "clat p99") c99 = i
}
{ print }
intable && /^\| [^-]/ && !/IOPS/ {
	split($0, f, "|")
	n++; k[n] = trim(f[2]); q[n] = trim(f[3]); gsub(/,/, "", q[n]); q[n] += 0
	p[n] = c99 ? us(trim(f[c99])) : 0
}
intable && !/^\|/ { intable = 0; pending = 1 }
/Knee \(/ { knee = $0; sub(/.*Knee \([^)]*\): [^=]*=/, "", knee); sub(/[*:].*/, "", knee) }
pending && (/^\*\*Knee|^No knee|^###|^$/) && !/^$/ { plot(); pending = 0 }
END { if (pending) plot() }
