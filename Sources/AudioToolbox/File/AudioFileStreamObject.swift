import Foundation

/// What an `AudioFileStreamID` points at: a parser fed by bytes arriving in pieces of any size. Until
/// the header is complete it keeps the bytes and retries the container parsers over them; then it
/// announces the properties (file format, data format, data offset, ..., ReadyToProducePackets) and
/// from there hands out every complete packet as it arrives: fixed-size packets by size, MPEG audio
/// frames by their headers (with packet descriptions, resynchronising past junk and a trailing ID3v1 tag).
final class AudioFileStreamObject: @unchecked Sendable {
    static let handles = LiveHandleTable()

    let clientData: UnsafeMutableRawPointer?
    let propertyProc: AudioFileStream_PropertyListenerProc
    let packetsProc: AudioFileStream_PacketsProc
    let hint: AudioFileTypeID
    private(set) var layout: AudioFileLayout?
    /// Bytes of the file received so far while parsing the header, or audio bytes not yet handed out.
    private var pending: [UInt8] = []
    /// Audio bytes handed out so far (relative to the data start), and how many the file declares.
    private var audioDelivered: Int64 = 0
    /// The next packet of a header-indexed stream to hand out.
    private var nextIndexedPacket = 0
    private var audioDeclared: Int64?
    /// The values announced to the listener, as it was told them (AudioFileStreamObject+Properties.swift).
    private(set) var properties: [AudioFileStreamPropertyID: [UInt8]] = [:]
    /// Header bytes still to come after the parse succeeded (CAF's edit count can trail the chunk header).
    private var headerBytesToSkip = 0
    /// Ogg: joins the pages that arrive into packets.
    private var oggAssembler: OggPacketAssembler?

    var handle: AudioFileStreamID { OpaquePointer(Unmanaged.passUnretained(self).toOpaque()) }

    init(clientData: UnsafeMutableRawPointer?, propertyProc: AudioFileStream_PropertyListenerProc,
         packetsProc: AudioFileStream_PacketsProc, hint: AudioFileTypeID) {
        self.clientData = clientData
        self.propertyProc = propertyProc
        self.packetsProc = packetsProc
        self.hint = hint
    }

    func parse(_ bytes: UnsafeRawBufferPointer, discontinuity: Bool) -> OSStatus {
        if discontinuity && layout != nil {
            // Resynchronise on a frame boundary: drop the partial frame we were holding.
            pending.removeAll()
            oggAssembler = nil
        }
        var incoming = bytes[...]
        if headerBytesToSkip > 0 {
            let n = min(headerBytesToSkip, incoming.count)
            incoming = incoming.dropFirst(n)
            headerBytesToSkip -= n
        }
        pending.append(contentsOf: incoming)
        if layout == nil {
            guard pending.count >= 12 else { return noErr }
            // An ID3v2 tag (MP3) is waited for whole: picture data inside it must not be taken for frames.
            if let tagSize = ID3Tag.v2Size(Array(pending.prefix(10))), pending.count < tagSize + 4 {
                return tagSize > 1 << 26 ? kAudioFileStreamError_UnsupportedFileType : noErr
            }
            switch AudioFileObject.open(ByteStore(.memory(pending), writable: false), hint: hint, writable: false) {
            case .failure(let e):
                // Not enough yet (no data chunk), or not a file we know: tell them apart by size.
                if e.status == kAudioFileUnsupportedDataFormatError { return kAudioFileStreamError_UnsupportedDataFormat }
                if pending.count > 1 << 22 { return kAudioFileStreamError_UnsupportedFileType }
                return noErr
            case .success(let file):
                layout = file.layout
                audioDeclared = declaredDataSize(file.layout)
                announceProperties(file.layout)
                let headerSize = Int(file.layout.dataOffset)
                headerBytesToSkip = max(0, headerSize - pending.count)
                pending.removeFirst(min(pending.count, headerSize))
            }
        }
        deliverPackets()
        return noErr
    }

