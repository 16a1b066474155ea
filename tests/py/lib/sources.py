"""The provenance of copied fixtures: every file in a fixture directory has
a row in its SOURCES.md table (`| file | repository | path | commit | blob |
what it is |`) whose blob is the file's `git hash-object`, and every row
names a file that is there.

    python3 tests/py/lib/sources.py DIR

Prints "N files" and exits 0, or the mismatches and exits 1.
"""
import hashlib
import os
import sys

from valuecheck import finish  # run as a script: lib/ is its directory


def blob(path):
    """git hash-object of the file (the id of a blob with its bytes)."""
    with open(path, 'rb') as f:
        data = f.read()
    return hashlib.sha1(b'blob %d\0' % len(data) + data).hexdigest()


def rows(sources):
    """{file: blob} of the SOURCES.md table rows."""
    out = {}
    with open(sources, encoding='utf-8') as f:
        for line in f:
            cells = [c.strip() for c in line.strip().strip('|').split(' | ')]
            if line.startswith('| ') and len(cells) >= 6 and len(cells[4]) == 40:
                out[cells[0]] = cells[4]
    return out


def main(d):
    """Check DIR.  Return: the exit status."""
    want = rows(os.path.join(d, 'SOURCES.md'))
    files = sorted(f for f in os.listdir(d) if f != 'SOURCES.md')
    bad = ['%s: no SOURCES.md row' % f for f in files if f not in want]
    bad += ['%s: a row, no file' % f for f in sorted(set(want) - set(files))]
    bad += ['%s: blob %s, the row says %s' % (f, blob(os.path.join(d, f)), want[f])
            for f in files if f in want and blob(os.path.join(d, f)) != want[f]]
    return finish(bad, '%d files' % len(files))


if __name__ == '__main__':
    sys.exit(main(sys.argv[1]))
