#!/usr/bin/env python3
"""Writes a small valid DLS bank as a seed for FuzzDLS: a melodic instrument (two regions: a looped 16-bit sine
with instrument-level art1 connections, and an 8-bit wave with a region wsmp and key group), a Level 2 instrument
(rgn2, lar2/art2 with filter, vibrato, EG2 and velocity connections, a release loop), a drum kit (drum flag) and a
stereo instrument (left and right wave links, one on the right channel of a two-channel wave).
Usage: make-dls-seed.py OUT.dls"""
import math, struct, sys

def chunk(cid, body):
    return cid + struct.pack('<I', len(body)) + body + (b'\0' if len(body) % 2 else b'')

def lst(kind, chunks):
    return chunk(b'LIST', kind + b''.join(chunks))

def wsmp(unity, fine=0, gain=0, loop=None):
    body = struct.pack('<IHhiII', 20, unity, fine, gain, 0, 1 if loop else 0)
    if loop:
        body += struct.pack('<IIII', 16, loop[2], loop[0], loop[1])
    return chunk(b'wsmp', body)

def art(cid, conns):
    return chunk(cid, struct.pack('<II', 8, len(conns)) + b''.join(struct.pack('<HHHHi', *c) for c in conns))

def tc(seconds):
    return round(1200 * math.log2(seconds) * 65536)

sine = b''.join(struct.pack('<h', round(12000 * math.sin(2 * math.pi * i / 100))) for i in range(400))
ramp = bytes((i * 7) & 0xFF for i in range(300))
waves = [lst(b'wave', [chunk(b'fmt ', struct.pack('<HHIIHH', 1, 1, 44000, 88000, 2, 16)), wsmp(69, loop=(200, 200, 0)), chunk(b'data', sine)]),
         lst(b'wave', [chunk(b'fmt ', struct.pack('<HHIIHH', 1, 1, 22050, 22050, 1, 8)), wsmp(60), chunk(b'data', ramp)]),
         lst(b'wave', [chunk(b'fmt ', struct.pack('<HHIIHH', 1, 2, 44000, 176000, 4, 16)), wsmp(69, loop=(100, 100, 0)), chunk(b'data', sine[:800])])]
pool, offsets = b'', []
for w in waves:
    offsets.append(len(pool))
    pool += w

def region(kind, keys, vels, table, extra=(), group=0, channel=1):
    return lst(kind, [chunk(b'rgnh', struct.pack('<HHHHHH', keys[0], keys[1], vels[0], vels[1], 1, group))] + list(extra)
               + [chunk(b'wlnk', struct.pack('<HHII', 0, 0, channel, table))])

def inst(name, bank, program, regions, lart=None):
    body = [chunk(b'insh', struct.pack('<III', len(regions), bank, program)), lst(b'lrgn', regions)]
    if lart:
        body.append(lart)
    body.append(lst(b'INFO', [chunk(b'INAM', name + b'\0')]))
    return lst(b'ins ', body)

level1 = lst(b'lart', [art(b'art1', [(0, 0, 0x0209, 0, tc(0.3)), (0, 0, 0x0206, 0, tc(0.01)), (0, 0, 0x020A, 0, 700 * 65536),
                                     (1, 0, 3, 0, 20 * 65536), (0, 0, 0x0104, 0, -600 * 65536), (3, 0, 0x0207, 0, -1200 * 65536),
                                     (2, 0, 1, 1, -960 * 65536), (1, 0x81, 3, 0, 50 * 65536), (0, 0, 4, 0, -200 * 65536)])])
level2 = lst(b'lar2', [art(b'art2', [(0, 0, 0x0500, 0, 8000 * 65536), (0, 0, 0x0501, 0, 60 * 65536), (9, 0, 3, 0, 15 * 65536),
                                     (0, 0, 0x0114, 0, -500 * 65536), (5, 0, 3, 0, 200 * 65536), (0, 0, 0x030E, 0, 500 * 65536),
                                     (2, 0, 0x0206, 0, tc(0.05)), (0, 0, 0x0081, 0, 400 * 65536), (0, 0, 0x020B, 0, -0x80000000)])])
instruments = [
    inst(b'Melodic', 0, 0, [region(b'rgn ', (0, 63), (0, 127), 0), region(b'rgn ', (64, 127), (0, 127), 1, [wsmp(72, 30, -100 * 65536, (50, 200, 0))], group=2)], level1),
    inst(b'Level2', 0x0101, 5, [region(b'rgn2', (0, 127), (0, 127), 0, [wsmp(69, loop=(100, 200, 1)), level2])]),
    inst(b'Kit', 0x80000000, 0, [region(b'rgn ', (35, 40), (1, 127), 1)]),
    inst(b'Stereo', 0, 1, [region(b'rgn2', (0, 127), (0, 127), 0, channel=1), region(b'rgn2', (0, 127), (0, 127), 2, channel=2)]),
]
body = (b'DLS ' + chunk(b'colh', struct.pack('<I', len(instruments))) + chunk(b'vers', struct.pack('<II', 0x00010002, 0))
        + lst(b'lins', instruments) + chunk(b'ptbl', struct.pack('<II', 8, len(offsets)) + b''.join(struct.pack('<I', o) for o in offsets))
        + chunk(b'LIST', b'wvpl' + pool) + lst(b'INFO', [chunk(b'INAM', b'Seed DLS\0')]))
open(sys.argv[1], 'wb').write(chunk(b'RIFF', body))
