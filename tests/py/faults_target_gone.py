"""faults.sh, target gone: the trace of a job whose device vanished is
complete, holds exactly fio's IOs, and its failed IOs carry -EIO/-ENOSPC
with fio's job error among them.

    faults_target_gone.py FIO.json NVANALYZE TRACE   prints "ok ..." or the problems
"""
import sys

from lib import fiojson
from lib import tracecsv


def main(js, nva, trace):
    job = fiojson.load(js)['jobs'][0]
    rc, out, err = tracecsv.stat(nva, trace)
    if rc != 0 or 'footer: present' not in out:
        sys.exit('trace not complete: rc %d: %s' % (rc, err.strip()))
    rows = tracecsv.dump(nva, trace)
    problems = []
    for op in ('read', 'write'):
        n = sum(1 for r in rows if r['op'] == op)
        if n != job[op]['total_ios']:
            problems.append('%s: trace %d records, fio total_ios %d'
                            % (op, n, job[op]['total_ios']))
    errs = [r for r in rows if r['status'] != '0']
    statuses = sorted({r['status'] for r in errs})
    if not errs:
        problems.append('no failed IO in the trace')
    elif not set(statuses) <= {'-5', '-28'}:
        problems.append('failed IOs with status other than -EIO/-ENOSPC: %s' % statuses)
    elif '-%d' % job['error'] not in statuses:
        problems.append('fio job error %d not among the trace statuses %s'
                        % (job['error'], statuses))
    print('; '.join(problems) if problems else 'ok %d records, %d failed' % (len(rows), len(errs)))


if __name__ == '__main__':
    main(*sys.argv[1:4])
