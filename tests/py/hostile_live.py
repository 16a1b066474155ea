"""hostile_live.py PORT NAMEFILE...: the HTTP output of the watch (the
stand-in gen_live, one job per NAMEFILE, on 127.0.0.1:PORT) shows every
hostile name as given: /metrics parses strictly (lib/promtext.py) with each
name, UTF-8 with U+FFFD for other bytes, as an fio_job label value; the
JSON of /api/intervals holds each name the same way; the page / shows
each in escape.c's text form as text, with no element or handler from a
name (one script: the page's own).  Prints "ok" or why not."""
import html.parser
import json
import sys

from hostile_check import text_esc
from lib import promtext


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.scripts, self.bad, self.text, self.in_script = 0, [], [], False

    def handle_starttag(self, tag, attrs):
        self.scripts += tag == "script"
        self.in_script = tag == "script"
        if tag in ("img", "iframe", "object", "embed", "svg", "a") or any(
                a.startswith("on") for a, _ in attrs):
            self.bad.append(tag)

    def handle_endtag(self, tag):
        self.in_script = False

    def handle_data(self, d):
        if not self.in_script:
            self.text.append(d)


def main():
    base = "http://127.0.0.1:%s" % sys.argv[1]
    names = []
    for p in sys.argv[2:]:
        with open(p, "rb") as f:
            names.append(f.read())
    why = []
    st, hdr, body = promtext.http_get(base + "/metrics")
    samples, _ = promtext.parse(body.decode("utf-8"))
    jobs = {lb.get("fio_job") for n, lb, _, _ in samples if n == "nvengine_ios_total"}
    st, hdr, body = promtext.http_get(base + "/api/intervals?since=0")
    doc = json.loads(body.decode("utf-8"))
    jjobs = {s["job"] for s in doc["series"]}
    st, hdr, body = promtext.http_get(base + "/")
    page = Page()
    page.feed(body.decode("utf-8", "replace"))
    page.close()
    text = "".join(page.text)
    if page.scripts != 1 or page.bad:
        why.append("page: %d scripts, elements from a name: %s" % (page.scripts, page.bad[:3]))
    for i, n in enumerate(names):
        want = n.decode("utf-8", "replace")
        if want not in jobs:
            why.append("name %d not an fio_job label of /metrics" % i)
        if want not in jjobs:
            why.append("name %d not a job of /api/intervals" % i)
        if text_esc(n).decode("utf-8", "replace") not in text:
            why.append("name %d not in the page's text" % i)
    print("; ".join(why) or "ok")


main()
