import Foundation

/// An audio file read or written in buffers of the processing format (deinterleaved Float32 unless asked
/// otherwise), converted to and from the file's own format (any AudioFile reads or writes) by ExtAudioFile.
open class AVAudioFile: NSObject, @unchecked Sendable {
    private var file: ExtAudioFileRef?
    /// The file's location.
    public let url: URL
    /// The format of the samples in the file.
    public let fileFormat: AVAudioFormat
    /// The format of the buffers read and written.
    public let processingFormat: AVAudioFormat
    private let forWriting: Bool
    private var written: AVAudioFramePosition = 0

    /// Opens `fileURL` for reading, processing in deinterleaved Float32.
    public convenience init(forReading fileURL: URL) throws {
        try self.init(forReading: fileURL, commonFormat: .pcmFormatFloat32, interleaved: false)
    }

    /// Opens `fileURL` for reading, processing in `format` (interleaved or not).
    public init(forReading fileURL: URL, commonFormat format: AVAudioCommonFormat, interleaved: Bool) throws {
        var ref: ExtAudioFileRef?
        try AVAudioError.check(ExtAudioFileOpenURL(fileURL as NSURL, &ref))
        guard let ref else { throw AVAudioError.make(kAudio_ParamError) }
        do {
            let (fileFormat, layout) = try Self.fileFormat(ref)
            guard let processing = Self.processing(format, fileFormat, interleaved: interleaved, layout: layout) else {
                throw AVAudioError.make(kAudioConverterErr_FormatNotSupported)
            }
            var client = processing.streamDescription.pointee
            try AVAudioError.check(ExtAudioFileSetProperty(ref, kExtAudioFileProperty_ClientDataFormat,
                                                           UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client))
            url = fileURL
            self.fileFormat = fileFormat
            processingFormat = processing
            forWriting = false
            file = ref
        } catch {
            ExtAudioFileDispose(ref)
            throw error
        }
        super.init()
    }

    /// Creates `fileURL` (replacing a file there) in the format `settings` describe, processing in deinterleaved
    /// Float32. The file type is AVAudioFileTypeKey's or the one the extension names.
    public convenience init(forWriting fileURL: URL, settings: [String: Any]) throws {
        try self.init(forWriting: fileURL, settings: settings, commonFormat: .pcmFormatFloat32, interleaved: false)
    }

    /// Creates `fileURL` in the format `settings` describe, processing in `format`.
    public init(forWriting fileURL: URL, settings: [String: Any], commonFormat format: AVAudioCommonFormat, interleaved: Bool) throws {
        guard var data = AVAudioFormat.description(settings: settings) else { throw AVAudioError.make(kAudioFileUnsupportedDataFormatError) }
        if data.mFormatID == kAudioFormatLinearPCM && data.mFormatFlags & kAudioFormatFlagIsNonInterleaved != 0 {
            // Files hold interleaved frames: a non-interleaved request describes the processing side only.
            data.mFormatFlags &= ~kAudioFormatFlagIsNonInterleaved
            data.mBytesPerFrame *= data.mChannelsPerFrame
            data.mBytesPerPacket = data.mBytesPerFrame
        }
        let type = try SettingsValue.number(settings[AVAudioFileTypeKey]).map { AudioFileTypeID($0) } ?? Self.fileType(for: fileURL)
        let layout = (settings[AVChannelLayoutKey] as? Data).flatMap { AVAudioChannelLayout(data: $0) }
        var ref: ExtAudioFileRef?
        try AVAudioError.check(ExtAudioFileCreateWithURL(fileURL as NSURL, type, &data, layout?.layout, AudioFileFlags.eraseFile.rawValue, &ref))
        guard let ref else { throw AVAudioError.make(kAudio_ParamError) }
        do {
            let (fileFormat, fileLayout) = try Self.fileFormat(ref)
            guard let processing = Self.processing(format, fileFormat, interleaved: interleaved, layout: fileLayout ?? layout) else {
                throw AVAudioError.make(kAudioConverterErr_FormatNotSupported)
            }
            var client = processing.streamDescription.pointee
            try AVAudioError.check(ExtAudioFileSetProperty(ref, kExtAudioFileProperty_ClientDataFormat,
                                                           UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client))
            let encoder = EncoderSettings(settings, channels: data.mChannelsPerFrame)
            if !encoder.isEmpty { Self.configureEncoder(ref, encoder) }
            url = fileURL
            self.fileFormat = fileFormat
            processingFormat = processing
            forWriting = true
            file = ref
        } catch {
            ExtAudioFileDispose(ref)
            throw error
        }
        super.init()
    }

