import Foundation

/// ID3 tags (v2.2, v2.3, v2.4 at a file's start; v1/v1.1 in its last 128 bytes) read into the keys of
/// Apple's info dictionary (kAFInfoDictionary_*), the way AudioFile reports an MP3's metadata. Text
/// frames in Latin-1, UTF-16 (with or without BOM) and UTF-8; unsynchronisation undone; every size
/// checked against the tag's real length.
enum ID3Tag {
    /// The whole ID3v2 tag's size if `header` (at least 10 bytes) starts one, footer included.
    static func v2Size(_ header: [UInt8]) -> Int? {
        guard header.count >= 10, header[0] == 0x49, header[1] == 0x44, header[2] == 0x33, header[3] < 5,
              header[6] & 0x80 == 0, header[7] & 0x80 == 0, header[8] & 0x80 == 0, header[9] & 0x80 == 0 else { return nil }
        let body = Int(header[6]) << 21 | Int(header[7]) << 14 | Int(header[8]) << 7 | Int(header[9])
        return 10 + body + (header[5] & 0x10 != 0 ? 10 : 0)
    }

    private static let v23Keys: [String: String] = [
        "TIT2": kAFInfoDictionary_Title, "TPE1": kAFInfoDictionary_Artist, "TALB": kAFInfoDictionary_Album,
        "TYER": kAFInfoDictionary_Year, "TDRC": kAFInfoDictionary_Year, "TCON": kAFInfoDictionary_Genre,
        "TRCK": kAFInfoDictionary_TrackNumber, "TCOM": kAFInfoDictionary_Composer, "TEXT": kAFInfoDictionary_Lyricist,
        "TCOP": kAFInfoDictionary_Copyright, "TSSE": kAFInfoDictionary_EncodingApplication, "TENC": kAFInfoDictionary_SourceEncoder,
        "TBPM": kAFInfoDictionary_Tempo, "TIT3": kAFInfoDictionary_SubTitle, "TSRC": kAFInfoDictionary_ISRC,
        "TKEY": kAFInfoDictionary_KeySignature, "TDRL": kAFInfoDictionary_RecordedDate, "COMM": kAFInfoDictionary_Comments,
    ]
    private static let v22Keys: [String: String] = [
        "TT2": kAFInfoDictionary_Title, "TP1": kAFInfoDictionary_Artist, "TAL": kAFInfoDictionary_Album,
        "TYE": kAFInfoDictionary_Year, "TCO": kAFInfoDictionary_Genre, "TRK": kAFInfoDictionary_TrackNumber,
        "TCM": kAFInfoDictionary_Composer, "TXT": kAFInfoDictionary_Lyricist, "TCR": kAFInfoDictionary_Copyright,
        "TSS": kAFInfoDictionary_EncodingApplication, "TEN": kAFInfoDictionary_SourceEncoder, "TBP": kAFInfoDictionary_Tempo,
        "TT3": kAFInfoDictionary_SubTitle, "TRC": kAFInfoDictionary_ISRC, "COM": kAFInfoDictionary_Comments,
    ]

    /// ID3v1's genre list (the first 80, which every reader agrees on).
    static let genres = ("Blues,Classic Rock,Country,Dance,Disco,Funk,Grunge,Hip-Hop,Jazz,Metal,New Age,Oldies,Other,Pop,R&B,Rap,"
        + "Reggae,Rock,Techno,Industrial,Alternative,Ska,Death Metal,Pranks,Soundtrack,Euro-Techno,Ambient,Trip-Hop,Vocal,"
        + "Jazz+Funk,Fusion,Trance,Classical,Instrumental,Acid,House,Game,Sound Clip,Gospel,Noise,AlternRock,Bass,Soul,Punk,"
        + "Space,Meditative,Instrumental Pop,Instrumental Rock,Ethnic,Gothic,Darkwave,Techno-Industrial,Electronic,Pop-Folk,"
        + "Eurodance,Dream,Southern Rock,Comedy,Cult,Gangsta,Top 40,Christian Rap,Pop/Funk,Jungle,Native American,Cabaret,"
        + "New Wave,Psychadelic,Rave,Showtunes,Trailer,Lo-Fi,Tribal,Acid Punk,Acid Jazz,Polka,Retro,Musical,Rock & Roll,Hard Rock")
        .split(separator: ",").map(String.init)

    /// "(17)" or "17" as a genre name, other text as itself.
    static func genreName(_ text: String) -> String {
        var t = Substring(text)
        if t.hasPrefix("("), let close = t.firstIndex(of: ")") {
            let rest = t[t.index(after: close)...]
            if !rest.isEmpty { return String(rest) }
            t = t[t.index(after: t.startIndex)..<close]
        }
        if let n = Int(t), n >= 0, n < genres.count { return genres[n] }
        return text
    }

    /// Text in an ID3 encoding (0 Latin-1, 1 UTF-16 with BOM, 2 UTF-16BE, 3 UTF-8), up to its terminator.
    static func text(_ bytes: ArraySlice<UInt8>, encoding: UInt8) -> String {
        switch encoding {
        case 1, 2:
            var b = Array(bytes)
            var bigEndian = encoding == 2
            if b.count >= 2 && b[0] == 0xFF && b[1] == 0xFE { bigEndian = false; b.removeFirst(2) }
            else if b.count >= 2 && b[0] == 0xFE && b[1] == 0xFF { bigEndian = true; b.removeFirst(2) }
            var units: [UInt16] = []
            var i = 0
            while i + 1 < b.count {
                let u = bigEndian ? UInt16(b[i]) << 8 | UInt16(b[i + 1]) : UInt16(b[i + 1]) << 8 | UInt16(b[i])
                if u == 0 { break }
                units.append(u)
                i += 2
            }
            return String(decoding: units, as: UTF16.self)
        case 3:
            return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        default:
            return String(bytes.prefix { $0 != 0 }.map { Character(Unicode.Scalar($0)) })
        }
    }

