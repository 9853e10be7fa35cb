import AudioDSP
import Testing

@Suite struct ChannelMatrixKernelTests {
    /// Three planar inputs into two outputs, each output sample checked against its sum written out by hand;
    /// the strides leave gaps that must stay untouched.
    @Test func eachOutputIsTheWeightedSumOfTheInputs() {
        let frames = 5, stride = 8
        var input = [Double](repeating: .nan, count: 3 * stride)
        for c in 0..<3 { for i in 0..<frames { input[c * stride + i] = Double(c * 10 + i) } }
        let gains: [Double] = [0.5, 0, 0.25, 1, -1, 2]  // rows are inputs: in0 -> (0.5, 0), in1 -> (0.25, 1), in2 -> (-1, 2)
        var output = [Double](repeating: 99, count: 2 * stride)
        ChannelMatrixKernel.mix(input, inputStride: stride, inputs: 3, gains: gains, into: &output, outputStride: stride, outputs: 2, frames: frames)
        for i in 0..<frames {
            let a = Double(i), b = Double(10 + i), c = Double(20 + i)
            #expect(output[i] == 0.5 * a + 0.25 * b - c)
            #expect(output[stride + i] == b + 2 * c)
        }
        #expect(output[frames..<stride].allSatisfy { $0 == 99 } && output[(stride + frames)...].allSatisfy { $0 == 99 })
    }

    /// Three planar inputs averaged into one: each output is the plain mean, written out by hand; only `frames`
    /// outputs are written.
    @Test func averageToMonoIsTheMean() {
        let frames = 4, stride = 6
        var input = [Double](repeating: .nan, count: 3 * stride)
        for c in 0..<3 { for i in 0..<frames { input[c * stride + i] = Double((c + 1) * (i + 1)) } }
        var output = [Double](repeating: 99, count: frames + 2)
        ChannelMatrixKernel.averageToMono(input, inputStride: stride, inputs: 3, into: &output, frames: frames)
        // (1 + 2 + 3)(i + 1) / 3 = 2(i + 1)
        #expect(output == [2, 4, 6, 8, 99, 99])
    }
}
