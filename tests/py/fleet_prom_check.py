"""fleet_prom_check.py: a fleet's watchers (jobs/run --host ... --listen)
scraped by one real Prometheus from jobs/run's file_sd list.

    fleet_prom_check.py PROM_URL CLIENT_JSON TARGETS_JSON

TARGETS_JSON: DIR/prometheus-targets.json.  Checks that every target of it
is one host ("host" label, "HOST:PORT"), that Prometheus holds
nvengine_ios_total of each host under its own host label, scraped from
that host's target (instance HOST:PORT) and no other, and that the final
count per host (every job, op != "all") equals that host's IO count in the
fio client's JSON (client_stats, "All clients" left out).  Prints a
summary; exit 1 with what differs.
"""
import json
import sys
import urllib.parse

from lib import fiojson, promtext


def fio_counts(path):
    """{host: read + write + trim total_ios} of the client's JSON."""
    n = {}
    for e in fiojson.load(path).get("client_stats", []):
        if e.get("jobname") == "All clients":
            continue
        h = e.get("hostname")
        n[h] = n.get(h, 0) + sum(e.get(d, {}).get("total_ios", 0)
                                 for d in ("read", "write", "trim"))
    return n


def main():
    url, client, targets = sys.argv[1:4]
    with open(targets, encoding="utf-8") as f:
        sd = json.load(f)
    want = {}
    for t in sd:
        host = t["labels"]["host"]
        if len(t["targets"]) != 1 or t["targets"][0].rsplit(":", 1)[0] != host:
            raise SystemExit("file_sd entry %r: not one target HOST:PORT of its host" % t)
        want[host] = t["targets"][0]
    q = 'sum by (host, instance) (max_over_time(nvengine_ios_total{op!="all"}[30m]))'
    st, _, body = promtext.http_get(url + "/api/v1/query?" + urllib.parse.urlencode({"query": q}))
    res = json.loads(body)["data"]["result"] if st == 200 else None
    if res is None:
        raise SystemExit("prometheus: HTTP %s: %s" % (st, body[:300]))
    got = {}
    for r in res:
        m = r["metric"]
        key = (m.get("host"), m.get("instance"))
        got[key] = int(float(r["value"][1]))
    fio = fio_counts(client)
    bad = []
    if set(got) != {(h, i) for h, i in want.items()}:
        bad.append("series (host, instance) %s, the file_sd list %s"
                   % (sorted(got), sorted(want.items())))
    for h, i in sorted(want.items()):
        if got.get((h, i)) != fio.get(h):
            bad.append("host %s: nvengine_ios_total %s, fio counted %s"
                       % (h, got.get((h, i)), fio.get(h)))
    if bad:
        print("; ".join(bad))
        return 1
    print("%d hosts, each under its host label from its own target: %s" % (
        len(want), ", ".join("%s=%d IOs" % (h, got[(h, i)]) for h, i in sorted(want.items()))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