    /// The audio size the header states (nil when unknown, as in a CAF written without closing).
    private func declaredDataSize(_ l: AudioFileLayout) -> Int64? {
        func field(_ offset: Int64, _ n: Int, bigEndian: Bool) -> Int64? {
            guard offset >= 0, Int(offset) + n <= pending.count else { return nil }
            var r = ByteReader(Array(pending[Int(offset)..<Int(offset) + n]))
            return r.uint(n, bigEndian: bigEndian).map { Int64(bitPattern: $0) }
        }
        switch l.headerPatch {
        case .wave(_, let dataSizeOffset, let ds64Offset):
            // RF64 keeps the size in ds64 (data size is its second 64-bit field).
            if ds64Offset >= 0 { return field(ds64Offset + 8, 8, bigEndian: false) }
            return field(dataSizeOffset, 4, bigEndian: false)
        case .caf(let offset): return field(offset, 8, bigEndian: true).flatMap { $0 < 0 ? nil : $0 - 4 }
        case .aiff(_, let framesOffset, _): return field(framesOffset, 4, bigEndian: true).map { $0 * Int64(l.format.mBytesPerFrame) }
        case .none, .flac, .mp4: return nil
        }
    }

    private func notify(_ id: AudioFileStreamPropertyID) {
        // A value the table has no row for would be announced but then answered as unsupported.
        assert(Self.announcedIDs.contains(id), "announced property \(id) has no row in propertyTable")
        typealias NullableListener = @convention(c) (UnsafeMutableRawPointer?, AudioFileStreamID, AudioFileStreamPropertyID,
                                                     UnsafeMutablePointer<AudioFileStreamPropertyFlags>) -> Void
        var flags: AudioFileStreamPropertyFlags = []
        unsafeBitCast(propertyProc, to: NullableListener.self)(clientData, handle, id, &flags)
    }

    private func announceProperties(_ l: AudioFileLayout) {
        func set<T>(_ id: AudioFileStreamPropertyID, _ v: T) {
            properties[id] = withUnsafeBytes(of: v) { Array($0) }
            notify(id)
        }
        set(kAudioFileStreamProperty_FileFormat, l.fileType)
        set(kAudioFileStreamProperty_DataFormat, l.format)
        if let cookie = l.magicCookie {
            properties[kAudioFileStreamProperty_MagicCookieData] = cookie
            notify(kAudioFileStreamProperty_MagicCookieData)
        }
        if let channelLayout = l.channelLayout {
            properties[kAudioFileStreamProperty_ChannelLayout] = channelLayout
            notify(kAudioFileStreamProperty_ChannelLayout)
        }
        set(kAudioFileStreamProperty_DataOffset, l.dataOffset)
        if let declared = audioDeclared {
            set(kAudioFileStreamProperty_AudioDataByteCount, UInt64(declared))
            set(kAudioFileStreamProperty_AudioDataPacketCount, UInt64(declared / Int64(max(l.format.mBytesPerPacket, 1))))
        }
        if let table = l.packetTable { set(kAudioFileStreamProperty_PacketTableInfo, table) }
        if l.fileType == kAudioFileAAC_ADTSType {
            // ADTS: a frame's 13-bit length bounds every packet.
            let bound = UInt32(ADTSHeader.maximumFrameLength - ADTSHeader.minimumLength)
            set(kAudioFileStreamProperty_MaximumPacketSize, bound)
            set(kAudioFileStreamProperty_PacketSizeUpperBound, bound)
        } else if l.fileType == kAudioFileAMRType {
            // AMR: the largest frame of the band (12.2 kb/s narrowband, 23.85 kb/s wideband), ToC byte included.
            let bound = UInt32((l.format.mFormatID == kAudioFormatAMR_WB ? AMRFrame.widebandSizes : AMRFrame.narrowbandSizes).max()!)
            set(kAudioFileStreamProperty_MaximumPacketSize, bound)
            set(kAudioFileStreamProperty_PacketSizeUpperBound, bound)
        } else if l.fileType == kOCAAudioFileOggType {
            // Opus: 48 frames of 1275 bytes at most; FLAC: STREAMINFO's largest frame when it says.
            let bound = l.format.mFormatID == kAudioFormatOpus ? UInt32(61440)
                : UInt32(l.magicCookie.flatMap(FLACCookie.streamInfo).map { $0.maxFrameSize } ?? 0)
            set(kAudioFileStreamProperty_MaximumPacketSize, bound)
            set(kAudioFileStreamProperty_PacketSizeUpperBound, bound)
        } else if let first = mpegHeader(at: 0) {
            // MPEG audio: sizes from the first frame; the upper bound is the layer's largest frame.
            let bound: UInt32 = first.layer == 1 ? 676 : first.layer == 2 ? 1729 : first.version == 1 ? 1441 : 721
            set(kAudioFileStreamProperty_MaximumPacketSize, bound)
            set(kAudioFileStreamProperty_PacketSizeUpperBound, bound)
            set(kAudioFileStreamProperty_AverageBytesPerPacket, Double(first.frameBytes))
            set(kAudioFileStreamProperty_BitRate, UInt32(first.bitRate))
        } else {
            set(kAudioFileStreamProperty_MaximumPacketSize, l.format.mBytesPerPacket)
            set(kAudioFileStreamProperty_PacketSizeUpperBound, l.format.mBytesPerPacket)
            set(kAudioFileStreamProperty_AverageBytesPerPacket, Double(l.format.mBytesPerPacket))
            set(kAudioFileStreamProperty_BitRate, UInt32((l.format.mSampleRate * Double(l.format.mBytesPerFrame) * 8).rounded()))
        }
        set(kAudioFileStreamProperty_ReadyToProducePackets, UInt32(1))
    }

