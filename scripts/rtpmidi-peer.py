#!/usr/bin/env python3
"""An independent RTP-MIDI / AppleMIDI peer for the network MIDI tests, built on the `pymidi` package (PyPI),
on the loopback interface only, on ports the kernel picks.

    rtpmidi-peer.py listen          pymidi's Server accepts invitations; prints "PORT <control port>"
    rtpmidi-peer.py invite PORT     invites the session at 127.0.0.1:PORT (IN on control and data port, then CK)
                                    with pymidi's packet definitions; prints "LOCAL <its control port>", then
                                    "CONNECTED <name>" (or exits non-zero when refused)

Both then print one line per event, parsed by pymidi:
    CONNECTED <name>                a peer completed the invitation (listen mode: on its control-port IN)
    MIDI <seq> <hex> [<hex> ...]    a data packet's commands (status byte + the data bytes pymidi decoded)
    JOURNAL <seq> checkpoint=<n> channels=<n> chan=<c> n=<0|1> c=<0|1>   the packet's journal header
    BYE                             the peer said goodbye
and read commands from stdin:
    send <hex bytes>                one RTP-MIDI packet (no journal) with these commands to every peer
    echo                            from now on, send every received command list straight back
    quit
Exits with status 3 when pymidi cannot be imported (the tests treat that as a failure)."""
import select
import socket
import sys
import time

try:
    from pymidi import packets
    from pymidi.protocol import ControlProtocol, DataProtocol
except ImportError as e:
    print(f"pymidi missing: {e}", file=sys.stderr, flush=True)
    sys.exit(3)

import logging
logging.basicConfig(level=logging.ERROR)

HOST = "127.0.0.1"
SSRC = 0x5EED1234
NAME = "pymidi-peer"


def out(line):
    print(line, flush=True)


def command_bytes(entry):
    """The MIDI bytes of one pymidi-parsed command."""
    status = entry.command_byte
    p = entry.params
    if "key" in p:
        return [status, int(p.key), int(p.velocity if "velocity" in p else p.touch)]
    if "controller" in p:
        return [status, p.controller, p.value]
    return [status] + list(p.get("unknown", b""))


