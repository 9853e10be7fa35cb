/// A codec's encoding half: interleaved linear PCM (`pcmFormat`) in, compressed packets out.
package protocol PacketEncoder: AnyObject {
    /// The PCM it takes: interleaved, one of the layouts PCMFormat accepts.
    var pcmFormat: AudioStreamBasicDescription { get }
    /// The compressed stream it makes, every field the codec fixes filled in.
    var format: AudioStreamBasicDescription { get }
    /// Frames per packet (every packet but the last is full).
    var framesPerPacket: Int { get }
    /// The largest packet it can make, in bytes.
    var maximumPacketBytes: Int { get }
    /// The magic cookie a decoder needs (nil when the format has none).
    var magicCookie: [UInt8]? { get }
    /// Frames a decoder outputs before the first input frame (priming) and after the last (remainder
    /// padding comes from the final packet's size instead).
    var primeInfo: AudioConverterPrimeInfo { get }
    /// Encodes `frames` frames (whole packets' worth except at the end of the input), handing each
    /// finished packet and the input frames it carries to `emit`. A constant-bit-rate codec may hand
    /// over a run of whole packets at once (bytes = packets x mBytesPerPacket).
    func encode(_ pcm: UnsafeRawPointer, frames: Int, emit: (UnsafeRawBufferPointer, Int) -> Void) throws(OSStatusError)
    /// The input ended: emits what the encoder still holds (lookahead), if anything.
    func finish(emit: (UnsafeRawBufferPointer, Int) -> Void) throws(OSStatusError)
    /// Starts a new stream.
    func reset()
    /// Settings a client changes through converter properties (bit rate, quality): nil when unsupported.
    var settings: CodecSettings? { get }
    /// The client's channel layout (kAudioConverterInputChannelLayout) as labels in order, for a codec whose
    /// stream fixes its own channel order; nil: none given.
    func setInputChannelLabels(_ labels: [AudioChannelLabel]?)
}

extension PacketEncoder {
    package var settings: CodecSettings? { nil }
    /// Nothing held back: no packet to flush.
    package func finish(emit: (UnsafeRawBufferPointer, Int) -> Void) throws(OSStatusError) {}
    /// An encoder that does not reorder channels ignores their labels.
    package func setInputChannelLabels(_ labels: [AudioChannelLabel]?) {}
}