    deinit { close() }

    /// Finishes the file (writing its header) and closes it; reads and writes then fail.
    public func close() {
        if let file { ExtAudioFileDispose(file) }
        file = nil
    }

    /// Whether the file is open.
    public var isOpen: Bool { file != nil }

    /// The file's length in sample frames (at the file's rate).
    public var length: AVAudioFramePosition {
        guard let file else { return 0 }
        if forWriting { return written }
        var frames: Int64 = 0
        var size = UInt32(MemoryLayout<Int64>.size)
        ExtAudioFileGetProperty(file, kExtAudioFileProperty_FileLengthFrames, &size, &frames)
        return frames
    }

    /// Where the next read or write happens, in frames.
    public var framePosition: AVAudioFramePosition {
        get {
            guard let file else { return 0 }
            var position: Int64 = 0
            ExtAudioFileTell(file, &position)
            return position
        }
        set {
            guard let file else { return }
            ExtAudioFileSeek(file, newValue)
        }
    }

    /// Reads up to the buffer's capacity from framePosition; at the end of the file the buffer is left empty.
    public func read(into buffer: AVAudioPCMBuffer) throws {
        try read(into: buffer, frameCount: buffer.frameCapacity)
    }

    /// Reads up to `frames` frames from framePosition into `buffer` (in the processing format).
    public func read(into buffer: AVAudioPCMBuffer, frameCount frames: AVAudioFrameCount) throws {
        guard let file, !forWriting else { throw AVAudioError.make(kAudioFileNotOpenError) }
        guard buffer.format.isEqual(processingFormat) else { throw AVAudioError.make(kAudio_ParamError) }
        guard frames <= buffer.frameCapacity else { throw AVAudioError.make(kAudio_ParamError) }
        buffer.frameLength = frames
        var count = frames
        let status = ExtAudioFileRead(file, &count, buffer.mutableAudioBufferList)
        buffer.frameLength = status == noErr ? count : 0
        try AVAudioError.check(status)
    }

    /// Appends the buffer's frames (in the processing format) at framePosition.
    public func write(from buffer: AVAudioPCMBuffer) throws {
        guard let file, forWriting else { throw AVAudioError.make(kAudioFileNotOpenError) }
        guard buffer.format.isEqual(processingFormat) else { throw AVAudioError.make(kAudio_ParamError) }
        try AVAudioError.check(ExtAudioFileWrite(file, buffer.frameLength, buffer.audioBufferList))
        written += AVAudioFramePosition(buffer.frameLength)
    }

    // MARK: Helpers

