"""report_outputs.sh: a browser's screenshot of report.html is not blank
and shows the figures, and the page's DOM has the figures inline.

    png_page_check.py SHOT.png DOM.html NFIG   prints what it measured; exit 0
when over 2% of the sampled pixels are not white, over 50 are the figures'
first colour (Okabe-Ito blue) and the DOM has NFIG figures shown: <svg>
elements, or <img> of PNG data: URIs (what the default -o embeds).
"""
import struct, sys, zlib


def png_rows(path):
    """The rows of an 8-bit RGB/RGBA PNG, not interlaced (as Chromium writes)."""
    d = open(path, 'rb').read()
    assert d[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
    pos, idat = 8, b''
    while pos < len(d):
        n, kind = struct.unpack('>I4s', d[pos:pos + 8])
        body = d[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            w, h, depth, ctype, _, _, inter = struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    assert depth == 8 and ctype in (2, 6) and not inter, 'PNG kind %d/%d' % (depth, ctype)
    bpp = 3 if ctype == 2 else 4
    raw, stride, prev, out = zlib.decompress(idat), w * bpp, bytearray(w * bpp), []
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out.append(line)
        prev = line
    return w, bpp, out


w, bpp, rows = png_rows(sys.argv[1])
ink = blue = total = 0
for line in rows[::4]:
    for x in range(0, w * bpp, 4 * bpp):
        r, g, b = line[x], line[x + 1], line[x + 2]
        total += 1
        ink += (r, g, b) != (255, 255, 255)
        blue += b > 150 and r < 60 and 80 < g < 150
dom = open(sys.argv[2]).read()
nsvg = dom.count('<svg') + dom.count('src="data:image/png;base64,')
print('ink %.3f blue %d figures-in-dom %d' % (ink / total, blue, nsvg))
sys.exit(0 if ink / total > 0.02 and blue > 50 and nsvg == int(sys.argv[3]) else 1)
