internal import CAMR

/// 16-bit mono PCM at 8 kHz to AMR narrowband storage-format frames (ToC byte first) through opencore-amrnb's
/// encoder, DTX off, so every frame is a speech frame of the current mode: 13 to 32 bytes. A packet holds the
/// description's frames per packet (160 by default: one frame); a short last packet is padded with silence.
/// The bit rate picks the mode for the frames that follow, as the codec switches modes frame by frame.
final class AMRPacketEncoder: PacketEncoder, CodecSettings {
    /// The eight narrowband modes' bit rates, mode 0 (4.75 kb/s) to mode 7 (12.2 kb/s).
    static let modeBitRates: [UInt32] = [4750, 5150, 5900, 6700, 7400, 7950, 10200, 12200]

    let pcmFormat: AudioStreamBasicDescription
    let format: AudioStreamBasicDescription
    let framesPerPacket: Int
    let maximumPacketBytes: Int
    let magicCookie: [UInt8]? = nil
    /// No priming declared: opencore's interface hands out a frame for each 160 input samples at once and reports
    /// no delay, and an .amr file has nowhere to record one. The decode lags the input by the codec's 5 ms
    /// lookahead (39 samples by cross-correlation against ffmpeg's decoder), less than a frame.
    let primeInfo = AudioConverterPrimeInfo(leadingFrames: 0, trailingFrames: 0)
    private var state: UnsafeMutableRawPointer?
    private var mode: Int = 7
    private let staging: UnsafeMutablePointer<Int16>
    private let packet: UnsafeMutablePointer<UInt8>

    /// The mode's rate; a rate between two modes takes the lower one (below 4750: mode 0); 0 is the default, 12.2 kb/s.
    var bitRate: UInt32 {
        get { Self.modeBitRates[mode] }
        set { mode = newValue == 0 ? 7 : (Self.modeBitRates.lastIndex { $0 <= newValue } ?? 0) }
    }
    /// AMR has no complexity setting: the value is kept for the property and changes nothing.
    var quality: UInt32 = kAudioConverterQuality_Medium
    var availableBitRates: [AudioValueRange] {
        Self.modeBitRates.map { AudioValueRange(mMinimum: Double($0), mMaximum: Double($0)) }
    }
    /// Every frame of a mode has the same size: constant, the only mode (settable to itself, so `afconvert -s 0` works).
    var bitRateControlMode: UInt32 {
        get { kAudioCodecBitRateControlMode_Constant }
        set {}
    }
    var bitRateControlModes: [UInt32] { [kAudioCodecBitRateControlMode_Constant] }
    var settings: CodecSettings? { self }

    init(format output: AudioStreamBasicDescription) throws(OSStatusError) {
        guard let f = AMRCodec.complete(output, wideband: false), output.mChannelsPerFrame <= 1,
              let s = Encoder_Interface_init(0) else { throw OSStatusError(kAudioConverterErr_FormatNotSupported) }
        format = f
        framesPerPacket = Int(f.mFramesPerPacket)
        let frames = framesPerPacket / AMRFrame.samples(wideband: false)
        maximumPacketBytes = frames * AMRFrame.narrowbandSizes[7]
        pcmFormat = CodecPCMFormat.int16(rate: 8000, channels: 1)
        state = s
        staging = .allocate(capacity: AMRFrame.samples(wideband: false))
        packet = .allocate(capacity: maximumPacketBytes)
    }

    deinit {
        if let state { Encoder_Interface_exit(state) }
        staging.deallocate()
        packet.deallocate()
    }

    func encode(_ pcm: UnsafeRawPointer, frames: Int, emit: (UnsafeRawBufferPointer, Int) -> Void) throws(OSStatusError) {
        guard let state else { throw OSStatusError(kAudioConverterErr_UnspecifiedError) }
        let input = pcm.assumingMemoryBound(to: Int16.self)
        let frameSamples = AMRFrame.samples(wideband: false)
        let amrMode = Mode(rawValue: Mode.RawValue(mode))
        var done = 0
        while done < frames {
            let inPacket = min(framesPerPacket, frames - done)
            var bytes = 0
            var offset = 0
            // Every packet holds the format's frames (the description's frames per packet is constant): a short
            // last packet is padded with silence, whole silent frames included.
            while offset < framesPerPacket {
                let n = max(0, min(frameSamples, inPacket - offset))
                var source = input + done + offset
                if n < frameSamples {
                    staging.update(repeating: 0, count: frameSamples)
                    if n > 0 { staging.update(from: source, count: n) }
                    source = UnsafePointer(staging)
                }
                let size = Encoder_Interface_Encode(state, amrMode, source, packet + bytes, 0)
                guard size > 0 else { throw OSStatusError(kAudioConverterErr_UnspecifiedError) }
                bytes += Int(size)
                offset += frameSamples
            }
            emit(UnsafeRawBufferPointer(start: packet, count: bytes), inPacket)
            done += inPacket
        }
    }

    func reset() {
        // opencore has no reset call: a fresh state forgets the filters' memory.
        if let state { Encoder_Interface_exit(state) }
        state = Encoder_Interface_init(0)
    }
}
