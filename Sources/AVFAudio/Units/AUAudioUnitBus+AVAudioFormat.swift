import AudioToolbox

/// Apple's AVAudioFormat face of `AUAudioUnitBus`. The bus lives in AudioToolbox, below this module, and keeps its
/// format as an AudioStreamBasicDescription; these members take and answer the AVAudioFormat (the one last given,
/// with its channel layout, while the description still matches it), so code importing AVFAudio or AVFoundation,
/// as audio unit code on Apple's platforms does, reads as it does there.
extension AUAudioUnitBus {
    /// A bus in `format` (a subclass's initializer makes its busses with this). Throws
    /// kAudioUnitErr_FormatNotSupported for a format that is not linear PCM.
    public convenience init(format: AVAudioFormat) throws {
        try self.init(streamDescription: format.streamDescription.pointee, formatObject: format)
    }

    /// The bus's format (bridged to kAudioUnitProperty_StreamFormat).
    public var format: AVAudioFormat {
        var description = streamDescription
        if let given = formatObject as? AVAudioFormat, sameDescription(given.streamDescription.pointee, description) { return given }
        return AVAudioFormat(streamDescription: &description)!
    }

    /// Changes the bus's format. Throws kAudioUnitErr_FormatNotSupported for a format the bus's channel constraints
    /// exclude, kAudioUnitErr_Initialized while the owner's render resources are allocated.
    public func setFormat(_ format: AVAudioFormat) throws {
        try setStreamDescription(format.streamDescription.pointee, formatObject: format)
    }
}

/// Field-by-field equality (AudioStreamBasicDescription is not Equatable).
private func sameDescription(_ a: AudioStreamBasicDescription, _ b: AudioStreamBasicDescription) -> Bool {
    a.mSampleRate == b.mSampleRate && a.mFormatID == b.mFormatID && a.mFormatFlags == b.mFormatFlags && a.mBytesPerPacket == b.mBytesPerPacket
        && a.mFramesPerPacket == b.mFramesPerPacket && a.mBytesPerFrame == b.mBytesPerFrame && a.mChannelsPerFrame == b.mChannelsPerFrame
        && a.mBitsPerChannel == b.mBitsPerChannel
}
