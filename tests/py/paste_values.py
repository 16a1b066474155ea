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
    without the marks, emphasis (* _ `) and a parenthesised remark, cut to
    at most 40 bytes at a blank; a second output under one heading that
    does not repeat the first is "HEADING #2" (the pages here hold no
    repeats: each output under a heading is another test);
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
    """The run label a heading's text gives."""
    i = text.find(' (')
    if i > 0:
        text = text[:i]
    text = ''.join(c for c in text.rstrip(' #') if c not in '*_`')
    raw = text.encode()
    if len(raw) > 40:
        cut = raw[:40].decode(errors='ignore')
        text = cut[:cut.rfind(' ')] if ' ' in cut else cut
    return text.rstrip()


def outputs(lines):
    """[(first line number, heading label or '')] of every output of the page."""
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
            out.append((n, head))
            banner_open = True
        elif s.startswith('[Read]'):
            if not banner_open:
                out.append((n, head))
            banner_open = False
        elif FIO_START.match(s) and fio_done:
            out.append((n, head))
            fio_done = False
        elif s.startswith('Run status group'):
            fio_done = True
    return out


def labels_of(found, stem):
    """Each output's side label: its heading (the stem without), '#N' after the first."""
    seen, res = {}, []
    for _, head in found:
        h = head or stem
        seen[h] = seen.get(h, 0) + 1
        res.append(h if seen[h] == 1 else '%s #%d' % (h, seen[h]))
    return res


def main():
    page, js = sys.argv[1], sys.argv[2]
    with open(page, 'rb') as f:
        text = fiojson.decode(f.read())
    lines = text.splitlines()
    found = outputs(lines)
    stem = page.rsplit('/', 1)[-1].split('.')[0]
    want = labels_of(found, stem)
    with open(js) as f:
        doc = json.load(f)
    got = [s['label'] for s in doc['sides']]
    got_lines = [(s.get('lines') or [None])[0] for s in doc['sides']]
    bad, n = [], 0
    if got != want:
        bad.append('sides %r, the page gives %r' % (got, want))
    if got_lines != [ln for ln, _ in found]:
        bad.append('first lines %r, the page gives %r' % (got_lines, [ln for ln, _ in found]))
    for k, (ln, _) in enumerate(found):
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
