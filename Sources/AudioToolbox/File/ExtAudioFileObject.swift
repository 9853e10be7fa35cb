import AudioDSP
import Foundation

/// What an `ExtAudioFileRef` points at: an audio file plus a converter between the file's format and
/// the client's (sample rate, layout, sample type, channel count). Reading a linear PCM file pulls its
/// frames through the converter; a compressed file is first decoded (packets -> Float64 at the file's
/// rate, exact for every codec) and trimmed to its playable frames (priming and remainder cut), then
/// converted. Writing pushes client frames through the converter; a compressed file's converter ends in
/// the encoder and its packets, cookie and packet table go to the file.
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
    /// Client <-> file (linear PCM files), client <-> decoded PCM (compressed reads), client -> packets
    /// (compressed writes).
    private(set) var converter: AudioConverterObject?
    private(set) var converterHandle: AudioConverterRef?
    /// Compressed reads: the file's packets to the codec's own PCM at the file's rate.
    private var decoder: AudioConverterObject?
    /// The codec's PCM (Float64 when no decoder could be made, so that errors surface at read time).
    private var decodedFormat: AudioStreamBasicDescription
    /// Read side: the next file frame the client converter takes (priming included), the client frame
    /// position, and (compressed) the next packet to decode, the frame it starts at, and decoded frames
    /// still to drop before the position.
    private var fileFrame: Int64 = 0
    private var clientFrame: Int64 = 0
    private var nextPacket: Int64 = 0
    private var skipFrames: Int64 = 0
    /// The file frame the decoder's next output frame is (= fileFrame - skipFrames while reading), and whether
    /// its input ran out: a codec that seeks by decoding from the start continues from here when it can.
    private var decoderFrame: Int64 = 0
    private var decoderAtEnd = false
    /// Nonzero when the codec reaches seek targets by decoding from packet 0 or from a checkpoint, at most this many
    /// packets (CodecEntry.exactSeekPackets, or checkpointedSeekPackets when checkpoints are taken); farther targets
    /// preroll instead.
    private var exactSeekPackets: Int
    /// Decoder-state checkpoints, for a codec whose decoder saves its state (PacketDecoder.saveState: AMR): while the
    /// decoder's state is the one a decode from packet 0 gives (`exactState`), the state before every
    /// `checkpointPackets`-th packet is kept, with the frame that packet's output starts at, in packet order. A seek
    /// restores the nearest one at or before its target and decodes on from there: exact, and at most
    /// `checkpointPackets` packets to decode once the decoder has been that far. 0: none are taken.
    private struct Checkpoint {
        let packet: Int64
        let frame: Int64
        let state: [UInt8]
    }
    private var checkpoints: [Checkpoint] = []
    private var checkpointPackets: Int64 = 0
    private var exactState = false
    /// A checkpoint every 500 packets (10 s of AMR; 2 KB narrowband, 5.4 KB wideband), farther apart in a file of
    /// more than 128,000 packets so that there are at most 256 (at most 1.4 MB).
    static let checkpointSpacing: Int64 = 500
    static let maximumCheckpoints: Int64 = 256
    /// Write side: where the next file packet goes, and scratch for converted frames.
    private var writePacket: Int64
    private var scratch: UnsafeMutableRawPointer
    private var scratchBytes: Int
    /// Compressed packets read for the decoder, and their descriptions.
    private var packetBuffer: UnsafeMutableRawPointer
    private var packetBufferBytes: Int
    private var packetDescriptions: UnsafeMutablePointer<AudioStreamPacketDescription>
    /// Packets read at once for the decoder: 64, or a chunk's frames' worth of packets when those are smaller (a µ-law
    /// or A-law packet is one frame: 64 of them made a read system call per 128 bytes, most of the decoding's time).
    private let packetsPerRead: Int
    let lock = NSLock()
    let asyncWriter = ExtAudioFileAsyncWriter()

    var handle: ExtAudioFileRef { OpaquePointer(Unmanaged.passUnretained(self).toOpaque()) }
    var isCompressed: Bool { file.format.mFormatID != kAudioFormatLinearPCM }

    init(file: AudioFileObject, handle: AudioFileID, ownsFile: Bool, forWriting: Bool) {
        self.file = file
        self.fileHandle = handle
        self.ownsFile = ownsFile
        self.forWriting = forWriting
        let f = file.format
        clientFormat = f
        decodedFormat = AudioStreamBasicDescription(mSampleRate: f.mSampleRate, mFormatID: kAudioFormatLinearPCM,
                                                    mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked,
                                                    mBytesPerPacket: 8 * f.mChannelsPerFrame, mFramesPerPacket: 1,
                                                    mBytesPerFrame: 8 * f.mChannelsPerFrame, mChannelsPerFrame: f.mChannelsPerFrame,
                                                    mBitsPerChannel: 64, mReserved: 0)
        writePacket = file.packetCount
        fileFrame = file.playableRange.start
        let frameBytes = f.mFormatID == kAudioFormatLinearPCM ? Int(max(f.mBytesPerFrame, 1)) : Int(decodedFormat.mBytesPerFrame)
        scratchBytes = Self.chunkFrames * frameBytes
        scratch = .allocate(byteCount: scratchBytes, alignment: 16)
        packetBufferBytes = 0
        packetBuffer = .allocate(byteCount: 1, alignment: 16)
        packetsPerRead = max(64, Self.chunkFrames / max(Int(f.mFramesPerPacket), 1))
        packetDescriptions = .allocate(capacity: packetsPerRead)
        exactSeekPackets = f.mFormatID == kAudioFormatLinearPCM ? 0 : CodecRegistry.entry(f.mFormatID)?.exactSeekPackets ?? 0
        if !forWriting && isCompressed {
            if case .success(let d) = AudioConverterObject.makeNativeDecoder(input: f, cookie: file.layout.magicCookie) {
                decoder = d
                decodedFormat = d.outputFormat
                if exactSeekPackets > 0, d.decodeStage?.decoder.saveState() != nil {
                    let packets = max(file.packetCount, 0)
                    checkpointPackets = max(Self.checkpointSpacing, (packets + Self.maximumCheckpoints - 1) / Self.maximumCheckpoints)
                    exactSeekPackets = max(exactSeekPackets, CodecRegistry.entry(f.mFormatID)?.checkpointedSeekPackets ?? 0)
                }
            }
            let frameBytes = Int(decodedFormat.mBytesPerFrame)
            if frameBytes * Self.chunkFrames > scratchBytes {
                scratch.deallocate()
                scratchBytes = frameBytes * Self.chunkFrames
                scratch = .allocate(byteCount: scratchBytes, alignment: 16)
            }
            startDecoding(atFrame: fileFrame)
        }
    }

    deinit {
        scratch.deallocate()
        packetBuffer.deallocate()
        packetDescriptions.deallocate()
        if let converterHandle { _ = AudioConverterObject.handles.remove(UnsafeMutableRawPointer(converterHandle), as: AudioConverterObject.self) }
    }

    var fileFormat: AudioStreamBasicDescription { file.format }

    /// The file's length in client frames.
    var lengthFrames: Int64 {
        let ratio = clientFormat.mSampleRate / fileFormat.mSampleRate
        let frames: Int64
        if forWriting {
            frames = isCompressed ? (converter?.encodeStage?.encodedInputFrames ?? 0) + writtenValidFramesBefore : file.packetCount
        } else {
            frames = file.playableRange.count
        }
        return ratio == 1 ? frames : Int64(saturating: (Double(frames) * ratio).rounded())
    }
    /// Valid frames already in a compressed file this writer appends to.
    private var writtenValidFramesBefore: Int64 = 0

    /// One past the last file frame a reader sees (the remainder frames of a packet table are cut).
    private var readEnd: Int64 {
        let r = file.playableRange
        return r.start + r.count
    }

    /// Writing through an encoder: the client's channel layout is the converter's input layout, so a codec with
    /// its own channel order (Opus's Vorbis order) places the client's channels by their labels.
    func applyClientChannelLayout() {
        guard forWriting, let converter, converter.encodeStage != nil, let layout = clientChannelLayout else { return }
        _ = layout.withUnsafeBytes { converter.setProperty(kAudioConverterInputChannelLayout, UInt32($0.count), $0.baseAddress!) }
    }

    func setClientFormat(_ f: AudioStreamBasicDescription) -> OSStatus {
        guard PCMFormat(f) != nil else { return kExtAudioFileError_NonPCMClientFormat }
        if let converterHandle { _ = AudioConverterObject.handles.remove(UnsafeMutableRawPointer(converterHandle), as: AudioConverterObject.self) }
        converter = nil
        converterHandle = nil
        let made: Result<AudioConverterObject, OSStatusError>?
        if isCompressed {
            made = forWriting ? AudioConverterObject.make(input: f, output: fileFormat)
                              : AudioConverterObject.make(input: decodedFormat, output: f)
        } else {
            guard let filePCM = PCMFormat(fileFormat), let clientPCM = PCMFormat(f) else { return kExtAudioFileError_InvalidDataFormat }
            let rates = forWriting ? PCMConverter.checkRates(clientPCM, filePCM) : PCMConverter.checkRates(filePCM, clientPCM)
            if rates != noErr { return rates }
            made = f.isBitwiseEqual(to: fileFormat) ? nil
                : forWriting ? AudioConverterObject.make(input: f, output: fileFormat) : AudioConverterObject.make(input: fileFormat, output: f)
        }
        switch made {
        case .none: break
        case .success(let c)?:
            converter = c
            converterHandle = OpaquePointer(AudioConverterObject.handles.add(c))
        case .failure(let e)?:
            let status = e.status
            return status == kAudioConverterErr_FormatNotSupported ? kExtAudioFileError_InvalidDataFormat : status
        }
        clientFormat = f
        applyClientChannelLayout()
        if forWriting && isCompressed, let encoder = converter?.encodeStage?.encoder {
            // The cookie lives in the header: it must be there before the first packet.
            if let cookie = encoder.magicCookie, file.layout.dataByteCount == 0 {
                let status = file.setMagicCookie(cookie)
                if status != noErr { return status }
            }
            writtenValidFramesBefore = file.playableRange.count
        }
        return noErr
    }

    // MARK: Reading

    /// Positions the decoder on the packet holding `frame` (a file frame, priming included), preroll
    /// packets before it, and the decoded frames to drop to reach the frame. A codec that seeks from the start
    /// decodes on from the nearest exact state at or before `frame`: where the decoder is when `frame` lies ahead,
    /// a checkpoint, or packet 0.
    private func startDecoding(atFrame frame: Int64) {
        guard decoder != nil else { return }
        // Room for the largest packets the decoder is handed at once.
        let needed = max(Int(file.maximumPacketSize), 1) * packetsPerRead
        if needed > packetBufferBytes {
            packetBuffer.deallocate()
            packetBuffer = .allocate(byteCount: needed, alignment: 16)
            packetBufferBytes = needed
        }
        if exactSeekPackets > 0 {
            let limit = Int64(exactSeekPackets) * Int64(max(file.framesPerPacket, 1))
            let ahead = !decoderAtEnd && frame >= decoderFrame
            let checkpoint = lastCheckpoint(atOrBefore: frame)
            let restartCost = frame - (checkpoint?.frame ?? 0)
            // Decoding on from here: when that is the shortest way from an exact state, or (as before checkpoints)
            // the only way within the bound.
            if ahead && frame - decoderFrame <= limit && (exactState ? frame - decoderFrame <= restartCost : restartCost > limit) {
                skipFrames = frame - decoderFrame
                return
            }
            if restartCost <= limit {
                decoder?.reset()
                decoderAtEnd = false
                nextPacket = 0
                decoderFrame = 0
                exactState = true
                if let checkpoint {
                    if let stage = decoder?.decodeStage, stage.decoder.restoreState(checkpoint.state) {
                        nextPacket = checkpoint.packet
                        decoderFrame = checkpoint.frame
                        stage.producedFrames = checkpoint.frame
                    } else {
                        // Cannot happen with AMR's decoder (its copies fit its blocks); starting over is exact.
                        checkpoints = []
                        checkpointPackets = 0
                        if frame > limit { exactState = false; return startDecoding(atFrame: frame) }
                    }
                }
                skipFrames = frame - decoderFrame
                return
            }
        }
        exactState = false
        decoder?.reset()
        let constant = file.framesPerPacket
        var packet: Int64
        if let index = file.layout.packetIndex, fileFormat.mFramesPerPacket == 0 {
            packet = Int64(index.packet(containing: frame, constant: 0).0)
        } else {
            packet = frame / Int64(constant)
        }
        packet = max(0, packet - Int64(CodecRegistry.entry(fileFormat.mFormatID)?.seekPrerollPackets ?? 0))
        let packetStart: Int64
        if let index = file.layout.packetIndex, fileFormat.mFramesPerPacket == 0 {
            packetStart = index.firstFrame(of: Int(min(packet, Int64(index.count))), constant: 0)
        } else {
            packetStart = packet * Int64(constant)
        }
        nextPacket = packet
        skipFrames = max(0, frame - packetStart)
        decoderFrame = frame - skipFrames
        decoderAtEnd = false
    }

    /// The last checkpoint whose frame is at or before `frame`.
    private func lastCheckpoint(atOrBefore frame: Int64) -> Checkpoint? {
        var low = 0, high = checkpoints.count  // checkpoints[..<low] start at or before frame, checkpoints[high...] after
        while low < high {
            let mid = (low + high) / 2
            if checkpoints[mid].frame <= frame { low = mid + 1 } else { high = mid }
        }
        return low > 0 ? checkpoints[low - 1] : nil
    }

    /// Called as the decoder asks for packet `nextPacket`, every packet before it decoded: keeps the decoder's state
    /// when that packet is a checkpoint's and none is kept yet. Returns how many packets the read may give so that
    /// the next checkpoint's packet starts a read of its own.
    private func checkpoint(_ want: Int) -> Int {
        guard checkpointPackets > 0, exactState, let stage = decoder?.decodeStage else { return want }
        // (The count's cap only matters if the file's packet count was wrong.)
        if nextPacket > 0 && nextPacket % checkpointPackets == 0 && nextPacket > (checkpoints.last?.packet ?? 0),
           checkpoints.count < 4 * Self.maximumCheckpoints, let state = stage.decoder.saveState() {
            checkpoints.append(Checkpoint(packet: nextPacket, frame: stage.producedFrames, state: state))
        }
        return Int(min(Int64(want), checkpointPackets - nextPacket % checkpointPackets))
    }

    /// The decoder's input proc: up to `packetsPerRead` packets from the file, with descriptions.
    private static let packetProc: AudioConverterComplexInputDataProc = { _, ioPackets, ioData, outDescriptions, userData in
        let x = Unmanaged<ExtAudioFileObject>.fromOpaque(userData!).takeUnretainedValue()
        let want = x.checkpoint(min(Int(ioPackets.pointee), x.packetsPerRead))
        let (packets, bytes, status) = x.file.readPackets(from: x.nextPacket, count: want, capacity: x.packetBufferBytes,
                                                          into: x.packetBuffer, descriptions: x.packetDescriptions)
        x.nextPacket += Int64(packets)
        ioData.pointee.mNumberBuffers = 1
        ioData.pointee.mBuffers = AudioBuffer(mNumberChannels: x.fileFormat.mChannelsPerFrame, mDataByteSize: UInt32(bytes), mData: x.packetBuffer)
        outDescriptions?.pointee = x.packetDescriptions
        ioPackets.pointee = UInt32(packets)
        return status == kAudioFileEndOfFileError ? noErr : status
    }

    /// Decodes up to `want` playable file frames into scratch (as Float64); returns how many.
    private func decodeFrames(_ want: Int) -> (Int, OSStatus) {
        guard let decoder else { return (0, kExtAudioFileError_InvalidDataFormat) }
        let bytesPerFrame = Int(decodedFormat.mBytesPerFrame)
        var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: decodedFormat.mChannelsPerFrame,
                                                                            mDataByteSize: UInt32(want * bytesPerFrame), mData: scratch))
        while true {
            let limit = Int(min(Int64(want), max(0, readEnd - fileFrame) + skipFrames))
            guard limit > 0 else { return (0, noErr) }
            list.mBuffers.mDataByteSize = UInt32(limit * bytesPerFrame)
            let (n, status) = decoder.fill(UnsafeMutableAudioBufferListPointer(&list), capacity: limit, descriptions: nil,
                                           proc: Self.packetProc, userData: Unmanaged.passUnretained(self).toOpaque())
            if n == 0 {
                decoderAtEnd = true
                return (0, status)
            }
            decoderFrame += Int64(n)
            let dropped = Int(min(Int64(n), skipFrames))
            skipFrames -= Int64(dropped)
            let kept = min(n - dropped, Int(max(0, readEnd - fileFrame)))
            if kept > 0 {
                if dropped > 0 { scratch.copyMemory(from: scratch + dropped * bytesPerFrame, byteCount: kept * bytesPerFrame) }
                fileFrame += Int64(kept)
                return (kept, status)
            }
            if status != noErr { return (0, status) }
        }
    }

    private static let readProc: AudioConverterComplexInputDataProc = { _, ioPackets, ioData, _, userData in
        let x = Unmanaged<ExtAudioFileObject>.fromOpaque(userData!).takeUnretainedValue()
        let list = UnsafeMutableAudioBufferListPointer(ioData)
        if x.isCompressed {
            let (frames, status) = x.decodeFrames(min(Int(ioPackets.pointee), ExtAudioFileObject.chunkFrames))
            list[0] = AudioBuffer(mNumberChannels: x.decodedFormat.mChannelsPerFrame,
                                  mDataByteSize: UInt32(frames * Int(x.decodedFormat.mBytesPerFrame)), mData: x.scratch)
            ioPackets.pointee = UInt32(frames)
            return status
        }
        let bpp = Int64(x.file.bytesPerPacket)
        let want = min(Int64(ioPackets.pointee), Int64(x.scratchBytes) / bpp, max(0, x.readEnd - x.fileFrame))
        let (got, _) = want > 0 ? x.file.readBytes(at: x.fileFrame * bpp, count: Int(want * bpp), into: x.scratch) : (0, noErr)
        let packets = Int64(got) / bpp
        x.fileFrame += packets
        // The file's data is interleaved: one buffer.
        list[0] = AudioBuffer(mNumberChannels: x.fileFormat.mChannelsPerFrame, mDataByteSize: UInt32(packets * bpp), mData: x.scratch)
        ioPackets.pointee = UInt32(packets)
        return noErr
    }

    /// Reads up to `frames` client frames into `list`; returns how many (0 at the end).
    func read(_ list: UnsafeMutableAudioBufferListPointer, frames: Int) -> (Int, OSStatus) {
        guard let clientPCM = PCMFormat(clientFormat) else { return (0, kExtAudioFileError_NonPCMClientFormat) }
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
        let n = Int(min(Int64(capacity), max(0, readEnd - fileFrame)))
        let (got, _) = n > 0 ? file.readBytes(at: fileFrame * bpp, count: n * Int(bpp), into: list[0].mData!) : (0, noErr)
        let packets = got / Int(bpp)
        fileFrame += Int64(packets)
        clientFrame += Int64(packets)
        return (packets, noErr)
    }

    func seek(_ frame: Int64) -> OSStatus {
        guard frame >= 0 else { return kExtAudioFileError_InvalidSeek }
        if forWriting {
            guard !isCompressed else { return kExtAudioFileError_InvalidSeek }  // packets are appended
            writePacket = min(frame, file.packetCount)
            clientFrame = frame
            return noErr
        }
        let ratio = fileFormat.mSampleRate / clientFormat.mSampleRate
        let range = file.playableRange
        fileFrame = range.start + Swift.max(0, Swift.min(Int64(saturating: (Double(frame) * ratio).rounded()), range.count))
        clientFrame = frame
        converter?.reset()
        if isCompressed { startDecoding(atFrame: fileFrame) }
        return noErr
    }

    var tell: Int64 { forWriting && !isCompressed ? writePacket : clientFrame }

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
        guard let clientPCM = PCMFormat(clientFormat) else { return kExtAudioFileError_NonPCMClientFormat }
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

    /// Pulls converted frames (or packets) into scratch and writes them until the converter wants more input.
    private func drainConverter(_ converter: AudioConverterObject) -> OSStatus {
        if let encodeStage = converter.encodeStage { return drainEncoder(converter, encodeStage) }
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

    /// The compressed write path: packets from the encoder, appended with their descriptions.
    private func drainEncoder(_ converter: AudioConverterObject, _ stage: EncodeStage) -> OSStatus {
        let packetCapacity = 64
        let maxPacket = max(stage.encoder.maximumPacketBytes, 1)
        if scratchBytes < packetCapacity * maxPacket {
            scratch.deallocate()
            scratchBytes = packetCapacity * maxPacket
            scratch = .allocate(byteCount: scratchBytes, alignment: 16)
        }
        var descriptions = [AudioStreamPacketDescription](repeating: AudioStreamPacketDescription(), count: packetCapacity)
        while true {
            var outList = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: fileFormat.mChannelsPerFrame,
                                                                                    mDataByteSize: UInt32(scratchBytes), mData: scratch))
            let (n, status) = descriptions.withUnsafeMutableBufferPointer { d in
                converter.fill(UnsafeMutableAudioBufferListPointer(&outList), capacity: packetCapacity, descriptions: d.baseAddress,
                               proc: Self.writeProc, userData: Unmanaged.passUnretained(self).toOpaque())
            }
            if n > 0 {
                let w = descriptions.withUnsafeBufferPointer { d in
                    file.writePackets(at: file.packetCount, count: n, bytes: Int(outList.mBuffers.mDataByteSize), from: scratch,
                                      descriptions: file.isVariable ? d.baseAddress : nil)
                }
                guard w == noErr else { return w }
            }
            if status == kExtAudioFileWriteNoMoreInput { return noErr }
            if status != noErr { return status }
            if n == 0 { return noErr }
        }
    }

    /// At dispose: flush the converter's tail (sample-rate conversion, the encoder's last packets), record
    /// a compressed file's priming and remainder, and finish the file header.
    func finish() -> OSStatus {
        asyncWriter.stop(self)
        if forWriting, let converter {
            writeSource = WriteSource(list: nil, frames: 0, offset: 0, done: true)
            defer { writeSource = nil }
            let status = drainConverter(converter)
            if status != noErr { return status }
            if let stage = converter.encodeStage, file.layout.fileType == kAudioFileFLACType || file.isWrittenMP4
                || (file.layout.fileType == kOCAAudioFileOggType && file.layout.format.mFormatID == kAudioFormatFLAC), let cookie = stage.encoder.magicCookie {
                // Native FLAC: STREAMINFO takes the encoder's final totals and MD5 (in MPEG-4, the 'moov' takes the final cookie).
                let s = file.setMagicCookie(cookie)
                if s != noErr { return s }
            }
            if let stage = converter.encodeStage, file.layout.fileType == kAudioFileCAFType || file.layout.fileType == kAudioFileFLACType || file.isWrittenMP4
                || file.layout.fileType == kOCAAudioFileOggType {
                let priming = Int64(stage.encoder.primeInfo.leadingFrames)
                let valid = writtenValidFramesBefore + stage.encodedInputFrames
                let total = file.totalFrames
                let info = AudioFilePacketTableInfo(mNumberValidFrames: valid, mPrimingFrames: Int32(clamping: priming),
                                                    mRemainderFrames: Int32(clamping: max(0, total - priming - valid)))
                let s = file.setPacketTableInfo(info)
                if s != noErr { return s }
            }
        }
        return file.updateHeader()
    }
}

/// A private status used between the write path and its input proc: "no more input in this call".
let kExtAudioFileWriteNoMoreInput: OSStatus = 0x6D6F7265  // 'more'