    private static func fileFormat(_ ref: ExtAudioFileRef) throws -> (AVAudioFormat, AVAudioChannelLayout?) {
        var f = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        try AVAudioError.check(ExtAudioFileGetProperty(ref, kExtAudioFileProperty_FileDataFormat, &size, &f))
        var layout: AVAudioChannelLayout?
        var layoutSize: UInt32 = 0
        if ExtAudioFileGetPropertyInfo(ref, kExtAudioFileProperty_FileChannelLayout, &layoutSize, nil) == noErr,
           layoutSize >= UInt32(MemoryLayout<AudioChannelLayout>.size) {
            let raw = UnsafeMutableRawPointer.allocate(byteCount: Int(layoutSize), alignment: MemoryLayout<AudioChannelLayout>.alignment)
            defer { raw.deallocate() }
            if ExtAudioFileGetProperty(ref, kExtAudioFileProperty_FileChannelLayout, &layoutSize, raw) == noErr {
                let l = AVAudioChannelLayout(layout: raw.assumingMemoryBound(to: AudioChannelLayout.self))
                if l.channelCount == f.mChannelsPerFrame { layout = l }
            }
        }
        guard let format = AVAudioFormat(streamDescription: &f, channelLayout: layout) ?? AVAudioFormat(streamDescription: &f)
        else { throw AVAudioError.make(kAudioFileUnsupportedDataFormatError) }
        var cookieSize: UInt32 = 0
        var audioFile: AudioFileID?
        var idSize = UInt32(MemoryLayout<AudioFileID>.size)
        if ExtAudioFileGetProperty(ref, kExtAudioFileProperty_AudioFile, &idSize, &audioFile) == noErr, let audioFile,
           AudioFileGetPropertyInfo(audioFile, kAudioFilePropertyMagicCookieData, &cookieSize, nil) == noErr, cookieSize > 0 {
            var cookie = Data(count: Int(cookieSize))
            let status = cookie.withUnsafeMutableBytes { AudioFileGetProperty(audioFile, kAudioFilePropertyMagicCookieData, &cookieSize, $0.baseAddress!) }
            if status == noErr { format.magicCookie = cookie.prefix(Int(cookieSize)) }
        }
        return (format, layout)
    }

    private static func processing(_ common: AVAudioCommonFormat, _ file: AVAudioFormat, interleaved: Bool, layout: AVAudioChannelLayout?) -> AVAudioFormat? {
        let format = common == .otherFormat ? .pcmFormatFloat32 : common
        if let layout, layout.channelCount == file.channelCount {
            return AVAudioFormat(commonFormat: format, sampleRate: file.sampleRate, interleaved: interleaved, channelLayout: layout)
        }
        return AVAudioFormat(commonFormat: format, sampleRate: file.sampleRate, channels: file.channelCount, interleaved: interleaved)
    }

    /// The file type an extension names (the first AudioFile lists for it).
    static func fileType(for url: URL) throws -> AudioFileTypeID {
        var ext = url.pathExtension.lowercased() as NSString as CFString
        var size: UInt32 = 0
        guard AudioFileGetGlobalInfoSize(kAudioFileGlobalInfo_TypesForExtension, UInt32(MemoryLayout<CFString>.size), &ext, &size) == noErr,
              size >= 4 else { throw AVAudioError.make(kAudioFileUnsupportedFileTypeError) }
        var types = [AudioFileTypeID](repeating: 0, count: Int(size) / 4)
        guard AudioFileGetGlobalInfo(kAudioFileGlobalInfo_TypesForExtension, UInt32(MemoryLayout<CFString>.size), &ext, &size, &types) == noErr,
              let first = types.first else { throw AVAudioError.make(kAudioFileUnsupportedFileTypeError) }
        return first
    }

    private static func configureEncoder(_ ref: ExtAudioFileRef, _ encoder: EncoderSettings) {
        var converter: AudioConverterRef?
        var size = UInt32(MemoryLayout<AudioConverterRef>.size)
        // The encoder exists once the client format is set.
        guard ExtAudioFileGetProperty(ref, kExtAudioFileProperty_AudioConverter, &size, &converter) == noErr, let converter else { return }
        encoder.apply { id, value in
            var v = value
            AudioConverterSetProperty(converter, id, 4, &v)
        }
        var config: CFArray? = nil
        ExtAudioFileSetProperty(ref, kExtAudioFileProperty_ConverterConfig, UInt32(MemoryLayout<CFArray?>.size), &config)
    }
}
