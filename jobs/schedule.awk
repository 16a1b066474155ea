# jobs/run's progress: how long a job file as run (NAME.fio) takes, from the
# runtimes.  A section with stonewall (or wait_for_previous, or either in
# [global]) starts a new group after the previous one ends; the sections of
# a group run together, so a group lasts as long as its longest section:
# runtime (or timeout) plus ramp_time.  A section without a runtime ends
# when its size is done (preconditioning): its time is unknown and counted
# as 0.  ${VAR} values are read from the environment.
#
#   awk -f jobs/schedule.awk NAME.fio
#
# Output: one line per group, "START SECONDS SECTION[,SECTION...]" (START
# and SECONDS in whole seconds; SECONDS -1 for an untimed group), then
# "total SECONDS UNTIMED_GROUPS".

# secs(V): fio's time value V (N, Ns, Nm, Nh, Nd, Nms, Nus; bare: seconds).
function secs(v,    n, u) {
	if (v ~ /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/)
		v = ENVIRON[substr(v, 3, length(v) - 3)]
	n = v + 0
	u = tolower(v)
	sub(/^[0-9.]+/, "", u)
	if (u == "m") n *= 60
	else if (u == "h") n *= 3600
	else if (u == "d") n *= 86400
	else if (u == "ms") n /= 1000
	else if (u == "us") n /= 1000000
	return n
}

/^[ \t]*\[.*\]/ {
	sec = $0
	sub(/^[ \t]*\[/, "", sec)
	sub(/\].*$/, "", sec)
	glob = (sec == "global")
	if (!glob) {
		n++
		name[n] = sec
		rt[n] = grt
		rp[n] = grp
		sw[n] = gsw
	}
	next
}
/^[ \t]*[#;]/ { next }
{
	line = $0
	k = line
	sub(/=.*$/, "", k)
	gsub(/[ \t]/, "", k)
	v = ""
	if (index(line, "=")) {
		v = substr(line, index(line, "=") + 1)
		gsub(/^[ \t]+|[ \t]+$/, "", v)
	}
	if (k == "runtime" || k == "timeout") {
		if (glob) grt = secs(v); else if (n) rt[n] = secs(v)
	} else if (k == "ramp_time") {
		if (glob) grp = secs(v); else if (n) rp[n] = secs(v)
	} else if (k == "stonewall" || k == "wait_for_previous") {
		if (glob) gsw = 1; else if (n) sw[n] = 1
	}
}

END {
	t = 0
	g = 0
	for (i = 1; i <= n; i++) {
		if (i == 1 || sw[i]) {
			g++
			gname[g] = name[i]
			glen[g] = 0
		} else {
			gname[g] = gname[g] "," name[i]
		}
		if (rt[i] > 0) {
			if (glen[g] >= 0 && rt[i] + rp[i] > glen[g])
				glen[g] = rt[i] + rp[i]
		} else {
			glen[g] = -1
		}
	}
	untimed = 0
	for (i = 1; i <= g; i++) {
		printf "%d %d %s\n", t, glen[i], gname[i]
		if (glen[i] < 0)
			untimed++
		else
			t += glen[i]
	}
	printf "total %d %d\n", t, untimed
}
