/// MD5 (RFC 1321), incremental: STREAMINFO carries the MD5 of the decoded audio and Foundation on Linux
/// has no digest API.
struct FLACMD5 {
    private var a: UInt32 = 0x6745_2301, b: UInt32 = 0xEFCD_AB89, c: UInt32 = 0x98BA_DCFE, d: UInt32 = 0x1032_5476
    /// Bytes of an incomplete 64-byte block.
    private var tail = [UInt8](repeating: 0, count: 64)
    private var tailCount = 0
    private var length: UInt64 = 0

    /// A digest in its initial state.
    init() {}

    /// Adds bytes to the digest.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard var p = bytes.baseAddress, bytes.count > 0 else { return }
        var n = bytes.count
        length &+= UInt64(n)
        if tailCount > 0 {
            let take = min(64 - tailCount, n)
            tail.withUnsafeMutableBytes { t in (t.baseAddress! + tailCount).copyMemory(from: p, byteCount: take) }
            tailCount += take
            p += take
            n -= take
            if tailCount < 64 { return }
            tail.withUnsafeBytes { t in compress(t.baseAddress!, blocks: 1) }
            tailCount = 0
        }
        let blocks = n / 64
        if blocks > 0 { compress(p, blocks: blocks) }
        let rest = n - blocks * 64
        if rest > 0 {
            let from = p + blocks * 64
            tail.withUnsafeMutableBytes { t in t.baseAddress!.copyMemory(from: from, byteCount: rest) }
            tailCount = rest
        }
    }

    /// Adds bytes to the digest.
    mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Adds interleaved samples the way FLAC's MD5 sees them: each sample little-endian in ceil(bits/8) bytes.
    mutating func updateSamples(_ samples: UnsafePointer<Int32>, count: Int, bitsPerSample: Int) {
        let width = min(max((bitsPerSample + 7) / 8, 1), 4)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4096) { buffer in
            let out = buffer.baseAddress!
            let perChunk = 4096 / width
            var done = 0
            while done < count {
                let n = min(perChunk, count - done)
                let src = samples + done
                switch width {
                case 1:
                    for i in 0..<n { out[i] = UInt8(truncatingIfNeeded: src[i]) }
                case 2:
                    for i in 0..<n {
                        UnsafeMutableRawPointer(out + 2 * i).storeBytes(of: UInt16(truncatingIfNeeded: src[i]).littleEndian, as: UInt16.self)
                    }
                case 3:
                    for i in 0..<n {
                        let v = src[i]
                        out[3 * i] = UInt8(truncatingIfNeeded: v)
                        out[3 * i + 1] = UInt8(truncatingIfNeeded: v >> 8)
                        out[3 * i + 2] = UInt8(truncatingIfNeeded: v >> 16)
                    }
                default:
                    for i in 0..<n {
                        UnsafeMutableRawPointer(out + 4 * i).storeBytes(of: UInt32(bitPattern: src[i]).littleEndian, as: UInt32.self)
                    }
                }
                update(UnsafeRawBufferPointer(start: out, count: n * width))
                done += n
            }
        }
    }

    /// The 16-byte digest of everything added so far (the state itself is left as it is).
    func finish() -> [UInt8] {
        var copy = self
        var pad: [UInt8] = [0x80]
        let used = Int(length % 64)
        pad += [UInt8](repeating: 0, count: (used < 56 ? 55 - used : 119 - used))
        let bits = length &* 8
        for i in 0..<8 { pad.append(UInt8(truncatingIfNeeded: bits >> (8 * UInt64(i)))) }
        copy.update(pad)
        var out = [UInt8]()
        for w in [copy.a, copy.b, copy.c, copy.d] {
            for i in 0..<4 { out.append(UInt8(truncatingIfNeeded: w >> (8 * UInt32(i)))) }
        }
        return out
    }

    /// Rotates left by `n` (1...31).
    @inline(__always)
    private static func rotl(_ x: UInt32, _ n: UInt32) -> UInt32 {
        x &<< n | x &>> (32 &- n)
    }

    /// Runs the MD5 compression function over whole 64-byte blocks, its 64 steps written out (generated
    /// from RFC 1321's tables) so every constant, shift and message index is an immediate.
    private mutating func compress(_ p: UnsafeRawPointer, blocks: Int) {
        var a0 = a, b0 = b, c0 = c, d0 = d
        for blk in 0..<blocks {
            let q = p + blk * 64
            let m0 = UInt32(littleEndian: q.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
            let m1 = UInt32(littleEndian: q.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
            let m2 = UInt32(littleEndian: q.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
            let m3 = UInt32(littleEndian: q.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
            let m4 = UInt32(littleEndian: q.loadUnaligned(fromByteOffset: 16, as: UInt32.self))
            let m5 = UInt32(littleEndian: q.loadUnaligned(fromByteOffset: 20, as: UInt32.self))
            let m6 = UInt32(littleEndian: q.loadUnaligned(fromByteOffset: 24, as: UInt32.self))
            let m7 = UInt32(littleEndian: q.loadUnaligned(fromByteOffset: 28, as: UInt32.self))
            let m8 = UInt32(littleEndian: q.loadUnaligned(fromByteOffset: 32, as: UInt32.self))
            let m9 = UInt32(littleEndian: q.loadUnaligned(fromByteOffset: 36, as: UInt32.self))
            let m10 = UInt32(littleEndian: q.loadUnaligned(fromByteOffset: 40, as: UInt32.self))
            let m11 = UInt32(littleEndian: q.loadUnaligned(fromByteOffset: 44, as: UInt32.self))
            let m12 = UInt32(littleEndian: q.loadUnaligned(fromByteOffset: 48, as: UInt32.self))
            let m13 = UInt32(littleEndian: q.loadUnaligned(fromByteOffset: 52, as: UInt32.self))
            let m14 = UInt32(littleEndian: q.loadUnaligned(fromByteOffset: 56, as: UInt32.self))
            let m15 = UInt32(littleEndian: q.loadUnaligned(fromByteOffset: 60, as: UInt32.self))
            var a = a0, b = b0, c = c0, d = d0
            a = b &+ Self.rotl(a &+ ((b & c) | (~b & d)) &+ 0xD76AA478 &+ m0, 7)
            d = a &+ Self.rotl(d &+ ((a & b) | (~a & c)) &+ 0xE8C7B756 &+ m1, 12)
            c = d &+ Self.rotl(c &+ ((d & a) | (~d & b)) &+ 0x242070DB &+ m2, 17)
            b = c &+ Self.rotl(b &+ ((c & d) | (~c & a)) &+ 0xC1BDCEEE &+ m3, 22)
            a = b &+ Self.rotl(a &+ ((b & c) | (~b & d)) &+ 0xF57C0FAF &+ m4, 7)
            d = a &+ Self.rotl(d &+ ((a & b) | (~a & c)) &+ 0x4787C62A &+ m5, 12)
            c = d &+ Self.rotl(c &+ ((d & a) | (~d & b)) &+ 0xA8304613 &+ m6, 17)
            b = c &+ Self.rotl(b &+ ((c & d) | (~c & a)) &+ 0xFD469501 &+ m7, 22)
            a = b &+ Self.rotl(a &+ ((b & c) | (~b & d)) &+ 0x698098D8 &+ m8, 7)
            d = a &+ Self.rotl(d &+ ((a & b) | (~a & c)) &+ 0x8B44F7AF &+ m9, 12)
            c = d &+ Self.rotl(c &+ ((d & a) | (~d & b)) &+ 0xFFFF5BB1 &+ m10, 17)
            b = c &+ Self.rotl(b &+ ((c & d) | (~c & a)) &+ 0x895CD7BE &+ m11, 22)
            a = b &+ Self.rotl(a &+ ((b & c) | (~b & d)) &+ 0x6B901122 &+ m12, 7)
            d = a &+ Self.rotl(d &+ ((a & b) | (~a & c)) &+ 0xFD987193 &+ m13, 12)
            c = d &+ Self.rotl(c &+ ((d & a) | (~d & b)) &+ 0xA679438E &+ m14, 17)
            b = c &+ Self.rotl(b &+ ((c & d) | (~c & a)) &+ 0x49B40821 &+ m15, 22)
            a = b &+ Self.rotl(a &+ ((d & b) | (~d & c)) &+ 0xF61E2562 &+ m1, 5)
            d = a &+ Self.rotl(d &+ ((c & a) | (~c & b)) &+ 0xC040B340 &+ m6, 9)
            c = d &+ Self.rotl(c &+ ((b & d) | (~b & a)) &+ 0x265E5A51 &+ m11, 14)
            b = c &+ Self.rotl(b &+ ((a & c) | (~a & d)) &+ 0xE9B6C7AA &+ m0, 20)
            a = b &+ Self.rotl(a &+ ((d & b) | (~d & c)) &+ 0xD62F105D &+ m5, 5)
            d = a &+ Self.rotl(d &+ ((c & a) | (~c & b)) &+ 0x02441453 &+ m10, 9)
            c = d &+ Self.rotl(c &+ ((b & d) | (~b & a)) &+ 0xD8A1E681 &+ m15, 14)
            b = c &+ Self.rotl(b &+ ((a & c) | (~a & d)) &+ 0xE7D3FBC8 &+ m4, 20)
            a = b &+ Self.rotl(a &+ ((d & b) | (~d & c)) &+ 0x21E1CDE6 &+ m9, 5)
            d = a &+ Self.rotl(d &+ ((c & a) | (~c & b)) &+ 0xC33707D6 &+ m14, 9)
            c = d &+ Self.rotl(c &+ ((b & d) | (~b & a)) &+ 0xF4D50D87 &+ m3, 14)
            b = c &+ Self.rotl(b &+ ((a & c) | (~a & d)) &+ 0x455A14ED &+ m8, 20)
            a = b &+ Self.rotl(a &+ ((d & b) | (~d & c)) &+ 0xA9E3E905 &+ m13, 5)
            d = a &+ Self.rotl(d &+ ((c & a) | (~c & b)) &+ 0xFCEFA3F8 &+ m2, 9)
            c = d &+ Self.rotl(c &+ ((b & d) | (~b & a)) &+ 0x676F02D9 &+ m7, 14)
            b = c &+ Self.rotl(b &+ ((a & c) | (~a & d)) &+ 0x8D2A4C8A &+ m12, 20)
            a = b &+ Self.rotl(a &+ (b ^ c ^ d) &+ 0xFFFA3942 &+ m5, 4)
            d = a &+ Self.rotl(d &+ (a ^ b ^ c) &+ 0x8771F681 &+ m8, 11)
            c = d &+ Self.rotl(c &+ (d ^ a ^ b) &+ 0x6D9D6122 &+ m11, 16)
            b = c &+ Self.rotl(b &+ (c ^ d ^ a) &+ 0xFDE5380C &+ m14, 23)
            a = b &+ Self.rotl(a &+ (b ^ c ^ d) &+ 0xA4BEEA44 &+ m1, 4)
            d = a &+ Self.rotl(d &+ (a ^ b ^ c) &+ 0x4BDECFA9 &+ m4, 11)
            c = d &+ Self.rotl(c &+ (d ^ a ^ b) &+ 0xF6BB4B60 &+ m7, 16)
            b = c &+ Self.rotl(b &+ (c ^ d ^ a) &+ 0xBEBFBC70 &+ m10, 23)
            a = b &+ Self.rotl(a &+ (b ^ c ^ d) &+ 0x289B7EC6 &+ m13, 4)
            d = a &+ Self.rotl(d &+ (a ^ b ^ c) &+ 0xEAA127FA &+ m0, 11)
            c = d &+ Self.rotl(c &+ (d ^ a ^ b) &+ 0xD4EF3085 &+ m3, 16)
            b = c &+ Self.rotl(b &+ (c ^ d ^ a) &+ 0x04881D05 &+ m6, 23)
            a = b &+ Self.rotl(a &+ (b ^ c ^ d) &+ 0xD9D4D039 &+ m9, 4)
            d = a &+ Self.rotl(d &+ (a ^ b ^ c) &+ 0xE6DB99E5 &+ m12, 11)
            c = d &+ Self.rotl(c &+ (d ^ a ^ b) &+ 0x1FA27CF8 &+ m15, 16)
            b = c &+ Self.rotl(b &+ (c ^ d ^ a) &+ 0xC4AC5665 &+ m2, 23)
            a = b &+ Self.rotl(a &+ (c ^ (b | ~d)) &+ 0xF4292244 &+ m0, 6)
            d = a &+ Self.rotl(d &+ (b ^ (a | ~c)) &+ 0x432AFF97 &+ m7, 10)
            c = d &+ Self.rotl(c &+ (a ^ (d | ~b)) &+ 0xAB9423A7 &+ m14, 15)
            b = c &+ Self.rotl(b &+ (d ^ (c | ~a)) &+ 0xFC93A039 &+ m5, 21)
            a = b &+ Self.rotl(a &+ (c ^ (b | ~d)) &+ 0x655B59C3 &+ m12, 6)
            d = a &+ Self.rotl(d &+ (b ^ (a | ~c)) &+ 0x8F0CCC92 &+ m3, 10)
            c = d &+ Self.rotl(c &+ (a ^ (d | ~b)) &+ 0xFFEFF47D &+ m10, 15)
            b = c &+ Self.rotl(b &+ (d ^ (c | ~a)) &+ 0x85845DD1 &+ m1, 21)
            a = b &+ Self.rotl(a &+ (c ^ (b | ~d)) &+ 0x6FA87E4F &+ m8, 6)
            d = a &+ Self.rotl(d &+ (b ^ (a | ~c)) &+ 0xFE2CE6E0 &+ m15, 10)
            c = d &+ Self.rotl(c &+ (a ^ (d | ~b)) &+ 0xA3014314 &+ m6, 15)
            b = c &+ Self.rotl(b &+ (d ^ (c | ~a)) &+ 0x4E0811A1 &+ m13, 21)
            a = b &+ Self.rotl(a &+ (c ^ (b | ~d)) &+ 0xF7537E82 &+ m4, 6)
            d = a &+ Self.rotl(d &+ (b ^ (a | ~c)) &+ 0xBD3AF235 &+ m11, 10)
            c = d &+ Self.rotl(c &+ (a ^ (d | ~b)) &+ 0x2AD7D2BB &+ m2, 15)
            b = c &+ Self.rotl(b &+ (d ^ (c | ~a)) &+ 0xEB86D391 &+ m9, 21)
            a0 &+= a; b0 &+= b; c0 &+= c; d0 &+= d
        }
        a = a0; b = b0; c = c0; d = d0
    }
}
