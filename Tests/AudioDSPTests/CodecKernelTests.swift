import AudioDSP
import Testing

/// The codec kernels on their own: G.711's code tables and IMA ADPCM's block coder.
@Suite struct CodecKernelTests {
    /// Every code's value encodes back to that code (µ-law's two zeros both decode to 0, which encodes to 0xFF).
    @Test func g711CodesSurviveARoundTrip() {
        for code in 0..<256 {
            let u = G711Kernels.muLawTable[code]
            #expect(G711Kernels.linearToMuLaw(u) == (code == 0x7F ? 0xFF : UInt8(code)), "µ-law \(code)")
            let a = G711Kernels.aLawTable[code]
            #expect(G711Kernels.linearToALaw(a) == UInt8(code), "A-law \(code)")
        }
        // The tables are odd-symmetric and reach G.711's full scale.
        #expect(G711Kernels.muLawTable.max() == 32124 && G711Kernels.muLawTable.min() == -32124)
        #expect(G711Kernels.aLawTable.max() == 32256 && G711Kernels.aLawTable.min() == -32256)
    }

    /// The table-driven block encoder gives the reference encoder's code for every one of the 65,536 samples (the table
    /// is indexed by the sample's bit pattern: negative samples are the upper half).
    @Test func g711BlockEncodeEqualsTheReferenceForEverySample() {
        let samples = (0..<65536).map { Int16(truncatingIfNeeded: $0 - 32768) }
        var codes = [UInt8](repeating: 0, count: samples.count)
        for aLaw in [false, true] {
            samples.withUnsafeBufferPointer { s in
                codes.withUnsafeMutableBufferPointer { G711Kernels.encode(s.baseAddress!, count: s.count, aLaw: aLaw, into: $0.baseAddress!) }
            }
            let wrong = zip(samples, codes).filter { ($1) != (aLaw ? G711Kernels.linearToALaw($0) : G711Kernels.linearToMuLaw($0)) }.count
            #expect(wrong == 0, "\(aLaw ? "A" : "µ")-law: \(wrong) samples")
        }
    }

    /// The encoder tracks the decoder exactly: decoding a block with the state the encoder started from
    /// reproduces the encoder's own reconstruction, and a slow ramp stays within a few steps of the input.
    @Test func ima4BlockDecodesToTheEncodersReconstruction() {
        let samples = (0..<64).map { Int16(truncatingIfNeeded: $0 * 300 - 9000) }
        var encoderState = IMA4Kernels.ChannelState()
        var block = [UInt8](repeating: 0, count: 34)
        samples.withUnsafeBufferPointer { s in
            block.withUnsafeMutableBufferPointer { IMA4Kernels.encodeBlock(s.baseAddress!, stride: 1, state: &encoderState, into: $0.baseAddress!) }
        }
        var decoderState = IMA4Kernels.ChannelState()
        var decoded = [Int16](repeating: 0, count: 64)
        block.withUnsafeBufferPointer { b in
            decoded.withUnsafeMutableBufferPointer { IMA4Kernels.decodeBlock(b.baseAddress!, state: &decoderState, into: $0.baseAddress!, stride: 1) }
        }
        #expect(decoderState == encoderState)
        #expect(abs(Int(decoded[63]) - Int(samples[63])) < 400)
        // The header carries the starting predictor's top 9 bits and the step index.
        #expect(block[0] == 0 && block[1] == 0)
    }
}
