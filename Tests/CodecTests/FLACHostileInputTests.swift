import Foundation
import Testing
@testable import AudioToolbox
import SharedTestSupport

/// Malformed and damaged input: every case must end in an error (or, for random damage, at least not
/// crash or hang), never in a trap.
@Suite struct FLACHostileInputTests {
    static let info = FLACStreamInfo(minBlockSize: 4096, maxBlockSize: 4096, sampleRate: 44100, channels: 1, bitsPerSample: 16)

    /// Builds one mono frame: header for `blockSize`, then `body` writes the subframe; CRC-16 appended.
    static func frame(blockSize: Int, bits: Int = 16, channelCode: Int = 0, _ body: (inout FLACBitWriter) -> Void) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 1 << 20)
        let count = bytes.withUnsafeMutableBufferPointer { p -> Int in
            var w = FLACBitWriter(p.baseAddress!, capacity: p.count)
            FLACFrameHeader.write(into: &w, variableBlockSize: false, blockSize: blockSize, sampleRate: 44100,
                                  channelCode: channelCode, bitsPerSample: bits, number: 0)
            body(&w)
            w.alignToByte()
            w.write(UInt32(w.crc16(from: 0)), bits: 16)
            w.flushWholeBytes()
            return w.byteCount
        }
        return Array(bytes[0..<count])
    }

    /// Decodes `bytes` as one frame of a stream described by `info`.
    static func decode(_ bytes: [UInt8], info: FLACStreamInfo = info) -> Result<(frames: Int, bytesConsumed: Int), FLACError> {
        let decoder = FLACFrameDecoder(streamInfo: info)
        var out = [Int32](repeating: 0, count: info.maxBlockSize * info.channels)
        return bytes.withUnsafeBytes { raw in
            out.withUnsafeMutableBufferPointer { decoder.decode(raw, into: $0.baseAddress!, capacityFrames: info.maxBlockSize) }
        }
    }

    /// A fixed order-0 subframe header followed by a residual header with `partitionOrder`.
    static func fixedWithPartitionOrder(_ partitionOrder: Int, fixedOrder: Int = 0) -> (inout FLACBitWriter) -> Void {
        { w in
            w.write(UInt32(8 + fixedOrder) << 1, bits: 8)
            for _ in 0..<fixedOrder { w.write(0, bits: 16) }
            w.write(0, bits: 2)
            w.write(UInt32(partitionOrder), bits: 4)
            for _ in 0..<(1 << partitionOrder) { w.write(0, bits: 4) }
            // A few zero residuals' worth of ones (k = 0: "1" is zero); enough bits to not run out first.
            for _ in 0..<64 { w.write(0xFFFF_FFFF, bits: 32) }
        }
    }

    /// Partition orders that do not split the block are errors.
    @Test func hugeRicePartitionOrdersAreRejected() {
        // 4096 >> 15 == 0: partitions cannot split the block.
        #expect(throws: FLACError.invalid) { try Self.decode(Self.frame(blockSize: 4096, Self.fixedWithPartitionOrder(15))).get() }
        // Partitions of 1 sample cannot hold 2 warm-up samples.
        #expect(throws: FLACError.invalid) { try Self.decode(Self.frame(blockSize: 4096, Self.fixedWithPartitionOrder(12, fixedOrder: 2))).get() }
        // An odd block size splits into nothing but order 0.
        #expect(throws: FLACError.invalid) { try Self.decode(Self.frame(blockSize: 1001, Self.fixedWithPartitionOrder(1))).get() }
    }

    /// Predictor orders above the block size are errors.
    @Test func predictorOrderAboveBlockSizeIsRejected() {
        // LPC order 32 in a block of 16 samples.
        let lpc = Self.frame(blockSize: 16) { w in
            w.write(UInt32(31 + 32) << 1, bits: 8)
            for _ in 0..<16 { w.write(0, bits: 32) }
        }
        #expect(throws: FLACError.invalid) { try Self.decode(lpc).get() }
        // Fixed order 4 in a block of 3 samples.
        let fixed = Self.frame(blockSize: 3) { w in
            w.write(UInt32(8 + 4) << 1, bits: 8)
            for _ in 0..<4 { w.write(0, bits: 32) }
        }
        #expect(throws: FLACError.invalid) { try Self.decode(fixed).get() }
    }

    /// Blocks larger than STREAMINFO's maximum (up to 65536) are errors.
    @Test func blockLargerThanStreamInfoSaysIsRejected() {
        let verbatim65536 = Self.frame(blockSize: 65536) { w in
            w.write(1 << 1, bits: 8)
            for _ in 0..<65536 { w.write(0, bits: 16) }
        }
        #expect(throws: FLACError.invalid) { try Self.decode(verbatim65536).get() }
        let largest = FLACStreamInfo(minBlockSize: 16, maxBlockSize: 65535, sampleRate: 44100, channels: 1, bitsPerSample: 16)
        #expect(throws: FLACError.invalid) { try Self.decode(verbatim65536, info: largest).get() }
        // 4097 samples against a STREAMINFO maximum of 4096.
        let verbatim4097 = Self.frame(blockSize: 4097) { w in
            w.write(1 << 1, bits: 8)
            for _ in 0..<4097 { w.write(0, bits: 16) }
        }
        #expect(throws: FLACError.invalid) { try Self.decode(verbatim4097).get() }
    }

    /// Reserved codes and out-of-range values in subframes are errors.
    @Test func reservedCodesAreRejected() {
        // Reserved subframe type 2, reserved residual method 2, LPC precision code 15, negative LPC shift.
        let reservedType = Self.frame(blockSize: 192) { w in w.write(2 << 1, bits: 8); w.write(0, bits: 32) }
        #expect(throws: FLACError.invalid) { try Self.decode(reservedType).get() }
        let reservedMethod = Self.frame(blockSize: 192) { w in w.write(8 << 1, bits: 8); w.write(2, bits: 2); w.write(0, bits: 32) }
        #expect(throws: FLACError.invalid) { try Self.decode(reservedMethod).get() }
        let badPrecision = Self.frame(blockSize: 192) { w in
            w.write(32 << 1, bits: 8); w.write(0, bits: 16); w.write(15, bits: 4); w.write(0, bits: 32)
        }
        #expect(throws: FLACError.invalid) { try Self.decode(badPrecision).get() }
        let negativeShift = Self.frame(blockSize: 192) { w in
            w.write(32 << 1, bits: 8); w.write(0, bits: 16); w.write(11, bits: 4); w.writeSigned(-1, bits: 5); w.write(0, bits: 32)
        }
        #expect(throws: FLACError.invalid) { try Self.decode(negativeShift).get() }
        // More wasted bits than the sample has.
        let tooWasted = Self.frame(blockSize: 192) { w in w.write(1, bits: 8); w.writeUnary(16); w.write(0, bits: 32) }
        #expect(throws: FLACError.invalid) { try Self.decode(tooWasted).get() }
        // A Rice code whose value does not fit 32 bits (k = 14, quotient 2^20).
        let hugeResidual = Self.frame(blockSize: 192) { w in
            w.write(8 << 1, bits: 8); w.write(0, bits: 2); w.write(0, bits: 4); w.write(14, bits: 4)
            w.writeUnary(1 << 20); w.write(0, bits: 14)
        }
        #expect(throws: FLACError.invalid) { try Self.decode(hugeResidual).get() }
    }

    /// Headers that disagree with STREAMINFO, bad CRC-8, bad sync and a small output buffer are reported.
    @Test func headerMismatchesAreReported() {
        let stereo = Self.frame(blockSize: 192, channelCode: 1) { w in w.write(0, bits: 8) }
        #expect(throws: FLACError.unsupported) { try Self.decode(stereo).get() }
        let deeper = Self.frame(blockSize: 192, bits: 24) { w in w.write(0, bits: 8) }
        #expect(throws: FLACError.unsupported) { try Self.decode(deeper).get() }
        var badCRC8 = Self.frame(blockSize: 192) { w in w.write(0, bits: 8); w.write(0, bits: 16) }
        badCRC8[5] ^= 1
        #expect(throws: FLACError.badHeaderCRC) { try Self.decode(badCRC8).get() }
        #expect(throws: FLACError.badSync) { try Self.decode([0xFF, 0xF0, 0, 0, 0, 0]).get() }
        let small = Self.frame(blockSize: 192) { w in w.write(0, bits: 8); w.write(0, bits: 16) }
        let decoder = FLACFrameDecoder(streamInfo: Self.info)
        var out = [Int32](repeating: 0, count: 100)
        let r = small.withUnsafeBytes { raw in out.withUnsafeMutableBufferPointer { decoder.decode(raw, into: $0.baseAddress!, capacityFrames: 100) } }
        #expect(throws: FLACError.outputTooSmall) { try r.get() }
    }

    /// A valid small file made by `flac`, for the damage tests.
    static func smallFile(seconds: String = "0.3", blockSize: Int = 1152) throws -> [UInt8] {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("s.wav").path, flac = dir.appendingPathComponent("s.flac").path
        try TestSupport.sox(wav, rate: 44100, bits: 16, channels: 2, synth: [seconds] + TestSupport.musicSynth)
        try TestSupport.run("flac", ["-s", "-f", "-5", "-b", "\(blockSize)", "-o", flac, wav])
        return try TestSupport.bytes(flac)
    }

    /// Every truncation of the metadata and of a frame fails cleanly.
    @Test func truncatedFilesFailCleanly() throws {
        let file = try Self.smallFile()
        guard case .success(let metadata) = file.withUnsafeBytes({ FLACMetadata.parse($0) }) else {
            Issue.record("metadata")
            return
        }
        // Every prefix shorter than the metadata asks for more, and the count it asks for makes progress.
        for length in 0..<metadata.firstFrameOffset {
            let r = file.withUnsafeBytes { FLACMetadata.parse(UnsafeRawBufferPointer(rebasing: $0[0..<length])) }
            guard case .failure(.needMoreData(let atLeast)) = r else {
                Issue.record("prefix \(length): \(r)")
                continue
            }
            #expect(atLeast > length && atLeast <= metadata.firstFrameOffset)
        }
        // Every cut of the first two frames fails without crashing.
        let decoder = FLACFrameDecoder(streamInfo: metadata.streamInfo)
        var out = [Int32](repeating: 0, count: 4096 * 2)
        let start = metadata.firstFrameOffset
        let full = file.withUnsafeBytes { raw in
            out.withUnsafeMutableBufferPointer { decoder.decode(UnsafeRawBufferPointer(rebasing: raw[start...]), into: $0.baseAddress!, capacityFrames: 4096) }
        }
        let firstLength = try full.get().bytesConsumed
        for cut in stride(from: 0, to: firstLength, by: 1) {
            let r = file.withUnsafeBytes { raw in
                out.withUnsafeMutableBufferPointer {
                    decoder.decode(UnsafeRawBufferPointer(rebasing: raw[start..<start + cut]), into: $0.baseAddress!, capacityFrames: 4096)
                }
            }
            if case .success = r { Issue.record("truncated frame of \(cut) bytes decoded") }
        }
    }

    /// Every single-bit error in a frame is detected.
    @Test func flippedBitsInAFrameAreDetected() throws {
        let file = try Self.smallFile(seconds: "0.05", blockSize: 576)
        guard case .success(let metadata) = file.withUnsafeBytes({ FLACMetadata.parse($0) }) else {
            Issue.record("metadata")
            return
        }
        let start = metadata.firstFrameOffset
        let decoder = FLACFrameDecoder(streamInfo: metadata.streamInfo)
        var out = [Int32](repeating: 0, count: 4096 * 2)
        /// Decodes the frame at the file's first frame offset.
        func decode(_ bytes: [UInt8]) -> Result<(frames: Int, bytesConsumed: Int), FLACError> {
            bytes.withUnsafeBytes { raw in
                out.withUnsafeMutableBufferPointer { decoder.decode(UnsafeRawBufferPointer(rebasing: raw[start...]), into: $0.baseAddress!, capacityFrames: 4096) }
            }
        }
        let length = try decode(file).get().bytesConsumed
        var undetected = 0
        for bit in 0..<(length * 8) {
            var damaged = file
            damaged[start + bit / 8] ^= UInt8(0x80 >> (bit % 8))
            if case .success = decode(damaged) { undetected += 1 }
        }
        #expect(undetected == 0, "\(undetected) of \(length * 8) single-bit flips decoded without error")
    }

    /// Decodes a possibly damaged file the way a player would: frame by frame, resyncing with
    /// `FLACFrameHeader.find` after an error. Returns frames decoded.
    static func decodeTolerantly(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { raw -> Int in
            guard case .success(let metadata) = FLACMetadata.parse(raw) else { return 0 }
            let info = metadata.streamInfo
            let decoder = FLACFrameDecoder(streamInfo: info)
            let out = UnsafeMutablePointer<Int32>.allocate(capacity: info.maxBlockSize * info.channels)
            defer { out.deallocate() }
            var offset = metadata.firstFrameOffset, frames = 0
            while offset < raw.count {
                switch decoder.decode(UnsafeRawBufferPointer(rebasing: raw[offset...]), into: out, capacityFrames: info.maxBlockSize) {
                case .success(let r):
                    frames += r.frames
                    offset += r.bytesConsumed
                case .failure:
                    guard let next = FLACFrameHeader.find(in: raw, from: offset + 1, streamInfo: info) else { return frames }
                    offset = next.offset
                }
            }
            return frames
        }
    }

    /// 2000 deterministic random mutations of a small file: decoding with resync never traps or hangs.
    @Test func randomMutationsNeverCrash() throws {
        let file = try Self.smallFile(seconds: "0.1", blockSize: 1152)
        #expect(Self.decodeTolerantly(file) == 4410)
        var rng = SplitMix64(state: 0x464C_4143)
        for _ in 0..<2000 {
            var m = file
            switch rng.next() % 4 {
            case 0:  // flip a few random bits anywhere (metadata included)
                for _ in 0..<Int(1 + rng.next() % 8) {
                    m[Int(rng.next() % UInt64(m.count))] ^= UInt8(1 << (rng.next() % 8))
                }
            case 1:  // overwrite a run of bytes with random values
                let at = Int(rng.next() % UInt64(m.count)), n = Int(1 + rng.next() % 32)
                for i in at..<min(at + n, m.count) { m[i] = UInt8(truncatingIfNeeded: rng.next()) }
            case 2:  // truncate
                m.removeLast(Int(rng.next() % UInt64(m.count)))
            default:  // set bytes to 0xFF / 0x00 (sync-like and long zero runs)
                let at = Int(rng.next() % UInt64(m.count)), n = Int(1 + rng.next() % 64)
                let v: UInt8 = rng.next() & 1 == 0 ? 0xFF : 0
                for i in at..<min(at + n, m.count) { m[i] = v }
            }
            _ = Self.decodeTolerantly(m)
        }
    }

    /// Malformed metadata is rejected or ignored without allocating from hostile counts.
        /// Parses metadata from bytes.
    @Test func malformedMetadataIsRejected() {
        func parse(_ bytes: [UInt8]) -> Result<FLACMetadata, FLACError> { bytes.withUnsafeBytes { FLACMetadata.parse($0) } }
        let info = FLACStreamInfo(minBlockSize: 4096, maxBlockSize: 4096, sampleRate: 44100, channels: 2, bitsPerSample: 16)
        let good = FLACMetadata.serialize(streamInfo: info, vorbisComments: [("A", "b")], vendor: "v", padding: 10)
        #expect((try? parse(good).get()) != nil)
        #expect(throws: FLACError.badSync) { try parse(Array("RIFF....".utf8)).get() }
        // First block not STREAMINFO.
        var notFirst = good
        notFirst[4] = 1
        #expect(throws: FLACError.invalid) { try parse(notFirst).get() }
        // STREAMINFO with 0 channels-bits is fine, but a max block size of 0 is not.
        var zeroBlock = good
        zeroBlock[10] = 0; zeroBlock[11] = 0
        #expect(throws: FLACError.invalid) { try parse(zeroBlock).get() }
        // A vorbis comment count far larger than its block is ignored, not allocated.
        var hugeCount = good
        let commentStart = 4 + 4 + 34 + 4
        let countAt = commentStart + 4 + 1
        hugeCount[countAt] = 0xFF; hugeCount[countAt + 1] = 0xFF; hugeCount[countAt + 2] = 0xFF; hugeCount[countAt + 3] = 0x7F
        let parsed = try? parse(hugeCount).get()
        #expect(parsed != nil && parsed!.vorbisComments.isEmpty)
        // A block length running past the end asks for exactly the bytes needed.
        #expect(throws: FLACError.needMoreData(atLeast: good.count)) { try parse(Array(good.dropLast())).get() }
    }
}
