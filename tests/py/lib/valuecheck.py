"""The shared tail of the value checks (cdm_values, diskspd_values): an
independent reader gives {(job, direction): {metric: value}} as a tool's
report prints them, and this compares them with `nvanalyze --format json`
of the same report, metric by metric.

    from lib import valuecheck
    sys.exit(valuecheck.main(want, sys.argv[2], rel=1e-9, also=[]))

Prints "N values" and returns 0, or prints every difference and returns 1.
A metric the reader found that nvanalyze lacks is a difference; so is a
test nvanalyze reports that the reader did not find, and a report where the
reader found nothing.
"""
import json


def sides(json_path):
    """{(job, direction): the first side's metrics} of an nvanalyze JSON."""
    with open(json_path) as f:
        doc = json.load(f)
    return {(r['job'], r['direction']): next(iter(r['sides'].values()))
            for r in doc['results']}


def differs(got, want, rel):
    """True when got is absent or not want within rel (absolute below 1)."""
    if isinstance(want, dict):
        if not isinstance(got, dict) or set(got) != set(want):
            return True
        return any(differs(got[k], v, rel) for k, v in want.items())
    return got is None or abs(got - want) > rel * max(abs(want), 1)


def compare(want, got, rel):
    """(differences, number of values compared) of want against got."""
    bad, n = [], 0
    for key, metrics in sorted(want.items()):
        side = got.get(key)
        if side is None:
            bad.append('%s %s: missing in nvanalyze output' % key)
            continue
        for k, v in sorted(metrics.items()):
            if differs(side.get(k), v, rel):
                bad.append('%s %s %s: nvanalyze %r, report %r' % (key + (k, side.get(k), v)))
            n += len(v) if isinstance(v, dict) else 1
    extra = sorted(set(got) - set(want))
    if extra:
        bad.append('tests the report does not hold: %s' %
                   ', '.join('%s %s' % k for k in extra))
    if not want:
        bad.append('no results found in the report')
    return bad, n


def main(want, json_path, rel, also=()):
    """Compare and print, with also (differences the caller found).
    Return: the exit status (0 same, 1 differences)."""
    bad, n = compare(want, sides(json_path), rel)
    return finish(list(also) + bad, '%d values' % n)


def finish(bad, ok):
    """Print the differences bad, or ok when there are none.
    Return: the exit status (0 none, 1 differences)."""
    if bad:
        print('\n'.join(bad))
        return 1
    print(ok)
    return 0
