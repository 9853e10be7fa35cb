/// The metadata at the start of a native .flac file: the "fLaC" marker and the blocks before the first frame.
struct FLACMetadata {
    var streamInfo: FLACStreamInfo
    /// VORBIS_COMMENT fields in file order, keys uppercased (field names are case-insensitive).
    var vorbisComments: [(String, String)]
    /// The VORBIS_COMMENT vendor string; empty when the file has no such block.
    var vendor: String
    /// Byte offset of the first audio frame (just past the last metadata block) from the input's start.
    var firstFrameOffset: Int
    /// Every metadata block in file order, STREAMINFO included, with its type (0...126) and body.
    var rawBlocks: [(type: UInt8, body: [UInt8])]

    enum BlockType: UInt8 {
        case streamInfo = 0, padding = 1, application = 2, seekTable = 3, vorbisComment = 4, cueSheet = 5, picture = 6
    }

    /// Parses a prefix of a .flac file. Skips ID3v2 tags in front of "fLaC". Returns `.needMoreData` with
    /// the prefix length known to be needed when the metadata runs past the end of `data`.
    static func parse(_ data: UnsafeRawBufferPointer) -> Result<FLACMetadata, FLACError> {
        let count = data.count
        var pos = 0
        // ID3v2: "ID3", version, flags, 4 syncsafe size bytes, optional 10-byte footer.
        while true {
            guard count >= pos + 4 else { return .failure(.needMoreData(atLeast: pos + 4)) }
            if data[pos] == 0x66, data[pos + 1] == 0x4C, data[pos + 2] == 0x61, data[pos + 3] == 0x43 { break }  // "fLaC"
            guard data[pos] == 0x49, data[pos + 1] == 0x44, data[pos + 2] == 0x33 else { return .failure(.badSync) }
            guard count >= pos + 10 else { return .failure(.needMoreData(atLeast: pos + 10)) }
            var size = 0
            for i in 6..<10 {
                guard data[pos + i] & 0x80 == 0 else { return .failure(.invalid) }
                size = size << 7 | Int(data[pos + i])
            }
            pos += 10 + size + (data[pos + 5] & 0x10 != 0 ? 10 : 0)
        }
        pos += 4
        var blocks: [(type: UInt8, body: [UInt8])] = []
        var info: FLACStreamInfo?
        var comments: [(String, String)] = []
        var vendor = ""
        var last = false
        while !last {
            guard count >= pos + 4 else { return .failure(.needMoreData(atLeast: pos + 4)) }
            let type = data[pos] & 0x7F
            last = data[pos] & 0x80 != 0
            let length = Int(data[pos + 1]) << 16 | Int(data[pos + 2]) << 8 | Int(data[pos + 3])
            pos += 4
            guard count >= pos + length else { return .failure(.needMoreData(atLeast: pos + length)) }
            guard type != 127 else { return .failure(.invalid) }
            let body = UnsafeRawBufferPointer(rebasing: data[pos..<pos + length])
            pos += length
            if blocks.isEmpty {
                // STREAMINFO must come first, exactly once.
                guard type == BlockType.streamInfo.rawValue, length == FLACStreamInfo.byteCount else { return .failure(.invalid) }
                do { info = try FLACStreamInfo(parsing: body) } catch { return .failure(error) }
            } else {
                guard type != BlockType.streamInfo.rawValue else { return .failure(.invalid) }
                // Only the first VORBIS_COMMENT counts; a malformed one is ignored rather than rejecting the audio.
                if type == BlockType.vorbisComment.rawValue, vendor.isEmpty, comments.isEmpty,
                   let parsed = parseVorbisComment(body) {
                    vendor = parsed.vendor
                    comments = parsed.comments
                }
            }
            blocks.append((type: type, body: Array(body)))
        }
        guard let streamInfo = info else { return .failure(.invalid) }
        return .success(FLACMetadata(streamInfo: streamInfo, vorbisComments: comments, vendor: vendor,
                                     firstFrameOffset: pos, rawBlocks: blocks))
    }

    /// Reads a VORBIS_COMMENT body (little-endian lengths). Nil when a length runs past the body; every
    /// count is checked against the bytes left before anything is allocated from it.
    static func parseVorbisComment(_ body: UnsafeRawBufferPointer) -> (vendor: String, comments: [(String, String)])? {
        var pos = 0
        /// The next little-endian 32-bit length, or nil past the end.
        func le32() -> Int? {
            guard body.count - pos >= 4 else { return nil }
            let v = Int(body[pos]) | Int(body[pos + 1]) << 8 | Int(body[pos + 2]) << 16 | Int(body[pos + 3]) << 24
            pos += 4
            return v
        }
        /// The next length-prefixed UTF-8 string (invalid bytes replaced), or nil past the end.
        func string() -> String? {
            guard let n = le32(), body.count - pos >= n else { return nil }
            let s = String(decoding: UnsafeRawBufferPointer(rebasing: body[pos..<pos + n]), as: UTF8.self)
            pos += n
            return s
        }
        guard let vendor = string(), let n = le32(), n <= (body.count - pos) / 4 else { return nil }
        var comments: [(String, String)] = []
        comments.reserveCapacity(n)
        for _ in 0..<n {
            guard let field = string() else { return nil }
            if let eq = field.firstIndex(of: "=") {
                comments.append((String(field[..<eq]).uppercased(), String(field[field.index(after: eq)...])))
            } else {
                comments.append((field.uppercased(), ""))
            }
        }
        return (vendor, comments)
    }

    /// The metadata of a new file: "fLaC", STREAMINFO, VORBIS_COMMENT and, when `padding` > 0, a PADDING
    /// block of that many bytes (clamped to the 24-bit block length), the last one flagged as last.
    static func serialize(streamInfo: FLACStreamInfo, vorbisComments: [(String, String)], vendor: String,
                          padding: Int) -> [UInt8] {
        var out: [UInt8] = [0x66, 0x4C, 0x61, 0x43]
        /// Appends a metadata block header.
        func header(_ type: BlockType, _ length: Int, last: Bool) {
            out.append((last ? 0x80 : 0) | type.rawValue)
            out.append(UInt8(truncatingIfNeeded: length >> 16))
            out.append(UInt8(truncatingIfNeeded: length >> 8))
            out.append(UInt8(truncatingIfNeeded: length))
        }
        /// Appends a little-endian 32-bit value.
        func le32(_ v: Int, into body: inout [UInt8]) {
            for i in 0..<4 { body.append(UInt8(truncatingIfNeeded: v >> (8 * i))) }
        }
        header(.streamInfo, FLACStreamInfo.byteCount, last: false)
        out.append(contentsOf: streamInfo.bytes)
        var body: [UInt8] = []
        let vendorBytes = Array(vendor.utf8)
        le32(vendorBytes.count, into: &body)
        body.append(contentsOf: vendorBytes)
        le32(vorbisComments.count, into: &body)
        for (key, value) in vorbisComments {
            let field = Array((key + "=" + value).utf8)
            le32(field.count, into: &body)
            body.append(contentsOf: field)
        }
        let pad = min(max(padding, 0), 0xFF_FFFF)
        // A comment body too long for the 24-bit length is cut back to the vendor string alone.
        if body.count > 0xFF_FFFF {
            body = Array(body.prefix(4 + vendorBytes.count))
            le32(0, into: &body)
        }
        header(.vorbisComment, body.count, last: pad == 0)
        out.append(contentsOf: body)
        if pad > 0 {
            header(.padding, pad, last: true)
            out.append(contentsOf: repeatElement(0, count: pad))
        }
        return out
    }
}
