import AudioDSP
import Foundation

/// What an `ExtAudioFileRef` points at: an audio file plus a converter between the file's format and
/// the client's (sample rate, layout, sample type, channel count). Reads pull packets from the file
/// through the converter; writes push client frames through it into the file.
final class ExtAudioFileObject: @unchecked Sendable {
    static let handles = LiveHandleTable()
    static let chunkFrames = 4096

    let file: AudioFileObject
    let fileHandle: AudioFileID
    let ownsFile: Bool
    let forWriting: Bool
    private(set) var clientFormat: AudioStreamBasicDescription
    var clientChannelLayout: [UInt8]?
    var ioBufferSizeBytes: UInt32 = 32768
    private(set) var converter: AudioConverterObject?
    private(set) var converterHandle: AudioConverterRef?
    /// Read side: the next file packet the converter will pull, and the client frame position.
    private var filePacket: Int64 = 0
    private var clientFrame: Int64 = 0
    private var atEnd = false
    /// Write side: where the next file packet goes, and scratch for converted frames.
    private var writePacket: Int64
    private var scratch: UnsafeMutableRawPointer
    private var scratchBytes: Int
    let lock = NSLock()
    let asyncWriter = ExtAudioFileAsyncWriter()

    var handle: ExtAudioFileRef { OpaquePointer(Unmanaged.passUnretained(self).toOpaque()) }

    init(file: AudioFileObject, handle: AudioFileID, ownsFile: Bool, forWriting: Bool) {
        self.file = file
        self.fileHandle = handle
        self.ownsFile = ownsFile
        self.forWriting = forWriting
        clientFormat = file.format
        writePacket = file.packetCount
        filePacket = file.playableRange.start
        scratchBytes = Self.chunkFrames * Int(max(file.format.mBytesPerFrame, 1))
        scratch = .allocate(byteCount: scratchBytes, alignment: 16)
    }

    deinit {
        scratch.deallocate()
        if let converterHandle { _ = AudioConverterObject.handles.remove(UnsafeMutableRawPointer(converterHandle), as: AudioConverterObject.self) }
    }

    var fileFormat: AudioStreamBasicDescription { file.format }

    /// The file's length in client frames.
    var lengthFrames: Int64 {
        let ratio = clientFormat.mSampleRate / fileFormat.mSampleRate
        let frames = forWriting ? file.packetCount : file.playableRange.count
        return ratio == 1 ? frames : Int64(saturating: (Double(frames) * ratio).rounded())
    }

    /// One past the last file packet a reader sees (the remainder frames of a packet table are cut).
    private var readEnd: Int64 {
        let r = file.playableRange
        return r.start + r.count
    }

    func setClientFormat(_ f: AudioStreamBasicDescription) -> OSStatus {
        guard PCMFormat(f) != nil else { return kExtAudioFileError_NonPCMClientFormat }
        guard let filePCM = PCMFormat(fileFormat), let clientPCM = PCMFormat(f) else { return kExtAudioFileError_InvalidDataFormat }
        let rates = forWriting ? PCMConverter.checkRates(clientPCM, filePCM) : PCMConverter.checkRates(filePCM, clientPCM)
        if rates != noErr { return rates }
        if let converterHandle { _ = AudioConverterObject.handles.remove(UnsafeMutableRawPointer(converterHandle), as: AudioConverterObject.self) }
        converter = nil
        converterHandle = nil
        clientFormat = f
        if !f.isBitwiseEqual(to: fileFormat) {
            let made = forWriting ? AudioConverterObject.make(input: f, output: fileFormat) : AudioConverterObject.make(input: fileFormat, output: f)
            guard case .success(let c) = made else { return kExtAudioFileError_InvalidDataFormat }
            converter = c
            converterHandle = OpaquePointer(AudioConverterObject.handles.add(c))
        }
        atEnd = false
        return noErr
    }

    // MARK: Reading

    private static let readProc: AudioConverterComplexInputDataProc = { _, ioPackets, ioData, _, userData in
        let x = Unmanaged<ExtAudioFileObject>.fromOpaque(userData!).takeUnretainedValue()
        let bpp = Int64(x.file.bytesPerPacket)
        let want = min(Int64(ioPackets.pointee), Int64(x.scratchBytes) / bpp, max(0, x.readEnd - x.filePacket))
        let (got, _) = want > 0 ? x.file.readBytes(at: x.filePacket * bpp, count: Int(want * bpp), into: x.scratch) : (0, noErr)
        let packets = Int64(got) / bpp
        x.filePacket += packets
        let list = UnsafeMutableAudioBufferListPointer(ioData)
        let filePCM = PCMFormat(x.fileFormat)!
        // The file's data is interleaved: one buffer.
        list[0] = AudioBuffer(mNumberChannels: UInt32(filePCM.channels), mDataByteSize: UInt32(packets * bpp), mData: x.scratch)
        ioPackets.pointee = UInt32(packets)
        return noErr
    }

