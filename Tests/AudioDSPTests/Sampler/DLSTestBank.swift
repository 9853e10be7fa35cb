import Foundation

/// A small DLS Level 1 writer for the tests, written from the MMA layout independently of the parser: 'colh',
/// 'vers', 'lins' (instruments with 'insh', 'lrgn' of 'rgn ' with 'rgnh', optional 'wsmp', 'wlnk' and 'lart'/'art1',
/// instrument 'lart'), 'ptbl' and 'wvpl' (LIST 'wave' with 'fmt ', 'data' and 'wsmp'). The pool table lists the
/// waves in reverse file order, so a parser that ignored the cues would pick the wrong waves.
struct DLSTestBank {
    struct Loop { var start: Int; var length: Int }
    struct SampleInfo { var unityNote = 60; var fineTune = 0; var gainCentibels = 0; var loop: Loop? }
    /// A wave: mono, or stereo when `right` is given (interleaved in 'data').
    struct Wave { var points: [Int16]; var rate: Int; var info: SampleInfo; var eightBit = false; var right: [Int16]? = nil }
    /// One connection block: source, control, destination, transform and the 32-bit scale.
    struct Connection { var source: UInt16, control: UInt16 = 0, destination: UInt16, transform: UInt16 = 0; var scale: Int32 }
    struct Region {
        var keys: ClosedRange<Int> = 0...127, velocities: ClosedRange<Int> = 0...127
        var wave: Int
        var keyGroup = 0
        /// 'wlnk' channel: 1 left (and mono), 2 right.
        var channel = 1
        var info: SampleInfo?
        var connections: [Connection]? = nil
    }
    struct Instrument {
        var name: String
        var bankMSB = 0, bankLSB = 0, program = 0, drum = false
        var regions: [Region]
        var connections: [Connection]? = nil
    }

    var name = "Test DLS"
    var instruments: [Instrument]
    var waves: [Wave]

    /// A 16-bit sine of `frequency` at `rate`: `periods` whole periods (when rate/frequency is whole, a loop of any
    /// number of periods is seamless), amplitude `amplitude` of full scale.
    static func sine(frequency: Double, rate: Int, periods: Int, amplitude: Double = 0.5) -> [Int16] {
        let count = Int((Double(rate) / frequency * Double(periods)).rounded())
        return (0 ..< count).map { Int16((amplitude * 32767 * sin(2 * Double.pi * frequency * Double($0) / Double(rate))).rounded()) }
    }

    /// Time cents of `seconds` scaled as a connection block holds them.
    static func timecents(_ seconds: Double) -> Int32 { Int32((1200 * log2(seconds) * 65536).rounded()) }

    static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 255), UInt8(v >> 8 & 255)] }
    static func le32(_ v: Int) -> [UInt8] { [UInt8(v & 255), UInt8(v >> 8 & 255), UInt8(v >> 16 & 255), UInt8(v >> 24 & 255)] }
    static func chunk(_ id: String, _ payload: [UInt8]) -> [UInt8] {
        Array(id.utf8) + le32(payload.count) + payload + (payload.count & 1 == 1 ? [0] : [])
    }
    static func list(_ type: String, _ children: [[UInt8]]) -> [UInt8] { chunk("LIST", Array(type.utf8) + children.flatMap { $0 }) }
    static func zstring(_ s: String) -> [UInt8] { Array(s.utf8) + [0] }

    static func wsmp(_ info: SampleInfo) -> [UInt8] {
        var p = le32(20) + le16(info.unityNote) + le16(Int(Int16(info.fineTune)) & 0xFFFF) + le32(info.gainCentibels * 65536) + le32(0)
        if let loop = info.loop {
            p += le32(1) + le32(16) + le32(0) + le32(loop.start) + le32(loop.length)
        } else {
            p += le32(0)
        }
        return chunk("wsmp", p)
    }

    static func art1(_ connections: [Connection]) -> [UInt8] {
        var p = le32(8) + le32(connections.count)
        for c in connections {
            p += le16(Int(c.source)) + le16(Int(c.control)) + le16(Int(c.destination)) + le16(Int(c.transform))
            p += le32(Int(UInt32(bitPattern: c.scale)))
        }
        return list("lart", [chunk("art1", p)])
    }

    func bytes() -> [UInt8] {
        typealias B = DLSTestBank
        // Waves, in file order; the pool table lists them in reverse, so table index k is wave count-1-k.
        var pool: [UInt8] = Array("wvpl".utf8)
        var offsets: [Int] = []
        for w in waves {
            offsets.append(pool.count - 4)
            let bits = w.eightBit ? 8 : 16, channels = w.right == nil ? 1 : 2
            let fmt = B.le16(1) + B.le16(channels) + B.le32(w.rate) + B.le32(w.rate * channels * bits / 8) + B.le16(channels * bits / 8) + B.le16(bits)
            let interleaved = w.right.map { r in zip(w.points, r).flatMap { [$0, $1] } } ?? w.points
            let data: [UInt8] = w.eightBit ? interleaved.map { UInt8(Int($0) / 256 + 128) }
                                           : interleaved.flatMap { B.le16(Int($0) & 0xFFFF) }
            pool += B.list("wave", [B.chunk("fmt ", fmt), B.wsmp(w.info), B.chunk("data", data)])
        }
        let ptbl = B.chunk("ptbl", B.le32(8) + B.le32(waves.count) + offsets.reversed().flatMap { B.le32($0) })
        func tableIndex(_ wave: Int) -> Int { waves.count - 1 - wave }

        var lins: [[UInt8]] = []
        for inst in instruments {
            var regions: [[UInt8]] = []
            for r in inst.regions {
                var children = [B.chunk("rgnh", B.le16(r.keys.lowerBound) + B.le16(r.keys.upperBound) + B.le16(r.velocities.lowerBound)
                                        + B.le16(r.velocities.upperBound) + B.le16(0) + B.le16(r.keyGroup))]
                if let info = r.info { children.append(B.wsmp(info)) }
                children.append(B.chunk("wlnk", B.le16(0) + B.le16(0) + B.le32(r.channel) + B.le32(tableIndex(r.wave))))
                if let c = r.connections { children.append(B.art1(c)) }
                regions.append(B.list("rgn ", children))
            }
            let bank = (inst.bankMSB << 8) | inst.bankLSB | (inst.drum ? 0x8000_0000 : 0)
            var children = [B.chunk("insh", B.le32(inst.regions.count) + B.le32(bank) + B.le32(inst.program)), B.list("lrgn", regions)]
            if let c = inst.connections { children.append(B.art1(c)) }
            children.append(B.list("INFO", [B.chunk("INAM", B.zstring(inst.name))]))
            lins.append(B.list("ins ", children))
        }
        let body = Array("DLS ".utf8) + B.chunk("colh", B.le32(instruments.count)) + B.chunk("vers", B.le32(0x0001_0000) + B.le32(0))
            + B.list("lins", lins) + ptbl + B.chunk("LIST", pool) + B.list("INFO", [B.chunk("INAM", B.zstring(name))])
        return B.chunk("RIFF", body)
    }
}
