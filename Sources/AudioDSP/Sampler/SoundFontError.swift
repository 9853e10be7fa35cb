/// Why a SoundFont 2 file was rejected. Every count, offset and size read from the file is checked before it is
/// used, so hostile bytes end in one of these, never in a trap or an allocation the file's size does not justify.
public enum SoundFontError: Error, Equatable, Sendable {
    /// The file could not be opened or read (the path and the C library's errno).
    case unreadableFile(path: String, errno: Int32)
    /// The bytes are not a RIFF file of form type 'sfbk' (SoundFont 2) or 'DLS ' (Downloadable Sounds).
    case notSoundFont
    /// A chunk's declared size runs past its parent chunk or the end of the data.
    case truncatedChunk(String)
    /// A chunk the format requires is absent (the chunk's four-character identifier).
    case missingChunk(String)
    /// A chunk's size is not a whole number of records, or it holds fewer records than the format requires.
    case badChunkSize(String)
    /// An index in a record points outside the table it refers to, or the indices are not in ascending order.
    case badIndex(String)
}
