"""Prometheus' text exposition format (version 0.0.4) read back, strictly,
for the tests of `nvanalyze watch --listen` (written from the format's
documentation, not from nvanalyze's code): a sample line is
``name{label="value",...} value [timestamp_ms]``, a label value's escapes
are ``\\\\``, ``\\"`` and ``\\n`` only.  http_get fetches a URL on
localhost with the standard library."""
import re
import urllib.error
import urllib.request

NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")


def _label_value(line, i):
    """The value of the quoted string at line[i] (after the quote) and the
    index after its closing quote."""
    out = []
    while True:
        c = line[i]
        if c == '"':
            return "".join(out), i + 1
        if c == "\\":
            e = line[i + 1]
            if e not in '\\"n':
                raise ValueError("bad escape \\%s" % e)
            out.append("\n" if e == "n" else e)
            i += 2
            continue
        if c == "\n":
            raise ValueError("raw newline in a label value")
        out.append(c)
        i += 1


def parse_line(line):
    """(name, {label: value}, value, timestamp_ms or None) of a sample line."""
    m = NAME.match(line)
    if not m:
        raise ValueError("no metric name: %r" % line[:80])
    name, i, labels = m.group(0), m.end(), {}
    if line[i:i + 1] == "{":
        i += 1
        while line[i] != "}":
            m = NAME.match(line, i)
            if not m or line[m.end():m.end() + 2] != '="':
                raise ValueError("bad label at %d: %r" % (i, line[:80]))
            key = m.group(0)
            val, i = _label_value(line, m.end() + 2)
            if key in labels:
                raise ValueError("label %s twice" % key)
            labels[key] = val
            if line[i] == ",":
                i += 1
            elif line[i] != "}":
                raise ValueError("bad label list: %r" % line[:80])
        i += 1
    rest = line[i:].split(" ")
    if rest[0] != "" or len(rest) not in (2, 3):
        raise ValueError("bad value part: %r" % line[i:i + 80])
    value = float(rest[1])
    ts = int(rest[2]) if len(rest) == 3 else None
    return name, labels, value, ts


def parse(text):
    """Every sample of an exposition, with the TYPE of each family."""
    samples, types = [], {}
    for line in text.split("\n"):
        if not line:
            continue
        if line.startswith("# TYPE "):
            _, _, fam, typ = line.split(" ", 3)
            types[fam] = typ
        elif not line.startswith("#"):
            samples.append(parse_line(line))
    return samples, types


def http_get(url, timeout=30):
    """(status, headers, body bytes) of GET url."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()