    /// The MPEG audio frame header at `offset` in the pending bytes, if one is there.
    private func mpegHeader(at offset: Int) -> MPEGAudioFrameHeader? {
        guard offset + 4 <= pending.count else { return nil }
        return pending.withUnsafeBufferPointer { MPEGAudioFrameHeader($0.baseAddress! + offset) }
    }

    /// MPEG audio: every complete frame of the stream's kind held, as packets with descriptions; bytes
    /// that are not a frame are skipped to the next sync.
    private func deliverMPEGFrames(_ l: AudioFileLayout) {
        var descriptions: [AudioStreamPacketDescription] = []
        var offset = 0
        while offset + 4 <= pending.count {
            guard let h = mpegHeader(at: offset), h.sampleRate == Int(l.format.mSampleRate), h.formatID == l.format.mFormatID else {
                offset += 1
                while offset + 1 < pending.count && !(pending[offset] == 0xFF && pending[offset + 1] & 0xE0 == 0xE0) { offset += 1 }
                continue
            }
            guard offset + h.frameBytes <= pending.count else { break }
            descriptions.append(AudioStreamPacketDescription(mStartOffset: Int64(offset), mVariableFramesInPacket: 0, mDataByteSize: UInt32(h.frameBytes)))
            offset += h.frameBytes
        }
        if !descriptions.isEmpty {
            let bytes = Int(descriptions.last!.mStartOffset) + Int(descriptions.last!.mDataByteSize)
            pending.withUnsafeBytes { emitPackets($0, bytes: bytes, &descriptions) }
        }
        pending.removeFirst(min(offset, pending.count))
    }

    /// ADTS: every complete frame of the stream's kind held, its raw AAC data as a packet with a description;
    /// bytes that are not a frame are skipped to the next sync.
    private func deliverADTSFrames(_ l: AudioFileLayout) {
        var descriptions: [AudioStreamPacketDescription] = []
        var offset = 0
        let first = l.magicCookie.flatMap { ESDescriptor($0) }.map(\.specificInfo)
        while offset + ADTSHeader.minimumLength <= pending.count {
            guard let h = ADTSHeader(pending[offset..<offset + ADTSHeader.minimumLength]), h.extraBlocks == 0,
                  first == nil || h.audioSpecificConfig == first! else {
                offset += 1
                while offset + 1 < pending.count && !(pending[offset] == 0xFF && pending[offset + 1] & 0xF6 == 0xF0) { offset += 1 }
                continue
            }
            guard offset + h.frameLength <= pending.count else { break }
            descriptions.append(AudioStreamPacketDescription(mStartOffset: Int64(offset + h.headerLength), mVariableFramesInPacket: 0,
                                                             mDataByteSize: UInt32(h.frameLength - h.headerLength)))
            offset += h.frameLength
        }
        if !descriptions.isEmpty {
            let bytes = Int(descriptions.last!.mStartOffset) + Int(descriptions.last!.mDataByteSize)
            pending.withUnsafeBytes { emitPackets($0, bytes: bytes, &descriptions) }
        }
        pending.removeFirst(min(offset, pending.count))
    }

