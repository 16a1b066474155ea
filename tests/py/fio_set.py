"""A fio JSON file with some values set by hand: the rules of the comparison
tested on numbers chosen for them (tests/integration/compare_rules.sh).

    fio_set.py IN OUT PATH=VALUE...

PATH as in lib/fiojson.py (``jobs/jobname=randread/read/iops``; ``*`` sets
every element); VALUE a JSON value.  OUT is IN's fio object (only it) with
the values set.
"""
import json
import sys

from lib import fiojson


def put(obj, path, value):
    """Set every value PATH names in OBJ to VALUE (KeyError when none)."""
    parent, _, last = path.rpartition('/')
    holders = fiojson.values(obj, parent) if parent else [obj]
    for h in holders:
        if isinstance(h, list):
            h[int(last)] = value
        elif last in h:
            h[last] = value
        else:
            raise KeyError('%s: no %r' % (path, last))


def main(argv):
    if len(argv) < 3 or any('=' not in a for a in argv[2:]):
        sys.exit(__doc__)
    obj = fiojson.load(argv[0])
    for a in argv[2:]:
        # the last '=' that is followed by a JSON value separates PATH from it
        path, _, value = a.rpartition('=')
        try:
            put(obj, path, json.loads(value))
        except (KeyError, ValueError) as e:
            sys.exit('fio_set: %s: %s' % (a, e))
    with open(argv[1], 'w') as f:
        json.dump(obj, f, indent=1)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
