"""faults.sh, damaged traces: small traces cut at every byte, with a bit
flipped at every byte, with other versions, and foreign files, through
`nvanalyze dump`: the rows printed are always a prefix of the undamaged
dump (see faults.sh for each case's rule); never a signal.  Where the
blocks of a trace end comes from tests/py/lib/nvtrace_reader.py.

    faults_damaged_traces.py NVANALYZE TRACE1 TRACE2 WORKDIR   prints "ok COUNTS" or the problems
"""
import os, struct, subprocess, sys, zlib

from lib import damage, nvtrace_reader

nva, traces, work = sys.argv[1], sys.argv[2:4], sys.argv[4]
os.makedirs(work, exist_ok=True)
path = os.path.join(work, 'damaged.nvt')
problems = []
counts = {}

def dump(data):
    with open(path, 'wb') as f:
        f.write(data)
    try:
        p = subprocess.run([nva, 'dump', path], capture_output=True, timeout=10)
    except subprocess.TimeoutExpired:
        return None, [], ''
    return p.returncode, p.stdout.decode().splitlines()[1:], p.stderr.decode()

def blocks(data):
    """(header end, footer start, [(end offset, records up to it)] of each block)."""
    t = nvtrace_reader.Trace(data, decode=False)
    out, total = [], 0
    for _, end, nrec, _ in t.blocks:
        total += nrec
        out.append((end, total))
    return t.header_end, out[-1][0] if out else t.header_end, out

def note(kind, rc):
    counts[(kind, rc)] = counts.get((kind, rc), 0) + 1

for tr in traces:
    orig = open(tr, 'rb').read()
    rc, good, err = dump(orig)
    if rc != 0 or err:
        sys.exit('undamaged %s: rc %s %s' % (tr, rc, err))
    hdr_end, foot_at, blk = blocks(orig)
    step = damage.stride()
    for k in range(0, len(orig), step):
        rc, rows, err = dump(orig[:k])
        note('cut', rc)
        want = max([t for end, t in blk if end <= k], default=0)
        what = '%s cut at %d' % (os.path.basename(tr), k)
        if rc is None or rc < 0 or rc >= 128:
            problems.append('%s: rc %s' % (what, rc))
        elif k < hdr_end and k > 0:
            if rc != 2 or 'header' not in err:
                problems.append('%s: inside the header: rc %d %s' % (what, rc, err.strip()))
        elif k >= hdr_end:
            if rc != 0 or rows != good[:want] or 'truncated' not in err:
                problems.append('%s: rc %d, %d rows (want %d): %s'
                                % (what, rc, len(rows), want, err.strip()[:200]))
    for k in range(0, len(orig), step):
        b = bytearray(orig)
        bit = (k // step) % 8   # every bit, whatever the stride
        b[k] ^= 1 << bit
        rc, rows, err = dump(bytes(b))
        note('flip', rc)
        what = '%s bit %d flipped at %d' % (os.path.basename(tr), bit, k)
        if rc is None or rc < 0 or rc >= 128:
            problems.append('%s: rc %s' % (what, rc))
        elif rows != good[:len(rows)]:
            problems.append('%s: printed a row that is not in the undamaged trace' % what)
        elif rc == 0 and k >= foot_at and rows == good and 'footer missing' in err:
            pass    # a footer length now past the end reads as a cut footer
        elif rc != 2 or path not in err:
            problems.append('%s: rc %d, %d rows: %s' % (what, rc, len(rows), err.strip()[:200]))
    # versions: another major is refused; a later minor is read as 1.0
    for major, minor, want_rc in ((2, 0, 2), (0, 0, 2), (1, 7, 0)):
        b = bytearray(orig)
        struct.pack_into('<HH', b, 8, major, minor)
        # the header CRC covers the version: recompute it, as a writer would
        struct.pack_into('<I', b, hdr_end - 4, zlib.crc32(bytes(b[:hdr_end - 4])))
        rc, rows, err = dump(bytes(b))
        what = '%s version %d.%d' % (os.path.basename(tr), major, minor)
        if (rc != want_rc or (rc == 0 and rows != good)
                or (rc == 2 and (rows or 'version' not in err))):
            problems.append('%s: rc %s, %d rows: %s' % (what, rc, len(rows), err.strip()[:200]))

# foreign files
for name, data in (('elf', open('/bin/true', 'rb').read()),
                   ('gzip', b'\x1f\x8b\x08\x00' + b'\0' * 60),
                   ('json', b'{"jobs": []}\n'), ('empty', b''), ('magic only', b'NVTRACE\0'),
                   ('zeros', b'\0' * 4096), ('text', b'hello, world\n' * 10)):
    rc, rows, err = dump(data)
    note('foreign', rc)
    if rc != 2 or rows or path not in err:
        problems.append('foreign %s: rc %s, %d rows: %s'
                        % (name, rc, len(rows), err.strip()[:200]))
summary = ' '.join('%s/%s:%d' % (k, r, c) for (k, r), c in sorted(counts.items(), key=str))
print('; '.join(problems[:5]) + (' (+%d more)' % (len(problems) - 5) if len(problems) > 5 else '')
      if problems else 'ok ' + summary)
