import Foundation
import Testing
@testable import AudioToolbox

/// Truncated, corrupted and hand-made malicious packets: errors, never a crash, a hang or an overrun.
@Suite struct ALACHostileInputTests {
    /// Real packets to damage: stereo 16- and 24-bit (with shift bytes), mono, 6 channels, one escape.
    static let streams: [(config: ALACSpecificConfig, packets: [[UInt8]])] = {
        var out = [(config: ALACSpecificConfig, packets: [[UInt8]])]()
        for (channels, bits) in [(2, 16), (2, 24), (1, 16), (6, 16), (2, 32), (1, 20)] {
            let pcm = ALACRoundTripTests.signal(frames: 4096 + 1000, channels: channels, bits: bits, seed: UInt64(channels * bits))
            out.append(try! ALACTestSupport.encodeAll(pcm))
        }
        var random = ALACTestRandom(seed: 99)
        let noise = ALACTestSupport.PCM(samples: (0..<2000).map { _ in Int32(Int16(truncatingIfNeeded: random.next())) }, channels: 2, bits: 16, rate: 44100)
        out.append(try! ALACTestSupport.encodeAll(noise))
        return out
    }()

    /// Decodes `packet` into a buffer with guard zones on both sides, checking they stay untouched.
    static func decodeGuarded(_ decoder: ALACDecoder, _ packet: [UInt8], capacityFrames: Int? = nil) -> Result<Int, ALACError> {
        let channels = Int(decoder.config.numChannels)
        let capacity = capacityFrames ?? Int(decoder.config.frameLength)
        let guardCount = 64
        let sentinel: Int32 = 0x5A5A_5A5A
        var buffer = [Int32](repeating: sentinel, count: capacity * channels + 2 * guardCount)
        // The packet is copied to an exact-size allocation so reading one byte past it is an error under ASan.
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: packet.count, alignment: 1)
        defer { bytes.deallocate() }
        bytes.copyBytes(from: packet)
        let result = buffer.withUnsafeMutableBufferPointer { out in
            decoder.decode(UnsafeRawBufferPointer(bytes), into: out.baseAddress! + guardCount, capacityFrames: capacity)
        }
        #expect(buffer[0..<guardCount].allSatisfy { $0 == sentinel })
        #expect(buffer[(buffer.count - guardCount)...].allSatisfy { $0 == sentinel })
        if case .success(let frames) = result {
            #expect(frames >= 1 && frames <= capacity)
        }
        return result
    }

    /// A packet cut anywhere fails cleanly, unless only its END tag and padding are gone.
    @Test func truncatedPacketsFailOrDecodeIdentically() throws {
        for stream in Self.streams {
            let decoder = try ALACDecoder(config: stream.config)
            for packet in stream.packets {
                guard case .success = Self.decodeGuarded(decoder, packet) else {
                    Issue.record("intact packet failed")
                    continue
                }
                let reference = try ALACTestSupport.decodeAll(config: stream.config, packets: [packet])
                var failures = 0
                // Every cut in the first 256 bytes and the last 16, every 37th between.
                let lengths = Set(Array(0..<min(256, packet.count)) + Array(stride(from: 256, to: packet.count, by: 37))
                                  + Array(max(0, packet.count - 16)..<packet.count)).sorted()
                for length in lengths {
                    let truncated = Array(packet[0..<length])
                    switch Self.decodeGuarded(decoder, truncated) {
                    case .failure(let error):
                        #expect(error == .badBitstream)
                        failures += 1
                    case .success:
                        // Only the END tag and padding may be missing: everything decoded came from real bits.
                        #expect(try ALACTestSupport.decodeAll(config: stream.config, packets: [truncated]) == reference)
                        #expect(length >= packet.count - 1)
                    }
                }
                #expect(failures >= lengths.count - 1)
            }
        }
    }

    /// Single bit flips decode to something or fail, never beyond the buffers.
    @Test func everySingleBitFlipIsSafe() throws {
        // Every bit of each stream's first 64 bytes (headers, coefficients, the coder's start), then every
        // 211th bit of the rest (the residuals; every 61st made this the suite's second-slowest test in CI, and
        // libFuzzer's FuzzCAF/FuzzMP4 targets reach the decoder with far more mutations).
        for stream in Self.streams {
            let decoder = try ALACDecoder(config: stream.config)
            for packet in stream.packets {
                let bits = Array(0..<(min(packet.count, 64) * 8)) + Array(stride(from: 64 * 8, to: packet.count * 8, by: 211))
                for bit in bits {
                    var damaged = packet
                    damaged[bit / 8] ^= 0x80 >> UInt8(bit % 8)
                    _ = Self.decodeGuarded(decoder, damaged)
                }
            }
        }
    }

    /// 2000 random mutations of real packets (flips, overwrites, truncations, insertions, splices), decoded
    /// under several configs, including hostile pb/mb/kb; nothing may crash, hang or write out of bounds.
    @Test func mutationLoop() throws {
        var random = ALACTestRandom(seed: 2024)
        var outcomes = [String: Int]()
        let started = Date()
        for iteration in 0..<2000 {
            let stream = Self.streams[random.below(Self.streams.count)]
            var packet = stream.packets[random.below(stream.packets.count)]
            for _ in 0...random.below(4) {
                switch random.below(6) {
                case 0 where !packet.isEmpty:
                    packet[random.below(packet.count)] ^= UInt8(1 << random.below(8))
                case 1 where !packet.isEmpty:
                    packet[random.below(packet.count)] = UInt8(truncatingIfNeeded: random.next())
                case 2:
                    packet = Array(packet.prefix(random.below(packet.count + 1)))
                case 3:
                    let at = random.below(packet.count + 1)
                    packet.insert(contentsOf: (0..<random.below(16)).map { _ in UInt8(truncatingIfNeeded: random.next()) }, at: at)
                case 4 where packet.count > 8:
                    // Overwrite a run with 0xFF or 0x00 (long unary prefixes, long zero runs).
                    let at = random.below(packet.count - 4)
                    let value: UInt8 = random.below(2) == 0 ? 0xFF : 0
                    for i in at..<min(packet.count, at + 1 + random.below(64)) { packet[i] = value }
                default:
                    if packet.count > 4 { packet[random.below(4)] = UInt8(truncatingIfNeeded: random.next()) }
                }
            }
            var config = stream.config
            if iteration % 5 == 0 {
                config.pb = UInt8(truncatingIfNeeded: random.next())
                config.mb = UInt8(truncatingIfNeeded: random.next())
                config.kb = UInt8(1 + random.below(31))
            }
            if iteration % 7 == 0 { config.frameLength = UInt32(1 + random.below(5000)) }
            if iteration % 11 == 0 { config.numChannels = UInt8(1 + random.below(8)) }
            let decoder = try ALACDecoder(config: config)
            let capacity = iteration % 13 == 0 ? random.below(Int(config.frameLength) + 1) : Int(config.frameLength)
            switch Self.decodeGuarded(decoder, packet, capacityFrames: capacity) {
            case .success: outcomes["ok", default: 0] += 1
            case .failure(let error): outcomes["\(error)", default: 0] += 1
            }
        }
        let elapsed = Date().timeIntervalSince(started)
        print("mutation loop: \(outcomes.sorted { $0.key < $1.key }) in \(String(format: "%.2f", elapsed)) s")
        #expect(outcomes.values.reduce(0, +) == 2000)
        #expect(elapsed < 120, "the mutation loop should not come near hanging")
    }

    /// Random bytes as packets for several channel counts.
    @Test func randomGarbageIsRejectedOrBounded() throws {
        var random = ALACTestRandom(seed: 5)
        for channels in [1, 2, 6, 8] {
            let decoder = try ALACDecoder(config: ALACSpecificConfig(bitDepth: 24, numChannels: UInt8(channels)))
            for _ in 0..<300 {
                let packet = (0..<random.below(3000)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                _ = Self.decodeGuarded(decoder, packet)
            }
        }
    }

    /// Builds a packet bit by bit: (value, bit count) pairs, then END and padding.
    static func handMade(_ fields: [(UInt32, Int)]) -> [UInt8] {
        let storage = UnsafeMutableRawPointer.allocate(byteCount: 1 << 16, alignment: 8)
        defer { storage.deallocate() }
        var writer = ALACBitBuffer.Writer(storage, capacity: 1 << 16)
        for (value, bits) in fields { writer.write(value, bits) }
        writer.write(7, 3)
        let size = writer.finish()
        return Array(UnsafeRawBufferPointer(start: storage, count: size))
    }

    /// Packets crafted to hit each check: bad header bits, impossible counts, unsupported elements, overruns.
    @Test func handMadeMaliciousPackets() throws {
        let mono = try ALACDecoder(config: ALACSpecificConfig(frameLength: 4096, bitDepth: 16, numChannels: 1))
        let stereo32 = try ALACDecoder(config: ALACSpecificConfig(frameLength: 4096, bitDepth: 32, numChannels: 2))
        // SCE, instance 0, 12 zero bits, flags.
        /// An SCE header with `flags`.
        func sce(_ flags: UInt32) -> [(UInt32, Int)] { [(0, 3), (0, 4), (0, 12), (flags, 4)] }
        let cases: [(String, ALACDecoder, [(UInt32, Int)], ALACError)] = [
            ("empty packet", mono, [], .badBitstream),
            ("non-zero unused header bits", mono, [(0, 3), (0, 4), (1, 12), (0, 4)], .badBitstream),
            ("bytesShifted 3", mono, sce(0b0110), .badBitstream),
            ("partial frame of 0 samples", mono, sce(0b1000) + [(0, 32)], .badBitstream),
            ("partial frame longer than frameLength", mono, sce(0b1000) + [(4097, 32)], .badBitstream),
            ("partial frame of 2^32 - 1", mono, sce(0b1000) + [(UInt32.max, 32)], .badBitstream),
            ("CCE element", mono, [(2, 3)], .unsupported),
            ("PCE element", mono, [(5, 3)], .unsupported),
            ("escape frame without its samples", mono, sce(0b0001), .badBitstream),
            ("filter with denShift 0", mono, sce(0) + [(0, 16), (0x00, 8), (0x84, 8)] + Array(repeating: (0, 16), count: 4), .badBitstream),
            ("mixBits 200 in a pair", stereo32, [(1, 3), (0, 4), (0, 12), (0b0100, 4), (200, 8), (1, 8)], .badBitstream),
            ("33-bit pair without shift", stereo32, [(1, 3), (0, 4), (0, 12), (0, 4), (2, 8), (0, 8)] + [(9, 8), (0x80, 8), (9, 8), (0x80, 8)], .unsupported),
            ("huge fill element", mono, [(6, 3), (15, 4), (255, 8)], .badBitstream),
            ("huge data stream element", mono, [(4, 3), (0, 4), (1, 1), (255, 8), (255, 8)], .badBitstream),
            ("only an END", mono, [], .badBitstream),
            ("compressed frame with no data", mono, sce(0) + [(0, 16), (0x09, 8), (0x80, 8)], .badBitstream),
            ("escape run of ones", mono, sce(0) + [(0, 16), (0x09, 8), (0x80, 8)] + Array(repeating: (UInt32.max, 32), count: 40), .badBitstream),
        ]
        for (name, decoder, fields, expected) in cases {
            let packet = name == "empty packet" ? [] : Self.handMade(fields)
            #expect(Self.decodeGuarded(decoder, packet) == .failure(expected), "\(name)")
        }
    }

    /// A zero run that claims more samples than remain must be refused, not written past the buffer.
    @Test func zeroRunPastTheFrame() throws {
        let decoder = try ALACDecoder(config: ALACSpecificConfig(frameLength: 16, bitDepth: 16, pb: 0, mb: 0, numChannels: 1))
        // pb = mb = 0 keeps the mean at 0, so after one sample a zero run (k = 8) follows: escape it as 65535.
        let fields: [(UInt32, Int)] = [(0, 3), (0, 4), (0, 12), (0, 4), (0, 16), (0x09, 8), (0x80, 8), (0, 1), (0x1FF, 9), (65535, 16)]
        #expect(Self.decodeGuarded(decoder, Self.handMade(fields)) == .failure(.badBitstream))
    }
}
