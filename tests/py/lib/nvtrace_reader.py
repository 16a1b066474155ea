"""An nvtrace reader written from docs/trace-format.md alone (none of
trace/*.c), to check the C reader and writer against the document.

    nvtrace_reader.py FILE   prints every record as `nvanalyze dump` does
                             (CSV body, no header line), then the line
                             "#blocks N footer F unused U"

A damaged file stops the reader with an AssertionError; a cut one ends at
its last complete block (footer 0, the bytes after it unused).
"""
import struct
import sys
import zlib

M64 = (1 << 64) - 1
OPS = ["read", "write", "trim", "flush", "zeroes", "uncor", "verify"]
FILE_MAGIC, BLOCK_MAGIC, FOOTER_MAGIC = b"NVTRACE\0", b"NVTB", b"NVTF"
BLOCK_HEADER = 48


def decompress(codec, payload, rawlen):
    """A block's payload: codec 1 one zlib stream, 2 one zstd frame (RFC 8878)."""
    if codec == 1:
        return zlib.decompress(payload)
    try:
        import zstandard
    except ImportError:
        sys.exit("nvtrace_reader: zstd blocks need the zstandard module "
                 "(Debian's python3-zstandard: make deps)")
    return zstandard.ZstdDecompressor().decompress(payload, max_output_size=rawlen)


def varint(b, p):
    """Unsigned LEB128 at b[p]: (value, next position)."""
    x = s = 0
    while True:
        c = b[p]
        p += 1
        x |= (c & 0x7f) << s
        s += 7
        if not c & 0x80:
            return x, p


def column(b, p, m):
    """An integer column of m values at b[p]: (values, next position)."""
    w = b[p]
    p += 1
    base, p = varint(b, p)
    vals = [base] * m
    for k in range(w):
        plane = b[p:p + m]
        p += m
        for i in range(m):
            vals[i] += plane[i] << (8 * k)
    return vals, p


def unzz(u):
    """Undo zigzag."""
    return (u >> 1) ^ -(u & 1)


def kv_area(b, p):
    """A kv area at b[p]: ([(key, value)], next position)."""
    count, = struct.unpack_from("<I", b, p)
    p += 4
    out = []
    for _ in range(count):
        kl, vl = struct.unpack_from("<HI", b, p)
        p += 6
        out.append((b[p:p + kl].decode(), b[p + kl:p + kl + vl].decode()))
        p += kl + vl
    return out, p


def records(raw, n):
    """The n records of a raw payload: tuples (submit_ns, complete_ns,
    lat_ns, offset, length, op, status, qd, file)."""
    c0, p = varint(raw, 0)
    d, p = column(raw, p, n - 1)
    comp = [c0]
    for x in d:
        comp.append((comp[-1] + unzz(x)) & M64)
    lat, p = column(raw, p, n)
    sub = [(c - unzz(l)) & M64 for c, l in zip(comp, lat)]
    shift, mode = raw[p], raw[p + 1]
    p += 2
    if mode == 1:
        first, p = varint(raw, p)
        deltas, p = column(raw, p, n - 1)
        lens, p = column(raw, p, n)
        lens = [x << shift for x in lens]
        offs = [first << shift]
        for i in range(1, n):
            offs.append((offs[-1] + lens[i - 1] + (unzz(deltas[i - 1]) << shift)) & M64)
    else:
        offs, p = column(raw, p, n)
        offs = [x << shift for x in offs]
        lens, p = column(raw, p, n)
        lens = [x << shift for x in lens]
    st, p = column(raw, p, n)
    qd, p = column(raw, p, n)
    op, p = column(raw, p, n)
    fi, p = column(raw, p, n)
    assert p == len(raw), "payload not consumed"
    out = []
    for i in range(n):
        lat_ns = (comp[i] - sub[i]) & M64
        if lat_ns >= 1 << 63:
            lat_ns -= 1 << 64
        out.append((sub[i], comp[i], lat_ns, offs[i], lens[i], OPS[op[i]], unzz(st[i]), qd[i],
                    fi[i]))
    return out


class Trace:
    """A parsed trace: header (kv pairs), blocks [(start, end, records)],
    footer (True when present and intact), unused (bytes after the last
    complete block or the footer)."""

    def __init__(self, b, decode=True):
        assert b[:8] == FILE_MAGIC, "not an nvtrace file"
        major, minor, kvlen = struct.unpack_from("<HHI", b, 8)
        assert major == 1, "major version %d" % major
        assert struct.unpack_from("<I", b, 16 + kvlen)[0] == zlib.crc32(b[:16 + kvlen])
        self.header, _ = kv_area(b, 16)
        self.header_end = 20 + kvlen
        self.blocks = []
        self.footer = False
        p = self.header_end
        while p + 4 <= len(b):
            if b[p:p + 4] == FOOTER_MAGIC:
                blen, = struct.unpack_from("<I", b, p + 4)
                if p + 20 + blen > len(b):
                    break
                assert (struct.unpack_from("<I", b, p + 8 + blen)[0]
                        == zlib.crc32(b[p:p + 8 + blen]))
                nb, _ = struct.unpack_from("<IQ", b, p + 8)
                assert nb == len(self.blocks)
                self.footer = True
                p += 20 + blen
                break
            assert b[p:p + 4] == BLOCK_MAGIC
            if p + BLOCK_HEADER > len(b):
                break
            seq, n, rawlen, clen, pcrc, lo, hi, codec = struct.unpack_from("<IIIIIQQB", b, p + 4)
            assert struct.unpack_from("<I", b, p + 44)[0] == zlib.crc32(b[p:p + 44])
            assert seq == len(self.blocks) and codec in (1, 2)
            if p + BLOCK_HEADER + clen > len(b):
                break
            payload = b[p + BLOCK_HEADER:p + BLOCK_HEADER + clen]
            assert zlib.crc32(payload) == pcrc
            recs = []
            if decode:
                raw = decompress(codec, payload, rawlen)
                assert len(raw) == rawlen
                recs = records(raw, n)
            self.blocks.append((p, p + BLOCK_HEADER + clen, n, recs))
            p += BLOCK_HEADER + clen
        self.end = p
        self.unused = len(b) - p


def read(path, decode=True):
    """The Trace in file PATH."""
    with open(path, "rb") as f:
        return Trace(f.read(), decode)


def main(argv):
    t = read(argv[0])
    for _, _, _, recs in t.blocks:
        for r in recs:
            print("%d,%d,%d,%d,%d,%s,%d,%d,%d" % r)
    print("#blocks %d footer %d unused %d" % (len(t.blocks), 1 if t.footer else 0, t.unused))


if __name__ == "__main__":
    main(sys.argv[1:])
