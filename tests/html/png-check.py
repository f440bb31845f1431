#!/usr/bin/env python3
"""Decodes a PNG screenshot with zlib alone (8-bit RGB/RGBA/grey, not interlaced) and checks it
is not blank: prints its size, the number of distinct colours and the share of non-white
pixels. Exit 1 when it is blank (a single colour, or almost nothing but the background).
`--crop X Y W H OUT` also writes that region to OUT (for looking at a part of a long page)."""
import struct
import sys
import zlib


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"png-check: '{path}' is not a PNG")
    pos, idat, hdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = hdr
    if depth != 8 or interlace or ctype not in (0, 2, 6):
        raise SystemExit(f"png-check: unsupported PNG (depth {depth}, type {ctype})")
    bpp = {0: 1, 2: 3, 6: 4}[ctype]
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(h):
        f = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[x] = (line[x] + pr) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def write_png(path, w, h, bpp, rows):
    ctype = {1: 0, 3: 2, 4: 6}[bpp]
    raw = b"".join(b"\x00" + r for r in rows)

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(
            ">I", zlib.crc32(kind + body) & 0xffffffff)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, ctype, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def main():
    args = sys.argv[1:]
    w, h, bpp, rows = read_png(args[0])
    if len(args) >= 6 and args[1] == "--crop":
        x, y, cw, ch = map(int, args[2:6])
        cw, ch = min(cw, w - x), min(ch, h - y)
        write_png(args[6], cw, ch, bpp, [r[x * bpp:(x + cw) * bpp] for r in rows[y:y + ch]])
    colours, ink = set(), 0
    for r in rows[::4]:
        for x in range(0, w * bpp, 4 * bpp):
            px = r[x:x + min(bpp, 3)]
            colours.add(px)
            ink += px != b"\xff" * len(px)
    total = len(rows[::4]) * len(range(0, w * bpp, 4 * bpp))
    share = ink / total if total else 0
    print(f"{w}x{h} colours={len(colours)} ink={share:.3f}")
    sys.exit(0 if len(colours) > 8 and share > 0.01 else 1)


if __name__ == "__main__":
    main()
