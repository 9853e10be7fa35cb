/// A codec's decoding half: compressed packets in, interleaved linear PCM (`pcmFormat`) out. Made by the
/// codec's entry from the stream's description and magic cookie; one converter uses it on one thread.
package protocol PacketDecoder: AnyObject {
    /// The PCM it produces: interleaved, one of the layouts PCMFormat accepts.
    var pcmFormat: AudioStreamBasicDescription { get }
    /// The most frames one packet decodes to.
    var maximumFramesPerPacket: Int { get }
    /// Decodes `packetCount` whole packets laid end to end in `data` (a variable-bit-rate stream always
    /// passes one) into `pcm`, which has room for `capacityFrames` frames; returns the frames written.
    func decode(_ data: UnsafeRawBufferPointer, packetCount: Int, into pcm: UnsafeMutableRawPointer,
                capacityFrames: Int) throws(OSStatusError) -> Int
    /// Forgets the state carried between packets (the converter was reset, the reader seeked).
    func reset()
    /// Takes the stream's magic cookie (a client sets kAudioConverterDecompressionMagicCookie after
    /// creating the converter); `pcmFormat` may change with it.
    func setMagicCookie(_ cookie: [UInt8]) throws(OSStatusError)
    /// A copy of everything the decoder carries from one packet to the next, for `restoreState` to put back
    /// later: a reader takes copies as it decodes and seeks by restoring the nearest one before its target and
    /// decoding on from there, exact where the state never settles after a preroll (AMR). Nil (the default) when
    /// the decoder cannot copy its state.
    func saveState() -> [UInt8]?
    /// Puts back a copy this same decoder's `saveState` made; false (the default) when it cannot, the state then
    /// unchanged.
    func restoreState(_ state: [UInt8]) -> Bool
}

extension PacketDecoder {
    /// A decoder without a cookie ignores one.
    package func setMagicCookie(_ cookie: [UInt8]) throws(OSStatusError) {}
    /// No state to save: a seek prerolls instead.
    package func saveState() -> [UInt8]? { nil }
    /// No state to restore.
    package func restoreState(_ state: [UInt8]) -> Bool { false }
}

/// Apple's AudioCodec status for a packet a decoder cannot make sense of ('bada'): the converter
/// conceals such a packet with silence and goes on; any other status stops the conversion.
package let kCodecBadDataStatus: OSStatus = kAudioCodecBadDataError
