#!/usr/bin/env python3
"""Draws the page's icon, two arrows (the gateway between a browser and a head unit) on the
page's accent blue, into public/favicon.svg and public/favicon.ico (32x32 and 16x16 PNGs in an
ICO, for browsers that ask for /favicon.ico). One list of shapes makes both; standard library
only. Usage: python3 Scripts/make-favicon.py (from the package root)."""
import pathlib
import struct
import zlib

BLUE, WHITE = (0x1F, 0x6F, 0xEB), (0xFF, 0xFF, 0xFF)
RADIUS = 6
# On a 32x32 canvas: the top arrow points right, the bottom one left.
ARROWS = [
    [(6, 9), (20, 9), (20, 5), (27, 11), (20, 17), (20, 13), (6, 13)],
    [(26, 19), (12, 19), (12, 15), (5, 21), (12, 27), (12, 23), (26, 23)],
]


def svg() -> str:
    paths = "".join(f'<path d="M{" L".join(f"{x} {y}" for x, y in arrow)} Z" fill="#fff"/>' for arrow in ARROWS)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
            f'<rect width="32" height="32" rx="{RADIUS}" fill="#1f6feb"/>{paths}</svg>\n')


def inside_polygon(x, y, polygon) -> bool:
    hit = False
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def inside_rounded_square(x, y) -> bool:
    cx, cy = min(max(x, RADIUS), 32 - RADIUS), min(max(y, RADIUS), 32 - RADIUS)
    return (x - cx) ** 2 + (y - cy) ** 2 <= RADIUS ** 2


def pixels(size: int, samples: int = 4) -> bytes:
    """RGBA rows, each sample of a pixel judged at its centre on the 32x32 canvas."""
    rows = bytearray()
    scale = 32 / size
    for row in range(size):
        rows.append(0)  # PNG filter: none
        for column in range(size):
            colour, alpha = [0, 0, 0], 0
            for sy in range(samples):
                for sx in range(samples):
                    x, y = (column + (sx + 0.5) / samples) * scale, (row + (sy + 0.5) / samples) * scale
                    if not inside_rounded_square(x, y):
                        continue
                    rgb = WHITE if any(inside_polygon(x, y, arrow) for arrow in ARROWS) else BLUE
                    colour = [c + v for c, v in zip(colour, rgb)]
                    alpha += 1
            rows += bytes([c // alpha if alpha else 0 for c in colour] + [255 * alpha // samples ** 2])
    return bytes(rows)


def png(size: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(pixels(size), 9)) + chunk(b"IEND", b"")


def ico(images: list[tuple[int, bytes]]) -> bytes:
    """An ICO holding PNG images (Windows Vista's format, which every browser reads)."""
    directory, offset = b"", 6 + 16 * len(images)
    for size, data in images:
        directory += struct.pack("<BBBBHHII", size % 256, size % 256, 0, 0, 1, 32, len(data), offset)
        offset += len(data)
    return struct.pack("<HHH", 0, 1, len(images)) + directory + b"".join(data for _, data in images)


public = pathlib.Path(__file__).resolve().parent.parent / "public"
(public / "favicon.svg").write_text(svg())
(public / "favicon.ico").write_bytes(ico([(32, png(32)), (16, png(16))]))
print(f"wrote {public / 'favicon.svg'} and {public / 'favicon.ico'}")
