/// One codec as AudioConverter and AudioFormat find it: the format it handles, how a description of that
/// format is completed, and factories for its decoder and encoder (nil for a half that does not exist:
/// MP3 decodes only). Built-in codecs and codecs registered by other products are the same kind of entry.
struct CodecEntry: Sendable {
    let formatID: AudioFormatID
    /// Apple's name for the format, as FormatName prints it.
    let name: String
    /// Fills the fields this format fixes (FormatInfo); nil when the description cannot be this format.
    let completeFormat: @Sendable (AudioStreamBasicDescription, [UInt8]?) -> AudioStreamBasicDescription?
    /// A decoder for a stream (completed description, magic cookie).
    let makeDecoder: (@Sendable (AudioStreamBasicDescription, [UInt8]?) throws(OSStatusError) -> PacketDecoder)?
    /// An encoder making `output` (completed) from PCM like `input` (its rate and channels decide).
    let makeEncoder: (@Sendable (_ output: AudioStreamBasicDescription, _ input: AudioStreamBasicDescription) throws(OSStatusError) -> PacketEncoder)?
    /// Sample rates the encoder takes (empty: any).
    var encodeSampleRates: [Double] = []
    /// The most channels the encoder takes.
    var maximumEncodeChannels: UInt32 = 8
    /// Packets to decode and discard before a seek target's packet so the decoder's state has settled
    /// (overlapped transforms, MP3's bit reservoir); 0 when every packet decodes alone.
    var seekPrerollPackets = 0
}
