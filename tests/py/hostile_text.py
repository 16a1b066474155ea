"""hostile_text.py KIND TEMPLATE OUT NAMEFILE: write OUT, an input of
KIND (fionormal, fioterse, fioterse_desc, cdm, diskspd) that carries the name in NAMEFILE
(raw bytes) where that format carries a string from its writer:
fionormal: the job name (TEMPLATE's first word of each "NAME: (g=0)",
"NAME: Laying out", "NAME: (groupid=...)" line); fioterse: the job name
of a synthesized version 3 line (TEMPLATE unused); fioterse_desc: that
line's description tail (job "job"); cdm: TEMPLATE's free
comment line in the footer; diskspd: TEMPLATE's target path (command
line, "path:", the file column) and computer name.  Exits 3 when the
format cannot hold the name (a newline in a line-based field, ';' in a
terse field)."""
import re
import sys


def fionormal(t, name):
    if b"\n" in name or b"\r" in name:
        sys.exit(3)
    m = re.search(rb"^(\S+): \(groupid=", t, re.M)
    old = m.group(1)
    return re.sub(rb"^" + re.escape(old) + rb": ", lambda _: name + b": ", t, flags=re.M)


def fioterse(_t, name):
    if b"\n" in name or b"\r" in name or b";" in name:
        sys.exit(3)

    def direction(iops, bw):
        pcts = ["%s%%=%d" % (p, 100 + i) for i, p in enumerate(
            ["1.000000", "5.000000", "10.000000", "20.000000", "30.000000", "40.000000",
             "50.000000", "60.000000", "70.000000", "80.000000", "90.000000", "95.000000",
             "99.000000", "99.500000", "99.900000", "99.950000", "99.990000", "0", "0", "0"])]
        pcts[17:] = ["0%=0"] * 3
        return ([str(bw * 10), str(bw), str(iops), "10000"] + ["1", "9", "2.000000", "0.500000"]
                + ["50", "900", "120.000000", "30.000000"] + pcts
                + ["51", "901", "122.000000", "30.000000"]
                + [str(bw - 10), str(bw + 10), "100.000000", "%d.000000" % bw, "1.000000"])
    f = ["3", "fio-3.33", "NAME", "0", "0"] + direction(8000, 32000) + direction(0, 0)
    f[-5:] = ["0", "0", "0.000000", "0.000000", "0.000000"]
    f += ["1.0%", "2.0%", "100", "0", "0"] + ["100.0%"] + ["0.0%"] * 6
    f += ["0.00%"] * 10 + ["0.00%"] * 12
    line = ";".join(f).encode().replace(b"NAME", name, 1)
    return line + b"\n"


def fioterse_desc(_t, name):
    """The name as a job's description= text: the rest of the terse line."""
    if b"\n" in name or b"\r" in name:
        sys.exit(3)
    return fioterse(_t, b"job").rstrip(b"\n") + b";" + name + b"\n"


def cdm(t, name):
    if b"\n" in name or b"\r" in name:
        sys.exit(3)
    lines = t.split(b"\r\n")
    i = max(k for k, ln in enumerate(lines) if ln.startswith(b"  ") and b":" not in ln[:12])
    lines[i] = b"  " + name
    return b"\r\n".join(lines)


def diskspd(t, name):
    if b"\n" in name or b"\r" in name:
        sys.exit(3)
    m = re.search(rb"path: '([^']*)'", t)
    t = t.replace(m.group(1), name)
    return re.sub(rb"computer name: .*", lambda _: b"computer name: " + name, t)


def main():
    kind, tmpl, out, namefile = sys.argv[1:5]
    with open(namefile, "rb") as f:
        name = f.read()
    t = b""
    if not kind.startswith("fioterse"):
        with open(tmpl, "rb") as f:
            t = f.read()
    data = globals()[kind](t, name)
    with open(out, "wb") as f:
        f.write(data)


main()
