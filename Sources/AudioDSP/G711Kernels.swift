/// ITU-T G.711 companding: µ-law and A-law bytes to 16-bit linear samples and back, as sox, ffmpeg and
/// Apple's 'ulaw'/'alaw' codecs do it. Decoding is a table lookup; encoding is the
/// reference encoder's (Sun's g711.c, which sox uses), so our codes equal sox's for every sample.
public enum G711Kernels {
    /// The 256 µ-law codes' linear values (16-bit scale: µ-law spans ±32124).
    public static let muLawTable: [Int16] = (0..<256).map { muLawToLinear(UInt8($0)) }
    /// The 256 A-law codes' linear values (16-bit scale: A-law spans ±32256).
    public static let aLawTable: [Int16] = (0..<256).map { aLawToLinear(UInt8($0)) }

    /// One µ-law code's linear value (ITU-T G.711, bias 0x84).
    public static func muLawToLinear(_ code: UInt8) -> Int16 {
        let u = ~code
        let exponent = Int((u >> 4) & 7)
        let magnitude = ((Int(u & 0x0F) << 3) + 0x84) << exponent
        return Int16(u & 0x80 != 0 ? 0x84 - magnitude : magnitude - 0x84)
    }

    /// One A-law code's linear value (ITU-T G.711, even bits inverted).
    public static func aLawToLinear(_ code: UInt8) -> Int16 {
        let a = code ^ 0x55
        let exponent = Int((a >> 4) & 7)
        var magnitude = Int(a & 0x0F) << 4
        magnitude += exponent == 0 ? 8 : 0x108
        if exponent > 1 { magnitude <<= exponent - 1 }
        return Int16(a & 0x80 != 0 ? magnitude : -magnitude)
    }

    /// The µ-law code for a 16-bit sample: the sample rounded to 14 bits (half up, as sox does), then the
    /// reference encoder (clipped at 8159).
    @inline(__always)
    public static func linearToMuLaw(_ sample: Int16) -> UInt8 {
        var x = min((Int(sample) + 2) >> 2, 8191)
        let mask: UInt8
        if x < 0 { x = -x; mask = 0x7F } else { mask = 0xFF }
        x = min(x, 8159) + 0x21
        var segment = 0
        while segment < 8 && x >= (0x40 << segment) { segment += 1 }
        if segment >= 8 { return 0x7F ^ mask }
        return (UInt8(segment << 4) | UInt8((x >> (segment + 1)) & 0x0F)) ^ mask
    }

    /// The A-law code for a 16-bit sample: the sample rounded to 13 bits (half up), then the reference encoder.
    @inline(__always)
    public static func linearToALaw(_ sample: Int16) -> UInt8 {
        var x = min((Int(sample) + 4) >> 3, 4095)
        let mask: UInt8
        if x >= 0 { mask = 0xD5 } else { mask = 0x55; x = -x - 1 }
        var segment = 0
        while segment < 8 && x >= (0x20 << segment) { segment += 1 }
        if segment >= 8 { return 0x7F ^ mask }
        let quantised = segment < 2 ? (x >> 1) & 0x0F : (x >> segment) & 0x0F
        return (UInt8(segment << 4) | UInt8(quantised)) ^ mask
    }

    /// Decodes `count` codes to 16-bit samples through `table` (muLawTable or aLawTable).
    public static func decode(_ codes: UnsafePointer<UInt8>, count: Int, table: UnsafePointer<Int16>, into out: UnsafeMutablePointer<Int16>) {
        for i in 0..<count { out[i] = table[Int(codes[i])] }
    }

    /// Every 16-bit sample's µ-law code (indexed by the sample's bit pattern), from `linearToMuLaw`: the encoder's
    /// segment search per sample ran at a tenth of libavcodec's table lookup.
    public static let muLawEncodeTable: [UInt8] = (0..<65536).map { linearToMuLaw(Int16(bitPattern: UInt16($0))) }
    /// Every 16-bit sample's A-law code, from `linearToALaw`.
    public static let aLawEncodeTable: [UInt8] = (0..<65536).map { linearToALaw(Int16(bitPattern: UInt16($0))) }

    /// Encodes `count` 16-bit samples to µ-law (`aLaw` false) or A-law codes, through the encode tables.
    public static func encode(_ samples: UnsafePointer<Int16>, count: Int, aLaw: Bool, into out: UnsafeMutablePointer<UInt8>) {
        (aLaw ? aLawEncodeTable : muLawEncodeTable).withUnsafeBufferPointer { table in
            let t = table.baseAddress!
            for i in 0..<count { out[i] = t[Int(UInt16(bitPattern: samples[i]))] }
        }
    }
}
