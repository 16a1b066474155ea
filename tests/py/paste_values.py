"""An independent reader of pages that hold several tools' outputs (a blog
post or README comparing machines under headings), and the check that
`nvanalyze --format json PAGE` reads them as runs of their own: one side per
output, labelled by the nearest Markdown heading above it, each side's first
line where its output starts, and for CrystalDiskMark / KDiskMark exports
every test's values (tests/integration/paste.sh runs it per page).

    python3 tests/py/paste_values.py PAGE NVANALYZE_JSON

Prints "N outputs, M values" and exits 0, or the differences and exits 1.
Written from the pages' text, not from nvanalyze's C code:
  - an output starts at a CrystalDiskMark banner ("CrystalDiskMark 8.0.0"),
    a KDiskMark banner ("KDiskMark (3.0.0):"), a "[Read]" line that no
    banner opened (7.x+ results pasted alone), or fio's first line of a run
    ("NAME: (g=0): rw=...") that follows the previous run's "Run status
    group" lines (or opens the page);
  - its heading is the last "#".."######" line above it outside ``` fences,
    without the marks, emphasis (* _ `) and its first parenthesised remark
    of several words (what follows it kept; one word stays), cut to
    at most 40 bytes at a blank; a second output under one heading that
    does not repeat the first is "HEADING #2" (the pages here hold no
    repeats), unless it is a fio output right after that machine's outputs
    whose job lines ("NAME: (g=0): rw=write, ...") none of them holds and
    each of which is one of the machine's first output's but for its rw=
    (the machine's read test after its write test): then the same side,
    whose first line stays its first output's;
  - each export's values as tests/py/cdm_values.py reads them.
"""
import json
import re
import sys

import cdm_values
from lib import fiojson, valuecheck

HEADING = re.compile(r'^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$')
FIO_START = re.compile(r'^\S.*: \(g=\d+\): rw=')


def label(text):
    """The run label a heading's text gives: its first parenthesised remark
    of several words left out (the rest after it kept; all of it when the
    remark is left open); one word in parentheses stays."""
    i = text.find(' (')
    if i > 0:
        depth, j = 0, None
        for k in range(i + 1, len(text)):
            if text[k] == '(':
                depth += 1
            elif text[k] == ')':
                depth -= 1
                if not depth:
                    j = k
                    break
        if j is None:
            text = text[:i]
        elif ' ' in text[i + 2:j]:
            text = text[:i] + text[j + 1:]
    text = ''.join(c for c in text.rstrip(' #') if c not in '*_`')
    raw = text.encode()
    if len(raw) > 40:
        cut = raw[:40].decode(errors='ignore')
        text = cut[:cut.rfind(' ')] if ' ' in cut else cut
    return text.rstrip()


def outputs(lines):
    """[(first line number, heading label or '', fio job lines or None)] of
    every output of the page."""
    out, head, fence, fio_done, banner_open = [], '', False, True, False
    for n, line in enumerate(lines, 1):
        s = cdm_values.unquote(line)
        if s.startswith('```') or s.startswith('~~~'):
            fence = not fence
            continue
        m = HEADING.match(line)
        if m and not fence and label(m.group(2)):
            head = label(m.group(2))
            continue
        if s.startswith(cdm_values.BANNERS) and (s.startswith('KDiskMark') or
                                                 s[16:17].isdigit()):
            out.append((n, head, None))
            banner_open = True
        elif s.startswith('[Read]'):
            if not banner_open:
                out.append((n, head, None))
            banner_open = False
        elif FIO_START.match(s) and fio_done:
            out.append((n, head, {s.strip()}))
            fio_done = False
        elif FIO_START.match(s) and out and out[-1][2] is not None:
            out[-1][2].add(s.strip())
        elif s.startswith('Run status group'):
            fio_done = True
    return out


RW = re.compile(r'^(.*: \(g=\d+\): )rw=[^, ]*(.*)$')


def but_rw(lines):
    """fio job lines without their rw= value."""
    return {RW.sub(r'\1rw=\2', l) for l in lines}


def sides_of(found, stem):
    """Each output's side: (label, its side's index): its heading (the stem
    without), '#N' after the first, the side before it for another test of
    that machine (right after its outputs, no job line of theirs, each one
    of its first output's but for rw=)."""
    seen, res, mach = {}, [], None   # mach: (heading, side, job lines so far, first's)
    for _, head, jobs in found:
        h = head or stem
        if (mach and head and mach[0] == h and jobs is not None and mach[2] is not None
                and not (jobs & mach[2]) and but_rw(jobs) <= but_rw(mach[3])):
            mach[2].update(jobs)
            res.append((res[-1][0], mach[1]))
            continue
        seen[h] = seen.get(h, 0) + 1
        side = len(set(k for _, k in res))
        res.append((h if seen[h] == 1 else '%s #%d' % (h, seen[h]), side))
        mach = (h, side, set(jobs) if jobs is not None else None, set(jobs or ()))
    return res


def main():
    page, js = sys.argv[1], sys.argv[2]
    with open(page, 'rb') as f:
        text = fiojson.decode(f.read())
    lines = text.splitlines()
    found = outputs(lines)
    stem = page.rsplit('/', 1)[-1].split('.')[0]
    sides = sides_of(found, stem)
    first_of = {}
    for (ln, _, _), (lab, k) in zip(found, sides):
        first_of.setdefault(k, (lab, ln))
    want = [first_of[k][0] for k in sorted(first_of)]
    want_lines = [first_of[k][1] for k in sorted(first_of)]
    with open(js) as f:
        doc = json.load(f)
    got = [s['label'] for s in doc['sides']]
    got_lines = [(s.get('lines') or [None])[0] for s in doc['sides']]
    bad, n = [], 0
    if got != want:
        bad.append('sides %r, the page gives %r' % (got, want))
    if got_lines != want_lines:
        bad.append('first lines %r, the page gives %r' % (got_lines, want_lines))
    for (ln, _, _), (_, k) in zip(found, sides):
        first = lines[ln - 1].lstrip('> \t')
        if k >= len(got) or not first.startswith(cdm_values.BANNERS + ('[Read]',)):
            continue
        tests, footer = cdm_values.export_text('\n'.join(lines[ln - 1:]))
        label_k = got[k]
        side = {(r['job'], r['direction']): r['sides'].get(label_k) for r in doc['results']}
        side = {key: v for key, v in side.items() if v and v.get('present')}
        diff, m = valuecheck.compare(tests, side, 1e-9)
        bad += ['%s: %s' % (label_k, d) for d in diff]
        desc = doc['sides'][k]['descriptions'][0] or ''
        bad += ['%s: footer %r not in %r' % (label_k, f, desc) for f in footer if f not in desc]
        n += m
    return valuecheck.finish(bad, '%d outputs, %d values' % (len(found), n))


if __name__ == '__main__':
    sys.exit(main())
