// The file types and linear PCM data formats the tools name (afconvert's -f/-d syntax), from Audio File
// Services' global info.
import AudioToolbox
import Foundation

/// A four-character code as afinfo prints it ('WAVE'), or its number when not printable.
public func quoted(_ code: UInt32) -> String { fourCharacters(code).map { "'\($0)'" } ?? String(format: "0x%08X", code) }

/// The code for a four-character string ('WAVE' -> 0x57415645), nil for another length.
public func fourCharCode(_ text: String) -> UInt32? {
    let bytes = Array(text.utf8)
    guard (1...4).contains(bytes.count), bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
    return (bytes + Array(repeating: 0x20, count: 4 - bytes.count)).reduce(0) { $0 << 8 | UInt32($1) }
}

// MARK: Stream descriptions

/// afconvert's name for a linear PCM layout: [-][BE|LE]{F|[U]I}{bits} (`LEI16`, `BEF32`, `UI8`).
public func pcmName(flags: AudioFormatFlags, bits: UInt32) -> String {
    let kind = flags & kAudioFormatFlagIsFloat != 0 ? "F" : flags & kAudioFormatFlagIsSignedInteger != 0 ? "I" : "UI"
    let endian = bits > 8 ? (flags & kAudioFormatFlagIsBigEndian != 0 ? "BE" : "LE") : ""
    return (flags & kAudioFormatFlagIsNonInterleaved != 0 ? "-" : "") + endian + kind + "\(bits)"
}

/// Linear PCM, packed, interleaved unless `flags` says otherwise.
public func pcmFormat(rate: Double, channels: UInt32, flags: AudioFormatFlags, bits: UInt32) -> AudioStreamBasicDescription {
    let sampleBytes = (bits + 7) / 8
    let frameBytes = flags & kAudioFormatFlagIsNonInterleaved != 0 ? sampleBytes : sampleBytes * channels
    var f = flags
    if sampleBytes * 8 == bits { f |= kAudioFormatFlagIsPacked }
    return AudioStreamBasicDescription(mSampleRate: rate, mFormatID: kAudioFormatLinearPCM, mFormatFlags: f,
                                       mBytesPerPacket: frameBytes, mFramesPerPacket: 1, mBytesPerFrame: frameBytes,
                                       mChannelsPerFrame: channels, mBitsPerChannel: bits, mReserved: 0)
}

// MARK: File types (Audio File Services global info)

/// An AudioFileGetGlobalInfo value as an array of `T` (empty when the property fails).
public func globalBytes<T>(_ id: AudioFilePropertyID, specifier: UnsafeMutableRawPointer?, specifierSize: UInt32, as: T.Type) -> [T] {
    var size: UInt32 = 0
    guard AudioFileGetGlobalInfoSize(id, specifierSize, specifier, &size) == noErr, size > 0 else { return [] }
    let raw = UnsafeMutableRawPointer.allocate(byteCount: Int(size), alignment: 16)
    defer { raw.deallocate() }
    guard AudioFileGetGlobalInfo(id, specifierSize, specifier, &size, raw) == noErr else { return [] }
    return (0..<Int(size) / MemoryLayout<T>.stride).map { raw.load(fromByteOffset: $0 * MemoryLayout<T>.stride, as: T.self) }
}

/// The file types AudioFile can create (kAudioFileGlobalInfo_WritableTypes).
public func writableTypes() -> [AudioFileTypeID] {
    globalBytes(kAudioFileGlobalInfo_WritableTypes, specifier: nil, specifierSize: 0, as: AudioFileTypeID.self)
}

/// A file type's name (kAudioFileGlobalInfo_FileTypeName), or its quoted code.
public func typeName(_ type: AudioFileTypeID) -> String {
    var t = type
    var name: Unmanaged<CFString>?
    var size = UInt32(MemoryLayout<Unmanaged<CFString>?>.size)
    guard AudioFileGetGlobalInfo(kAudioFileGlobalInfo_FileTypeName, UInt32(MemoryLayout<AudioFileTypeID>.size), &t, &size, &name) == noErr,
          let name else { return quoted(type) }
    return name.takeRetainedValue() as String
}

