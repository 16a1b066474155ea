#!/bin/bash
# Random mutations of every input format (issues 40, 57): cut, a line deleted or
# duplicated, a digit changed, a unit garbled, junk bytes, a NUL or invalid
# UTF-8 inserted; 600 a format, seeded (the seed printed: MUTATION_SEED=N
# reproduces a run), each an error naming the file or a reading that reads
# nothing as zero and keeps the values it did not touch, never a crash
# (make asan runs it under ASan+UBSan).  One line a format: add a reader's
# format here with its sample files.
. "$(dirname "$0")/../lib.sh"
source "$TOP/tests/damaged.sh"

cd "$TOP" || exit 1
D=tests/data
mutations fio-json $D/fio-json/null-trim.json $D/fio-json/null-grouped-pctlist.json
mutations fio-normal $D/fio-text/rounded-a.txt $D/fio-text/rounded-b.txt
mutations fio-terse $D/fio-text/null-terse-v3.txt
mutations cdm $D/cdm/cdm8-nvme-crlf.txt
mutations diskspd $D/diskspd/diskspd22-randrw-L.txt $D/diskspd/diskspd20-seqread.txt
# Issue 57: KDiskMark; pages of CrystalDiskMark exports (2.x-4.x rows, the
# Store banner, quote markers); diskspd before 2.0.18 (MB/s, cp1251, a
# wrapped command line, two runs in a session); a page of fio outputs under
# headings (each side's values keyed by its label).
P=tests/fixtures/paste
mutations kdiskmark $P/KDiskMark__README-3.0.0.md $P/KDiskMark__README-1.6.0.md
mutations cdm-pages $P/zenn-docs__homeIT.md $P/blog-docusaurus__fanxiang-s790.md
mutations diskspd-2.0 $D/diskspd-old/diskspd-2.0.17-randrw-L.txt \
	$D/diskspd-old/diskspd-2.0.17-seqread-cp1251-wrapped.txt \
	$D/diskspd-old/diskspd-2.0.15-two-runs-session.txt
mutations fio-page $P/vps-comparison__fio-iodepth-32_fio-128K.md
# Real 2.0.x sessions (cp1251, -F, two reports with prose between, a README
# whose report other machines' fragments follow); CrystalDiskMark results
# pasted without their banner: the real page's first drive, its fence alone
# (with both drives under one heading a mutant that changes a test tells
# them apart, and every side's label changes with it).
F=tests/fixtures/diskspd
mutations diskspd-2.0-real $F/trying-out-diskspd__Lenovo-G580.txt \
	$F/trying-out-diskspd__goodwinserverdc.txt $F/diskspd-containers__README.md
sed -n '33,49p' $P/backendcloud-3-hexo__wintel-entrap.md >"$T/wintel-980pro.md"
mutations cdm-no-banner "$T/wintel-980pro.md"

# The harness catches what it is for: a reader that crashes on a mutant, and
# one that reads a damaged value as 0 (a stand-in nvanalyze for each).
real=$NVANALYZE
cat >"$T/crash" <<SH
#!/bin/bash
case "\$3" in */mut-*) kill -SEGV \$\$;; esac
exec "$real" "\$@"
SH
cat >"$T/zero" <<SH
#!/bin/bash
case "\$3" in */mut-*) "$real" "\$@" | sed 's/"iops": [0-9][0-9.e+]*/"iops": 0/g'; exit 0;; esac
exec "$real" "\$@"
SH
chmod +x "$T/crash" "$T/zero"
for k in crash zero; do
	if NVANALYZE=$T/$k MUTATIONS=5 pytool mutations "$T/$k" 1 5 "$T/mut-self-$k" fio-normal \
		$D/fio-text/rounded-a.txt >"$T/$k.out" 2>&1; then
		fail "harness-catches-$k" "passed: $(tr '\n' ' ' <"$T/$k.out")"
	elif grep -q "$( [ $k = crash ] && echo 'killed by signal 11' || echo 'read as 0')" \
		"$T/$k.out"; then
		pass "harness-catches-$k"
	else
		fail "harness-catches-$k" "$(tr '\n' ' ' <"$T/$k.out")"
	fi
done
