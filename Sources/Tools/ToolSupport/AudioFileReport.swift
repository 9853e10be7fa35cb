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
    let s = AudioFileSummary(file)
    out.line("File:           \(path)")
    out.line("File type ID:   \(s.fileTypeName)")
    out.line("Num Tracks:     \(s.tracks)")
    out.line("----")
    guard let format = s.format else {
        out.warning("afinfo: AudioFileGetProperty(kAudioFilePropertyDataFormat) failed for \(path)")
        out.line("----")
        return
    }
    out.line("Data format:    " + describe(format))
    if let name = s.channelLayout {
        out.line("Channel layout: \(name)")
    } else {
        out.line("                no channel layout.")
    }
    if let duration = s.duration { out.line(String(format: "estimated duration: %f sec", duration)) }
    if let bytes = s.audioBytes { out.line("audio bytes: \(bytes)") }
    if let packets = s.audioPackets { out.line("audio packets: \(packets)") }
    if let bitRate = s.bitRate { out.line("bit rate: \(bitRate) bits per second") }
    if let bound = s.packetSizeUpperBound { out.line("packet size upper bound: \(bound)") }
    if let maximum = s.maximumPacketSize { out.line("maximum packet size: \(maximum)") }
    if let offset = s.dataOffset { out.line("audio data file offset: \(offset)") }
    if let optimized = s.optimized { out.line(optimized ? "optimized" : "not optimized") }
    // Apple's afinfo prints the packet table after "optimized".
    if let line = s.packetTableLine { out.line(line) }
    if let depth = s.sourceBitDepth { out.line("source bit depth: \(depth)") }
    printInfoDictionary(s, to: &out)
    out.line("----")
}

/// The info dictionary's lines, as the full report ends (nothing when it is empty).
func printInfoDictionary(_ s: AudioFileSummary, to out: inout AudioFileReport) {
    guard !s.info.isEmpty else { return }
    out.line("info dictionary:")
    for (key, value) in s.info { out.line("    " + key.padding(toLength: max(40, key.count + 1), withPad: " ", startingAt: 0) + value) }
}

/// `afinfo -i`: the file's name and type, then its info dictionary only.
public func printInfoOnly(_ path: String, _ file: AudioFileID, to out: inout AudioFileReport) {
    let s = AudioFileSummary(file)
    out.line("File:           \(path)")
    out.line("File type ID:   \(s.fileTypeName)")
    if s.info.isEmpty { out.line("                no info dictionary.") } else { printInfoDictionary(s, to: &out) }
    out.line("----")
}

/// `afinfo -b`: `path, WAVE, Num Tracks:     1` / `----` / `1.000 sec, format:   2 ch,  44100 Hz, Int16, interleaved`.
public func printBrief(_ path: String, _ file: AudioFileID, to out: inout AudioFileReport) {
    let s = AudioFileSummary(file)
    out.line("\(path), \(s.fileTypeName), Num Tracks:     \(s.tracks)")
    out.line("----")
    if let format = s.format {
        out.line(String(format: "%.3f sec, format: ", s.duration ?? 0) + " " + describe(format))
    }
}