    /// Reads up to `frames` client frames into `list`; returns how many (0 at the end).
    func read(_ list: UnsafeMutableAudioBufferListPointer, frames: Int) -> (Int, OSStatus) {
        guard let clientPCM = PCMFormat(clientFormat) else { return (0, kExtAudioFileError_InvalidDataFormat) }
        guard list.count == clientPCM.bufferCount else { return (0, kAudio_ParamError) }
        var capacity = frames
        for b in list {
            guard b.mData != nil else { return (0, kAudio_ParamError) }
            capacity = min(capacity, Int(b.mDataByteSize) / clientPCM.bytesPerFrame)
        }
        if let converter {
            let (n, status) = converter.fill(list, capacity: capacity, descriptions: nil, proc: Self.readProc,
                                             userData: Unmanaged.passUnretained(self).toOpaque())
            clientFrame += Int64(n)
            return (n, status)
        }
        let bpp = Int64(clientPCM.bytesPerFrame)
        let n = Int(min(Int64(capacity), max(0, readEnd - filePacket)))
        let (got, _) = n > 0 ? file.readBytes(at: filePacket * bpp, count: n * Int(bpp), into: list[0].mData!) : (0, noErr)
        let packets = got / Int(bpp)
        filePacket += Int64(packets)
        clientFrame += Int64(packets)
        return (packets, noErr)
    }

    func seek(_ frame: Int64) -> OSStatus {
        guard frame >= 0 else { return kExtAudioFileError_InvalidSeek }
        let ratio = fileFormat.mSampleRate / clientFormat.mSampleRate
        let range = file.playableRange
        filePacket = range.start + Swift.max(0, Swift.min(Int64(saturating: (Double(frame) * ratio).rounded()), range.count))
        clientFrame = frame
        converter?.reset()
        if forWriting { writePacket = min(frame, file.packetCount) }
        return noErr
    }

    var tell: Int64 { forWriting ? writePacket : clientFrame }

    // MARK: Writing

    private struct WriteSource { var list: UnsafeMutablePointer<AudioBufferList>?; var frames: Int; var offset: Int; var done: Bool }
    private var writeSource: WriteSource?

    private static let writeProc: AudioConverterComplexInputDataProc = { _, ioPackets, ioData, _, userData in
        let x = Unmanaged<ExtAudioFileObject>.fromOpaque(userData!).takeUnretainedValue()
        guard var s = x.writeSource, !s.done, s.offset < s.frames else {
            ioPackets.pointee = 0
            // No more client data in this call: end the pull without ending the stream.
            return x.writeSource?.done == true ? noErr : kExtAudioFileWriteNoMoreInput
        }
        let pcm = PCMFormat(x.clientFormat)!
        let n = min(Int(ioPackets.pointee), s.frames - s.offset)
        let src = UnsafeMutableAudioBufferListPointer(s.list!), dst = UnsafeMutableAudioBufferListPointer(ioData)
        for b in 0..<pcm.bufferCount {
            dst[b] = AudioBuffer(mNumberChannels: src[b].mNumberChannels, mDataByteSize: UInt32(n * pcm.bytesPerFrame),
                                 mData: src[b].mData.map { $0 + s.offset * pcm.bytesPerFrame })
        }
        s.offset += n
        x.writeSource = s
        ioPackets.pointee = UInt32(n)
        return noErr
    }

    /// Converts client frames and appends them to the file (at the write position).
    func write(_ list: UnsafeMutablePointer<AudioBufferList>, frames: Int) -> OSStatus {
        guard forWriting else { return kExtAudioFileError_InvalidOperationOrder }
        guard let clientPCM = PCMFormat(clientFormat) else { return kExtAudioFileError_InvalidDataFormat }
        let src = UnsafeMutableAudioBufferListPointer(list)
        guard src.count == clientPCM.bufferCount else { return kAudio_ParamError }
        for b in src where b.mData == nil || Int(b.mDataByteSize) < frames * clientPCM.bytesPerFrame { return kAudio_ParamError }
        guard let converter else {
            let status = file.writeBytes(at: writePacket * file.bytesPerPacket, count: frames * Int(file.bytesPerPacket), from: src[0].mData!)
            if status == noErr { writePacket += Int64(frames) }
            return status
        }
        writeSource = WriteSource(list: list, frames: frames, offset: 0, done: false)
        defer { writeSource = nil }
        return drainConverter(converter)
    }

    /// Pulls converted frames into scratch and writes them until the converter wants more input.
    private func drainConverter(_ converter: AudioConverterObject) -> OSStatus {
        let filePCM = PCMFormat(fileFormat)!
        let chunk = scratchBytes / filePCM.bytesPerFrame
        var outList = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: UInt32(filePCM.channels),
                                                                                mDataByteSize: UInt32(chunk * filePCM.bytesPerFrame), mData: scratch))
        while true {
            let (n, status) = converter.fill(UnsafeMutableAudioBufferListPointer(&outList), capacity: chunk, descriptions: nil,
                                             proc: Self.writeProc, userData: Unmanaged.passUnretained(self).toOpaque())
            if n > 0 {
                let w = file.writeBytes(at: writePacket * file.bytesPerPacket, count: n * filePCM.bytesPerFrame, from: scratch)
                guard w == noErr else { return w }
                writePacket += Int64(n)
            }
            if status == kExtAudioFileWriteNoMoreInput { return noErr }
            if status != noErr { return status }
            if n == 0 { return noErr }  // the stream ended (flush finished)
        }
    }

    /// At dispose: flush the converter's tail (sample-rate conversion) and finish the file header.
    func finish() -> OSStatus {
        asyncWriter.stop(self)
        if forWriting, let converter {
            writeSource = WriteSource(list: nil, frames: 0, offset: 0, done: true)
            defer { writeSource = nil }
            let status = drainConverter(converter)
            if status != noErr { return status }
        }
        return file.updateHeader()
    }
}

/// A private status used between the write path and its input proc: "no more input in this call".
let kExtAudioFileWriteNoMoreInput: OSStatus = 0x6D6F7265  // 'more'
