# damaged FILE CHECKER ROWS SED (sourced by the text readers' tests): FILE
# cut at every line and inside every line must read as exactly what remains
# (tests/py/CHECKER.py) or fail with exit 2 and an error naming the file;
# each line matching the grep pattern ROWS garbled by the sed expression SED
# must fail naming that line.  Never a crash (exit >= 128).  Under make
# asan, every NV_DAMAGE_STRIDE-th line (tests/lib.sh).
damaged() {
	local f=$1 checker=$2 rows=$3 garble=$4 base n k rc bad=0 cases=0 why
	local step=${NV_DAMAGE_STRIDE:-1}
	base=$(basename "$f" .txt)
	n=$(wc -l <"$f")
	mkdir -p "$T/mid"
	for ((k = 1; k <= n; k += step)); do
		head -n "$k" "$f" >"$T/cut.txt"
		{ head -n "$k" "$f"; sed -n "$((k + 1))p" "$f" | head -c 40; } >"$T/mid/cut.txt"
		for g in "$T/cut.txt" "$T/mid/cut.txt"; do
			cases=$((cases + 1))
			"$NVANALYZE" --format json "$g" >"$T/cut.json" 2>"$T/cut.err"
			rc=$?
			if [ "$rc" -ne 0 ] && [ "$rc" -ne 2 ]; then
				fail "damaged-$base" "$g cut at line $k: exit $rc"; bad=1; break 2
			fi
			if [ "$rc" -ne 0 ] && ! grep -Eq "cut.txt(:[0-9]+)?: " "$T/cut.err"; then
				why="cut at line $k: error without the file:"
				fail "damaged-$base" "$why $(cat "$T/cut.err")"
				bad=1; break 2
			fi
			if [ "$rc" -eq 0 ] &&
				! pytool "$checker" "$g" "$T/cut.json" >/dev/null; then
				fail "damaged-$base" \
					"cut at line $k: read other values than printed"
				bad=1; break 2
			fi
		done
	done
	for k in $(grep -n "$rows" "$f" | cut -d: -f1); do
		cases=$((cases + 1))
		sed "${k}$garble" "$f" >"$T/mut.txt"
		if "$NVANALYZE" "$T/mut.txt" >/dev/null 2>"$T/mut.err" ||
		   ! grep -q "mut.txt:$k: " "$T/mut.err"; then
			fail "damaged-$base" \
				"line $k garbled: no error naming line $k: $(cat "$T/mut.err")"
			bad=1; break
		fi
	done
	[ "$bad" -eq 0 ] && pass "damaged-$base ($cases cases)"
}

# mutations FORMAT FILE... (sourced): MUTATIONS (default 600) random
# mutations of the FILEs, seeded by MUTATION_SEED (default 40: the same
# mutants every run; another seed tries others, and is printed), read
# by nvanalyze (tests/py/mutations.py says what each run must do).  One
# PASS or FAIL line named mutations-FORMAT.
mutations() {
	local fmt=$1 seed=${MUTATION_SEED:-40} out
	shift
	out=$(pytool mutations "$NVANALYZE" "$seed" "${MUTATIONS:-600}" "$T/mut-$fmt" "$fmt" "$@")
	if [ $? -eq 0 ]; then
		pass "mutations-$fmt (${out#*: })"
	else
		fail "mutations-$fmt" "$(echo "$out" | tr '\n' ' ') (rerun: MUTATION_SEED=$seed)"
	fi
}
