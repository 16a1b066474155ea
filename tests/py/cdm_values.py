"""An independent reader of CrystalDiskMark text exports, and the check that
`nvanalyze --format json EXPORT` reports every test's MB/s and IOPS as the
export prints them (tests/integration/cdm.sh runs it per file).

    python3 tests/py/cdm_values.py EXPORT NVANALYZE_JSON

Prints "N values" and exits 0, or prints the differences and exits 1.
Written from the exports' text (CrystalDiskMark 5.x-8.x), not from
nvanalyze's C code: names as jobs/crystaldiskmark/ spells its sections.
"""
import codecs
import json
import re
import sys

OLD = re.compile(r'^\s*(Sequential|Random) (Read|Write)( 4KiB)? \((?:Q=\s*(\d+),\s*)?'
                 r'T=\s*(\d+)\)\s*:\s*([\d.]+) MB/s(?: \[\s*([\d.]+) IOPS\])?')
NEW = re.compile(r'^\s*(SEQ|RND|Sequential|Random)\s+(\d+)([KM])iB \(Q=\s*(\d+),\s*T=\s*(\d+)\)'
                 r':\s*([\d.]+) MB/s \[\s*([\d.]+) IOPS\]')


def text_of(path):
    raw = open(path, 'rb').read()
    if raw[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
        return raw.decode('utf-16')
    return raw.decode('utf-8-sig')


def tests(path):
    """{name: (MB/s, IOPS or None)} as the export prints them."""
    out, sect = {}, None
    for line in text_of(path).splitlines():
        s = line.strip()
        for tag, name in (('[Read]', 'read'), ('[Write]', 'write'), ('[Mix]', 'mix')):
            if s.startswith(tag):
                sect = name
        m = OLD.match(line)
        if m:
            kind, d, _, q, t, mbs, iops = m.groups()
            q = int(q or 1)
            base = 'Seq' if kind == 'Sequential' else '4K'
            qt = '' if (q, int(t)) == (1, 1) else 'Q%dT%s' % (q, t)
            out['%s%s-%s' % (base, qt, d.lower())] = (float(mbs), iops and float(iops))
            continue
        m = NEW.match(line)
        if m:
            kind, size, unit, q, t, mbs, iops = m.groups()
            kind = 'SEQ' if kind in ('SEQ', 'Sequential') else 'RND'
            out['%s%s%s-Q%sT%s-%s' % (kind, size, unit, q, t, sect)] = (float(mbs), float(iops))
    return out


def main():
    want = tests(sys.argv[1])
    got = {r['job']: r for r in json.load(open(sys.argv[2]))['results']}
    bad, n = [], 0
    for name, (mbs, iops) in want.items():
        r = got.get(name)
        if r is None:
            bad.append('%s: missing in nvanalyze output' % name)
            continue
        side = next(iter(r['sides'].values()))
        if abs(side['bw_MB_per_s'] - mbs) > 1e-9 * mbs:
            bad.append('%s: MB/s %r, export %r' % (name, side['bw_MB_per_s'], mbs))
        n += 1
        if iops is not None:
            if abs(side['iops'] - iops) > 1e-9 * iops:
                bad.append('%s: IOPS %r, export %r' % (name, side['iops'], iops))
            n += 1
    extra = set(got) - set(want)
    if extra:
        bad.append('tests the export does not hold: %s' % ', '.join(sorted(extra)))
    if not want:
        bad.append('no tests found in the export')
    if bad:
        print('\n'.join(bad))
        return 1
    print('%d values' % n)
    return 0


if __name__ == '__main__':
    sys.exit(main())
