import AudioDSP
import CSpeexDSP

/// AUVoiceProcessingIO (`'auou' 'vpio' 'appl'`): RemoteIO with input on by default and voice processing on the
/// captured input: acoustic echo cancellation against what the unit itself plays (speexdsp's multidelay
/// block frequency-domain adaptive filter, 200 ms of echo path), residual echo suppression and automatic gain
/// control (speexdsp's preprocessor). The first input channel is processed and written to every channel; the
/// echo reference is the first output channel. Properties: kAUVoiceIOProperty_BypassVoiceProcessing,
/// VoiceProcessingEnableAGC (on by default) and MuteOutput. Processing runs in 128-frame blocks; a device
/// period that is not a multiple of 128 leaves its last partial block unprocessed.
final class AUVoiceProcessingIO: AUHALOutput, @unchecked Sendable {
    static let blockFrames = 128
    static let echoPathSeconds = 0.2

    private var bypass: UInt32 = 0
    private var agc: UInt32 = 1
    private var muteOutput: UInt32 = 0
    private var echo: OpaquePointer?
    private var preprocess: OpaquePointer?
    private let block = UnsafeMutablePointer<Int16>.allocate(capacity: AUVoiceProcessingIO.blockFrames)
    private let cleaned = UnsafeMutablePointer<Int16>.allocate(capacity: AUVoiceProcessingIO.blockFrames)
    /// Played blocks not yet matched with captured ones (IO thread only): each captured block is cancelled
    /// against the oldest, so the reference leads the echo by at least one device period and the adaptive
    /// filter (200 ms long) absorbs the rest of the path's delay.
    private static let fifoBlocks = 64
    private let reference = UnsafeMutablePointer<Int16>.allocate(capacity: AUVoiceProcessingIO.fifoBlocks * AUVoiceProcessingIO.blockFrames)
    private var fifoStart = 0, fifoCount = 0
    private let silence: UnsafeMutablePointer<Int16> = {
        let p = UnsafeMutablePointer<Int16>.allocate(capacity: AUVoiceProcessingIO.blockFrames)
        p.initialize(repeating: 0, count: AUVoiceProcessingIO.blockFrames)
        return p
    }()

    init(component: AudioComponentEntry) {
        super.init(component: component, kind: .voiceProcessing)
    }

    deinit {
        releaseProcessing()
        block.deallocate()
        cleaned.deallocate()
        reference.deallocate()
        silence.deallocate()
    }

    private func releaseProcessing() {
        if let preprocess { speex_preprocess_state_destroy(preprocess) }
        if let echo { speex_echo_state_destroy(echo) }
        preprocess = nil
        echo = nil
    }

    override func voiceProcessingInitialize() -> OSStatus {
        releaseProcessing()
        let rate = Int32(inputs[1].format.mSampleRate)
        guard let e = speex_echo_state_init(Int32(Self.blockFrames), Int32(Self.echoPathSeconds * Double(rate))),
              let p = speex_preprocess_state_init(Int32(Self.blockFrames), rate) else { return kAudioUnitErr_FailedInitialization }
        var r = rate
        speex_echo_ctl(e, SPEEX_ECHO_SET_SAMPLING_RATE, &r)
        speex_preprocess_ctl(p, SPEEX_PREPROCESS_SET_ECHO_STATE, UnsafeMutableRawPointer(e))
        echo = e
        preprocess = p
        fifoStart = 0
        fifoCount = 0
        applyAGC()
        return noErr
    }

    private func applyAGC() {
        guard let preprocess else { return }
        var on = Int32(agc != 0 ? 1 : 0)
        speex_preprocess_ctl(preprocess, SPEEX_PREPROCESS_SET_AGC, &on)
        var off: Int32 = 0
        speex_preprocess_ctl(preprocess, SPEEX_PREPROCESS_SET_DENOISE, &off)
    }

    override func cleanupUnit() {
        super.cleanupUnit()
        releaseProcessing()
    }

    // MARK: Properties

    override class var propertyRows: [AUProperty] {
        /// A 0/1 setting stored as UInt32; `didSet` runs after a set.
        func row(_ id: AudioUnitPropertyID, _ value: ReferenceWritableKeyPath<AUVoiceProcessingIO, UInt32>,
                 didSet: @escaping (AUVoiceProcessingIO) -> Void = { _ in }) -> AUProperty {
            .value(id, UInt32.self, of: AUVoiceProcessingIO.self, place: AUProperty.globalScope, writable: .always,
                   get: { unit, _, _ in unit[keyPath: value] },
                   set: { unit, _, _, v in
                       unit[keyPath: value] = v != 0 ? 1 : 0
                       didSet(unit)
                       return noErr
                   })
        }
        return super.propertyRows + [
            row(kAUVoiceIOProperty_BypassVoiceProcessing, \.bypass),
            row(kAUVoiceIOProperty_VoiceProcessingEnableAGC, \.agc, didSet: { $0.applyAGC() }),
            row(kAUVoiceIOProperty_MuteOutput, \.muteOutput),
        ]
    }

    // MARK: Processing (the device's IO thread)

    /// The far end: what is about to be played is the echo reference (after MuteOutput, so a muted unit
    /// expects no echo).
    override func renderedOutput(_ samples: UnsafeMutablePointer<Float>, frames: Int, channels: Int) {
        if muteOutput != 0 { samples.update(repeating: 0, count: frames * channels) }
        guard bypass == 0, echo != nil else { return }
        var start = 0
        while start + Self.blockFrames <= frames {
            if fifoCount == Self.fifoBlocks { fifoStart = (fifoStart + 1) % Self.fifoBlocks; fifoCount -= 1 }  // drop the oldest
            let slot = reference + ((fifoStart + fifoCount) % Self.fifoBlocks) * Self.blockFrames
            InterleavedKernels.channelToInt16(samples + start * channels, channels: channels, frames: Self.blockFrames, into: slot)
            fifoCount += 1
            start += Self.blockFrames
        }
    }

    /// The near end: the microphone with the echo of the far end removed, then AGC.
    override func processCapturedInput(_ samples: UnsafeMutablePointer<Float>, frames: Int, channels: Int) {
        guard bypass == 0, let echo, let preprocess else { return }
        var start = 0
        while start + Self.blockFrames <= frames {
            InterleavedKernels.channelToInt16(samples + start * channels, channels: channels, frames: Self.blockFrames, into: block)
            let played: UnsafeMutablePointer<Int16>
            if fifoCount > 0 {
                played = reference + fifoStart * Self.blockFrames
                fifoStart = (fifoStart + 1) % Self.fifoBlocks
                fifoCount -= 1
            } else {
                played = silence
            }
            speex_echo_cancellation(echo, block, played, cleaned)
            speex_preprocess_run(preprocess, cleaned)
            InterleavedKernels.int16ToAllChannels(cleaned, frames: Self.blockFrames, into: samples + start * channels, channels: channels)
            start += Self.blockFrames
        }
    }
}