/// A file type's filename extensions (kAudioFileGlobalInfo_ExtensionsForType).
public func extensions(_ type: AudioFileTypeID) -> [String] {
    var t = type
    var list: Unmanaged<CFArray>?
    var size = UInt32(MemoryLayout<Unmanaged<CFArray>?>.size)
    guard AudioFileGetGlobalInfo(kAudioFileGlobalInfo_ExtensionsForType, UInt32(MemoryLayout<AudioFileTypeID>.size), &t, &size, &list) == noErr,
          let list else { return [] }
    return (list.takeRetainedValue() as NSArray).map { "\($0)" }
}

/// The file types that use a filename extension (kAudioFileGlobalInfo_TypesForExtension).
public func typesForExtension(_ ext: String) -> [AudioFileTypeID] {
    var key: CFString = ext.lowercased() as CFString
    return withUnsafeMutablePointer(to: &key) {
        globalBytes(kAudioFileGlobalInfo_TypesForExtension, specifier: UnsafeMutableRawPointer($0),
                    specifierSize: UInt32(MemoryLayout<CFString>.size), as: AudioFileTypeID.self)
    }
}

/// The data formats a file type holds (kAudioFileGlobalInfo_AvailableFormatIDs).
public func formatIDs(_ type: AudioFileTypeID) -> [AudioFormatID] {
    var t = type
    return globalBytes(kAudioFileGlobalInfo_AvailableFormatIDs, specifier: &t, specifierSize: 4, as: AudioFormatID.self)
}

/// Formats Audio Format Services lists for a property (kAudioFormatProperty_EncodeFormatIDs / DecodeFormatIDs).
public func globalFormatIDs(_ property: AudioFormatPropertyID) -> [AudioFormatID] {
    var size: UInt32 = 0
    guard AudioFormatGetPropertyInfo(property, 0, nil, &size) == noErr, size > 0 else { return [] }
    var ids = [AudioFormatID](repeating: 0, count: Int(size) / 4)
    guard AudioFormatGetProperty(property, 0, nil, &size, &ids) == noErr else { return [] }
    return Array(ids.prefix(Int(size) / 4))
}

/// The stream descriptions a file type holds for one format (for linear PCM: flags and bit depths).
public func streamDescriptions(_ type: AudioFileTypeID, _ format: AudioFormatID) -> [AudioStreamBasicDescription] {
    var spec = AudioFileTypeAndFormatID(mFileType: type, mFormatID: format)
    return globalBytes(kAudioFileGlobalInfo_AvailableStreamDescriptionsForFormat, specifier: &spec,
                       specifierSize: UInt32(MemoryLayout<AudioFileTypeAndFormatID>.size), as: AudioStreamBasicDescription.self)
}

/// Whether a file type's PCM entry is the layout (flags, bits): same sample kind and depth, and the same
/// endianness where it matters.
public func entry(_ d: AudioStreamBasicDescription, matches flags: AudioFormatFlags, bits: UInt32, ignoringEndianness: Bool = false) -> Bool {
    let float = kAudioFormatFlagIsFloat, signed = kAudioFormatFlagIsSignedInteger, big = kAudioFormatFlagIsBigEndian
    guard d.mBitsPerChannel == bits, flags & kAudioFormatFlagIsNonInterleaved == 0, d.mFormatFlags & float == flags & float else { return false }
    if flags & float == 0 && d.mFormatFlags & signed != flags & signed { return false }
    return ignoringEndianness || bits <= 8 || d.mFormatFlags & big == flags & big
}

// MARK: Data formats

public struct DataFormatSpec {
    public var text: String
    public var sameAsSource = false
    /// A compressed format (`-d ima4`, `-d aac`): its ID; linear PCM otherwise.
    public var formatID: AudioFormatID = kAudioFormatLinearPCM
    public var framesPerPacket: UInt32?
    public var flags: AudioFormatFlags = 0
    public var bits: UInt32 = 0
    public var sampleRate: Double?
}