class Peer:
    def __init__(self):
        self.seq = 100
        self.echo = False
        self.peers = {}  # ssrc -> data address

    def bind_pair(self):
        for _ in range(50):
            control = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            control.bind((HOST, 0))
            port = control.getsockname()[1]
            data = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            try:
                data.bind((HOST, port + 1))
                return control, data
            except OSError:
                control.close()
                data.close()
        raise SystemExit("no free port pair on the loopback interface")

    def on_packet(self, peer, packet):
        seq = packet.header.rtp_header.sequence_number
        cmds = [command_bytes(e) for e in packet.command.midi_list]
        out("MIDI %d %s" % (seq, " ".join(bytes(c).hex() for c in cmds)))
        j = packet.journal
        if j is not None:
            ch = j.channel_journal
            out("JOURNAL %d checkpoint=%d channels=%d chan=%s n=%s c=%s" % (
                seq, j.checkpoint_seqnum, j.header.totchan + 1 if j.header.a else 0,
                ch.header.chan if ch else "-", int(ch.header.n) if ch else 0, int(ch.header.c) if ch else 0))
        if self.echo and cmds:
            self.send([b for c in cmds for b in c])

    def send(self, midi):
        # The MIDI list: commands in full with a zero delta time before all but the first.
        cmds, i = [], 0
        while i < len(midi):
            n = 1 + {0x80: 2, 0x90: 2, 0xA0: 2, 0xB0: 2, 0xC0: 1, 0xD0: 1, 0xE0: 2}.get(midi[i] & 0xF0, 0)
            cmds.append(bytes(midi[i:i + n]))
            i += n
        body = b"\x00".join(cmds)
        assert len(body) <= 15
        header = packets.MIDIPacketHeader.build(dict(
            rtp_header=dict(flags=dict(v=2, p=0, x=0, cc=0, m=1, pt=0x61), sequence_number=self.seq),
            timestamp=int(time.time() * 10000) & 0xFFFFFFFF, ssrc=SSRC))
        self.seq += 1
        for addr in self.peers.values():
            self.data.sendto(header + bytes([len(body)]) + body, addr)

    def stdin_line(self, line):
        words = line.split()
        if not words:
            return True
        if words[0] == "send":
            self.send(list(bytes.fromhex("".join(words[1:]))))
        elif words[0] == "echo":
            self.echo = True
        elif words[0] == "quit":
            return False
        return True

    def loop(self, handlers):
        while True:
            rr, _, _ = select.select(list(handlers) + [sys.stdin], [], [], 1.0)
            for s in rr:
                if s is sys.stdin:
                    line = sys.stdin.readline()
                    if not line or not self.stdin_line(line):
                        return
                else:
                    data, addr = s.recvfrom(65536)
                    handlers[s](bytes(data), addr)

    def listen(self):
        """pymidi's own protocol handlers accept the invitation and parse the data."""
        control_sock, self.data = self.bind_pair()
        connected = lambda p: out("CONNECTED %s" % p.name)
        def bye(p):
            out("BYE")
            self.peers.pop(p.ssrc, None)
        control = ControlProtocol(socket=control_sock, name=NAME, ssrc=SSRC, connect_cb=connected, disconnect_cb=bye)
        data = DataProtocol(self.data, name=NAME, ssrc=SSRC, midi_command_cb=self.on_packet)
        control.associate_data_protocol(data)
        original = data.handle_command_message
        def data_command(command, raw, addr):
            original(command, raw, addr)
            if command == b"IN":
                self.peers[packets.AppleMIDIExchangePacket.parse(raw).ssrc] = addr
        data.handle_command_message = data_command
        out("PORT %d" % control_sock.getsockname()[1])
        self.loop({control_sock: control.handle_message, self.data: data.handle_message})

    def invite(self, port):
        """The initiator's side, which pymidi has no class for, with pymidi's packet definitions."""
        control_sock, self.data = self.bind_pair()
        out("LOCAL %d" % control_sock.getsockname()[1])
        token = 0xC0FFEE
        inv = packets.AppleMIDIExchangePacket.build(dict(command=b"IN", protocol_version=2, initiator_token=token, ssrc=SSRC, name=NAME))
        name = None
        for sock, target in ((control_sock, (HOST, port)), (self.data, (HOST, port + 1))):
            for _ in range(20):
                sock.sendto(inv, target)
                rr, _, _ = select.select([sock], [], [], 0.5)
                if rr:
                    reply = packets.AppleMIDIExchangePacket.parse(sock.recvfrom(65536)[0])
                    if reply.command != b"OK" or reply.initiator_token != token:
                        raise SystemExit("invitation refused: %r" % reply.command)
                    name, peer_ssrc = reply.name, reply.ssrc
                    break
            else:
                raise SystemExit("no answer to the invitation")
        self.peers[peer_ssrc] = (HOST, port + 1)
        # Clock synchronisation, initiator's three steps (CK0 out, CK1 back, CK2 out).
        t1 = int(time.time() * 10000)
        self.data.sendto(packets.AppleMIDITimestampPacket.build(dict(command=b"CK", ssrc=SSRC, count=0, timestamp_1=t1,
                                                                     timestamp_2=0, timestamp_3=0)), (HOST, port + 1))
        ck = packets.AppleMIDITimestampPacket.parse(self.data.recvfrom(65536)[0])
        if ck.count != 1 or ck.timestamp_1 != t1:
            raise SystemExit("bad CK1")
        self.data.sendto(packets.AppleMIDITimestampPacket.build(dict(command=b"CK", ssrc=SSRC, count=2, timestamp_1=t1,
                                                                     timestamp_2=ck.timestamp_2, timestamp_3=int(time.time() * 10000))),
                         (HOST, port + 1))
        out("CONNECTED %s" % name)
        data = DataProtocol(self.data, name=NAME, ssrc=SSRC, midi_command_cb=self.on_packet)
        data._connect_peer(name, (HOST, port + 1), peer_ssrc)
        def control_message(raw, addr):
            if raw[2:4] == b"BY":
                out("BYE")
        try:
            self.loop({control_sock: control_message, self.data: data.handle_message})
        finally:
            bye = packets.AppleMIDIExchangePacket.build(dict(command=b"BY", protocol_version=2, initiator_token=token, ssrc=SSRC, name=None))
            control_sock.sendto(bye, (HOST, port))


if __name__ == "__main__":
    peer = Peer()
    if sys.argv[1:2] == ["listen"]:
        peer.listen()
    elif sys.argv[1:2] == ["invite"] and len(sys.argv) == 3:
        peer.invite(int(sys.argv[2]))
    else:
        raise SystemExit(__doc__)
