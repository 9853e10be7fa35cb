#!/usr/bin/env python3
"""Writes a small valid SoundFont 2 bank (one preset, two zones, a looped 24-bit sine and a one-shot noise burst,
one instrument modulator) as a seed for FuzzSoundFont. Usage: make-soundfont-seed.py OUT.sf2"""
import math, random, struct, sys

def chunk(cid, body):
    return cid + struct.pack('<I', len(body)) + body + (b'\0' if len(body) % 2 else b'')

def lst(kind, chunks):
    return chunk(b'LIST', kind + b''.join(chunks))

def name(s):
    return s.encode()[:19].ljust(20, b'\0')

rng = random.Random(1)
sine = [round(0.5 * 8388607 * math.sin(2 * math.pi * 440 * i / 44000)) for i in range(1000)]
noise = [rng.randint(-2000000, 2000000) for _ in range(300)]
points, headers = [], []
for nm, data, loop in (('sine', sine, (0, 1000)), ('noise', noise, None)):
    start = len(points)
    points += data
    end = len(points)
    points += [0] * 46
    lo, hi = (start + loop[0], start + loop[1]) if loop else (start, end)
    headers.append(name(nm) + struct.pack('<IIIIIBbHH', start, end, lo, hi, 44000, 69, 0, 0, 1))
smpl = b''.join(struct.pack('<h', p >> 8) for p in points)
sm24 = bytes(p & 0xFF for p in points)
phdr = name('Seed') + struct.pack('<HHHIII', 0, 0, 0, 0, 0, 0) + name('EOP') + struct.pack('<HHHIII', 255, 255, 1, 0, 0, 0)
pbag = struct.pack('<HHHH', 0, 0, 1, 0)
pgen = struct.pack('<HH', 41, 0) + struct.pack('<HH', 0, 0)
pmod = b'\0' * 10
inst = name('Seed') + struct.pack('<H', 0) + name('EOI') + struct.pack('<H', 2)
igen = b''
# Zone 1: keys 0-63, looped sine, release 0.3 s; zone 2: keys 64-127, the noise burst, filter at 4 kHz.
igen += struct.pack('<HBB', 43, 0, 63) + struct.pack('<Hh', 38, -2084) + struct.pack('<HH', 54, 1) + struct.pack('<HH', 53, 0)
igen += struct.pack('<HBB', 43, 64, 127) + struct.pack('<Hh', 8, 8000) + struct.pack('<HH', 53, 1)
igen += b'\0' * 4
ibag = struct.pack('<HH', 0, 0) + struct.pack('<HH', 4, 1) + struct.pack('<HH', 7, 1)
# CC1 (mod wheel) -> filter cutoff, -2400 cents, on zone 1.
imod = struct.pack('<HHhHH', 0x0081, 8, -2400, 0, 0) + b'\0' * 10
shdr = b''.join(headers) + name('EOS') + b'\0' * 26
info = lst(b'INFO', [chunk(b'ifil', struct.pack('<HH', 2, 4)), chunk(b'isng', b'EMU8000\0'), chunk(b'INAM', b'Seed\0\0')])
sdta = lst(b'sdta', [chunk(b'smpl', smpl), chunk(b'sm24', sm24)])
pdta = lst(b'pdta', [chunk(b'phdr', phdr), chunk(b'pbag', pbag), chunk(b'pmod', pmod), chunk(b'pgen', pgen), chunk(b'inst', inst),
                     chunk(b'ibag', ibag), chunk(b'imod', imod), chunk(b'igen', igen), chunk(b'shdr', shdr)])
open(sys.argv[1], 'wb').write(chunk(b'RIFF', b'sfbk' + info + sdta + pdta))
