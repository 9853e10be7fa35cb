// kAudioFormatProperty_MatrixMixMap and ChannelMap: how channels of one layout become another's. Where a
// channel of the input is not in the output it folds into the channels nearest it with ITU-R BS.775's
// coefficients (3/2 to 2/0: Lo = L + 0.7071 C + 0.7071 Ls; to 1/0: M = 0.7071 L + 0.7071 R + C + 0.5 Ls
// + 0.5 Rs); LFE is left out, as BS.775 does. No normalisation: a full-scale downmix can clip, as the
// standard's can.

/// Mixing coefficients between two channel layouts.
enum ChannelMixMatrix {
    private static let half = 0.5.squareRoot()  // -3 dB

    /// Where a channel goes when the output lacks it: the first option whose channels the output has all
    /// of; otherwise the last option, its channels folded again (bounded depth: no cycle can spin).
    private static let folds: [AudioChannelLabel: [[(AudioChannelLabel, Double)]]] = [
        kAudioChannelLabel_Center: [[(kAudioChannelLabel_Left, half), (kAudioChannelLabel_Right, half)]],
        kAudioChannelLabel_Mono: [[(kAudioChannelLabel_Center, 1)], [(kAudioChannelLabel_Left, half), (kAudioChannelLabel_Right, half)]],
        kAudioChannelLabel_Left: [[(kAudioChannelLabel_LeftWide, 1)], [(kAudioChannelLabel_Center, half)]],
        kAudioChannelLabel_Right: [[(kAudioChannelLabel_RightWide, 1)], [(kAudioChannelLabel_Center, half)]],
        kAudioChannelLabel_LeftSurround: [[(kAudioChannelLabel_RearSurroundLeft, 1)], [(kAudioChannelLabel_Left, half)]],
        kAudioChannelLabel_RightSurround: [[(kAudioChannelLabel_RearSurroundRight, 1)], [(kAudioChannelLabel_Right, half)]],
        kAudioChannelLabel_RearSurroundLeft: [[(kAudioChannelLabel_LeftSurround, 1)], [(kAudioChannelLabel_Left, half)]],
        kAudioChannelLabel_RearSurroundRight: [[(kAudioChannelLabel_RightSurround, 1)], [(kAudioChannelLabel_Right, half)]],
        kAudioChannelLabel_CenterSurround: [[(kAudioChannelLabel_LeftSurround, half), (kAudioChannelLabel_RightSurround, half)],
                                            [(kAudioChannelLabel_RearSurroundLeft, half), (kAudioChannelLabel_RearSurroundRight, half)],
                                            [(kAudioChannelLabel_Left, half), (kAudioChannelLabel_Right, half)]],
        kAudioChannelLabel_LeftCenter: [[(kAudioChannelLabel_Left, half), (kAudioChannelLabel_Center, half)], [(kAudioChannelLabel_Left, 1)]],
        kAudioChannelLabel_RightCenter: [[(kAudioChannelLabel_Right, half), (kAudioChannelLabel_Center, half)], [(kAudioChannelLabel_Right, 1)]],
        kAudioChannelLabel_LeftWide: [[(kAudioChannelLabel_Left, 1)]],
        kAudioChannelLabel_RightWide: [[(kAudioChannelLabel_Right, 1)]],
        kAudioChannelLabel_LeftTotal: [[(kAudioChannelLabel_Left, 1)]],
        kAudioChannelLabel_RightTotal: [[(kAudioChannelLabel_Right, 1)]],
        kAudioChannelLabel_LeftSurroundDirect: [[(kAudioChannelLabel_LeftSurround, 1)]],
        kAudioChannelLabel_RightSurroundDirect: [[(kAudioChannelLabel_RightSurround, 1)]],
        kAudioChannelLabel_VerticalHeightLeft: [[(kAudioChannelLabel_Left, half)]],
        kAudioChannelLabel_VerticalHeightRight: [[(kAudioChannelLabel_Right, half)]],
        kAudioChannelLabel_VerticalHeightCenter: [[(kAudioChannelLabel_Center, half)]],
        kAudioChannelLabel_TopCenterSurround: [[(kAudioChannelLabel_Center, half)]],
        kAudioChannelLabel_TopBackLeft: [[(kAudioChannelLabel_LeftSurround, half)]],
        kAudioChannelLabel_TopBackRight: [[(kAudioChannelLabel_RightSurround, half)]],
        kAudioChannelLabel_TopBackCenter: [[(kAudioChannelLabel_CenterSurround, half)]],
        kAudioChannelLabel_HeadphonesLeft: [[(kAudioChannelLabel_Left, 1)]],
        kAudioChannelLabel_HeadphonesRight: [[(kAudioChannelLabel_Right, 1)]],
    ]

    /// Channels a downmix leaves out (ITU-R BS.775 drops the LFE).
    private static let dropped: Set<AudioChannelLabel> = [kAudioChannelLabel_LFEScreen, kAudioChannelLabel_LFE2, kAudioChannelLabel_Unused]

    /// The gains of one input channel on each output channel.
    private static func gains(of label: AudioChannelLabel, into output: [AudioChannelLabel], depth: Int = 0) -> [Double] {
        var row = [Double](repeating: 0, count: output.count)
        if let index = output.firstIndex(of: label) { row[index] = 1; return row }
        guard depth < 4, !dropped.contains(label), let options = folds[label] else { return row }
        let option = options.first { $0.allSatisfy { output.contains($0.0) } } ?? options[options.count - 1]
        for (target, gain) in option {
            let sub = gains(of: target, into: output, depth: depth + 1)
            for i in row.indices { row[i] += gain * sub[i] }
        }
        return row
    }

    /// Labels this mixing knows where to put (discrete and unknown channels have no position).
    private static func isPositioned(_ label: AudioChannelLabel) -> Bool {
        label == kAudioChannelLabel_Unused || label == kAudioChannelLabel_LFEScreen || label == kAudioChannelLabel_LFE2
            || folds[label] != nil
    }

    /// Rows are input channels, columns output channels (AudioFormat's layout of the value), or nil when a
    /// channel has no known position and the layouts are not the same channels.
    static func matrix(from input: [AudioChannelLabel], to output: [AudioChannelLabel]) -> [[Double]]? {
        if input == output {
            return input.indices.map { i in output.indices.map { $0 == i ? 1 : 0 } }
        }
        for label in input where !output.contains(label) && !isPositioned(label) { return nil }
        return input.map { gains(of: $0, into: output) }
    }

    /// For each output channel, the input channel with the same label, or -1.
    static func channelMap(from input: [AudioChannelLabel], to output: [AudioChannelLabel]) -> [Int32] {
        output.map { label in input.firstIndex(of: label).map { Int32($0) } ?? -1 }
    }
}