    /// AMR: every complete frame held, ToC byte included, as a packet with a description.
    private func deliverAMRFrames(_ l: AudioFileLayout) {
        let wideband = l.format.mFormatID == kAudioFormatAMR_WB
        var descriptions: [AudioStreamPacketDescription] = []
        var offset = 0
        while offset < pending.count {
            let size = AMRFrame.size(toc: pending[offset], wideband: wideband)
            guard offset + size <= pending.count else { break }
            descriptions.append(AudioStreamPacketDescription(mStartOffset: Int64(offset), mVariableFramesInPacket: 0, mDataByteSize: UInt32(size)))
            offset += size
        }
        guard !descriptions.isEmpty else { return }
        pending.withUnsafeBytes { emitPackets($0, bytes: offset, &descriptions) }
        pending.removeFirst(offset)
    }

    /// Ogg: every complete page held is joined into packets (the stream's own pages, checksums verified,
    /// junk and damaged pages skipped to the next capture pattern); the finished packets go out with
    /// descriptions, each packet's frames in them when the format's packets vary.
    private func deliverOggPages(_ l: AudioFileLayout) {
        if oggAssembler == nil { oggAssembler = OggPacketAssembler(serial: l.oggSerial ?? 0, keepBytes: true) }
        let codec: OggContainer.Codec = l.format.mFormatID == kAudioFormatOpus ? .opus : .flac
        let info = l.magicCookie.flatMap(FLACCookie.streamInfo)
        var data: [UInt8] = []
        var descriptions: [AudioStreamPacketDescription] = []
        var consumed = 0
        scan: while consumed < pending.count {
            let result = pending.withUnsafeBytes { OggPage.parse(UnsafeRawBufferPointer(rebasing: $0[consumed...])) }
            switch result {
            case .page(let page):
                let bodyStart = consumed + page.headerLength
                for packet in oggAssembler!.add(page, body: pending[bodyStart..<(bodyStart + page.bodyLength)], virtualStart: 0) {
                    let frames = OggContainer.packetFrames(packet.head, codec: codec, streamInfo: info)
                    guard frames > 0, let bytes = packet.bytes else { continue }
                    descriptions.append(AudioStreamPacketDescription(mStartOffset: Int64(data.count),
                                                                     mVariableFramesInPacket: l.format.mFramesPerPacket == 0 ? UInt32(frames) : 0,
                                                                     mDataByteSize: UInt32(bytes.count)))
                    data += bytes
                }
                consumed += page.length
            case .needMore:
                break scan
            case .invalid:
                var i = consumed + 1
                while i + 4 <= pending.count && !(pending[i] == 0x4F && pending[i + 1] == 0x67 && pending[i + 2] == 0x67 && pending[i + 3] == 0x53) {
                    i += 1
                }
                consumed = i + 4 <= pending.count ? i : max(consumed + 1, pending.count - 3)
            }
        }
        pending.removeFirst(min(consumed, pending.count))
        guard !descriptions.isEmpty else { return }
        data.withUnsafeBytes { emitPackets($0, bytes: $0.count, &descriptions) }
    }

