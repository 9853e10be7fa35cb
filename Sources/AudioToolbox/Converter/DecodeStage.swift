/// The front of a decoding converter: pulls compressed packets from the client's input proc, decodes
/// them, and serves the PCM to the converter's PCM stage as that stage's input proc. Every packet the
/// client hands over is decoded at once, since the client's buffers are only valid until its next call.
final class DecodeStage {
    /// Packets asked of the client per call: about 4,096 frames' worth (one when a packet's frames vary).
    let packetsPerPull: Int
    let format: AudioStreamBasicDescription
    let decoder: PacketDecoder
    let pcm: PCMFormat
    private let capacityFrames: Int
    private let buffer: UnsafeMutableRawPointer
    private let clientList: UnsafeMutableAudioBufferListPointer
    private let clientDescriptions = UnsafeMutablePointer<UnsafeMutablePointer<AudioStreamPacketDescription>?>.allocate(capacity: 1)

    // The client's proc for the fill under way.
    var clientProc: AudioConverterComplexInputDataProc?
    var clientUserData: UnsafeMutableRawPointer?
    var clientHandle: AudioConverterRef?
    /// The client's proc returned 0 packets: the compressed input ended.
    private(set) var ended = false
    /// A decoder error other than bad data, reported by the next pull.
    private var failure: OSStatus = noErr
    /// Frames handed to the PCM stage since the last reset (or since a reader set it, restoring a decoder state):
    /// when the client's proc is called, the frame the packets it gives will start at.
    var producedFrames: Int64 = 0

    /// A stage for `decoder`, nil if it produces PCM the PCM stage cannot read.
    init?(format: AudioStreamBasicDescription, decoder: PacketDecoder) {
        guard let pcm = PCMFormat(decoder.pcmFormat), pcm.isInterleaved else { return nil }
        self.format = format
        self.decoder = decoder
        self.pcm = pcm
        let framesPerPacket = max(Int(format.mFramesPerPacket), 1)
        packetsPerPull = format.mFramesPerPacket == 0 ? 1 : max(1, 4096 / framesPerPacket)
        capacityFrames = packetsPerPull * max(decoder.maximumFramesPerPacket, framesPerPacket)
        buffer = .allocate(byteCount: capacityFrames * pcm.bytesPerFrame, alignment: 16)
        clientList = AudioBufferList.allocate(maximumBuffers: 1)
    }

    deinit {
        buffer.deallocate()
        clientDescriptions.deallocate()
        free(clientList.unsafeMutablePointer)
    }

    func reset() {
        decoder.reset()
        ended = false
        producedFrames = 0
    }

    /// The PCM stage's input proc: `userData` is this stage.
    static let pcmProc: AudioConverterComplexInputDataProc = { _, ioPackets, ioData, _, userData in
        let stage = Unmanaged<DecodeStage>.fromOpaque(userData!).takeUnretainedValue()
        let (frames, status) = stage.pull()
        // The PCM stage drops what comes with an error.
        if status == noErr { stage.producedFrames += Int64(frames) }
        let list = UnsafeMutableAudioBufferListPointer(ioData)
        list[0] = AudioBuffer(mNumberChannels: UInt32(stage.pcm.channels), mDataByteSize: UInt32(frames * stage.pcm.bytesPerFrame),
                              mData: stage.buffer)
        ioPackets.pointee = UInt32(frames)
        return status
    }

