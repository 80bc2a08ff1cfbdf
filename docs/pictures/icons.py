"""Draws the web app's icons (standard library only) into service/http/web/icons/.

    python docs/pictures/icons.py

A mahjong tile (one circle) leaning on a long Paohuzi card, on the table's felt. ``icon-192.png``
and ``icon-512.png`` have rounded corners; ``maskable-512.png`` fills the square and keeps the
drawing inside the middle 80 % a launcher's mask never cuts.
"""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parents[2] / "service" / "http" / "web" / "icons"
FELT = (0x1D, 0x5C, 0x3F)
FELT_DARK = (0x12, 0x3D, 0x2A)
IVORY = (0xF6, 0xEF, 0xDC)
EDGE = (0xC9, 0xBC, 0x98)
RED = (0xC8, 0x32, 0x2B)
GREEN = (0x1F, 0x7A, 0x4D)
BLUE = (0x24, 0x4E, 0x9C)
GOLD = (0xE7, 0xB8, 0x4A)


def box(px: float, py: float, cx: float, cy: float, hw: float, hh: float, r: float, turn: float) -> float:
    """Signed distance from a point to a rounded rectangle centred at (cx, cy), turned by `turn` rad."""
    c, s = math.cos(turn), math.sin(turn)
    x, y = px - cx, py - cy
    x, y = abs(c * x + s * y), abs(-s * x + c * y)
    qx, qy = x - hw + r, y - hh + r
    return math.hypot(max(qx, 0.0), max(qy, 0.0)) + min(max(qx, qy), 0.0) - r


def ring(px: float, py: float, cx: float, cy: float, r: float) -> float:
    return math.hypot(px - cx, py - cy) - r


def blend(under: tuple, over: tuple, a: float) -> tuple:
    return tuple(u + (o - u) * a for u, o in zip(under, over, strict=True))


def cover(d: float, scale: float) -> float:
    """How much of a pixel a shape at distance d covers (one pixel of soft edge)."""
    return min(1.0, max(0.0, 0.5 - d / scale))


def draw(size: int, maskable: bool) -> bytes:
    rows = []
    k = size / 512  # the drawing is laid out on a 512 grid
    art = 0.78 if maskable else 1.0  # a maskable icon keeps its art inside the safe zone
    px1 = 1.0 / k / art  # one pixel in grid units
    for j in range(size):
        row = bytearray([0])
        for i in range(size):
            # the grid point under this pixel's centre, with the art shrunk about the middle
            x = 256 + ((i + 0.5) / k - 256) / art
            y = 256 + ((j + 0.5) / k - 256) / art
            corner = box((i + 0.5) / k, (j + 0.5) / k, 256, 256, 256, 256, 92, 0)
            bg_alpha = 1.0 if maskable else cover(corner, 1 / k)
            t = min(1.0, math.hypot(x - 256, y - 200) / 360)
            col = blend(FELT, FELT_DARK, t)
            # the Paohuzi card behind, leaning right: long, with a red stroke numeral (two)
            turn = 0.30
            d = box(x, y, 318, 252, 78, 176, 22, turn)
            col = blend(col, (0, 0, 0), 0.35 * cover(d - 10, 24))  # its shadow
            col = blend(col, EDGE, cover(d, px1))
            col = blend(col, IVORY, cover(d + 6, px1))
            for dy in (-64, 10):
                c, s = math.cos(turn), math.sin(turn)
                cx, cy = 318 - s * dy, 252 + c * dy
                col = blend(col, RED, cover(box(x, y, cx, cy, 40, 9, 9, turn), px1))
            # the mahjong tile in front: one circle (red centre, green and blue rings)
            d = box(x, y, 206, 282, 112, 150, 26, -0.08)
            col = blend(col, (0, 0, 0), 0.40 * cover(d - 12, 26))
            col = blend(col, EDGE, cover(d, px1))
            col = blend(col, IVORY, cover(box(x, y, 204, 276, 104, 142, 22, -0.08), px1))
            cx, cy = 204, 276
            col = blend(col, BLUE, cover(ring(x, y, cx, cy, 78), px1))
            col = blend(col, IVORY, cover(ring(x, y, cx, cy, 64), px1))
            col = blend(col, GREEN, cover(ring(x, y, cx, cy, 52), px1))
            col = blend(col, IVORY, cover(ring(x, y, cx, cy, 38), px1))
            col = blend(col, RED, cover(ring(x, y, cx, cy, 26), px1))
            col = blend(col, GOLD, cover(ring(x, y, cx - 7, cy - 8, 7), px1))
            row += bytes(round(v) for v in col) + bytes([round(255 * bg_alpha)])
        rows.append(bytes(row))
    return png(size, size, b"".join(rows))


def png(width: int, height: int, raw: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    head = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8-bit RGBA
    body = chunk(b"IHDR", head) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    return b"\x89PNG\r\n\x1a\n" + body


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, size, maskable in (
        ("icon-192.png", 192, False),
        ("icon-512.png", 512, False),
        ("maskable-512.png", 512, True),
        ("apple-touch-icon-180.png", 180, True),  # iOS rounds the corners itself
    ):
        (OUT / name).write_bytes(draw(size, maskable))
        print(OUT / name)


if __name__ == "__main__":
    main()
