"""An independent reader of CrystalDiskMark text exports, and the check that
`nvanalyze --format json EXPORT` reports every test's MB/s, IOPS and mean
latency as the export prints them, and its footer as the description
(tests/integration/cdm.sh runs it per file).

    python3 tests/py/cdm_values.py EXPORT NVANALYZE_JSON

Prints "N values" and exits 0, or prints the differences and exits 1.
Written from the exports' text (CrystalDiskMark 5.x-8.x), not from
nvanalyze's C code.  Layout facts it relies on:
  - UTF-16LE with a BOM (5.x-7.x save so) or UTF-8, CRLF or LF;
  - 5.x/6.x rows "Sequential Read (Q= 32,T= 1) : 554.872 MB/s" and
    "Random Write 4KiB (Q=  8,T= 8) : 3.173 MB/s [ 774.7 IOPS]", 5.x's
    Q1 sequential row as "(T= 1)"; named as jobs/crystaldiskmark/'s
    cdm5/cdm6 sections: SeqQ32T1-read, 4KQ8T8-write, Seq-read, 4K-write;
  - 7.x/8.x rows under "[Read]" / "[Write]" / "[Mix] ..." as
    "SEQ    1MiB (Q=  8, T= 1):   531.458 MB/s [ 506.8 IOPS] < 15726.77 us>"
    (7.0 spells SEQ/RND "Sequential"/"Random"), named SEQ1M-Q8T1-read;
  - a footer of "Key : value" / "Key: value" lines (Profile, Test, Mode,
    Time, Date, OS, Comment);
  - 2.x-4.x rows "Sequential Read : 505.825 MB/s", "Random Write 512KB :
    ...", "Random Read 4KB (QD=32) : 271.859 MB/s [ 66371.9 IOPS]" (1 MiB
    sequential, 512 KiB and 4 KiB random at QD 1, 4 KiB at QD 32), named
    Seq-read, 512K-write, 4K-read, 4KQ32T1-read;
  - KDiskMark (its export, src/mainwindow.cpp): a right-aligned banner
    "KDiskMark (3.0.0): https://...", rows as 7.x's with a blank between the
    size and its unit ("Sequential   1 MiB (Q=  8, T= 1):"), a Target
    footer line;
  - pasted into Markdown (a blog post, a README): the export runs from its
    banner to the ``` line that closes its fence, or to a heading; "> "
    quote markers are the post's, not the export's; the prose around it is
    not the export's;
  - 7.x/8.x results pasted without the banner and the lines under it start
    at their "[Read]" line and end before a second "[Read]" (the next
    export's).
MB/s is 10^6 bytes/s; the mean latency is in microseconds.
"""
import json
import re
import sys

from lib import fiojson, valuecheck

NUM = r'([\d.]+)'
OLD = re.compile(r'^(Sequential|Random) (Read|Write)( 4KiB)? \((?:Q=\s*(\d+),\s*)?T=\s*(\d+)\)'
                 r'\s*:\s*' + NUM + r' MB/s(?:\s*\[\s*' + NUM + r' IOPS\])?$')
NEW = re.compile(r'^(SEQ|RND|Sequential|Random)\s+(\d+)\s*([KM])iB \(Q=\s*(\d+),\s*T=\s*(\d+)\)'
                 r':\s*' + NUM + r' MB/s \[\s*' + NUM + r' IOPS\](?:\s*<\s*' + NUM + r' us>)?$')
V3 = re.compile(r'^(Sequential|Random) (Read|Write)(?: (512KB|4KB))?(?: \(QD=(\d+)\))?\s*:\s*'
                + NUM + r' MB/s(?:\s*\[\s*' + NUM + r' IOPS\])?$')
SECTIONS = {'[Read]': 'read', '[Write]': 'write', '[Mix]': 'mixed'}
FOOTER = re.compile(r'^(Profile|Test|Mode|Time|Date|OS|Comment|Interval|Target)\s*:\s*(.*?)\s*$')
BANNERS = ('CrystalDiskMark ', 'KDiskMark (')


def old_row(m):
    """((name, direction), metrics) of a 5.x/6.x row."""
    kind, d, _, q, t, mbs, iops = m.groups()
    q, d = int(q or 1), d.lower()
    base = 'Seq' if kind == 'Sequential' else '4K'
    qt = '' if (q, int(t)) == (1, 1) else 'Q%dT%s' % (q, t)
    out = {'bw_MB_per_s': float(mbs)}
    if iops:
        out['iops'] = float(iops)
    return ('%s%s-%s' % (base, qt, d), d), out


def v3_row(m):
    """((name, direction), metrics) of a 2.x-4.x row."""
    kind, d, size, qd, mbs, iops = m.groups()
    d, qd = d.lower(), int(qd or 1)
    if kind == 'Sequential':
        name = 'Seq'
    else:
        name = '512K' if size == '512KB' else '4KQ%dT1' % qd if qd > 1 else '4K'
    out = {'bw_MB_per_s': float(mbs)}
    if iops:
        out['iops'] = float(iops)
    return ('%s-%s' % (name, d), d), out


def new_row(m, sect):
    """((name, direction), metrics) of a 7.x+ row in section sect."""
    kind, size, unit, q, t, mbs, iops, us = m.groups()
    kind = 'SEQ' if kind in ('SEQ', 'Sequential') else 'RND'
    suffix = 'mix' if sect == 'mixed' else sect
    out = {'bw_MB_per_s': float(mbs), 'iops': float(iops)}
    if us:
        out['lat_mean_ns'] = float(us) * 1000
    return ('%s%s%s-Q%sT%s-%s' % (kind, size, unit, q, t, suffix), sect), out


def unquote(line):
    """The line without blanks and Markdown quote markers ("> ")."""
    s = line.strip()
    while s.startswith('>') and (len(s) == 1 or s[1] in ' >'):
        s = s[1:].strip()
    return s


def export(path):
    """({(name, direction): {metric: value}}, [footer values]) as printed."""
    with open(path, 'rb') as f:
        return export_text(fiojson.decode(f.read()))


def export_text(text):
    """export() of a decoded text: its first export."""
    tests, footer, sect, inside = {}, [], None, None
    for line in text.splitlines():
        s = unquote(line)
        if inside is None and s.startswith(BANNERS + ('[Read]',)):
            inside = True
        elif inside and (s.startswith('```') or s.startswith('#') or
                         (s.startswith('[Read]') and sect)):
            inside = False
        if not inside:
            continue
        for tag, name in SECTIONS.items():
            if s.startswith(tag):
                sect = name
        m = OLD.match(s)
        if m:
            key, val = old_row(m)
            tests[key] = val
            continue
        m = NEW.match(s)
        if m and sect:
            key, val = new_row(m, sect)
            tests[key] = val
            continue
        m = V3.match(s)
        if m and not sect:
            key, val = v3_row(m)
            tests[key] = val
            continue
        m = FOOTER.match(s)
        if m and m.group(2):
            footer.append('%s: %s' % m.groups())
    return tests, footer


def description(json_path):
    """The description nvanalyze gives the export's side."""
    with open(json_path) as f:
        side = json.load(f)['sides'][0]
    return (side.get('descriptions') or [None])[0] or ''


def main():
    want, footer = export(sys.argv[1])
    desc = description(sys.argv[2])
    missing = [f for f in footer if f not in desc]
    also = ['footer %r not in the description %r' % (f, desc) for f in missing]
    return valuecheck.main(want, sys.argv[2], rel=1e-9, also=also)


if __name__ == '__main__':
    sys.exit(main())
