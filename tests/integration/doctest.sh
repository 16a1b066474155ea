#!/usr/bin/env bash
# Every documented command runs: the marked shell blocks of README.md and
# docs/*.md, run in a scratch directory against real targets (files).
#
# A marker is an HTML comment on the line before a ```sh block (blank lines
# between are allowed); blocks without one are not tested:
#
#   <!-- doctest: run -->                      run it; it must exit 0
#   <!-- doctest: output-contains TEXT -->     run it; exit 0 and its output
#                                              (stdout and stderr) holds TEXT
#   <!-- doctest: parse-only (WHY) -->         not run (WHY: e.g. needs NVMe
#                                              hardware), each command parsed:
#                                              fio with --parse-only, nvanalyze
#                                              and jobs/run: every -x/--option
#                                              of the line in their --help
#   <!-- doctest: skip (WHY) -->               not run: a SKIP line saying WHY
#
# The blocks of one page run in order in one scratch directory holding
# ./libnvengine.so, ./nvanalyze (also first on PATH as nvanalyze) and jobs/,
# with bash -e.  The closing line counts the blocks run, checked (run with an
# expected output), parse-only and skipped.
#
# DOCTEST_FILES="a.md b.md" tests those pages instead (the self-test uses
# it); DOCTEST_SELFTEST=0 leaves out the self-test: a copy of a page with a
# broken command must fail, and so must a parse-only block with an option
# fio does not have.
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 1

files=${DOCTEST_FILES:-$(ls README.md docs/*.md)}

# doctest_extract PAGE OUTDIR: one block per numbered file in OUTDIR,
# N.kind (run, output-contains, parse-only, skip), N.arg, N.line, N.sh.
doctest_extract() {
	"$PYTHON" - "$1" "$2" <<-'EOF'
	import re, sys
	page, out = sys.argv[1], sys.argv[2]
	marker = re.compile(r'^\s*<!--\s*doctest:\s*(run|output-contains|parse-only|skip)'
	                    r'\s*(.*?)\s*-->\s*$')
	lines = open(page, encoding='utf-8').read().split('\n')
	n, pending, i = 0, None, 0
	while i < len(lines):
	    m = marker.match(lines[i])
	    if m:
	        if pending:
	            sys.exit('%s:%d: doctest marker not followed by a ```sh block'
	                     % (page, pending[2]))
	        pending = (m.group(1), m.group(2).strip("()"), i + 1)
	    elif pending and lines[i].strip() == '':
	        pass
	    elif pending:
	        if lines[i].strip() not in ('```sh', '```bash'):
	            sys.exit('%s:%d: doctest marker not followed by a ```sh block'
	                     % (page, pending[2]))
	        j = i + 1
	        while j < len(lines) and lines[j].strip() != '```':
	            j += 1
	        if j == len(lines):
	            sys.exit('%s:%d: ```sh block not closed' % (page, i + 1))
	        n += 1
	        for ext, text in (('kind', pending[0]), ('arg', pending[1]),
	                          ('line', str(pending[2])),
	                          ('sh', '\n'.join(lines[i + 1:j]) + '\n')):
	            open('%s/%03d.%s' % (out, n, ext), 'w', encoding='utf-8').write(text)
	        pending, i = None, j
	    i += 1
	if pending:
	    sys.exit('%s:%d: doctest marker not followed by a ```sh block'
	             % (page, pending[2]))
	EOF
}

# doctest_commands FILE: the block's commands, one a line (continuation
# lines joined, comments and blank lines left out).
doctest_commands() {
	sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$1" | sed -e 's/^[[:space:]]*//' \
		-e '/^#/d' -e '/^$/d' -e 's/[[:space:]]#[[:space:]].*$//'
}

# doctest_parse LINE HELPDIR: check one command without running it.
doctest_parse() {
	local line=$1 words w cmd opt help
	read -r -a words <<<"$line"
	while [ ${#words[@]} -gt 0 ] && [[ ${words[0]} == [A-Z_]*=* ]]; do
		words=("${words[@]:1}")
	done
	cmd=${words[0]:-}
	case "$cmd" in
	fio)
		"$FIO" "${words[@]:1}" --parse-only 2>&1 && return 0
		return 1;;
	nvanalyze|./nvanalyze) help=$("$NVANALYZE" --help 2>&1);;
	jobs/run|nvengine-run) help=$("$TOP/jobs/run" --help 2>&1);;
	*) echo "no parser for '$cmd' (fio, nvanalyze, jobs/run)"; return 1;;
	esac
	for w in "${words[@]:1}"; do
		case "$w" in
		--) break;;
		--*|-[a-zA-Z]) opt=${w%%=*};;
		*) continue;;
		esac
		if ! grep -q -e "[[:space:],]$opt\\([[:space:],=]\\|\$\\)" <<<"$help"; then
			echo "$cmd --help does not name $opt"
			return 1
		fi
	done
}

