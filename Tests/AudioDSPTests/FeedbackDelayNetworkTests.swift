@testable import AudioDSP
import Foundation
import Testing

/// The network's delay lines: distinct primes spread over the range the parameters give, a new spread for a new
/// seed, and a length change that lands within a few milliseconds of audio.
@Suite struct FeedbackDelayNetworkTests {
    static func isPrime(_ n: Int) -> Bool { n >= 2 && !stride(from: 2, through: Int(Double(n).squareRoot()), by: 1).contains { n % $0 == 0 } }

    @Test(arguments: [(0.008, 0.050, 1), (0.0001, 0.0001, 1), (0.2, 0.9, 77), (0.05, 0.004, 1000)])
    func linesAreDistinctPrimesSpreadOverTheRange(_ setting: (Double, Double, Int)) {
        let rate = 44100.0
        var network = FeedbackDelayNetwork(sampleRate: rate, channels: 2, lineCount: 16, maximumDelay: 1)
        network.setDelays(minimum: setting.0, maximum: setting.1, seed: setting.2)
        network.reset()
        let lengths = network.lineLengths()
        #expect(Set(lengths).count == 16 && lengths.allSatisfy(Self.isPrime))
        let lo = min(setting.0, setting.1) * rate, hi = max(setting.0, setting.1) * rate
        if hi - lo > 1000 {
            // A prime is never more than a few dozen samples above its target at these lengths.
            #expect(lengths.allSatisfy { Double($0) >= lo - 1 && Double($0) <= hi + 100 })
            // Geometric strata: a quarter of the lines in each quarter of the log range.
            let quarters = lengths.map { min(3, Int(4 * log(Double($0) / lo) / log(hi / lo))) }
            #expect((0..<4).allSatisfy { q in quarters.filter { $0 == q }.count == 4 })
        }
    }

    @Test func anotherSeedIsAnotherSpread() {
        var a = FeedbackDelayNetwork(sampleRate: 48000, channels: 2, lineCount: 16, maximumDelay: 1)
        let first = a.lineLengths()
        a.setDelays(minimum: 0.008, maximum: 0.050, seed: 2)
        a.reset()
        #expect(a.lineLengths() != first)
        #expect(Set(a.lineLengths()) != Set(first))
    }

    @Test func aLengthChangeLandsAfterTheDuck() {
        let k = Reverb2Kernel(sampleRate: 44100, maximumFrames: 512, channels: 2)
        let before = k.network.lineLengths()
        k.setDelayTimes(minimum: 0.02, maximum: 0.1, randomizeReflections: 1)
        #expect(k.network.lineLengths() == before)
        let frames = 1024
        _ = ReverbTestSupport.render(channels: 2, frames: frames, input: [ReverbTestSupport.noise(frames)]) {
            k.process(input: $0, output: $1, channels: $2, frames: $3)
        }
        #expect(k.network.lineLengths() != before && k.network.lineLengths().min()! >= 882)
    }
}