    /// Asks the client for packets until some decode to frames, the input ends, or the client fails.
    private func pull() -> (Int, OSStatus) {
        guard let clientProc else { return (0, kAudioConverterErr_UnspecifiedError) }
        while !ended {
            clientList.count = 1
            clientList[0] = AudioBuffer(mNumberChannels: format.mChannelsPerFrame, mDataByteSize: 0, mData: nil)
            clientDescriptions.pointee = nil
            var packets = UInt32(packetsPerPull)
            let status = clientProc(clientHandle!, &packets, clientList.unsafeMutablePointer, clientDescriptions, clientUserData)
            guard status == noErr else { return (0, status) }
            let count = min(Int(packets), packetsPerPull)
            guard count > 0, let data = clientList[0].mData else { ended = true; return (0, noErr) }
            let bytes = Int(clientList[0].mDataByteSize)
            var frames = 0
            if let descriptions = clientDescriptions.pointee {
                // Packets where the descriptions say; one outside the buffer ends the input as corrupt.
                var p = 0
                while p < count {
                    let d = descriptions[p]
                    guard d.mStartOffset >= 0, Int64(d.mDataByteSize) <= Int64(bytes) - d.mStartOffset else {
                        return (frames, kAudioConverterErr_InvalidInputSize)
                    }
                    let run = constantRun(descriptions, from: p, count: count, bytes: bytes)
                    if run > 1, let n = decodeRun(data + Int(d.mStartOffset), packets: run, at: frames) {
                        frames += n
                        p += run
                        continue
                    }
                    let packet = UnsafeRawBufferPointer(start: data + Int(d.mStartOffset), count: Int(d.mDataByteSize))
                    frames += decodeConcealing(packet, packets: 1, at: frames)
                    p += 1
                }
            } else {
                guard format.mBytesPerPacket > 0 else { return (0, kAudioConverterErr_RequiresPacketDescriptionsError) }
                let whole = min(count, bytes / Int(format.mBytesPerPacket))
                frames = decodeConcealing(UnsafeRawBufferPointer(start: data, count: whole * Int(format.mBytesPerPacket)),
                                          packets: whole, at: 0)
            }
            if failure != noErr { defer { failure = noErr }; return (frames, failure) }
            if frames > 0 { return (frames, noErr) }
        }
        return (0, noErr)
    }

    /// How many packets from `first` on are constant-size (the format's bytes per packet) and laid end to end inside
    /// the client's bytes: those decode in one call. A reader may describe every packet of constant-size data, and a
    /// µ-law or A-law packet is a single frame, so a call per packet cost five times the decoding itself.
    private func constantRun(_ d: UnsafeMutablePointer<AudioStreamPacketDescription>, from first: Int, count: Int, bytes: Int) -> Int {
        let size = Int64(format.mBytesPerPacket)
        guard size > 0, Int64(d[first].mDataByteSize) == size else { return 1 }
        let start = d[first].mStartOffset
        var run = 1
        while first + run < count {
            let next = d[first + run]
            guard Int64(next.mDataByteSize) == size, next.mStartOffset == start + Int64(run) * size,
                  next.mStartOffset + size <= Int64(bytes) else { break }
            run += 1
        }
        return run
    }

    /// Decodes `packets` constant-size packets in one call; nil when the decoder refuses them, so that the caller
    /// decodes them one at a time and conceals only the bad one.
    private func decodeRun(_ start: UnsafeRawPointer, packets: Int, at frame: Int) -> Int? {
        let room = capacityFrames - frame
        guard room > 0 else { return 0 }
        let bytes = UnsafeRawBufferPointer(start: start, count: packets * Int(format.mBytesPerPacket))
        return try? decoder.decode(bytes, packetCount: packets, into: buffer + frame * pcm.bytesPerFrame, capacityFrames: room)
    }

    /// Decodes into the buffer at `frame`; a packet the decoder rejects becomes silence of its nominal
    /// length (a player keeps going past one damaged packet, as Apple's decoders do).
    private func decodeConcealing(_ packet: UnsafeRawBufferPointer, packets: Int, at frame: Int) -> Int {
        let room = capacityFrames - frame
        guard room > 0 else { return 0 }
        do throws(OSStatusError) {
            return try decoder.decode(packet, packetCount: packets, into: buffer + frame * pcm.bytesPerFrame, capacityFrames: room)
        } catch {
            guard error.status == kCodecBadDataStatus else { failure = error.status; return 0 }
            let silent = min(room, packets * Int(format.mFramesPerPacket))
            (buffer + frame * pcm.bytesPerFrame).initializeMemory(as: UInt8.self, repeating: 0, count: silent * pcm.bytesPerFrame)
            return silent
        }
    }
}
