# shellcheck shell=bash
# tools/bench-sections/trace.sh: section 3 of `make bench`
# (BENCH_SECTIONS=trace), sourced by tools/bench.sh, whose settings and
# helpers (timed, log, die) it uses.

# --- 3. trace size and writer throughput --------------------------------------
# One fio run per target, pattern and zlib level through nvengine with
# nv_trace; the level-1 run also writes fio's own per-IO logs (write_lat_log,
# log_avg_msec=0: lat, clat and slat), so both record exactly the same IOs.
# A third run stores fio's logs compressed (log_compression +
# log_store_compressed).  The large target is a sparse 1 TiB tmpfs file.
section_trace() {
	local d=$W/trace tgt size pat rw bs n lvl base
	mkdir -p "$d"
	log "trace: sizes of $TRACE_IOS-IO traces and fio logs; bench_trace $BT_RECORDS records"
	[ -f "$SHM/f" ] || dd if=/dev/zero of="$SHM/f" bs=1M count="$FILE_MB" status=none
	truncate -s 1T "$SHM/big"
	for tgt in 1g big; do
		if [ $tgt = 1g ]; then size=${FILE_MB}M; else size=1T; fi
		for pat in rand4k seq128k; do
			if [ $pat = rand4k ]; then rw=randread bs=4k n=$TRACE_IOS
			else rw=read bs=128k n=$((TRACE_IOS / 4)); fi
			for lvl in 1 6 fz; do
				base=$d/$tgt-$pat-$lvl
				mkdir -p "$base.d"
				local extra=(--nv_trace="$base.d" --nv_trace_level="${lvl/fz/1}")
				case $lvl in
				1) extra+=(--write_lat_log="$base.d/fio" --log_avg_msec=0);;
				fz) extra+=(--write_lat_log="$base.d/fio" --log_avg_msec=0
					--log_compression=4M --log_store_compressed=1);;
				esac
				"$FIO" --ioengine="external:$NVENGINE_SO" --name=t \
					--filename="$SHM/$( [ $tgt = 1g ] && echo f || echo big)" \
					--size="$size" --rw="$rw" --bs="$bs" --iodepth=32 \
					--io_size="$((n * ${bs%k}))k" --norandommap \
					--output-format=json "${extra[@]}" \
					>"$base.json" 2>"$base.err" ||
					die "trace: $tgt $pat level $lvl failed:" \
						"$(tail -n 3 "$base.err")"
				(cd "$base.d" && for f in *; do
					echo "$f $(stat -c %s "$f")"
				done) >"$base.sizes"
				rm -rf "$base.d"
			done
		done
	done
	rm -f "$SHM/big"

	local p z i
	for i in $(seq 1 "$BT_REPEATS"); do
		for p in randread seqwrite; do
			# z1, z6: zstd levels 1 and 6; g1: zlib level 1 (traces before format 1.2)
			for z in z1 z6 g1; do
				timed "$d/bt-$p-$z-$i" "$BENCH_TRACE" -n "$BT_RECORDS" \
					-z "${z#?}" \
					-c "$( [ "${z%?}" = g ] && echo zlib || echo zstd)" \
					-p "$p" -o "$d/bt.nvt" ||
					die "bench_trace -p $p $z failed:" \
						"$(cat "$d/bt-$p-$z-$i.err")"
			done
		done
	done
	rm -f "$d/bt.nvt"
}
