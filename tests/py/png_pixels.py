#!/usr/bin/env python3
"""Decode PNG files to their pixels (8-bit, non-interlaced, as cairo writes
them) and print, per file, one line:

    FILE WIDTHxHEIGHT COLOR_TYPE PIXELS_SHA256 filters=F0,F1,...

PIXELS_SHA256 hashes the unfiltered rows, so two encodings of one image
(other row filters, another deflate level) print the same hash; filters=
lists the row filter types used (0 none ... 4 Paeth).  Exit 1 on a file
that is not such a PNG, naming it.

Usage: png_pixels.py FILE...
"""
import hashlib
import struct
import sys
import zlib

CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}	# colour type -> samples a pixel


def chunks(data, path):
    """The (type, body) chunks after the signature.  Raise ValueError if damaged."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("{}: not a PNG (no signature)".format(path))
    at = 8
    while at + 8 <= len(data):
        n, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + n]
        if len(body) != n:
            raise ValueError("{}: chunk {!r} cut short".format(path, kind))
        yield kind, body
        at += 12 + n


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def unfilter(raw, width, height, bpp, path):
    """The rows of raw (filter byte + row each) unfiltered, and the filter types used."""
    stride = width * bpp
    prev = bytearray(stride)
    out, used = bytearray(), set()
    for y in range(height):
        at = y * (stride + 1)
        ft, row = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        if len(row) != stride or ft > 4:
            raise ValueError("{}: row {} damaged (filter {})".format(path, y, ft))
        used.add(ft)
        if ft == 1:
            for i in range(bpp, stride):
                row[i] = (row[i] + row[i - bpp]) & 255
        elif ft == 2:
            for i in range(stride):
                row[i] = (row[i] + prev[i]) & 255
        elif ft == 3:
            for i in range(stride):
                left = row[i - bpp] if i >= bpp else 0
                row[i] = (row[i] + ((left + prev[i]) >> 1)) & 255
        elif ft == 4:
            for i in range(stride):
                left = row[i - bpp] if i >= bpp else 0
                up_left = prev[i - bpp] if i >= bpp else 0
                row[i] = (row[i] + paeth(left, prev[i], up_left)) & 255
        out += row
        prev = row
    return bytes(out), used


def decode(path):
    """(width, height, colour type, pixel sha256, filters used) of the PNG at path."""
    with open(path, "rb") as f:
        data = f.read()
    ihdr, idat = None, b""
    for kind, body in chunks(data, path):
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
    if not ihdr:
        raise ValueError("{}: no IHDR".format(path))
    width, height, depth, ctype, _, _, interlace = ihdr
    if depth != 8 or interlace or ctype not in CHANNELS:
        raise ValueError("{}: depth {}, colour type {}, interlace {}: not read here".format(
            path, depth, ctype, interlace))
    pixels, used = unfilter(zlib.decompress(idat), width, height, CHANNELS[ctype], path)
    return width, height, ctype, hashlib.sha256(pixels).hexdigest(), sorted(used)


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    for path in argv[1:]:
        try:
            w, h, ctype, digest, used = decode(path)
        except (OSError, ValueError, zlib.error) as e:
            print("png_pixels: {}".format(e), file=sys.stderr)
            return 1
        print("{} {}x{} {} {} filters={}".format(path, w, h, ctype, digest,
                                                  ",".join(map(str, used))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
