"""faults.sh, damaged JSON: fio JSON cut at, or with a bit flipped at,
many offsets, huge numbers, deep nesting, NUL bytes: nvanalyze exits 0 with
the same table (a cut that left the fio object whole) or 2 with one message
naming the file (syntax errors with line:col); never a signal, never a hang
(10 s per run).

    faults_damaged_json.py NVANALYZE SAMPLE.json WORKDIR   prints "ok COUNTS" or the problems
"""
import os, random, re, subprocess, sys

from lib import damage

nva, src, work = sys.argv[1:4]
os.makedirs(work, exist_ok=True)
orig = open(src, 'rb').read()
path = os.path.join(work, 'run.json')

def run(data):
    with open(path, 'wb') as f:
        f.write(data)
    try:
        p = subprocess.run([nva, '-f', 'csv', path], capture_output=True, timeout=10)
    except subprocess.TimeoutExpired:
        return None, b'', b'timeout'
    return p.returncode, p.stdout, p.stderr

rc0, good, _ = run(orig)
if rc0 != 0:
    sys.exit('undamaged sample fails: rc %d' % rc0)
problems = []
stats = {}

def check(kind, data, at):
    rc, out, err = run(data)
    stats[(kind, rc)] = stats.get((kind, rc), 0) + 1
    what = '%s at %s' % (kind, at)
    if rc is None:
        problems.append(what + ': hangs')
    elif rc < 0 or rc >= 128:
        problems.append('%s: killed by signal %d: %s'
                        % (what, -rc if rc < 0 else rc - 128, err[-200:]))
    elif rc == 2:
        lines = err.decode(errors='replace').strip().split('\n')
        msg = [l for l in lines if not l.startswith('nvanalyze: warning')]
        if len(msg) != 1 or path not in msg[0]:
            problems.append('%s: not one message naming the file: %r' % (what, msg))
        elif 'not valid JSON' in msg[0] and not re.search(re.escape(path) + r':\d+', msg[0]):
            problems.append('%s: syntax error without a position: %s' % (what, msg[0]))
        elif 'unable to decode' in msg[0] and not re.search(re.escape(path) + r':\d+:\d+', msg[0]):
            problems.append('%s: undecodable byte without line:col: %s' % (what, msg[0]))
    elif rc == 0:
        if kind == 'truncate' and out != good:
            problems.append('%s: exit 0 with a different table' % what)
    else:
        problems.append('%s: exit %d' % (what, rc))

rnd = random.Random(9)
n = len(orig)
for k in sorted(set([0, 1, n - 1, n - 2] + [rnd.randrange(n) for _ in range(damage.fewer(300))])):
    check('truncate', orig[:k], k)
for _ in range(damage.fewer(400)):
    k = rnd.randrange(n)
    b = bytearray(orig)
    b[k] ^= 1 << rnd.randrange(8)
    check('bitflip', bytes(b), k)
for num in (b'1' * 400, b'-' + b'9' * 30, b'1e400', b'-1e999', b'1' * 20 + b'.5e308'):
    check('huge number', re.sub(rb'("total_ios" : )\d+', rb'\g<1>' + num, orig, count=1),
          num[:12].decode())
    check('huge number', re.sub(rb'("mean" : )[0-9.]+', rb'\g<1>' + num, orig, count=1),
          num[:12].decode())
depth = 100000
check('deep arrays', b'{"jobs": ' + b'[' * depth + b']' * depth + b'}', depth)
check('deep objects', b'{"jobs": [' + b'{"a": ' * depth + b'1' + b'}' * depth + b']}', depth)
check('deep unclosed', b'{"jobs": ' + b'[' * depth, depth)
check('nul bytes', orig[:n // 2] + b'\0' * 16 + orig[n // 2:], n // 2)
summary = ' '.join('%s/%s:%d' % (k, r, c) for (k, r), c in sorted(stats.items(), key=str))
print('; '.join(problems[:5]) if problems else 'ok ' + summary)