/// Parses `-d`'s argument: data_format[@sample_rate][/format_flags][#frames_per_packet]. Calls `fail`
/// with the problem when the text is not a valid linear PCM data format.
public func parseDataFormat(_ text: String, fail: (String) -> Never) -> DataFormatSpec {
    var spec = DataFormatSpec(text: text)
    var base = Substring(text)
    var suffixes: [(Character, Substring)] = []
    if let i = base.firstIndex(where: { "@/#".contains($0) }) {
        var rest = base[i...]
        base = base[..<i]
        while let marker = rest.first {
            let body = rest.dropFirst()
            let end = body.firstIndex(where: { "@/#".contains($0) }) ?? body.endIndex
            suffixes.append((marker, body[..<end]))
            rest = body[end...]
        }
    }
    if base == "0" {
        spec.sameAsSource = true
    } else {
        var s = base.uppercased()[...]
        var flags: AudioFormatFlags = 0
        if s.hasPrefix("-") { flags |= kAudioFormatFlagIsNonInterleaved; s = s.dropFirst() }
        var endian: String?
        if s.hasPrefix("BE") || s.hasPrefix("LE") { endian = String(s.prefix(2)); s = s.dropFirst(2) }
        let kind: String
        if s.hasPrefix("UI") { kind = "UI"; s = s.dropFirst(2) } else if s.hasPrefix("I") || s.hasPrefix("F") { kind = String(s.prefix(1)); s = s.dropFirst() } else { kind = "" }
        if kind.isEmpty || UInt32(s) == nil || !s.allSatisfy(\.isNumber) {
            // A format's four-char code (quotes optional, short codes padded: `aac` is 'aac ').
            let trimmed = base.trimmingCharacters(in: CharacterSet(charactersIn: "'"))
            let padded = trimmed.count < 4 ? trimmed.padding(toLength: 4, withPad: " ", startingAt: 0) : trimmed
            guard let code = fourCharCode(padded), code != kAudioFormatLinearPCM else {
                fail("invalid data format \"\(text)\": expected [-][BE|LE]{F|[U]I}{8|16|24|32|64}[@sample_rate], e.g. LEI16 or BEI24@48000, "
                     + "or a format's four-char code such as ima4 or ulaw")
            }
            spec.formatID = code
        }
        if spec.formatID == kAudioFormatLinearPCM {
            guard let bits = UInt32(s) else { fail("invalid data format \"\(text)\"") }
            switch kind {
            case "F":
                guard bits == 32 || bits == 64 else { fail("invalid data format \"\(text)\": floats are 32 or 64 bits (F32, F64)") }
                flags |= kAudioFormatFlagIsFloat
            case "I":
                guard [8, 16, 24, 32].contains(bits) else { fail("invalid data format \"\(text)\": integers are 8, 16, 24 or 32 bits") }
                flags |= kAudioFormatFlagIsSignedInteger
            default:
                guard bits == 8 else { fail("invalid data format \"\(text)\": unsigned integers are 8 bits only (UI8)") }
            }
            if bits > 8 {
                let big = endian.map { $0 == "BE" } ?? nativeBigEndian
                if big { flags |= kAudioFormatFlagIsBigEndian }
            }
            spec.flags = flags
            spec.bits = bits
        }
    }
    for (marker, body) in suffixes {
        switch marker {
        case "@":
            guard let rate = Double(body), rate > 0, rate <= 3_072_000 else {
                fail("invalid sample rate \"\(body)\" in data format \"\(text)\"")
            }
            spec.sampleRate = rate
        case "/":
            guard !spec.sameAsSource, let flags = UInt32(body, radix: 16) else { fail("invalid format flags \"\(body)\" in data format \"\(text)\"") }
            spec.flags = flags
        default:
            guard let frames = UInt32(body) else { fail("invalid frames per packet \"\(body)\" in data format \"\(text)\"") }
            guard frames == 1 || spec.formatID != kAudioFormatLinearPCM else { fail("linear PCM has 1 frame per packet (got #\(frames) in \"\(text)\")") }
            spec.framesPerPacket = frames
        }
    }
    return spec
}

