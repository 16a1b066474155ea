"""Damaged diskspd XML reports, each read by nvanalyze and judged
(tests/integration/diskspd.sh runs it per XML file):

    python3 tests/py/diskspdxml_damage.py NVANALYZE REPORT.xml WORKDIR [EVERY]

(EVERY: cut, remove and garble every EVERY-th line only, for big reports;
default 1.)

  cut     the report cut after every line and inside every line: an error
          (exit 2) naming the file and a line, never a crash, never read;
  removed each element line removed in turn: an error naming the file and
          a line, or read as the independent reader reads what remains
          (tests/py/diskspdxml_values.py: a value left out is missing, never zero);
  garbled each number of an element line garbled ("12" -> "1x2"): an error
          naming that line, or, for an element nvanalyze does not read,
          the same output as the undamaged report;
  random  600 random byte mutations (seeded): exit 0 or 2, never a crash,
          and a report read is read as diskspdxml_values.py reads it.

Prints "N cases" and exits 0, or the first failures and exits 1.
"""
import json
import os
import random
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import diskspdxml_values  # noqa: E402
from lib import damage  # noqa: E402

# Elements whose numbers nvanalyze reads: garbling one must be an error.
READ = ('TestTimeSeconds|ThreadCount|UserPercent|KernelPercent|BytesCount|IOCount|'
        'ReadBytes|ReadCount|WriteBytes|WriteCount|Average(Read|Write)(Latency)?Milliseconds|'
        'Percentile|ReadMilliseconds|WriteMilliseconds|ReadIopsStdDev|WriteIopsStdDev|'
        'BlockSize|RequestCount|WriteRatio|ThreadsPerFile')
LEAF = re.compile(r'^\s*<([A-Za-z]+)>[^<]*</\1>\s*$')


class Judge:
    def __init__(self, nvanalyze, work):
        self.nv, self.work, self.cases, self.bad = nvanalyze, work, 0, []

    def run(self, data, name='cut.xml'):
        """nvanalyze --format json on data: (exit status, stdout, stderr)."""
        path = os.path.join(self.work, name)
        with open(path, 'wb') as f:
            f.write(data)
        p = subprocess.run([self.nv, '--format', 'json', path], capture_output=True)
        self.cases += 1
        return p.returncode, p.stdout, p.stderr.decode('utf-8', 'replace'), path

    def agrees(self, path, out):
        """Whether nvanalyze's JSON out holds what diskspdxml_values reads from path."""
        js = os.path.join(self.work, 'out.json')
        with open(js, 'wb') as f:
            f.write(out)
        return diskspdxml_values.agrees(path, js)

    def fail(self, what):
        self.bad.append(what)


def cuts(j, lines, every):
    for k in range(1, len(lines), every):
        for data in (b''.join(lines[:k]), b''.join(lines[:k]) + lines[k][:len(lines[k]) // 2]):
            rc, _, err, path = j.run(data)
            if rc != 2 or not re.search(re.escape(path) + r':\d+: ', err):
                j.fail('cut at line %d: exit %d: %s' % (k, rc, err.strip()[:200]))
                return


def removed(j, lines, every):
    for k, line in enumerate(lines):
        if k % every:
            continue
        if not LEAF.match(line.decode('utf-8', 'replace')):
            continue
        rc, out, err, path = j.run(b''.join(lines[:k] + lines[k + 1:]))
        if rc == 0 and not j.agrees(path, out):
            j.fail('line %d removed: read other values than the report holds' % (k + 1))
        elif rc not in (0, 2) or (rc == 2 and not re.search(re.escape(path) + r':\d+: ', err)):
            j.fail('line %d removed: exit %d: %s' % (k + 1, rc, err.strip()[:200]))


def garbled(j, lines, clean, every):
    for k, line in enumerate(lines):
        if k % every:
            continue
        s = line.decode('utf-8', 'replace')
        m = LEAF.match(s)
        if not m or not re.search(r'>\d', s):
            continue
        bad = re.sub(r'>(\d)', r'>\1x', s, count=1).encode()
        rc, out, err, path = j.run(b''.join(lines[:k] + [bad] + lines[k + 1:]))
        named = rc == 2 and (path + ':%d: ' % (k + 1)) in err
        if re.fullmatch(READ, m.group(1)) and not named:
            j.fail('line %d garbled: no error naming it: exit %d %s' % (k + 1, rc, err[:200]))
        elif not named and (rc != 0 or json.loads(out)['results'] != clean):
            j.fail('line %d garbled (<%s>, not read): exit %d, output changed' %
                   (k + 1, m.group(1), rc))


def mutations(j, data, n=600):
    rng = random.Random(40)
    for i in range(damage.fewer(n)):
        b = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len(b))
            op = rng.randrange(4)
            if op == 0:
                b[at] = rng.randrange(256)
            elif op == 1:
                del b[at:at + rng.randint(1, 40)]
            elif op == 2:
                b[at:at] = b[rng.randrange(len(b)):][:rng.randint(1, 40)]
            else:
                b[at] = ord(rng.choice('0123456789.-x<>/ '))
        rc, out, err, path = j.run(bytes(b), 'mut.xml')
        if rc not in (0, 2):
            j.fail('mutation %d: exit %d (a crash?): %s' % (i, rc, err[:200]))
        elif rc == 0 and not j.agrees(path, out):
            j.fail('mutation %d: read other values than the report holds' % i)


def main():
    nv, report, work = sys.argv[1:4]
    every = (int(sys.argv[4]) if len(sys.argv) > 4 else 1) * damage.stride()
    data = open(report, 'rb').read()
    lines = data.splitlines(keepends=True)
    j = Judge(nv, work)
    rc, out, err, _ = j.run(data)
    if rc != 0:
        print('the undamaged report does not read: %s' % err)
        return 1
    clean = json.loads(out)['results']
    for step in (lambda: cuts(j, lines, every), lambda: removed(j, lines, every),
                 lambda: garbled(j, lines, clean, every), lambda: mutations(j, data)):
        step()
    if j.bad:
        print('\n'.join(j.bad[:10]))
        return 1
    print('%d cases' % j.cases)
    return 0


if __name__ == '__main__':
    sys.exit(main())
