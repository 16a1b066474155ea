"""hostile_check.py KIND PATH NAMEFILE: PATH (an nvanalyze output of KIND:
md, text, csv, json, html, or dir for a -o directory) is well-formed and
shows the name in NAMEFILE (raw bytes) as given.  Prints "ok" or why not.
With a fourth argument "shape", only the well-formedness is checked (for
inputs whose string that output does not show: a CrystalDiskMark comment
outside JSON, a diskspd path).

The name is expected as escape.c writes it (tests the contract, not the
code): md: '\\', '|', '`' and '<' before a tag start backslashed; md and
text: newline, tab, control bytes as \\n, \\t, \\xHH; CSV: the name itself,
with a leading "'" when it starts with = + - @ tab CR; JSON: the name
itself; HTML: the text form (no tag from the name)."""
import csv
import html.parser
import io
import json
import os
import re
import sys


def text_esc(b):
    out = bytearray()
    for c in b:
        if c == 10:
            out += b"\\n"
        elif c == 9:
            out += b"\\t"
        elif c < 0x20 or c == 0x7F:
            out += b"\\x%02x" % c
        else:
            out.append(c)
    return bytes(out)


def md_esc(b):
    out = bytearray()
    for i, c in enumerate(b):
        nxt = b[i + 1:i + 2]
        if c in b"\\|`" or (c == ord("<") and re.match(rb"[A-Za-z/!?]", nxt)):
            out += b"\\" + bytes([c])
        else:
            out += text_esc(bytes([c]))
    return bytes(out)


def width(line):
    return sum((c & 0xC0) != 0x80 for c in line)


def bars(line):
    n, i = 0, 0
    while i < len(line):
        if line[i:i + 1] == b"\\":
            i += 2
            continue
        n += line[i:i + 1] == b"|"
        i += 1
    return n


def check_md(data, name):
    lines = data.split(b"\n")
    table = []
    for ln in lines + [b""]:
        if ln.startswith(b"|"):
            table.append(ln)
            continue
        if table:
            if len({width(t) for t in table}) != 1:
                return "md table rows of unequal width: %r" % table[0][:80]
            if len({bars(t) for t in table}) != 1:
                return "md table rows with unequal column counts: %r" % table[0][:80]
        table = []
    if not SHAPE and md_esc(name) not in data:
        return "md: the escaped name is not in the output"
    return None


def check_text(data, name):
    return None if SHAPE or text_esc(name) in data else "text: the name is not in the output"


def check_csv(data, name):
    want = name.decode("utf-8", "surrogateescape")
    if want[:1] in ("=", "+", "-", "@", "\t", "\r"):
        want = "'" + want
    rows = list(csv.reader(io.StringIO(data.decode("utf-8", "surrogateescape"), newline="")))
    if not SHAPE and not any(want in row for row in rows):
        return "csv: no field equals the name"
    return None


def strings(v):
    if isinstance(v, str):
        yield v
    elif isinstance(v, dict):
        for k, x in v.items():
            yield k
            yield from strings(x)
    elif isinstance(v, list):
        for x in v:
            yield from strings(x)


def check_json(data, name):
    try:
        doc = json.loads(data.decode("utf-8"))
    except ValueError as e:
        return "json: not valid JSON: %s" % e
    want = name.decode("utf-8", "replace")
    if not SHAPE and not any(want in s for s in strings(doc)):
        return "json: no string holds the name"
    return None


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.svg, self.bad, self.text, self.fig = 0, [], [], False

    def handle_starttag(self, tag, attrs):
        if tag == "svg":
            self.svg += 1
        if tag == "figure":
            self.fig = (dict(attrs).get("id") or "").startswith("fig-")
        if tag == "img" and self.fig and [a for a, _ in attrs] == ["alt", "src"] and \
                dict(attrs)["src"].startswith("data:image/png;base64,"):
            self.fig = False    # the figure's own PNG (report_html.c), once per figure
            return
        if tag in ("img", "script", "iframe", "object", "embed") or any(
                a.startswith("on") for a, _ in attrs):
            self.bad.append(tag)

    def handle_endtag(self, tag):
        if tag == "svg":
            self.svg -= 1
        if tag == "figure":
            self.fig = False

    def handle_data(self, d):
        if not self.svg:
            self.text.append(d)


def check_html(data, name):
    p = Page()
    p.feed(data.decode("utf-8", "surrogateescape"))
    p.close()
    if p.bad:
        return "html: element or handler from an input: %s" % p.bad[:3]
    want = text_esc(name).decode("utf-8", "surrogateescape")
    if not SHAPE and want not in "".join(p.text):
        return "html: the name is not in the page's text"
    return None


def check_dir(d, name):
    for f, kind in (("report.md", check_md), ("report.html", check_html)):
        with open(os.path.join(d, f), "rb") as fh:
            why = kind(fh.read(), name)
        if why:
            return f + ": " + why
    for f in sorted(os.listdir(os.path.join(d, "data"))):
        with open(os.path.join(d, "data", f), "rb") as fh:
            for ln in fh.read().split(b"\n"):
                if ln and not ln.startswith(b"#") and ln.count(b'"') % 2:
                    return "data/%s: a line with an open quote: %r" % (f, ln[:80])
    gps = [f for f in os.listdir(d) if f.endswith(".gp") and f != "style.gp"]
    for f in gps:
        with open(os.path.join(d, f), "rb") as fh:
            if b"`" in fh.read():
                return "%s: a backquote in the script" % f
    return None


SHAPE = False


def main():
    global SHAPE
    kind, path, namefile = sys.argv[1:4]
    SHAPE = sys.argv[4:5] == ["shape"]
    with open(namefile, "rb") as f:
        name = f.read()
    if kind == "dir":
        why = check_dir(path, name)
    else:
        with open(path, "rb") as f:
            why = globals()["check_" + kind](f.read(), name)
    print(why or "ok")


if __name__ == '__main__':
    main()
