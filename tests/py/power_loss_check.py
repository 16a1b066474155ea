"""One power cut of tests/integration/power_loss.sh, read back.

    power_loss_check.py DIR

DIR holds what the host got back from the cut: pl.nvt (the trace as the
disk had it, possibly empty), dump.csv / dump.rc / dump.err (`nvanalyze
dump` of it), console.log (the guest's console: "nvvm-tick UPTIME" every
TICK s, "nvvm: cut-armed" once the trace existed).  Prints one line:

    records R lost_s L bound_s B lag_s W damaged D end E

R records `nvanalyze dump` accepted; L the time lost: the last tick before
the cut plus one tick period (the cut came before the next tick) minus the
last accepted completion (with no record: minus the tick before arming);
B the promise: the longest block's completion span (1 s when no block came
back) + nv_trace_sync + 1 s for compressing, writing and syncing a block
under TCG; W = L - span - sync, that last part as measured; D the accepted
records that contradict the workload (a sequential 4k read at QD 1 from
offset 0: record i at i*4096 modulo NS_BYTES, op read, status 0, qd 1,
completion after submission, non-decreasing, before the cut: no later
than the last tick plus twice the longest gap between ticks); E how the
file ended: footer, truncated (a block cut short), damaged (a block the
reader rejected), empty (cut before the first sync) or unreadable.
"""
import os
import re
import struct
import sys
import zlib

TICK = 0.05
W_ALLOW = 1.0
BS = 4096
NS_BYTES = int(os.environ.get("NVVM_NS_MB", "128")) * 2**20


def ticks(console):
    """(last tick before the armed line, last tick, longest gap between two
    ticks) in seconds."""
    armed = last = None
    gap = TICK
    with open(console, errors="replace") as f:
        for line in f:
            m = re.search(r"nvvm-tick ([0-9.]+)", line)
            if m:
                t = float(m.group(1))
                if last is not None:
                    gap = max(gap, t - last)
                last = t
            if "nvvm: cut-armed" in line and armed is None:
                armed = last
    return armed, last, gap


def header_and_spans(path):
    """(header kv dict, [block completion spans in s]) from the verified block
    headers, stopping where a header is missing or damaged."""
    with open(path, "rb") as f:
        b = f.read()
    if len(b) < 20 or b[:8] != b"NVTRACE\0":
        return {}, []
    kvlen, = struct.unpack_from("<I", b, 12)
    if (len(b) < 20 + kvlen
            or struct.unpack_from("<I", b, 16 + kvlen)[0] != zlib.crc32(b[:16 + kvlen])):
        return {}, []
    kv, p = {}, 20
    count, = struct.unpack_from("<I", b, 16)
    q = 20
    for _ in range(count):
        kl, vl = struct.unpack_from("<HI", b, q)
        q += 6
        kv[b[q:q + kl].decode()] = b[q + kl:q + kl + vl].decode()
        q += kl + vl
    p = 20 + kvlen
    spans = []
    while p + 48 <= len(b) and b[p:p + 4] == b"NVTB":
        if struct.unpack_from("<I", b, p + 44)[0] != zlib.crc32(b[p:p + 44]):
            break
        _, _, _, clen, pcrc, lo, hi = struct.unpack_from("<IIIIIQQ", b, p + 4)
        if p + 48 + clen > len(b) or zlib.crc32(b[p + 48:p + 48 + clen]) != pcrc:
            break
        spans.append((hi - lo) / 1e9)
        p += 48 + clen
    return kv, spans


def main(d):
    armed, last, gap = ticks(os.path.join(d, "console.log"))
    if last is None:
        print("no-ticks")
        return
    cut = last + TICK
    # The tick loop's period is TICK plus the guest's fork of sleep(1), which
    # a loaded TCG host stretches: the cut came before the next tick, no later
    # than the longest gap the run showed (cut + TICK is the time-lost estimate
    # only: records completed up to ~10 ms past it were seen on a 2-core host).
    cut_latest = last + 2 * gap
    kv, spans = header_and_spans(os.path.join(d, "pl.nvt"))
    m = re.search(r"nv_trace_sync=(\d+)", kv.get("engine.options", ""))
    sync = int(m.group(1)) / 1000 if m else 1.0	# the case runs the default
    span = max(spans) if spans else 1.0
    damaged = n = 0
    prev_c = 0
    last_c = None
    with open(os.path.join(d, "dump.csv")) as f:
        for line in f:
            if line.startswith("submit_ns"):
                continue
            s, c, lat, off, ln, op, st, qd, fi = line.strip().split(",")
            s, c, lat, off = int(s), int(c), int(lat), int(off)
            ok = (off == (n * BS) % NS_BYTES and ln == str(BS) and op == "read" and st == "0"
                  and qd == "1" and fi == "0" and lat > 0 and c >= prev_c
                  and c / 1e9 <= cut_latest)
            damaged += not ok
            prev_c = c
            last_c = c
            n += 1
    rc = int(open(os.path.join(d, "dump.rc")).read().strip() or 2)
    err = open(os.path.join(d, "dump.err")).read()
    if os.path.getsize(os.path.join(d, "pl.nvt")) == 0:
        end = "empty"	# cut before the first sync: nothing of the file on the disk
    elif rc == 0 and "truncated" not in err:
        end = "footer"
    elif rc == 0:
        end = "truncated"
    else:
        end = "damaged" if re.search(r"CRC|damaged|block", err) else "unreadable"
    lost = cut - (last_c / 1e9 if last_c is not None else (armed if armed is not None else last))
    bound = span + sync + W_ALLOW
    print("records %d lost_s %.2f bound_s %.2f lag_s %.2f damaged %d end %s"
          % (n, lost, bound, lost - span - sync, damaged, end))


if __name__ == "__main__":
    main(sys.argv[1])
