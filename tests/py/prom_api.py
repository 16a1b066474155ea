"""prom_api.py: a real Prometheus' HTTP API for the tests (tests/lib.sh's
prom_* functions), with the standard library.

    prom_api.py ready URL SECONDS             exit 0 once URL/-/ready answers
                                              200, 1 after SECONDS
    prom_api.py query URL QUERY [TIME]        /api/v1/query's JSON answer
    prom_api.py query_range URL QUERY START END STEP
                                              /api/v1/query_range's answer
"""
import json
import sys
import time
import urllib.parse

from lib import promtext


def api(url, path, **args):
    st, _, body = promtext.http_get(url + path + "?" + urllib.parse.urlencode(args))
    doc = json.loads(body)
    if st != 200 or doc.get("status") != "success":
        raise SystemExit("prometheus %s: HTTP %s: %s" % (path, st, body[:300]))
    return doc


def main():
    cmd, url = sys.argv[1], sys.argv[2]
    if cmd == "ready":
        end = time.monotonic() + float(sys.argv[3])
        while time.monotonic() < end:
            try:
                if promtext.http_get(url + "/-/ready", timeout=2)[0] == 200:
                    return 0
            except OSError:
                pass
            time.sleep(0.2)
        return 1
    if cmd == "query":
        args = {"query": sys.argv[3]}
        if len(sys.argv) > 4:
            args["time"] = sys.argv[4]
        print(json.dumps(api(url, "/api/v1/query", **args)))
    elif cmd == "query_range":
        q, start, end, step = sys.argv[3:7]
        print(json.dumps(api(url, "/api/v1/query_range", query=q, start=start, end=end,
                             step=step)))
    return 0


sys.exit(main())
