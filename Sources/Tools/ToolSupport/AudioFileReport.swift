// What afinfo reports about an audio file, in the layout of Apple's /usr/bin/afinfo, as text (so that the
// report can be fuzzed in process: a hostile file's fields must never trap the printing).
import AudioToolbox
import Foundation

/// The text of an afinfo report: lines for standard output and warnings for standard error.
public struct AudioFileReport {
    public var text = ""
    public var warnings: [String] = []
    /// The zero value, as the imported C type's.
    public init() {}
    mutating func line(_ s: String) { text += s + "\n" }
    mutating func warning(_ s: String) { warnings.append(s) }
}

// MARK: Channel layouts

/// A layout's name, as in `Channel layout: Stereo (L R)` (Audio Format Services' kAudioFormatProperty_ChannelLayoutName,
/// with afinfo's own words for discrete and unnamed tags). `bytes` is an AudioChannelLayout.
public func channelLayoutName(_ bytes: [UInt8]) -> String? {
    guard bytes.count >= 12 else { return nil }
    let tag = bytes.withUnsafeBytes { $0.loadUnaligned(as: AudioChannelLayoutTag.self) }
    if tag >= kAudioChannelLayoutTag_Unknown { return nil }  // unknown layout with N channels: Apple prints "no channel layout."
    if tag & 0xFFFF0000 == kAudioChannelLayoutTag_DiscreteInOrder { return "\(tag & 0xFFFF) channels, discrete in order" }
    var name: Unmanaged<CFString>?
    var size = UInt32(MemoryLayout<Unmanaged<CFString>?>.size)
    let status = bytes.withUnsafeBytes { AudioFormatGetProperty(kAudioFormatProperty_ChannelLayoutName, UInt32($0.count), $0.baseAddress, &size, &name) }
    if status == noErr, let name { return name.takeRetainedValue() as String }
    if tag == kAudioChannelLayoutTag_UseChannelDescriptions || tag == kAudioChannelLayoutTag_UseChannelBitmap { return nil }
    return String(format: "layout tag 0x%08X (%d channels)", tag, Int(tag & 0xFFFF))
}

// MARK: Reading a file

func property<T>(_ file: AudioFileID, _ id: AudioFilePropertyID, _ initial: T) -> T? {
    var value = initial
    var size = UInt32(MemoryLayout<T>.size)
    let status = withUnsafeMutableBytes(of: &value) { AudioFileGetProperty(file, id, &size, $0.baseAddress!) }
    return status == noErr ? value : nil
}

func channelLayout(_ file: AudioFileID) -> [UInt8]? {
    var size: UInt32 = 0
    guard AudioFileGetPropertyInfo(file, kAudioFilePropertyChannelLayout, &size, nil) == noErr, size >= 12 else { return nil }
    var bytes = [UInt8](repeating: 0, count: Int(size))
    guard bytes.withUnsafeMutableBytes({ AudioFileGetProperty(file, kAudioFilePropertyChannelLayout, &size, $0.baseAddress!) }) == noErr else {
        return nil
    }
    return Array(bytes.prefix(Int(size)))
}

func infoDictionary(_ file: AudioFileID) -> [(String, String)] {
    var dictionary: Unmanaged<CFDictionary>?
    var size = UInt32(MemoryLayout<Unmanaged<CFDictionary>?>.size)
    guard AudioFileGetProperty(file, kAudioFilePropertyInfoDictionary, &size, &dictionary) == noErr, let dictionary else { return [] }
    let d = dictionary.takeRetainedValue() as NSDictionary
    return d.map { ("\($0.key)", "\($0.value)") }.sorted { $0.0 < $1.0 }
}

/// The key Audio File Services adds to every info dictionary; the full report shows the estimated
/// duration instead.
let approximateDurationKey = "approximate duration in seconds"

