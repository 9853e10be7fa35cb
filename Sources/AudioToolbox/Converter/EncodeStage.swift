/// The back of an encoding converter: collects PCM from the converter's PCM stage into whole packets'
/// worth, encodes them, and hands packets (with descriptions when the format is variable) to the
/// client's output buffer. Packets that do not fit this call wait for the next.
final class EncodeStage {
    let encoder: PacketEncoder
    let format: AudioStreamBasicDescription
    let pcm: PCMFormat
    /// Frames encoded per call: one packet's worth, or a run of ~4,096 frames for constant-bit-rate codecs.
    let batchFrames: Int
    private let staging: UnsafeMutableRawPointer
    private var stagedFrames = 0
    private let stagingList: UnsafeMutableAudioBufferListPointer
    /// Encoded packets not yet delivered: bytes, and each packet's (offset, size, frames).
    private var pendingBytes: [UInt8] = []
    private var pending: [(offset: Int, size: Int, frames: Int)] = []
    private var pendingIndex = 0
    private var inputEnded = false
    private var finished = false
    /// PCM frames handed to the encoder since the start (the valid frames of what it made).
    private(set) var encodedInputFrames: Int64 = 0
    /// Frames the emitted packets decode to (priming, valid and padding together).
    private(set) var emittedFrames: Int64 = 0
    var isConstantBitRate: Bool { format.mBytesPerPacket > 0 }

    init?(format: AudioStreamBasicDescription, encoder: PacketEncoder) {
        guard let pcm = PCMFormat(encoder.pcmFormat), pcm.isInterleaved else { return nil }
        self.format = format
        self.encoder = encoder
        self.pcm = pcm
        let perPacket = max(encoder.framesPerPacket, 1)
        batchFrames = format.mBytesPerPacket > 0 ? perPacket * max(1, 4096 / perPacket) : perPacket
        staging = .allocate(byteCount: batchFrames * pcm.bytesPerFrame, alignment: 16)
        stagingList = AudioBufferList.allocate(maximumBuffers: 1)
    }

    deinit {
        staging.deallocate()
        free(stagingList.unsafeMutablePointer)
    }

    func reset() {
        encoder.reset()
        stagedFrames = 0
        pendingBytes.removeAll(keepingCapacity: true)
        pending.removeAll(keepingCapacity: true)
        pendingIndex = 0
        inputEnded = false
        finished = false
        encodedInputFrames = 0
        emittedFrames = 0
    }

    private func collect(_ bytes: UnsafeRawBufferPointer, _ frames: Int) {
        if isConstantBitRate {
            // A run of whole packets, kept as one entry and delivered as many at a time as fit (a µ-law packet is one
            // frame: an entry and a copy per packet cost more than encoding them).
            let whole = bytes.count / Int(format.mBytesPerPacket)
            emittedFrames += Int64(whole * max(encoder.framesPerPacket, 1))
            pending.append((pendingBytes.count, whole * Int(format.mBytesPerPacket), frames))
        } else {
            // A packet decodes to the format's frames per packet, or (FLAC) to the frames it says.
            emittedFrames += Int64(format.mFramesPerPacket > 0 ? Int(format.mFramesPerPacket) : frames)
            pending.append((pendingBytes.count, bytes.count, frames))
        }
        pendingBytes.append(contentsOf: bytes)
    }

    /// AudioConverterFillComplexBuffer for an encoder: up to `packetCapacity` packets into `list[0]`,
    /// pulling PCM through `pcmStage` from the client's proc. Returns packets delivered and a status
    /// (the client's own error ends the call; what was staged is kept for the next).
    func fill(_ list: UnsafeMutableAudioBufferListPointer, packetCapacity: Int,
              descriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?, pcmStage: PCMConverter,
              proc: AudioConverterComplexInputDataProc, userData: UnsafeMutableRawPointer?) -> (Int, OSStatus) {
        guard let out = list[0].mData else { return (0, kAudio_ParamError) }
        let byteCapacity = Int(list[0].mDataByteSize)
        var packets = 0, bytes = 0
        var status = noErr
        defer { list[0].mDataByteSize = UInt32(bytes) }
        while packets < packetCapacity {
            if pendingIndex < pending.count {
                let p = pending[pendingIndex]
                // A constant-bit-rate entry is a run of packets of the format's size; a variable one is one packet.
                let size = isConstantBitRate ? Int(format.mBytesPerPacket) : p.size
                guard bytes + size <= byteCapacity else {
                    return (packets, packets == 0 ? kAudioConverterErr_InvalidOutputSize : noErr)
                }
                let count = isConstantBitRate ? min(p.size / size, packetCapacity - packets, (byteCapacity - bytes) / size) : 1
                pendingBytes.withUnsafeBytes { (out + bytes).copyMemory(from: $0.baseAddress! + p.offset, byteCount: count * size) }
                if let descriptions {
                    let frames = format.mFramesPerPacket > 0 ? 0 : UInt32(p.frames)
                    for i in 0..<count {
                        descriptions[packets + i] = AudioStreamPacketDescription(mStartOffset: Int64(bytes + i * size),
                                                                                 mVariableFramesInPacket: frames, mDataByteSize: UInt32(size))
                    }
                }
                bytes += count * size
                packets += count
                if count * size < p.size {
                    pending[pendingIndex].offset += count * size
                    pending[pendingIndex].size -= count * size
                    continue
                }
                pendingIndex += 1
                if pendingIndex == pending.count {
                    pending.removeAll(keepingCapacity: true)
                    pendingBytes.removeAll(keepingCapacity: true)
                    pendingIndex = 0
                }
                continue
            }
            if finished { break }
            if !inputEnded {
                stagingList.count = 1
                stagingList[0] = AudioBuffer(mNumberChannels: UInt32(pcm.channels),
                                             mDataByteSize: UInt32((batchFrames - stagedFrames) * pcm.bytesPerFrame),
                                             mData: staging + stagedFrames * pcm.bytesPerFrame)
                let (got, pullStatus): (Int, OSStatus)
                switch pcmStage.fill(stagingList, capacity: batchFrames - stagedFrames, proc: proc, userData: userData) {
                case .produced(let n): (got, pullStatus) = (n, noErr)
                case .failed(let n, let s): (got, pullStatus) = (n, s)
                }
                stagedFrames += got
                if pullStatus != noErr { status = pullStatus; if stagedFrames < batchFrames { break } }
                else if stagedFrames < batchFrames { inputEnded = true }
            }
            do throws(OSStatusError) {
                if stagedFrames > 0 && (stagedFrames == batchFrames || inputEnded) {
                    try encoder.encode(UnsafeRawPointer(staging), frames: stagedFrames, emit: collect)
                    encodedInputFrames += Int64(stagedFrames)
                    stagedFrames = 0
                }
                if inputEnded && stagedFrames == 0 {
                    try encoder.finish(emit: collect)
                    finished = true
                }
            } catch {
                return (packets, error.status)
            }
            if status != noErr && pendingIndex >= pending.count { break }
        }
        return (packets, status)
    }
}
