// What afinfo and afconvert share: error and format text in the style of Apple's tools.
import AudioToolbox
import Foundation

// MARK: Output helpers

/// Writes a warning line to standard error.
public func warn(_ text: String) {
    fflush(nil)  // keep stdout and stderr in order when both go to one terminal
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// A four-char code as its four characters, or nil if any byte is not printable ASCII.
public func fourCharacters(_ code: UInt32) -> String? {
    let bytes = [24, 16, 8, 0].map { UInt8((code >> UInt32($0)) & 0xFF) }
    guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
    return String(decoding: bytes, as: UTF8.self)
}

/// An OSStatus the way Core Audio's tools print one: 'typ?' for four-char codes, else the number,
/// followed by what it means when it is a common file error.
public func describe(_ status: OSStatus) -> String {
    let code = UInt32(bitPattern: status)
    let text = status < -0xFFFF || status > 0xFFFF ? fourCharacters(code).map { "'\($0)'" } ?? "\(status)" : "\(status)"
    let meanings: [(OSStatus, String)] = [  // a list: some codes are shared ('fmt?')
        (kAudio_FileNotFoundError, "file not found"),
        (kAudio_FilePermissionError, "permission denied"),
        (kAudio_BadFilePathError, "bad file path"),
        (kAudio_ParamError, "bad parameter"),
        (kAudioFileUnsupportedFileTypeError, "unsupported file type"),
        (kAudioFileUnsupportedDataFormatError, "unsupported data format"),
        (kAudioFileInvalidFileError, "invalid or damaged file"),
        (kAudioFileInvalidChunkError, "invalid chunk"),
        (kAudioFileUnspecifiedError, "unspecified error"),
        (kAudioFilePermissionsError, "permission denied"),
        (kExtAudioFileError_InvalidDataFormat, "unsupported data format"),
        (kExtAudioFileError_NonPCMClientFormat, "not linear PCM"),
        (kAudioFileDoesNotAllow64BitDataSizeError, "too large for this file type: WAVE and AIFF hold 4 GiB; use RF64 or CAF"),
        (kAudioFilePositionError, "invalid file position: the file must be seekable"),
        (kAudioFileOperationNotSupportedError, "operation not supported on this file"),
        (kAudioConverterErr_InputSampleRateOutOfRange, "input sample rate out of range"),
        (kAudioConverterErr_OutputSampleRateOutOfRange, "output sample rate out of range"),
        (kAudioConverterErr_FormatNotSupported, "format not supported"),
        (kAudio_MemFullError, "out of memory"),
        (-34, "disk full"),
        (-36, "I/O error"),
        (kAudioHardwareUnspecifiedError, "the device failed"),
    ]
    // A full disk or an I/O error: the system's own words too (errno is still the failed call's).
    var systemText = status == -34 || status == -36 ? ": " + String(cString: strerror(errno)) : ""
    // A device failure: what ALSA and the sound server said.
    if status == kAudioHardwareUnspecifiedError,
       let device = _AudioHardwareTakeLastErrorDescription() {
        systemText += ": " + device
    }
    return meanings.first { $0.0 == status }.map { "\(text) (\($0.1)\(systemText))" } ?? text
}

// MARK: Stream descriptions (the layout of Apple's CAStreamBasicDescription)

public let nativeBigEndian = kAudioFormatFlagsNativeEndian & kAudioFormatFlagIsBigEndian != 0

/// The name of a common native-endian packed PCM format (Int16, Int32, Float32, Float64, 8.24).
public func commonPCMName(_ f: AudioStreamBasicDescription) -> String? {
    guard f.mFormatID == kAudioFormatLinearPCM, f.mFramesPerPacket == 1, f.mChannelsPerFrame > 0 else { return nil }
    let flags = f.mFormatFlags
    guard (flags & kAudioFormatFlagIsBigEndian != 0) == nativeBigEndian else { return nil }
    let perBuffer = flags & kAudioFormatFlagIsNonInterleaved != 0 ? 1 : f.mChannelsPerFrame
    guard f.mBytesPerFrame == perBuffer * f.mBitsPerChannel / 8, f.mBitsPerChannel % 8 == 0 else { return nil }
    let fraction = (flags & kLinearPCMFormatFlagsSampleFractionMask) >> kLinearPCMFormatFlagsSampleFractionShift
    if flags & kAudioFormatFlagIsFloat != 0 {
        return f.mBitsPerChannel == 32 ? "Float32" : f.mBitsPerChannel == 64 ? "Float64" : nil
    }
    guard flags & kAudioFormatFlagIsSignedInteger != 0 else { return nil }
    switch (f.mBitsPerChannel, fraction) {
    case (16, 0): return "Int16"
    case (32, 0): return "Int32"
    case (32, 24): return "8.24"
    default: return nil
    }
}

/// `2 ch,  44100 Hz, Int16, interleaved` or, for other layouts,
/// `2 ch,  48000 Hz, 'lpcm' (0x0000000E) 24-bit big-endian signed integer` (the code quoted, as Apple prints it).
public func describe(_ f: AudioStreamBasicDescription) -> String {
    var s = String(format: "%2d ch, %6.0f Hz, ", Int(f.mChannelsPerFrame), f.mSampleRate)
    let flags = f.mFormatFlags
    let deinterleaved = flags & kAudioFormatFlagIsNonInterleaved != 0
    if let name = commonPCMName(f) {
        s += name
        if f.mChannelsPerFrame > 1 { s += deinterleaved ? ", deinterleaved" : ", interleaved" }
        return s
    }
    s += quoted(f.mFormatID) + String(format: " (0x%08X) ", flags)
    if f.mFormatID == kAudioFormatAppleLossless || f.mFormatID == kAudioFormatFLAC {
        // Lossless codecs name the source's depth, which their flags carry (1: 16, 2: 20, 3: 24, 4: 32 bits), as
        // Apple's CAStreamBasicDescription prints them.
        let bits = [1: 16, 2: 20, 3: 24, 4: 32][Int(flags)]
        return s + (bits.map { "from \($0)-bit source, " } ?? "from UNKNOWN source bit depth, ") + "\(f.mFramesPerPacket) frames/packet"
    }
    guard f.mFormatID == kAudioFormatLinearPCM else {
        return s + "\(f.mBitsPerChannel) bits/channel, \(f.mBytesPerPacket) bytes/packet, "
            + "\(f.mFramesPerPacket) frames/packet, \(f.mBytesPerFrame) bytes/frame"
    }
    let isInt = flags & kAudioFormatFlagIsFloat == 0
    let perBuffer = deinterleaved ? 1 : max(f.mChannelsPerFrame, 1)
    let wordSize = f.mBytesPerFrame / perBuffer
    let endian = wordSize > 1 ? (flags & kAudioFormatFlagIsBigEndian != 0 ? " big-endian" : " little-endian") : ""
    let sign = isInt ? (flags & kAudioFormatFlagIsSignedInteger != 0 ? " signed" : " unsigned") : ""
    let packednessMatters = wordSize > 0 && wordSize * 8 != f.mBitsPerChannel
    let packed = packednessMatters ? (flags & kAudioFormatFlagIsPacked != 0 ? "packed in \(wordSize) bytes" : "unpacked in \(wordSize) bytes") : ""
    let alignmentMatters = wordSize > 0 && (packednessMatters || f.mBitsPerChannel % 8 != 0)
    let align = alignmentMatters ? (flags & kAudioFormatFlagIsAlignedHigh != 0 ? " high-aligned" : " low-aligned") : ""
    let fraction = Int((flags & kLinearPCMFormatFlagsSampleFractionMask) >> kLinearPCMFormatFlagsSampleFractionShift)
    let depth = fraction > 0 ? "\(Int(f.mBitsPerChannel) - fraction).\(fraction)" : "\(f.mBitsPerChannel)"
    s += "\(depth)-bit\(endian)\(sign) \(isInt ? "integer" : "float")"
    if !packed.isEmpty || !align.isEmpty { s += ", " + packed + align }
    if deinterleaved { s += ", deinterleaved" }
    return s
}

