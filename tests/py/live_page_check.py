"""live_page_check.py DOM1 DOM2 NAMEFILE: the live page as a browser left it
(chromium --dump-dom, twice, seconds apart, while intervals came):
  - drawn: each dump has charts (an <svg> with a <polyline> of 2 or more
    points) for every job and op, 3 per series;
  - moving: the charts' points differ between the two dumps;
  - escaped: the job name in NAMEFILE (raw bytes) is in the page's text in
    escape.c's text form (the table and the chart's caption) and made no
    element or handler: no <img>, <iframe>, <object>, <embed>, no on*
    attribute, one <script> (the page's own), the title not PWNED_*.
Prints "ok: ..." or why not (exit 1)."""
import html.parser
import sys

from hostile_check import text_esc


class Dom(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.lines, self.bad, self.scripts, self.text, self.title = [], [], 0, [], ""
        self.where = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.where = tag
        self.scripts += tag == "script"
        if tag == "polyline":
            self.lines.append(a.get("points", ""))
        if tag in ("img", "iframe", "object", "embed") or any(k.startswith("on") for k in a):
            self.bad.append(tag)

    def handle_data(self, d):
        if self.where == "title":
            self.title += d
        if self.where != "script":
            self.text.append(d)

    def handle_endtag(self, tag):
        self.where = None


def load(path):
    d = Dom()
    with open(path, encoding="utf-8", errors="replace") as f:
        d.feed(f.read())
    return d


def main():
    a, b = load(sys.argv[1]), load(sys.argv[2])
    with open(sys.argv[3], "rb") as f:
        name = text_esc(f.read()).decode("utf-8", "replace")
    why = []
    for i, d in enumerate((a, b)):
        drawn = [p for p in d.lines if len(p.split()) >= 2]
        if len(drawn) < 4 * 5:  # 2 jobs x 2 ops x (IOPS, MB/s, 3 latencies)
            why.append("dump %d: %d charted lines, want 20" % (i + 1, len(drawn)))
        if d.bad or d.scripts != 1 or "PWNED" in d.title:
            why.append("dump %d: %s, %d scripts, title %r" % (i + 1, d.bad[:3], d.scripts,
                                                              d.title[:60]))
        if "".join(d.text).count(name) < 2:
            why.append("dump %d: the name is not in the table and a caption" % (i + 1))
    if a.lines == b.lines:
        why.append("the charts did not move between the dumps")
    if why:
        print("; ".join(why))
        return 1
    print("ok: %d and %d lines drawn, moved, the name escaped" % (len(a.lines), len(b.lines)))
    return 0


sys.exit(main())
