#!/usr/bin/env python3
"""tests/firstscreen.py PAGE ROWS OUTDIR: whether the first screen of
PAGE (1000x800 pixels, headless Chromium, no script, no network) holds
the table rows the CSS selector ROWS names, down to their last column.

A copy of the page hides everything else and paints the rows magenta
and the last cell of each cyan; the
screenshot must show both, the magenta ending above the screen's
bottom edge (a table cut by it, or one wider than the screen, fails).
Prints "top-bottom, last column at x" or why not; exit 1 if not.
"""
import os, struct, subprocess, sys, zlib

page, sel, outdir = sys.argv[1], sys.argv[2], os.path.abspath(sys.argv[3])
text = open(page, encoding='utf-8').read()
css = ('<style>body * { visibility: hidden; }'
       ' %(s)s, %(s)s * { visibility: visible; background: #ff00ff !important;'
       ' color: #ff00ff !important; border-color: #ff00ff !important; }'
       ' %(s)s > :last-child, %(s)s > :last-child * {'
       ' background: #00ffff !important; color: #00ffff !important;'
       ' border-color: #00ffff !important; }</style>' % {'s': sel})
at = text.index('</head>')
marked = os.path.join(outdir, 'firstscreen.html')
with open(marked, 'w', encoding='utf-8') as f:
    f.write(text[:at] + css + text[at:])
png = marked + '.png'
subprocess.run(['timeout', '120', 'chromium', '--headless=new', '--no-sandbox',
                '--disable-gpu', '--disable-javascript',
                '--user-data-dir=' + os.path.join(outdir, 'profile'),
                '--proxy-server=http://0.0.0.0:1', '--window-size=1000,800',
                '--screenshot=' + png, 'file://' + marked],
               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)

data = open(png, 'rb').read()
assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
pos, idat = 8, b''
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b'IHDR':
        width, height, depth, ctype = struct.unpack('>IIBB', body[:10])
    elif kind == b'IDAT':
        idat += body
    pos += 12 + n
assert depth == 8 and ctype in (2, 6), (depth, ctype)
bpp = 3 if ctype == 2 else 4
raw = zlib.decompress(idat)
stride = width * bpp
prev = bytearray(stride)
boxes = {}
i = 0
for y in range(height):
    kind, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
    i += 1 + stride
    for x in range(stride):         # PNG's filters undone
        a = line[x - bpp] if x >= bpp else 0
        b = prev[x]
        c = prev[x - bpp] if x >= bpp else 0
        if kind == 1:
            line[x] = (line[x] + a) & 255
        elif kind == 2:
            line[x] = (line[x] + b) & 255
        elif kind == 3:
            line[x] = (line[x] + (a + b) // 2) & 255
        elif kind == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else
                                  b if pb <= pc else c)) & 255
    for x in range(width):
        r, g, bl = line[x * bpp:x * bpp + 3]
        name = ('magenta' if r > 240 and g < 20 and bl > 240 else
                'cyan' if r < 20 and g > 240 and bl > 240 else None)
        if name:
            box = boxes.setdefault(name, [x, y, x, y])
            box[0], box[1] = min(box[0], x), min(box[1], y)
            box[2], box[3] = max(box[2], x), max(box[3], y)
    prev = line

if 'magenta' not in boxes and 'cyan' not in boxes:
    sys.exit('%s: nothing of %s on the first screen' % (page, sel))
top = min(b[1] for b in boxes.values())
bottom = max(b[3] for b in boxes.values())
if 'cyan' not in boxes:
    sys.exit('%s: the last column of %s is off the first screen' % (page, sel))
if bottom >= height - 1:
    sys.exit('%s: %s runs past the first screen (from y=%d)' % (page, sel, top))
print('%s: y %d-%d of %d, last column at x %d-%d of %d' % (
    os.path.basename(page), top, bottom, height, boxes['cyan'][0],
    boxes['cyan'][2], width))