    /// The info dictionary entries of an ID3v2 tag (the whole tag, header included).
    static func parseV2(_ tag: [UInt8]) -> [String: String] {
        guard tag.count >= 10, let declared = v2Size(Array(tag.prefix(10))) else { return [:] }
        let major = tag[3], flags = tag[5]
        var body = Array(tag[10..<min(tag.count, declared)])
        if flags & 0x80 != 0 && major < 4 {
            // Tag-wide unsynchronisation (v2.2/2.3): FF 00 stands for FF.
            var out: [UInt8] = []
            out.reserveCapacity(body.count)
            var i = 0
            while i < body.count { out.append(body[i]); if body[i] == 0xFF && i + 1 < body.count && body[i + 1] == 0 { i += 1 }; i += 1 }
            body = out
        }
        var p = 0
        if flags & 0x40 != 0 && major >= 3 && body.count >= 4 {
            // Extended header: its size (syncsafe in 2.4, which counts itself; plain in 2.3, which does not).
            let raw = body[0..<4].reduce(0) { $0 << 8 | Int($1) }
            let size = major == 4 ? Int(body[0]) << 21 | Int(body[1]) << 14 | Int(body[2]) << 7 | Int(body[3]) : raw + 4
            p = min(size, body.count)
        }
        var info: [String: String] = [:]
        let headerBytes = major == 2 ? 6 : 10
        while p + headerBytes <= body.count {
            let idBytes = body[p..<(p + (major == 2 ? 3 : 4))]
            guard idBytes.allSatisfy({ ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) }) else { break }  // padding
            let id = String(decoding: idBytes, as: UTF8.self)
            let size: Int
            if major == 2 {
                size = Int(body[p + 3]) << 16 | Int(body[p + 4]) << 8 | Int(body[p + 5])
            } else if major == 4 {
                size = Int(body[p + 4] & 0x7F) << 21 | Int(body[p + 5] & 0x7F) << 14 | Int(body[p + 6] & 0x7F) << 7 | Int(body[p + 7] & 0x7F)
            } else {
                size = Int(body[p + 4]) << 24 | Int(body[p + 5]) << 16 | Int(body[p + 6]) << 8 | Int(body[p + 7])
            }
            let start = p + headerBytes
            guard size >= 0, size <= body.count - start else { break }
            let frame = body[start..<(start + size)]
            let frameFlags = major >= 3 ? body[p + 9] : 0
            // Compressed or encrypted frames are skipped rather than misread.
            let unreadable = major == 3 ? frameFlags & 0xC0 != 0 : major == 4 ? frameFlags & 0x0C != 0 : false
            if !unreadable, let key = (major == 2 ? v22Keys : v23Keys)[id], let encoding = frame.first {
                var value: String
                if id == "COMM" || id == "COM" {
                    // Encoding, language (3), a terminated description, then the text.
                    let rest = frame.dropFirst(4)
                    let wide = encoding == 1 || encoding == 2
                    var i = rest.startIndex
                    if wide { while i + 1 < rest.endIndex && !(rest[i] == 0 && rest[i + 1] == 0) { i += 2 }; i += 2 }
                    else { while i < rest.endIndex && rest[i] != 0 { i += 1 }; i += 1 }
                    value = i <= rest.endIndex ? text(rest[min(i, rest.endIndex)...], encoding: encoding) : ""
                } else {
                    value = text(frame.dropFirst(), encoding: encoding)
                }
                if key == kAFInfoDictionary_Genre { value = genreName(value) }
                if !value.isEmpty && info[key] == nil { info[key] = value }
            }
            p = start + size
        }
        return info
    }

    /// The info dictionary entries of a 128-byte ID3v1 tag ("TAG" ...), nil if it is not one.
    static func parseV1(_ tag: [UInt8]) -> [String: String]? {
        guard tag.count == 128, tag[0] == 0x54, tag[1] == 0x41, tag[2] == 0x47 else { return nil }
        func field(_ range: Range<Int>) -> String {
            text(tag[range], encoding: 0).trimmingCharacters(in: .whitespaces)
        }
        var info: [String: String] = [:]
        let pairs: [(String, Range<Int>)] = [(kAFInfoDictionary_Title, 3..<33), (kAFInfoDictionary_Artist, 33..<63),
                                             (kAFInfoDictionary_Album, 63..<93), (kAFInfoDictionary_Year, 93..<97)]
        for (key, range) in pairs { let v = field(range); if !v.isEmpty { info[key] = v } }
        let isV11 = tag[125] == 0 && tag[126] != 0
        let comment = field(97..<(isV11 ? 125 : 127))
        if !comment.isEmpty { info[kAFInfoDictionary_Comments] = comment }
        if isV11 { info[kAFInfoDictionary_TrackNumber] = String(tag[126]) }
        if Int(tag[127]) < genres.count { info[kAFInfoDictionary_Genre] = genres[Int(tag[127])] }
        return info
    }
}
