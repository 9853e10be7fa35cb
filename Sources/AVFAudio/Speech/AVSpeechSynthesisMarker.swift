import Foundation

/// A place in synthesized audio: where a word (or another unit) of the text starts.
open class AVSpeechSynthesisMarker: NSObject, @unchecked Sendable {
    /// What a marker marks.
    public enum MarkType: Int, @unchecked Sendable {
        /// A phoneme.
        case phoneme = 0
        /// A word.
        case word = 1
        /// A sentence.
        case sentence = 2
        /// A paragraph.
        case paragraph = 3
        /// A bookmark in SSML.
        case bookmark = 4
    }

    /// What the marker marks.
    open var mark: MarkType
    /// Where it starts in the audio, in bytes from the utterance's first sample.
    open var byteSampleOffset: Int
    /// Where it is in the text, in UTF-16 units.
    open var textRange: NSRange
    /// A bookmark's name.
    open var bookmarkName: String = ""
    /// A phoneme's symbol.
    open var phoneme: String = ""

    /// A marker of `type` for `range` of the text at `byteSampleOffset` in the audio.
    public init(markerType type: MarkType, forTextRange range: NSRange, atByteSampleOffset byteSampleOffset: Int) {
        mark = type
        textRange = range
        self.byteSampleOffset = byteSampleOffset
        super.init()
    }
}
