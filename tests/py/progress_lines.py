"""analyze_progress.sh: what a terminal received from nvanalyze's stderr
(tests/py/progress_pty.py) holds progress lines for one trace, each written
in place ("\\r" + line + ESC[K), "nvanalyze: reading NAME, pass 1: N of TOTAL
records (P%)" with N <= TOTAL, the last thing written erases the line, and
no newline (nothing else was printed).

    progress_lines.py TTY_FILE NAME TOTAL
prints "ok N lines" (exit 0), else what is wrong (exit 1).
"""
import re
import sys

got = open(sys.argv[1], "rb").read().decode()
name, total = sys.argv[2], int(sys.argv[3])
lines = re.findall(r"\r(nvanalyze: reading [^\r\x1b]*)\x1b\[K", got)
want = re.compile(r"nvanalyze: reading %s, pass 1: (\d+) of %d records \((\d+)%%\)$"
                  % (re.escape(name), total))
bad = []
if not lines:
    bad.append("no progress line in %r" % got[:200])
for line in lines:
    m = want.match(line)
    if not m or int(m.group(1)) > total:
        bad.append("unexpected line %r" % line)
if not got.endswith("\r\x1b[K"):
    bad.append("not erased at the end: %r" % got[-40:])
if "\n" in got:
    bad.append("a newline on the terminal: %r" % got[:200])
for b in bad:
    print(b)
if not bad:
    print("ok %d lines" % len(lines))
sys.exit(1 if bad else 0)
