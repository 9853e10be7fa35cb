/// MPEG-4 audio's AudioSpecificConfig: the object type, sampling rate and channel configuration (and
/// for HE-AAC, the SBR extension's output rate), turned into the description Apple's AudioFile gives.
package struct AudioSpecificConfig {
    package let objectType: Int
    package let sampleRate: Double
    package let channelConfiguration: Int
    /// HE-AAC: the SBR layer's output rate (twice the core's, usually), 0 otherwise.
    package let extensionSampleRate: Double

    static let rates: [Double] = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]

    /// Parses an AudioSpecificConfig; nil if it is malformed or truncated.
    package init?(_ bytes: [UInt8]) {
        var bit = 0
        func read(_ n: Int) -> Int? {
            var v = 0
            for _ in 0..<n {
                guard bit / 8 < bytes.count else { return nil }
                v = v << 1 | Int((bytes[bit / 8] >> (7 - UInt8(bit % 8))) & 1)
                bit += 1
            }
            return v
        }
        func objectTypeField() -> Int? {
            guard let t = read(5) else { return nil }
            return t == 31 ? read(6).map { 32 + $0 } : t
        }
        func rateField() -> Double? {
            guard let index = read(4) else { return nil }
            if index == 15 { return read(24).map(Double.init) }
            return index < Self.rates.count ? Self.rates[index] : nil
        }
        guard var type = objectTypeField(), let rate = rateField(), let channels = read(4) else { return nil }
        var extensionRate = 0.0
        if type == 5 || type == 29 {
            // Explicit SBR (and PS): the output rate, then the core's own object type.
            guard let r = rateField(), let core = objectTypeField() else { return nil }
            extensionRate = r
            type = type == 29 ? 29 : 5
            _ = core
        }
        objectType = type
        sampleRate = rate
        channelConfiguration = channels
        extensionSampleRate = extensionRate
    }

    /// Apple's format ID for the object type.
    package var formatID: AudioFormatID {
        switch objectType {
        case 5: return kAudioFormatMPEG4AAC_HE
        case 29: return kAudioFormatMPEG4AAC_HE_V2
        case 23: return kAudioFormatMPEG4AAC_LD
        case 39: return kAudioFormatMPEG4AAC_ELD
        default: return kAudioFormatMPEG4AAC
        }
    }

    /// The description: HE-AAC at its output rate with 2,048 frames a packet, plain AAC 1,024 (LD/ELD 512).
    package var streamDescription: AudioStreamBasicDescription {
        var f = AudioStreamBasicDescription()
        f.mFormatID = formatID
        let he = objectType == 5 || objectType == 29
        f.mSampleRate = he && extensionSampleRate > 0 ? extensionSampleRate : sampleRate
        f.mFramesPerPacket = he ? 2048 : objectType == 23 || objectType == 39 ? 512 : 1024
        let channels = [0, 1, 2, 3, 4, 5, 6, 8]
        f.mChannelsPerFrame = UInt32(channelConfiguration < channels.count ? channels[channelConfiguration] : 0)
        if objectType == 29 { f.mChannelsPerFrame = 2 }  // parametric stereo from a mono core
        return f
    }
}
