/// One codec as AudioConverter and AudioFormat find it: the format it handles, how a description of that
/// format is completed, and factories for its decoder and encoder (nil for a half that does not exist:
/// MP3 decodes only). Built-in codecs and codecs registered by other products are the same kind of entry.
package struct CodecEntry: Sendable {
    package let formatID: AudioFormatID
    /// Apple's name for the format, as FormatName prints it.
    package let name: String
    /// Fills the fields this format fixes (FormatInfo); nil when the description cannot be this format.
    package let completeFormat: @Sendable (AudioStreamBasicDescription, [UInt8]?) -> AudioStreamBasicDescription?
    /// A decoder for a stream (completed description, magic cookie).
    package let makeDecoder: (@Sendable (AudioStreamBasicDescription, [UInt8]?) throws(OSStatusError) -> PacketDecoder)?
    /// An encoder making `output` (completed) from PCM like `input` (its rate and channels decide).
    package let makeEncoder: (@Sendable (_ output: AudioStreamBasicDescription, _ input: AudioStreamBasicDescription) throws(OSStatusError) -> PacketEncoder)?
    /// Sample rates the encoder takes (empty: any).
    package var encodeSampleRates: [Double] = []
    /// The most channels the encoder takes.
    package var maximumEncodeChannels: UInt32 = 8
    /// Packets to decode and discard before a seek target's packet so the decoder's state has settled
    /// (overlapped transforms, MP3's bit reservoir); 0 when every packet decodes alone.
    package var seekPrerollPackets = 0
    /// Nonzero when the decoder's state never settles bit-exactly from a fresh start (AMR's fixed-point
    /// predictors): ExtAudioFile then reaches a seek target by decoding every packet from an exact state, continuing
    /// from where it is when the target lies ahead, else starting over from packet 0 or from a checkpoint (below), as
    /// long as that means decoding at most this many packets. Farther targets (long or hostile files) take the
    /// `seekPrerollPackets` path instead: bounded time, not bit-exact.
    package var exactSeekPackets = 0
    /// The bound that replaces `exactSeekPackets` when the decoder can copy its state (PacketDecoder.saveState):
    /// ExtAudioFile then keeps checkpoints of the state as it decodes (every 500 packets, at most 256), so that a
    /// target the decoder has been past costs at most one spacing of decoding, and this bounds only how far a seek
    /// decodes beyond the last checkpoint into a part of the file not decoded yet (each decoded once).
    package var checkpointedSeekPackets = 0

    /// An entry (other products make theirs with this).
    package init(formatID: AudioFormatID, name: String,
                 completeFormat: @escaping @Sendable (AudioStreamBasicDescription, [UInt8]?) -> AudioStreamBasicDescription?,
                 makeDecoder: (@Sendable (AudioStreamBasicDescription, [UInt8]?) throws(OSStatusError) -> PacketDecoder)?,
                 makeEncoder: (@Sendable (_ output: AudioStreamBasicDescription, _ input: AudioStreamBasicDescription) throws(OSStatusError) -> PacketEncoder)?) {
        self.formatID = formatID
        self.name = name
        self.completeFormat = completeFormat
        self.makeDecoder = makeDecoder
        self.makeEncoder = makeEncoder
    }
}
