import Foundation
import OCASpeech

/// A speech string's words in Apple's terms: every word of the text (runs of letters and digits, with apostrophes
/// inside), in UTF-16 units, with where its audio starts. espeak-ng announces most words itself; it joins some
/// to a neighbour ("of the" is one word to it), and those get a start interpolated by character position between
/// the announced words around them.
struct SpeechText {
    /// The UTF-16 offset of each scalar, and of the end.
    private let offsets: [Int]
    /// The words as scalar ranges.
    private let words: [Range<Int>]

    init(_ text: String) {
        var offsets = [0]
        offsets.reserveCapacity(text.unicodeScalars.count + 1)
        for scalar in text.unicodeScalars { offsets.append(offsets.last! + scalar.utf16.count) }
        self.offsets = offsets
        let scalars = Array(text.unicodeScalars)
        func isWord(_ s: Unicode.Scalar) -> Bool { s.properties.isAlphabetic || s.properties.numericType != nil || s.properties.generalCategory == .nonspacingMark }
        var words: [Range<Int>] = []
        var i = 0
        while i < scalars.count {
            guard isWord(scalars[i]) else { i += 1; continue }
            var j = i + 1
            while j < scalars.count && (isWord(scalars[j]) || ((scalars[j] == "'" || scalars[j] == "\u{2019}") && j + 1 < scalars.count && isWord(scalars[j + 1]))) {
                j += 1
            }
            words.append(i..<j)
            i = j
        }
        self.words = words
    }

    /// A scalar range in UTF-16 units.
    private func range(_ r: Range<Int>) -> NSRange {
        let last = offsets.count - 1
        let start = min(r.lowerBound, last), end = min(max(r.upperBound, start), last)
        return NSRange(location: offsets[start], length: offsets[end] - offsets[start])
    }

    /// The text's words with their first samples, as far as `marks` (in order) tell; the words after the last mark
    /// only once `end` (the utterance's length in samples) is known.
    func timedWords(_ marks: [SpeechEngine.WordMark], end: Int?) -> [(range: NSRange, sample: Int)] {
        // Anchors: (word index, sample) for each word a mark starts in.
        var anchors: [(word: Int, sample: Int)] = []
        var w = 0
        for mark in marks {
            while w < words.count && words[w].upperBound <= mark.characterOffset { w += 1 }
            guard w < words.count else { break }
            if anchors.last?.word != w { anchors.append((w, mark.sampleOffset)) }
        }
        var result: [(NSRange, Int)] = []
        guard let first = anchors.first else {
            guard let end else { return [] }
            _ = end
            return words.map { (range($0), 0) }
        }
        // Words before the first anchor start with it.
        for k in 0..<first.word { result.append((range(words[k]), first.sample)) }
        for (a, anchor) in anchors.enumerated() {
            let next: (word: Int, sample: Int)?
            if a + 1 < anchors.count {
                next = anchors[a + 1]
            } else if let end {
                next = (words.count, end)
            } else {
                result.append((range(words[anchor.word]), anchor.sample))
                break
            }
            let stop = next!.word
            let from = words[anchor.word].lowerBound
            let to = stop < words.count ? words[stop].lowerBound : (offsets.count - 1)
            for k in anchor.word..<stop {
                let fraction = to > from ? Double(words[k].lowerBound - from) / Double(to - from) : 0
                result.append((range(words[k]), anchor.sample + Int(fraction * Double(next!.sample - anchor.sample))))
            }
        }
        return result
    }
}
