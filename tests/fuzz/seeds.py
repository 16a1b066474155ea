#!/usr/bin/env python3
"""Seed inputs for the trace fuzz targets, cut from real trace files.

    seeds.py OUTDIR TRACE...

Writes OUTDIR/fuzz_trace_file/ (each trace with flag byte 0 and with flag
byte 3: recompute CRCs, seek) and OUTDIR/fuzz_trace_block/ (for each block:
the 48-byte header, the inflated payload with its record count; the header
kv area; the footer body), in the input formats tests/fuzz/fuzz_trace_*.c
describe.  The layout follows docs/trace-format.md.
"""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'py'))
from lib import nvtrace_reader  # noqa: E402  (tests/py/lib: one decoder of block payloads)


def cut(path, out_file, out_block):
    data = open(path, 'rb').read()
    base = os.path.basename(path)
    for flag in (0, 3):
        with open(os.path.join(out_file, '%s.f%d' % (base, flag)), 'wb') as f:
            f.write(bytes([flag]) + data)
    kv_len = struct.unpack_from('<I', data, 12)[0]
    with open(os.path.join(out_block, base + '.kv'), 'wb') as f:
        f.write(b'\x02' + data[16:16 + kv_len])
    pos = 16 + kv_len + 4
    n = 0
    while pos + 8 <= len(data):
        magic = data[pos:pos + 4]
        if magic == b'NVTB':
            nrec, raw_len, comp_len = struct.unpack_from('<III', data, pos + 8)
            hdr = data[pos:pos + 48]
            raw = nvtrace_reader.decompress(data[pos + 40], data[pos + 48:pos + 48 + comp_len],
                                            raw_len)
            if n < 4:	# a few blocks are enough
                with open(os.path.join(out_block, '%s.hdr%d' % (base, n)), 'wb') as f:
                    f.write(b'\x01' + hdr)
                if nrec < 65536:
                    with open(os.path.join(out_block, '%s.raw%d' % (base, n)), 'wb') as f:
                        f.write(b'\x00' + struct.pack('<H', nrec) + raw)
            pos += 48 + comp_len
            n += 1
        elif magic == b'NVTF':
            body = struct.unpack_from('<I', data, pos + 4)[0]
            with open(os.path.join(out_block, base + '.footer'), 'wb') as f:
                f.write(b'\x03' + data[pos + 8:pos + 8 + body])
            break
        else:
            break


def main():
    out = sys.argv[1]
    out_file = os.path.join(out, 'fuzz_trace_file')
    out_block = os.path.join(out, 'fuzz_trace_block')
    os.makedirs(out_file, exist_ok=True)
    os.makedirs(out_block, exist_ok=True)
    for p in sys.argv[2:]:
        cut(p, out_file, out_block)


main()
