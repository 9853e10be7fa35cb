// A small deflate compressor (RFC 1951) for the PNG writer: greedy LZ77 over a 32 KiB window with hash
// chains, coded in one block with the fixed Huffman codes. Plots are mostly flat colour, so this shrinks
// them about a hundredfold without a zlib dependency (Linux Foundation has no zlib API).

/// Compresses bytes into a raw deflate stream (no zlib header or checksum).
enum FixedHuffmanDeflate {
    private static let window = 32768
    private static let minimumMatch = 3
    private static let maximumMatch = 258
    private static let chainLimit = 32  // candidates tried per position: plenty for flat images
    private static let hashBits = 15

    private static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
                                       4097, 6145, 8193, 12289, 16385, 24577]
    private static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    /// Bits packed least significant first, as deflate stores them.
    private struct BitWriter {
        var bytes: [UInt8] = []
        var buffer: UInt64 = 0
        var count = 0

        mutating func write(_ value: Int, bits: Int) {
            buffer |= UInt64(value) << UInt64(count)
            count += bits
            while count >= 8 {
                bytes.append(UInt8(truncatingIfNeeded: buffer))
                buffer >>= 8
                count -= 8
            }
        }

        /// A Huffman code: its bits go out most significant first.
        mutating func writeCode(_ code: Int, bits: Int) {
            var reversed = 0
            for i in 0..<bits where code & (1 << i) != 0 { reversed |= 1 << (bits - 1 - i) }
            write(reversed, bits: bits)
        }

        mutating func flush() {
            if count > 0 { bytes.append(UInt8(truncatingIfNeeded: buffer)) }
            buffer = 0
            count = 0
        }
    }

    /// The fixed literal/length code of a symbol 0...287 (RFC 1951 section 3.2.6).
    private static func writeSymbol(_ symbol: Int, _ out: inout BitWriter) {
        switch symbol {
        case 0...143: out.writeCode(0x30 + symbol, bits: 8)
        case 144...255: out.writeCode(0x190 + symbol - 144, bits: 9)
        case 256...279: out.writeCode(symbol - 256, bits: 7)
        default: out.writeCode(0xC0 + symbol - 280, bits: 8)
        }
    }

    private static func writeMatch(length: Int, distance: Int, _ out: inout BitWriter) {
        var l = lengthBase.count - 1
        while lengthBase[l] > length { l -= 1 }
        writeSymbol(257 + l, &out)
        if lengthExtra[l] > 0 { out.write(length - lengthBase[l], bits: lengthExtra[l]) }
        var d = distanceBase.count - 1
        while distanceBase[d] > distance { d -= 1 }
        out.writeCode(d, bits: 5)
        if distanceExtra[d] > 0 { out.write(distance - distanceBase[d], bits: distanceExtra[d]) }
    }

    /// The whole input as one final fixed-Huffman block.
    static func compress(_ input: [UInt8]) -> [UInt8] {
        var out = BitWriter()
        out.bytes.reserveCapacity(input.count / 8 + 64)
        out.write(1, bits: 1)  // BFINAL
        out.write(1, bits: 2)  // BTYPE 01: fixed Huffman codes
        let n = input.count
        input.withUnsafeBufferPointer { x in
            var head = [Int32](repeating: -1, count: 1 << hashBits)
            var previous = [Int32](repeating: -1, count: window)
            func hash(_ i: Int) -> Int {
                (Int(x[i]) << 10 ^ Int(x[i + 1]) << 5 ^ Int(x[i + 2])) & ((1 << hashBits) - 1)
            }
            func insert(_ i: Int) {
                guard i + minimumMatch <= n else { return }
                let h = hash(i)
                previous[i & (window - 1)] = head[h]
                head[h] = Int32(i)
            }
            var i = 0
            while i < n {
                var bestLength = 0, bestDistance = 0
                if i + minimumMatch <= n {
                    var candidate = Int(head[hash(i)])
                    var tries = chainLimit
                    let limit = min(maximumMatch, n - i)
                    while candidate >= 0, i - candidate <= window, tries > 0 {
                        var length = 0
                        while length < limit && x[candidate + length] == x[i + length] { length += 1 }
                        if length > bestLength {
                            bestLength = length
                            bestDistance = i - candidate
                            if length == limit { break }
                        }
                        let next = Int(previous[candidate & (window - 1)])
                        guard next < candidate else { break }  // a slot reused by a newer position ends the chain
                        candidate = next
                        tries -= 1
                    }
                }
                if bestLength >= minimumMatch {
                    writeMatch(length: bestLength, distance: bestDistance, &out)
                    for j in i..<(i + bestLength) { insert(j) }
                    i += bestLength
                } else {
                    writeSymbol(Int(x[i]), &out)
                    insert(i)
                    i += 1
                }
            }
        }
        writeSymbol(256, &out)  // end of block
        out.flush()
        return out.bytes
    }
}
