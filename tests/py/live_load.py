"""live_load.py PORT PID: the HTTP output of the watch under load, on
127.0.0.1:PORT (gen_live, process PID, serving intervals every 200 ms):
  - 20 slow clients each hold a connection with a request never finished;
  - 200 scrapers at once, each GET /metrics 3 times (every answer 200 and
    a strict exposition, lib/promtext.py);
  - a flood of 2000 bad requests (garbage, a 100 kB URL, 64 kB of
    headers, POST with a body, paths not served, HTTP/9.9) in 16 threads,
    each sent whole: each answered 4xx/5xx or the connection closed (the
    garbage by the server's 10 s idle timeout);
while the intervals keep coming (the JSON's seq grows during the load) and
the server's memory stays under the stated bound (VmHWM growth < 64 MiB).
Bounded: every socket has a 20 s timeout.  Prints one JSON object:
scrapes_ok, scrapes_bad, bad_answered, bad_other, seq_before,
seq_after, hwm_growth_kib, seconds."""
import json
import socket
import sys
import threading
import time

from lib import promtext

PORT = int(sys.argv[1])
PID = sys.argv[2]
BASE = "http://127.0.0.1:%d" % PORT


def hwm_kib():
    with open("/proc/%s/status" % PID) as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def seq():
    st, _, body = promtext.http_get(BASE + "/api/intervals?since=999999999")
    return json.loads(body)["seq"] if st == 200 else -1


def scraper(res):
    for _ in range(3):
        try:
            st, _, body = promtext.http_get(BASE + "/metrics", timeout=20)
            promtext.parse(body.decode("utf-8"))
            res.append(st == 200)
        except Exception:  # noqa: BLE001 - any failure is counted
            res.append(False)


BAD = [
    b"\x00\xff\xfe garbage\r\n\r\n",
    b"GET /" + b"A" * 100000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /metrics HTTP/1.1\r\nHost: x\r\n" + b"X-Pad: " + b"p" * 65536 + b"\r\n\r\n",
    b"POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n0123456789",
    b"GET /../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n",
    b"BREW /pot HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /metrics HTTP/9.9\r\n\r\n",
    b"GET /api/intervals?since=%00%ff HTTP/1.1\r\nHost: x\r\n\r\n",
]


def bad_one(req, res):
    s = socket.create_connection(("127.0.0.1", PORT), timeout=20)
    try:
        s.sendall(req)
        s.shutdown(socket.SHUT_WR)
    except OSError:
        pass  # the server closed it before reading all: answered
    try:
        ans = s.recv(64)
    except OSError:
        ans = b""
    s.close()
    code = ans[9:12] if ans.startswith(b"HTTP/1.") else b""
    res.append(code[:1] in (b"4", b"5") or ans == b"")


def flood(n, res):
    # garbage that is no request line is closed by the server's idle
    # timeout (10 s), not answered: once per thread, the rest in turn
    bad_one(BAD[0], res)
    for i in range(n - 1):
        bad_one(BAD[1 + i % (len(BAD) - 1)], res)


def main():
    t0 = time.monotonic()
    hwm0, seq0 = hwm_kib(), seq()
    slow = []
    for _ in range(20):
        s = socket.create_connection(("127.0.0.1", PORT), timeout=20)
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: slow\r\n")
        slow.append(s)
    scr, bad, threads = [], [], []
    for _ in range(200):
        threads.append(threading.Thread(target=scraper, args=(scr,)))
    for _ in range(16):
        threads.append(threading.Thread(target=flood, args=(125, bad)))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    time.sleep(0.5)
    seq1 = seq()
    for s in slow:
        s.close()
    print(json.dumps({
        "scrapes_ok": sum(scr), "scrapes_bad": len(scr) - sum(scr),
        "bad_answered": sum(bad), "bad_other": len(bad) - sum(bad),
        "seq_before": seq0, "seq_after": seq1,
        "hwm_growth_kib": hwm_kib() - hwm0, "seconds": round(time.monotonic() - t0, 1)}))


main()