    /// Variable-size packets the container indexes ahead of the data (MPEG-4's sample table): every complete packet
    /// held goes out with its description, as Apple's parser hands out AAC from an .m4a whose 'moov' comes first.
    private func deliverIndexedPackets(_ l: AudioFileLayout, _ index: PacketIndex) {
        var descriptions: [AudioStreamPacketDescription] = []
        let received = audioDelivered + Int64(pending.count)  // bytes of the audio data so far
        var i = nextIndexedPacket
        var consumed: Int64 = 0
        while i < index.count {
            let start = index.offsets[i], size = Int64(index.sizes[i])
            guard start >= audioDelivered, start + size <= received else { break }
            descriptions.append(AudioStreamPacketDescription(
                mStartOffset: start - audioDelivered,
                mVariableFramesInPacket: l.format.mFramesPerPacket == 0 ? index.frames(at: i, constant: 0) : 0,
                mDataByteSize: UInt32(size)))
            consumed = start + size - audioDelivered
            i += 1
        }
        guard !descriptions.isEmpty else { return }
        pending.withUnsafeBytes { emitPackets($0, bytes: Int(consumed), &descriptions) }
        nextIndexedPacket = i
        audioDelivered += consumed
        pending.removeFirst(Int(consumed))
    }

    /// Calls the client's packets proc with the first `bytes` bytes of `data`: `count` packets of constant size
    /// (`descriptions` nil) or described. The client's data is passed as given, NULL included (the Swift type says
    /// non-null).
    private func emitPackets(_ data: UnsafeRawBufferPointer, bytes: Int, count: Int,
                             descriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?) {
        typealias NullablePackets = @convention(c) (UnsafeMutableRawPointer?, UInt32, UInt32, UnsafeRawPointer,
                                                    UnsafeMutablePointer<AudioStreamPacketDescription>?) -> Void
        unsafeBitCast(packetsProc, to: NullablePackets.self)(clientData, UInt32(bytes), UInt32(count), data.baseAddress!, descriptions)
    }

    /// The same with a packet description each.
    private func emitPackets(_ data: UnsafeRawBufferPointer, bytes: Int, _ descriptions: inout [AudioStreamPacketDescription]) {
        descriptions.withUnsafeMutableBufferPointer { emitPackets(data, bytes: bytes, count: $0.count, descriptions: $0.baseAddress!) }
    }

    /// Hands out every complete packet held, up to the declared end of the audio.
    private func deliverPackets() {
        guard let l = layout else { return }
        if l.fileType == kAudioFileMP3Type { deliverMPEGFrames(l); return }
        if l.fileType == kAudioFileAAC_ADTSType { deliverADTSFrames(l); return }
        if l.fileType == kAudioFileAMRType { deliverAMRFrames(l); return }
        if l.fileType == kOCAAudioFileOggType { deliverOggPages(l); return }
        if l.format.mBytesPerPacket == 0, let index = l.packetIndex { deliverIndexedPackets(l, index); return }
        let bpp = Int(max(l.format.mBytesPerPacket, 1))
        var usable = pending.count
        if let declared = audioDeclared { usable = Int(min(Int64(usable), max(0, declared - audioDelivered))) }
        let packets = usable / bpp
        guard packets > 0 else { return }
        let bytes = packets * bpp
        pending.withUnsafeBytes { emitPackets($0, bytes: bytes, count: packets, descriptions: nil) }
        audioDelivered += Int64(bytes)
        pending.removeFirst(bytes)
        if let declared = audioDeclared, audioDelivered >= declared { pending.removeAll() }
    }

    /// Where in the file packet `packet` starts; subsequent bytes are expected from there.
    func seek(_ packet: Int64) -> Result<Int64, OSStatusError> {
        guard let l = layout else { return .failure(OSStatusError(kAudioFileStreamError_IllegalOperation)) }
        // Variable packets: where one starts is not known without the whole stream (Apple estimates).
        guard l.packetIndex == nil else { return .failure(OSStatusError(kAudioFileStreamError_InvalidPacketOffset)) }
        let bpp = Int64(max(l.format.mBytesPerPacket, 1))
        guard packet >= 0, audioDeclared.map({ packet * bpp <= $0 }) ?? true else {
            return .failure(OSStatusError(kAudioFileStreamError_InvalidPacketOffset))
        }
        pending.removeAll()
        audioDelivered = packet * bpp
        return .success(l.dataOffset + packet * bpp)
    }
}