# doctest_scratch DIR: the scratch directory a page's blocks run in.
doctest_scratch() {
	mkdir -p "$1/bin"
	cp "$NVENGINE_SO" "$1/libnvengine.so"
	ln -s "$NVANALYZE" "$1/nvanalyze"
	ln -s "$NVANALYZE" "$1/bin/nvanalyze"
	ln -s "$TOP/jobs" "$1/jobs"
}

nrun=0 nchecked=0 nparse=0 nskip=0 nfail=0
for page in $files; do
	blocks=$T/blocks/${page//\//_}
	mkdir -p "$blocks"
	if ! err=$(doctest_extract "$page" "$blocks" 2>&1); then
		fail "$page" "$err"; nfail=$((nfail+1)); continue
	fi
	scratch=$T/scratch/${page//\//_}
	doctest_scratch "$scratch"
	for sh in "$blocks"/*.sh; do
		[ -e "$sh" ] || continue
		b=${sh%.sh} kind=$(cat "$b.kind") arg=$(cat "$b.arg")
		name="$page:$(cat "$b.line")"
		case "$kind" in
		skip)
			skip "$name" "${arg:-no reason given}"; nskip=$((nskip+1));;
		parse-only)
			why=
			while IFS= read -r cmd; do
				if ! out=$(cd "$scratch" && doctest_parse "$cmd" 2>&1); then
					why="'$cmd': $(tail -n 3 <<<"$out" | tr '\n' ' ')"
					break
				fi
			done < <(doctest_commands "$sh")
			if [ -n "$why" ]; then fail "$name" "$why"; nfail=$((nfail+1))
			else pass "$name (parse-only ${arg:-})"; fi
			nparse=$((nparse+1));;
		run|output-contains)
			out=$(cd "$scratch" && PATH=$scratch/bin:$PATH bash -e "$sh" 2>&1)
			rc=$?
			if [ $rc -ne 0 ]; then
				fail "$name" "exited $rc: $(tail -n 5 <<<"$out" | tr '\n' ' ')"
				nfail=$((nfail+1))
			elif [ "$kind" = output-contains ] && ! grep -qF -- "$arg" <<<"$out"; then
				fail "$name" \
					"output lacks '$arg': $(tail -n 5 <<<"$out" | tr '\n' ' ')"
				nfail=$((nfail+1))
			else
				pass "$name"
			fi
			if [ "$kind" = run ]; then nrun=$((nrun+1))
			else nchecked=$((nchecked+1)); fi;;
		esac
	done
done
echo "info: doctest: $nrun blocks run, $nchecked checked, $nparse parse-only," \
	"$nskip skipped, $nfail failed"

if [ "${DOCTEST_SELFTEST:-1}" = 0 ]; then [ $nfail -eq 0 ]; exit; fi

# The self-test: broken copies of a page must fail.
st=$T/selftest
mkdir -p "$st"
cat >"$st/broken-run.md" <<-'EOF'
	<!-- doctest: output-contains Usage: nvanalyze -->
	```sh
	./nvanalyze --no-such-option a.json
	```
EOF
cat >"$st/broken-parse.md" <<-'EOF'
	<!-- doctest: parse-only (needs NVMe hardware) -->
	```sh
	fio --ioengine=external:./libnvengine.so --no_such_fio_option=1 jobs/randread.fio
	```
EOF
cat >"$st/broken-help.md" <<-'EOF'
	<!-- doctest: parse-only (needs NVMe hardware) -->
	```sh
	nvanalyze --no-such-option a.json
	```
EOF
for p in broken-run broken-parse broken-help; do
	out=$(DOCTEST_FILES="$st/$p.md" DOCTEST_SELFTEST=0 "$0" 2>&1)
	rc=$?
	if [ $rc -ne 0 ] && grep -q '^FAIL: ' <<<"$out" && grep -q ' 1 failed' <<<"$out"; then
		pass "selftest/$p"
	else
		fail "selftest/$p" "a broken page did not fail (rc $rc): $(tr '\n' ' ' <<<"$out")"
	fi
done
# The same for a copy of a real page: README.md with its first parse-only
# fio command given an option fio does not have.
sed '0,/^fio --ioengine=/s//fio --no_such_fio_option=1 --ioengine=/' README.md \
	>"$st/README.md"
out=$(DOCTEST_FILES="$st/README.md" DOCTEST_SELFTEST=0 "$0" 2>&1)
rc=$?
if [ $rc -ne 0 ] && grep -q "^FAIL: .*no_such_fio_option" <<<"$out"; then
	pass "selftest/README-copy"
else
	fail "selftest/README-copy" "a broken README copy did not fail (rc $rc)"
fi
[ $nfail -eq 0 ]
