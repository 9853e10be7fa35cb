// What Audio File Services says about an open file, read once through the public API, for afinfo's three layouts
// (full, brief, XML). Every field a file cannot answer is nil; a hostile file's values are only printed, never used.
import AudioToolbox
import Foundation

/// The properties afinfo reports, in its order.
public struct AudioFileSummary {
    public var fileType: AudioFileTypeID = 0
    public var tracks: UInt32 = 1
    public var format: AudioStreamBasicDescription?
    /// The layout's name as afinfo prints it, nil for none (or an unknown one).
    public var channelLayout: String?
    public var duration: Float64?
    public var audioBytes: UInt64?
    public var audioPackets: UInt64?
    public var packetTable: AudioFilePacketTableInfo?
    public var bitRate: UInt32?
    public var packetSizeUpperBound: UInt32?
    public var maximumPacketSize: UInt32?
    public var dataOffset: Int64?
    public var optimized: Bool?
    /// "I16", "F32": the source's depth (F for floating point), nil when the file does not say.
    public var sourceBitDepth: String?
    /// The info dictionary without the duration key Audio File Services adds, sorted by key.
    public var info: [(String, String)] = []

    /// Reads every property of `file`.
    public init(_ file: AudioFileID) {
        fileType = property(file, kAudioFilePropertyFileFormat, 0) ?? 0
        tracks = property(file, kAudioFilePropertyAudioTrackCount, 1) ?? 1
        format = property(file, kAudioFilePropertyDataFormat, AudioStreamBasicDescription())
        if let layout = ToolSupport.channelLayout(file) { channelLayout = channelLayoutName(layout) }
        duration = property(file, kAudioFilePropertyEstimatedDuration, 0)
        audioBytes = property(file, kAudioFilePropertyAudioDataByteCount, 0)
        audioPackets = property(file, kAudioFilePropertyAudioDataPacketCount, 0)
        packetTable = property(file, kAudioFilePropertyPacketTableInfo, AudioFilePacketTableInfo())
        bitRate = property(file, kAudioFilePropertyBitRate, 0)
        packetSizeUpperBound = property(file, kAudioFilePropertyPacketSizeUpperBound, 0)
        maximumPacketSize = property(file, kAudioFilePropertyMaximumPacketSize, 0)
        dataOffset = property(file, kAudioFilePropertyDataOffset, 0)
        optimized = (property(file, kAudioFilePropertyIsOptimized, UInt32(0)) as UInt32?).map { $0 != 0 }
        if let depth: Int32 = property(file, kAudioFilePropertySourceBitDepth, 0), depth != 0 {
            // Negative depths mean floating point; Audio File Services may also give the float's positive width.
            let isFloat = depth < 0 || (format.map { $0.mFormatID == kAudioFormatLinearPCM && $0.mFormatFlags & kAudioFormatFlagIsFloat != 0 } ?? false)
            sourceBitDepth = "\(isFloat ? "F" : "I")\(abs(depth))"
        }
        info = infoDictionary(file).filter { $0.0 != approximateDurationKey }
    }

    /// The file type as afinfo prints it: the four characters, or the number in hex.
    public var fileTypeName: String { fourCharacters(fileType) ?? String(format: "0x%08X", fileType) }

    /// The packet table's line ("audio 88200 valid frames + 2112 priming + 312 remainder = 90624"), in 128 bits: a
    /// hostile table's three counts can overflow 64.
    public var packetTableLine: String? {
        guard let t = packetTable else { return nil }
        let total = Int128(t.mNumberValidFrames) + Int128(t.mPrimingFrames) + Int128(t.mRemainderFrames)
        return "audio \(t.mNumberValidFrames) valid frames + \(t.mPrimingFrames) priming + \(t.mRemainderFrames) remainder = \(total)"
    }
}
