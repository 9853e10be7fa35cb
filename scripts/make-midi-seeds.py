#!/usr/bin/env python3
"""Writes the Standard MIDI File seeds kept in FuzzTesting/Corpus/regressions (FuzzMIDIFile starts from them and
the corpus replay tests load them on every test run): files written by mido (an independent writer) and a few
built byte by byte for the cases a writer does not produce (running status, SysEx continuation, SMPTE
division, hostile lengths).   Usage: scripts/make-midi-seeds.py"""
import os, struct, mido

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "FuzzTesting", "Corpus", "regressions")

def vlq(n):
    b = [n & 0x7F]
    n >>= 7
    while n:
        b.insert(0, (n & 0x7F) | 0x80)
        n >>= 7
    return bytes(b)

def smf(fmt, division, tracks):
    out = b"MThd" + struct.pack(">IHHH", 6, fmt, len(tracks), division & 0xFFFF)
    for t in tracks:
        out += b"MTrk" + struct.pack(">I", len(t)) + t
    return out

def write(name, data):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)

# mido: format 1, tempo and signatures in the conductor track, every channel message kind, SysEx, text.
f = mido.MidiFile(type=1, ticks_per_beat=480)
c = mido.MidiTrack(); f.tracks.append(c)
c += [mido.MetaMessage("set_tempo", tempo=500000), mido.MetaMessage("time_signature", numerator=6, denominator=8),
      mido.MetaMessage("key_signature", key="Eb"), mido.MetaMessage("track_name", name="seed"),
      mido.MetaMessage("set_tempo", tempo=400000, time=960)]
t = mido.MidiTrack(); f.tracks.append(t)
t += [mido.Message("program_change", channel=1, program=12), mido.Message("note_on", channel=1, note=60, velocity=90),
      mido.Message("control_change", channel=1, control=7, value=100, time=120), mido.Message("pitchwheel", channel=1, pitch=-2000, time=10),
      mido.Message("aftertouch", channel=1, value=30, time=10), mido.Message("polytouch", channel=1, note=60, value=20, time=10),
      mido.Message("note_off", channel=1, note=60, velocity=40, time=330), mido.Message("sysex", data=[0x7E, 0x7F, 0x09, 0x01]),
      mido.MetaMessage("text", text="hello", time=5), mido.Message("note_on", channel=9, note=36, velocity=127, time=1),
      mido.Message("note_on", channel=9, note=36, velocity=0, time=240)]
f.save(os.path.join(OUT, "midi-mido-format1.mid"))

# Format 0: running status, note-on velocity 0 as note-off, several channels, a SysEx split in F0 and F7 packets.
body = (b"\x00\x90\x3C\x64" + b"\x00\x40\x50" + vlq(96) + b"\x3C\x00" + b"\x00\x92\x30\x40" + vlq(48) + b"\x82\x30\x20"
        + b"\x00\xF0\x03\x43\x12\x00" + vlq(10) + b"\xF7\x02\x01\xF7" + vlq(200) + b"\x80\x40\x00" + b"\x00\xFF\x2F\x00")
write("midi-format0-running-status.mid", smf(0, 96, [body]))
# SMPTE division: 25 fps, 40 ticks per frame (a tick is a millisecond).
write("midi-smpte.mid", smf(0, 0xE728, [b"\x00\x90\x3C\x64" + vlq(500) + b"\x80\x3C\x00\x00\xFF\x2F\x00"]))
# Hostile: a track length far past the end, and an unterminated variable-length quantity.
write("midi-track-length-huge.mid", smf(1, 480, [b""])[:-4] + b"\x7F\xFF\xFF\xFF\x00\x90")
write("midi-vlq-unterminated.mid", smf(0, 480, [b"\x00\xF0\x81\x81\x81\x81"]))