/// afinfo's full report of an open file, appended to `out`.
public func printFull(_ path: String, _ file: AudioFileID, to out: inout AudioFileReport) {
    let type: AudioFileTypeID = property(file, kAudioFilePropertyFileFormat, 0) ?? 0
    out.line("File:           \(path)")
    out.line("File type ID:   \(fourCharacters(type) ?? String(format: "0x%08X", type))")
    let tracks: UInt32 = property(file, kAudioFilePropertyAudioTrackCount, 1) ?? 1
    out.line("Num Tracks:     \(tracks)")
    out.line("----")
    guard let format: AudioStreamBasicDescription = property(file, kAudioFilePropertyDataFormat, AudioStreamBasicDescription()) else {
        out.warning("afinfo: AudioFileGetProperty(kAudioFilePropertyDataFormat) failed for \(path)")
        out.line("----")
        return
    }
    out.line("Data format:    " + describe(format))
    if let layout = channelLayout(file), let name = channelLayoutName(layout) {
        out.line("Channel layout: \(name)")
    } else {
        out.line("                no channel layout.")
    }
    if let duration: Float64 = property(file, kAudioFilePropertyEstimatedDuration, 0) {
        out.line(String(format: "estimated duration: %f sec", duration))
    }
    if let bytes: UInt64 = property(file, kAudioFilePropertyAudioDataByteCount, 0) { out.line("audio bytes: \(bytes)") }
    if let packets: UInt64 = property(file, kAudioFilePropertyAudioDataPacketCount, 0) { out.line("audio packets: \(packets)") }
    if let table: AudioFilePacketTableInfo = property(file, kAudioFilePropertyPacketTableInfo, AudioFilePacketTableInfo()) {
        // In 128 bits: a hostile packet table's three counts can overflow 64.
        let total = Int128(table.mNumberValidFrames) + Int128(table.mPrimingFrames) + Int128(table.mRemainderFrames)
        out.line("audio \(table.mNumberValidFrames) valid frames + \(table.mPrimingFrames) priming + \(table.mRemainderFrames) remainder = \(total)")
    }
    if let bitRate: UInt32 = property(file, kAudioFilePropertyBitRate, 0) { out.line("bit rate: \(bitRate) bits per second") }
    if let bound: UInt32 = property(file, kAudioFilePropertyPacketSizeUpperBound, 0) { out.line("packet size upper bound: \(bound)") }
    if let maximum: UInt32 = property(file, kAudioFilePropertyMaximumPacketSize, 0) { out.line("maximum packet size: \(maximum)") }
    if let offset: Int64 = property(file, kAudioFilePropertyDataOffset, 0) { out.line("audio data file offset: \(offset)") }
    if let optimized: UInt32 = property(file, kAudioFilePropertyIsOptimized, 0) { out.line(optimized != 0 ? "optimized" : "not optimized") }
    if let depth: Int32 = property(file, kAudioFilePropertySourceBitDepth, 0), depth != 0 {
        // Negative depths mean floating point; Audio File Services may also give the float's positive width.
        let isFloat = depth < 0 || (format.mFormatID == kAudioFormatLinearPCM && format.mFormatFlags & kAudioFormatFlagIsFloat != 0)
        out.line("source bit depth: \(isFloat ? "F" : "I")\(abs(depth))")
    }
    let info = infoDictionary(file).filter { $0.0 != approximateDurationKey }
    if !info.isEmpty {
        out.line("info dictionary:")
        for (key, value) in info { out.line("    " + key.padding(toLength: max(40, key.count + 1), withPad: " ", startingAt: 0) + value) }
    }
    out.line("----")
}

/// `afinfo -b`: `path, WAVE, Num Tracks:     1` / `----` / `1.000 sec, format:   2 ch,  44100 Hz, Int16, interleaved`.
public func printBrief(_ path: String, _ file: AudioFileID, to out: inout AudioFileReport) {
    let type: AudioFileTypeID = property(file, kAudioFilePropertyFileFormat, 0) ?? 0
    let tracks: UInt32 = property(file, kAudioFilePropertyAudioTrackCount, 1) ?? 1
    out.line("\(path), \(fourCharacters(type) ?? String(format: "0x%08X", type)), Num Tracks:     \(tracks)")
    out.line("----")
    let duration: Float64 = property(file, kAudioFilePropertyEstimatedDuration, 0) ?? 0
    if let format: AudioStreamBasicDescription = property(file, kAudioFilePropertyDataFormat, AudioStreamBasicDescription()) {
        out.line(String(format: "%.3f sec, format: ", duration) + " " + describe(format))
    }
}

