# shellcheck shell=bash
# tools/bench-sections/workers.sh: section 11 of `make bench`
# (BENCH_SECTIONS=workers), sourced by tools/bench.sh, whose settings and
# helpers (timed, log, die) it uses.
# hosts_layout is in hosts.sh.

# --- 11. the full comparison on every core: -J 1, -J 2, stat -----------------
# Per configuration [SHAPE:]N:IOS (WORKERS_CONFIGS): N traces of IOS IOs each
# in one of three shapes (workers_layout), then WORKERS_ROUNDS rounds, the
# order reversed every other round, of `nvanalyze -J 1 -o DIR A`, `nvanalyze
# -J 2 -o DIR A` (the tables, trace sections, findings and figures, the
# default's PNGs) and `nvanalyze stat` on the N traces (decode and exact
# percentiles: the reference); also -J 1 with `--figures none` (the
# analysis alone: gnuplot's rendering measured apart, its CPU per figure the
# difference) and with `--figures svg`.  Full mode's 4:32000000 against
# 4:4000000 (and grouped:4's): whether peak memory stays flat from 16 M to
# 128 M IOs (flat_rows in tools/benchreport/analyzer.py).

# workers_layout SHAPE DIR N IOS: the traces of a configuration under DIR,
# the argument nvanalyze takes in $WL_ARG and stat's traces in $WL_TRACES.
# hosts: section 8's many-host layout (N hosts, one job each: N independent
# jobs); grouped: one fio job of N threads (numjobs, group_reporting: one job
# of N thread traces, jobs/randread.fio's layout), gen_trace's traces with a
# seed each; nop: the same layout from a real run, fio's nv_nop target at QD
# 64 in jobs/randread.fio's 256 MiB area (a million dense timestamps a second
# per thread), IOS IOs per thread.
workers_layout() {
	local shape=$1 dir=$2 n=$3 ios=$4 k
	[ "$shape" = hosts ] || mkdir -p "$dir/traces"
	case $shape in
	hosts)
		hosts_layout "$dir" "$n" "$ios"
		WL_ARG=$dir WL_TRACES=("$dir"/*/traces/suite/randread.1.nvt)
		return;;
	grouped)
		for k in $(seq 1 "$n"); do
			"$GEN_TRACE" -p randread -q 32 -s "$k" -n "$ios" \
				"$dir/traces/randread.$k.nvt" >/dev/null ||
				die "workers: gen_trace failed"
		done
		awk -v n="$n" -v ios="$ios" -v tr="$dir/traces" 'BEGIN {
			printf "{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": " \
				"\"randread\", \"groupid\": 0, \"error\": 0, \"job options\": " \
				"{\"rw\": \"randread\", \"bs\": \"4k\", \"numjobs\": \"%d\", " \
				"\"nv_trace\": \"%s\"}, \"read\": {\"io_bytes\": %d, " \
				"\"total_ios\": %d, \"iops\": %d, \"bw\": %d, " \
				"\"runtime\": 1000}}]}\n",
				n, tr, n * ios * 4096, n * ios, n * ios, n * ios * 4
		}' >"$dir/run.json";;
	nop)
		# jobs/randread.fio's area, 256 MiB a thread (a sparse file: fio
		# lays nothing out, nv_nop reads nothing), IOS IOs (io_size): fio
		# drains the queue each time it wraps, every 65536 IOs, as in the
		# brief's time_based run (a 1 MiB area drained it every 256)
		truncate -s 256M "$dir/nop"
		"$FIO" --thread --ioengine="external:$NVENGINE_SO" --name=randread \
			--filename="$dir/nop" --size=256M --io_size=$((ios * 4096)) --bs=4k \
			--rw=randread --iodepth=64 --nv_nop=1 --nv_trace="$dir/traces" \
			--numjobs="$n" --group_reporting --output-format=json \
			--output="$dir/run.json" >"$dir/fio.out" 2>&1 ||
			die "workers: fio nv_nop failed: $(tail -n 3 "$dir/fio.out")";;
	*) die "workers: unknown shape $shape in WORKERS_CONFIGS";;
	esac
	WL_ARG=$dir/run.json WL_TRACES=("$dir"/traces/*.nvt)
}

section_workers() {
	local d=$W/workers c n ios r k order shape name
	mkdir -p "$d"
	for c in $WORKERS_CONFIGS; do
		case $c in
		*:*:*) shape=${c%%:*} c=${c#*:} name=$shape-;;
		*) shape=hosts name=;;	# the name of its files before the shapes
		esac
		n=${c%%:*} ios=${c#*:} name=$name$n-$ios
		log "workers: $shape, $n traces x $ios IOs: -J 1, -J 2 and stat," \
			"$WORKERS_ROUNDS rounds"
		mkdir -p "$W/hosts"
		workers_layout "$shape" "$d/A-$name" "$n" "$ios"
		cat "${WL_TRACES[@]}" >/dev/null
		for r in $(seq 1 "$WORKERS_ROUNDS"); do
			order=$(round_order "$r" j1 j2 stat j1s j1v)
			for k in $order; do
				rm -rf "$d/out"
				case $k in
				stat) timed "$d/$name-r$r-$k" "$NVANALYZE" stat "${WL_TRACES[@]}";;
				j1s) timed "$d/$name-r$r-$k" "$NVANALYZE" -J 1 --figures none \
					-o "$d/out" "$WL_ARG";;
				j1v) timed "$d/$name-r$r-$k" "$NVANALYZE" -J 1 --figures svg \
					-o "$d/out" "$WL_ARG";;
				*) timed "$d/$name-r$r-$k" "$NVANALYZE" -J "${k#j}" -o "$d/out" \
					"$WL_ARG";;
				esac || die "workers: $k on $shape $n traces failed:" \
					"$(tail -n 3 "$d/$name-r$r-$k.err")"
			done
		done
		grep -c "(exact)" "$d/$name-r1-j1.out" >"$d/$name.exact" || true
		rm -rf "$d/A-$name" "$d/out" "$W/hosts/t$ios.nvt"
	done
}
