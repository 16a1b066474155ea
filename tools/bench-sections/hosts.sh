# shellcheck shell=bash
# tools/bench-sections/hosts.sh: section 8 of `make bench`
# (BENCH_SECTIONS=hosts), sourced by tools/bench.sh, whose settings and
# helpers (timed, log, die) it uses.

# --- 8. many hosts: nvanalyze on jobs/run --host results -----------------------
# hosts_layout DIR HOSTS IOS: a many-host results directory as jobs/run
# --host writes it: DIR/suite.json (the client's JSON, one randread entry
# per host with IOS IOs) and DIR/HOST/traces/suite/randread.1.nvt, each a
# hard link of one IOS-IO trace (nvanalyze decodes each host's file on its
# own; the page cache holds one copy, so disk reads are not measured).
hosts_layout() {
	local dir=$1 n=$2 ios=$3 h
	mkdir -p "$dir"
	[ -f "$W/hosts/t$ios.nvt" ] ||
		"$GEN_TRACE" -p randread -q 32 -n "$ios" "$W/hosts/t$ios.nvt" >/dev/null ||
		die "hosts: gen_trace failed"
	awk -v n="$n" -v ios="$ios" 'BEGIN {
		printf "{\"fio version\": \"fio-3.33\", \"client_stats\": ["
		for (h = 1; h <= n; h++)
			printf "%s{\"jobname\": \"randread\", \"groupid\": 0, \"error\": 0, " \
				"\"job options\": {\"rw\": \"randread\", \"bs\": \"4k\", " \
				"\"nv_trace\": \"/tmp/nvengine-run.x/traces/suite\"}, \"read\": " \
				"{\"io_bytes\": %d, \"total_ios\": %d, " \
				"\"iops\": %d, \"bw\": %d, " \
				"\"runtime\": 1000}, \"hostname\": \"host%03d\"}",
				(h > 1 ? ", " : ""), ios * 4096, ios, ios + h, ios * 4, h
		print "]}"
	}' >"$dir/suite.json"
	for h in $(seq -f 'host%03g' 1 "$n"); do
		mkdir -p "$dir/$h/traces/suite"
		ln -f "$W/hosts/t$ios.nvt" "$dir/$h/traces/suite/randread.1.nvt"
	done
}

# Per configuration HOSTS:IOS: two fleets compared (nvanalyze A B, each
# host a repeat) and, up to 64 hosts, the hosts of one fleet side by side
# (nvanalyze A); wall, CPU and peak RSS of each.
section_hosts() {
	local d=$W/hosts c n ios
	mkdir -p "$d"
	for c in $HOSTS_CONFIGS; do
		n=${c%%:*} ios=${c#*:}
		log "hosts: $n hosts x $ios IOs: two fleets, and the hosts side by side"
		hosts_layout "$d/A-$n-$ios" "$n" "$ios"
		hosts_layout "$d/B-$n-$ios" "$n" "$ios"
		cat "$d/t$ios.nvt" >/dev/null
		timed "$d/fleets-$n-$ios" "$NVANALYZE" -f json "$d/A-$n-$ios" "$d/B-$n-$ios" ||
			die "hosts: nvanalyze A B failed: $(tail -n 3 "$d/fleets-$n-$ios.err")"
		if [ "$n" -le 64 ]; then
			timed "$d/sides-$n-$ios" "$NVANALYZE" -f json "$d/A-$n-$ios" ||
				die "hosts: nvanalyze A failed:" \
					"$(tail -n 3 "$d/sides-$n-$ios.err")"
		fi
		grep -o "\"clat_p50_ns_source\": *\"exact\"" "$d/fleets-$n-$ios.out" | wc -l \
			>"$d/fleets-$n-$ios.exact"
		rm -rf "$d/A-$n-$ios" "$d/B-$n-$ios"
	done
	rm -f "$d"/t*.nvt
}
