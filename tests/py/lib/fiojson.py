"""fio's JSON output for the tests: one loader, values by path, conditions.

A PATH names a value by keys and list indexes joined with '/':
``jobs/0/read/iops``, ``global options/ioengine``.  ``*`` stands for every
element of a list (the path then has a value per element) and ``KEY=VALUE``
for the first element whose KEY is VALUE (``jobs/jobname=rr/read/total_ios``).
Nothing is evaluated: a path is looked up, a condition is compared.

As a command (what tests/lib.sh's json_get and the shell tests call):

    fiojson.py get [-f FMT] FILE PATH...   the value of the first PATH that
                                           exists (exit 1 when none does)
    fiojson.py sum [-f FMT] FILE PATH...   the sum of every value the PATHs
                                           name
    fiojson.py expect FILE COND...         "ok" when every COND holds, else
                                           what does not and the jobs' counts
                                           (exit 1)

COND is ``[#]PATH[+PATH...] OP NUMBER`` with OP one of == != >= <= > <; with
``*`` in the paths it must hold for every element; ``#PATH`` is the length
of the list PATH names.  FMT is a printf-style format of one number (%d
truncates).
"""
import json
import re
import sys


def decode(raw):
    """The text of a fio output file: UTF-16 with a BOM, else UTF-8."""
    if raw[:2] in (b'\xff\xfe', b'\xfe\xff'):
        return raw.decode('utf-16')
    return raw.decode('utf-8-sig')


def load(path):
    """The fio object of a file: the last complete JSON object with "jobs" or
    "client_stats" (fio may print text, and other objects, around it)."""
    with open(path, 'rb') as f:
        txt = decode(f.read())
    dec = json.JSONDecoder()
    found, i = None, 0
    while True:
        i = txt.find('{', i)
        if i < 0:
            break
        try:
            o, end = dec.raw_decode(txt, i)
        except ValueError:
            i += 1
            continue
        if isinstance(o, dict) and ('jobs' in o or 'client_stats' in o):
            found, i = o, end
        else:
            i += 1
    if found is None:
        raise ValueError('%s: no fio JSON object (with "jobs" or "client_stats")' % path)
    return found


def _step(values, part):
    out = []
    for v in values:
        if part == '*':
            if not isinstance(v, list):
                raise KeyError('* on a %s' % type(v).__name__)
            out.extend(v)
        elif isinstance(v, list) and '=' in part:
            key, want = part.split('=', 1)
            hit = [e for e in v if isinstance(e, dict) and str(e.get(key)) == want]
            if not hit:
                raise KeyError(part)
            out.append(hit[0])
        elif isinstance(v, list):
            out.append(v[int(part)])
        else:
            out.append(v[part])
    return out


def values(obj, path):
    """The values PATH names in OBJ (a list: one value, or one per '*').
    Raises KeyError (or IndexError, ValueError) when PATH names nothing."""
    vals = [obj]
    for part in path.split('/'):
        try:
            vals = _step(vals, part)
        except (KeyError, IndexError, ValueError, TypeError) as e:
            raise KeyError('%s: no %r (%s)' % (path, part, e))
    return vals


def get(obj, path):
    """The one value PATH names (no '*')."""
    v = values(obj, path)
    if len(v) != 1:
        raise KeyError('%s names %d values' % (path, len(v)))
    return v[0]


OPS = {'==': lambda a, b: a == b, '!=': lambda a, b: a != b, '>=': lambda a, b: a >= b,
       '<=': lambda a, b: a <= b, '>': lambda a, b: a > b, '<': lambda a, b: a < b}
COND = re.compile(r'^\s*(.+?)\s*(==|!=|>=|<=|>|<)\s*(-?[0-9.eE+]+)\s*$')


def _side(obj, expr):
    """The values of one side of a condition: PATH+PATH... added element by
    element, or #PATH, the length of a list."""
    if expr.startswith('#'):
        return [len(get(obj, expr[1:]))]
    terms = [values(obj, p) for p in expr.split('+')]
    n = max(len(t) for t in terms)
    if any(len(t) not in (1, n) for t in terms):
        raise KeyError('%s: terms of different lengths' % expr)
    return [sum(t[i] if len(t) == n else t[0] for t in terms) for i in range(n)]


def check(obj, cond):
    """None when COND holds for OBJ, else why not."""
    m = COND.match(cond)
    if not m:
        raise ValueError('condition %r: want PATH OP NUMBER' % cond)
    expr, op, num = m.groups()
    want = float(num)
    try:
        got = _side(obj, expr)
    except KeyError as e:
        return str(e)
    if got and all(OPS[op](g, want) for g in got):
        return None
    return '%s is %s, want %s %s' % (expr, got[0] if len(got) == 1 else got, op, num)


def job_counts(obj):
    """(name, error, read, write, trim IOs, syncs) of each job: the context of a failure."""
    return [(j.get('jobname'), j.get('error'), j['read']['total_ios'], j['write']['total_ios'],
             j['trim']['total_ios'], j.get('sync', {}).get('lat_ns', {}).get('N'))
            for j in obj.get('jobs', [])]


def _fmt(fmt, v):
    return fmt % v if fmt else str(v)


def main(argv):
    fmt = None
    if len(argv) > 2 and argv[1] == '-f':
        fmt = argv[2]
        argv = argv[:1] + argv[3:]
    if len(argv) < 3 or argv[0] not in ('get', 'sum', 'expect'):
        sys.exit(__doc__)
    cmd, path, args = argv[0], argv[1], argv[2:]
    try:
        obj = load(path)
    except (OSError, ValueError) as e:
        sys.exit('fiojson: %s' % e)
    if cmd == 'get':
        errs = []
        for p in args:
            try:
                print(_fmt(fmt, get(obj, p)))
                return 0
            except KeyError as e:
                errs.append(str(e))
        sys.exit('fiojson: %s: %s' % (path, '; '.join(errs)))
    if cmd == 'sum':
        try:
            print(_fmt(fmt, sum(v for p in args for v in values(obj, p))))
        except KeyError as e:
            sys.exit('fiojson: %s: %s' % (path, e))
        return 0
    bad = [w for w in (check(obj, c) for c in args) if w]
    if not bad:
        print('ok')
        return 0
    print('%s; jobs (name, error, read, write, trim, syncs): %s'
          % ('; '.join(bad), job_counts(obj)))
    return 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
