/// Raw AAC in ADTS frames (.aac, .adts): after an optional ID3v2 tag, frames found by their headers, each
/// one packet (the raw AAC data after the 7- or 9-byte header). The stream's first header becomes the
/// magic cookie (an ES_Descriptor around the AudioSpecificConfig it implies). A file is taken for ADTS
/// when it starts with a header followed by a second of the same stream (or by the end of the file);
/// later junk is skipped to the next such header, and a last frame cut short is dropped. Written files
/// get a header in front of every packet, made from the description.
enum ADTSContainer: AudioFileContainer {
    static var fileType: AudioFileTypeID { kAudioFileAAC_ADTSType }

    static let windowBytes = 1 << 20

    static func parse(_ store: ByteStore) -> Result<AudioFileLayout, OSStatusError> {
        let fileSize = store.size
        guard let head = store.bytes(at: 0, count: Int(min(fileSize, 10))) else { return .failure(OSStatusError(kAudioFileInvalidFileError)) }
        let start = Int64(ID3Tag.v2Size(head) ?? 0)
        guard start < fileSize, let firstBytes = store.bytes(at: start, count: Int(min(16, fileSize - start))),
              let first = ADTSHeader(firstBytes) else { return .failure(OSStatusError(kAudioFileInvalidFileError)) }
        // A second header of the same stream right after the first (unless the file ends there).
        let second = start + Int64(first.frameLength)
        if second < fileSize {
            guard let b = store.bytes(at: second, count: Int(min(16, fileSize - second))) else {
                return .failure(OSStatusError(kAudioFileInvalidFileError))
            }
            if b.count >= ADTSHeader.minimumLength {
                guard let h = ADTSHeader(b), h.sameStream(as: first) else { return .failure(OSStatusError(kAudioFileInvalidFileError)) }
            }
        } else if second > fileSize {
            // The only frame runs past the end: recognisably ADTS, but not one packet is there.
            return .failure(OSStatusError(kAudioFileInvalidPacketOffsetError))
        }
        guard first.channelConfiguration > 0, first.extraBlocks == 0, [1, 2, 3, 4].contains(first.objectType) else {
            return .failure(OSStatusError(kAudioFileUnsupportedDataFormatError))
        }
        var index = PacketIndex(variableFrames: false)
        var position = start
        var window: [UInt8] = []
        var windowStart: Int64 = 0
        func bytes(at offset: Int64, _ n: Int) -> ArraySlice<UInt8>? {
            if offset < windowStart || offset + Int64(n) > windowStart + Int64(window.count) {
                guard offset < fileSize, let w = store.bytes(at: offset, count: Int(min(Int64(windowBytes), fileSize - offset))) else { return nil }
                window = w
                windowStart = offset
            }
            let from = Int(offset - windowStart)
            return from + n <= window.count ? window[from..<from + n] : nil
        }
        func header(at offset: Int64) -> ADTSHeader? {
            guard let b = bytes(at: offset, ADTSHeader.minimumLength), let h = ADTSHeader(b), h.sameStream(as: first), h.extraBlocks == 0 else { return nil }
            return h
        }
        while position + Int64(ADTSHeader.minimumLength) <= fileSize {
            guard let h = header(at: position) else {
                // Junk: on to the next header of this stream that another follows (or the end does).
                var probe = position + 1
                var found: Int64?
                while probe + Int64(ADTSHeader.minimumLength) <= fileSize && probe - position < 1 << 20 {
                    if let h = header(at: probe) {
                        let after = probe + Int64(h.frameLength)
                        if after >= fileSize || header(at: after) != nil { found = probe; break }
                    }
                    probe += 1
                }
                guard let found else { break }
                position = found
                continue
            }
            let end = position + Int64(h.frameLength)
            guard end <= fileSize else { break }  // cut short: dropped
            index.append(offset: position + Int64(h.headerLength) - start, size: UInt32(h.frameLength - h.headerLength), frames: 0)
            position = end
        }
        guard index.count > 0 else { return .failure(OSStatusError(kAudioFileInvalidPacketOffsetError)) }
        let asc = first.audioSpecificConfig
        guard let described = AudioSpecificConfig(asc)?.streamDescription else { return .failure(OSStatusError(kAudioFileUnsupportedDataFormatError)) }
        var format = described
        format.mFormatID = kAudioFormatMPEG4AAC
        format.mFramesPerPacket = 1024
        let seconds = Double(index.count) * 1024 / format.mSampleRate
        let bitRate = UInt32(min(Double(UInt32.max), (Double(index.dataEnd) * 8 / max(seconds, 1e-9)).rounded()))
        let cookie = ESDescriptor.make(audioSpecificConfig: asc, averageBitRate: bitRate, maximumBitRate: 0)
        var layout = AudioFileLayout(fileType: kAudioFileAAC_ADTSType, format: format, dataOffset: start, dataByteCount: index.dataEnd,
                                     magicCookie: cookie)
        layout.packetIndex = index
        return .success(layout)
    }

    /// A new ADTS file: no header of its own; AAC LC at a rate and channel count ADTS can signal.
    static func create(format requested: AudioStreamBasicDescription, channelLayout: [UInt8]?, magicCookie: [UInt8]?) -> Result<([UInt8], AudioFileLayout), OSStatusError> {
        guard requested.mFormatID == kAudioFormatMPEG4AAC, ADTSHeader.sampleRateIndex(requested.mSampleRate) != nil,
              ADTSHeader.channelConfiguration(Int(requested.mChannelsPerFrame)) != nil else {
            return .failure(OSStatusError(kAudioFileUnsupportedDataFormatError))
        }
        var f = requested
        f.mFramesPerPacket = 1024
        f.mBytesPerPacket = 0
        f.mBytesPerFrame = 0
        f.mFormatFlags = 0
        f.mBitsPerChannel = 0
        var layout = AudioFileLayout(fileType: kAudioFileAAC_ADTSType, format: f, dataOffset: 0, dataByteCount: 0, magicCookie: magicCookie)
        layout.packetIndex = PacketIndex(variableFrames: false)
        return .success(([], layout))
    }

    /// The header written before a packet of `size` bytes (nil when too large for a frame).
    static func frameHeader(_ f: AudioStreamBasicDescription, payloadSize: Int) -> [UInt8]? {
        guard payloadSize + ADTSHeader.minimumLength <= ADTSHeader.maximumFrameLength,
              let rate = ADTSHeader.sampleRateIndex(f.mSampleRate), let channels = ADTSHeader.channelConfiguration(Int(f.mChannelsPerFrame)) else { return nil }
        return ADTSHeader(objectType: 2, sampleRateIndex: rate, channelConfiguration: channels, payloadLength: payloadSize).bytes
    }

    static func sizeFields(_ layout: AudioFileLayout, dataByteCount: Int64) -> [(Int64, [UInt8])] { [] }
}
