/// Why an ALAC magic cookie, packet or encoder setting was refused.
enum ALACError: Error, Equatable {
    /// The magic cookie is too short or one of its fields is out of range.
    case invalidCookie
    /// The packet is truncated or its bits do not form a valid ALAC frame.
    case badBitstream
    /// Well-formed, but outside what ALAC decoders handle (bit depth, channel count, CCE/PCE elements).
    case unsupported
    /// The output buffer holds fewer frames than the packet carries.
    case outputTooSmall
    /// An encoder setting (channels, bit depth, frame length, sample rate) is out of range.
    case invalidParameter
}
