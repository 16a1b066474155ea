#!/usr/bin/env python3
"""sweep.sh: where the knee of a QD sweep on a loop device throttled by
blk-throttle (cgroup v1 blkio.throttle.read_iops_device) must fall.

    throttle_model.py CLAT_LOG Q1 CAL_CAP CAL_IOPS DEPTHS

blk-throttle lets a group dispatch cap x slice IOs per slice (throtl_slice,
block/blk-throttle.c: a bio beyond the budget waits for the end of the
slice).  A job at queue depth Q that reaches the cap has, per slice, the IO
that found the budget spent and the Q - 1 submitted after it waiting for
the next slice, so a fraction Q / (cap x slice) of its IOs wait most of a
slice, the others take microseconds.  Its p99 is a slice-long wait once
that fraction is above 1%, a fast IO while it is below.  The IOPS are the
cap at every depth that reaches it.  The slice is DFL_THROTL_SLICE, HZ / 10
(100 ms), but some kernels took HZ / 50 for non-rotational devices
(DFL_THROTL_SLICE_SSD, dropped again by commit f76581f9f1d2): so it is
measured, not assumed.

CLAT_LOG is fio's clat log (write_lat_log, log_avg_msec=0) of a QD 1 job
run at CAL_CAP (CAL_IOPS its IOPS): its waits (clat above a quarter of the
longest) complete one per slice, so the slice is the median time between
them.  Q1 is QD 1's IOPS unthrottled.  DEPTHS (comma-separated, rising)
are the sweep's; the cap is chosen so that the first two depths are equally
far from the 1% line on either side (cap x slice = 100 x sqrt(D1 x D2)
IOs), e.g. 283 IOs a slice for 1,8: 0.35% of QD 1's IOs wait, 2.8% of
QD 8's.  The knee rule (p99 more than 2x while IOPS grow under 10%) then
puts the knee at the first depth above 1%, the second.  Prints

    cap=C slice_ms=S waits=W/N (F%) expect=D model=Q:F%,...

(W of the calibration's N IOs waited: about 1 / (CAL_CAP x slice))

or "skip REASON" when the model cannot promise that: the calibration must
have run at its cap and the cap must be at most 60% of Q1 (so that every
depth, QD 1 included, runs at the cap on a loaded machine too).
"""
import math
import statistics
import sys

HEADROOM = 0.6  # the cap at most this share of QD 1's unthrottled IOPS


def slice_ms(path):
    t, lat = [], []
    with open(path) as f:
        for line in f:
            cols = line.split(",")
            t.append(int(cols[0]))
            lat.append(int(cols[1]))
    top = max(lat)
    waits = [ti for ti, li in zip(t, lat) if li > top / 4]
    gaps = [b - a for a, b in zip(waits, waits[1:])]
    return (statistics.median(gaps) if len(gaps) >= 4 else None), len(waits), len(lat)


def main():
    log, q1, cal_cap, cal_iops, depths = sys.argv[1:6]
    q1, cal_cap, cal_iops = float(q1), float(cal_cap), float(cal_iops)
    depths = [int(d) for d in depths.split(",")]
    s, nwait, nio = slice_ms(log)
    if cal_iops < 0.9 * cal_cap:
        print("skip QD 1 did %.0f IOPS at a cap of %.0f: the calibration is not at the cap"
              % (cal_iops, cal_cap))
        return 0
    if s is None or s <= 0:
        print("skip %d waits in %d IOs at a cap of %.0f: no slice to measure"
              % (nwait, nio, cal_cap))
        return 0
    budget = 100 * math.sqrt(depths[0] * depths[1])
    cap = int(round(budget / (s / 1000) / 10) * 10)
    if cap > HEADROOM * q1:
        print("skip slice %.0f ms: the cap would be %d IOPS, more than %.0f%% of QD 1's"
              " %.0f unthrottled IOPS on this machine now" % (s, cap, 100 * HEADROOM, q1))
        return 0
    frac = [(d, d / (cap * s / 1000)) for d in depths]
    expect = next((d for d, f in frac if f > 0.01), None)
    print("cap=%d slice_ms=%.0f waits=%d/%d (%.2f%%) expect=%s model=%s" % (
        cap, s, nwait, nio, 100 * nwait / nio, expect,
        ",".join("%d:%.2f%%" % (d, 100 * f) for d, f in frac)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
