import Foundation
import Testing
@testable import AudioToolbox

/// Frame headers: written and parsed back, and found by scanning real files.
@Suite struct FLACFrameHeaderTests {
    @Test func findWalksEveryFrameOfAReferenceFile() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (name, args) in [("a", ["-8"]), ("b", ["-5", "-b", "1000"]), ("c", ["-0"])] {
            let wav = dir.appendingPathComponent("\(name).wav").path, flac = dir.appendingPathComponent("\(name).flac").path
            try TestSupport.sox(wav, rate: 44100, bits: 16, channels: 2, synth: ["3"] + TestSupport.musicSynth)
            try TestSupport.run("flac", ["-s", "-f"] + args + ["-o", flac, wav])
            let bytes = try TestSupport.bytes(flac)
            try bytes.withUnsafeBytes { raw in
                let metadata = try FLACMetadata.parse(raw).get()
                let info = metadata.streamInfo
                var offset = metadata.firstFrameOffset, total = 0, frames = 0
                var offsets: [Int] = []
                while let found = FLACFrameHeader.find(in: raw, from: offset, streamInfo: info) {
                    if frames == 0 { #expect(found.offset == metadata.firstFrameOffset) }
                    #expect(found.header.number == UInt64(frames))
                    total += found.header.blockSize
                    frames += 1
                    offsets.append(found.offset)
                    offset = found.offset + found.header.length
                }
                #expect(total == Int(info.totalSamples), "\(name)")
                let scanned = FLACFrameHeader.scan(raw, from: metadata.firstFrameOffset, streamInfo: info)
                #expect(scanned.map(\.offset) == offsets)
                // Each offset is where our decoder says the previous frame ended.
                let decoder = FLACFrameDecoder(streamInfo: info)
                var out = [Int32](repeating: 0, count: info.maxBlockSize * 2)
                for (i, o) in offsets.enumerated() {
                    let r = out.withUnsafeMutableBufferPointer {
                        decoder.decode(UnsafeRawBufferPointer(rebasing: raw[o...]), into: $0.baseAddress!, capacityFrames: info.maxBlockSize)
                    }
                    let end = i + 1 < offsets.count ? offsets[i + 1] : raw.count
                    #expect(try r.get().bytesConsumed == end - o)
                }
            }
        }
    }

    /// `scan` steps over a frame whose header is damaged and keeps every other frame.
    @Test func scanSkipsADamagedFrame() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("a.wav").path, flac = dir.appendingPathComponent("a.flac").path
        try TestSupport.sox(wav, rate: 44100, bits: 16, channels: 2, synth: ["1"] + TestSupport.musicSynth)
        try TestSupport.run("flac", ["-s", "-f", "-5", "-o", flac, wav])
        var bytes = try TestSupport.bytes(flac)
        let (info, offsets) = try bytes.withUnsafeBytes { raw in
            let m = try FLACMetadata.parse(raw).get()
            return (m.streamInfo, FLACFrameHeader.scan(raw, from: m.firstFrameOffset, streamInfo: m.streamInfo).map(\.offset))
        }
        bytes[offsets[3] + 2] ^= 0x10  // breaks frame 3's header CRC
        let after = bytes.withUnsafeBytes { FLACFrameHeader.scan($0, from: offsets[0], streamInfo: info).map(\.offset) }
        #expect(after == offsets.enumerated().filter { $0.offset != 3 }.map(\.element))
    }

    /// Headers we write (all block size, rate and number codings) parse back; short prefixes ask for more.
    @Test func writtenHeadersParseBack() throws {
        let sizes = [1, 16, 192, 256, 576, 1000, 1152, 4096, 4608, 32768, 65535]
        let rates = [8000, 11025, 22050, 44100, 48000, 96000, 100_000, 192_000, 12345, 700_000, 1_048_575]
        let numbers: [UInt64] = [0, 1, 127, 128, 2047, 2048, 65535, 65536, 1 << 21, (1 << 31) - 1, (1 << 36) - 1]
        var buffer = [UInt8](repeating: 0, count: 64)
        for (i, size) in sizes.enumerated() {
            for variable in [false, true] {
                let rate = rates[i], number = variable ? numbers[i] : min(numbers[i], (1 << 31) - 1)
                let bits = [8, 12, 16, 20, 24, 32, 4, 17][i % 8]
                let info = FLACStreamInfo(minBlockSize: 16, maxBlockSize: 65535, sampleRate: rate, channels: 2, bitsPerSample: bits)
                let length = buffer.withUnsafeMutableBufferPointer { p -> Int in
                    var w = FLACBitWriter(p.baseAddress!, capacity: p.count)
                    FLACFrameHeader.write(into: &w, variableBlockSize: variable, blockSize: size, sampleRate: rate,
                                          channelCode: 10, bitsPerSample: bits, number: number)
                    w.flushWholeBytes()
                    return w.byteCount
                }
                let h = try buffer.withUnsafeBytes { try FLACFrameHeader.parse(UnsafeRawBufferPointer(rebasing: $0[0..<length]), at: 0, streamInfo: info).get() }
                #expect(h.blockSize == size && h.sampleRate == rate && h.bitsPerSample == bits && h.number == number)
                #expect(h.variableBlockSize == variable && h.channelAssignment == .midSide && h.length == length)
                // Every shorter prefix asks for more bytes.
                for cut in 0..<length {
                    let r = buffer.withUnsafeBytes { FLACFrameHeader.parse(UnsafeRawBufferPointer(rebasing: $0[0..<cut]), at: 0, streamInfo: info) }
                    guard case .failure(.needMoreData) = r else {
                        Issue.record("cut \(cut) of \(length): \(r)")
                        continue
                    }
                }
            }
        }
    }
}
