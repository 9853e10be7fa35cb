/// Writing Ogg Opus and Ogg FLAC: packets go out in pages as they come (about a second at a time); at close the last
/// page is written with the end-of-stream flag and the final granule position (priming plus valid frames:
/// the end trim), and the OpusHead page is rewritten with the priming as pre-skip (FLAC's first page with the
/// final STREAMINFO).
extension AudioFileObject {
    /// Appends packets to an Ogg file being written (their descriptions give each one's place and size).
    func writeOggPackets(count: Int, bytes: Int, from buffer: UnsafeRawPointer,
                         descriptions: UnsafePointer<AudioStreamPacketDescription>?) -> OSStatus {
        guard writable else { return kAudioFilePermissionsError }
        // Only a file created here grows: an existing stream's pages and granule positions are not continued.
        guard !layout.tailLocked else { return kAudioFileOperationNotSupportedError }
        guard var index = layout.packetIndex, let descriptions else { return kAudio_ParamError }
        if oggWriter == nil { oggWriter = OggStreamWriter(serial: layout.oggSerial ?? 0) }
        let isFLAC = layout.format.mFormatID == kAudioFormatFLAC
        let flacInfo = isFLAC ? layout.magicCookie.flatMap(FLACCookie.streamInfo) : nil
        var offset = index.dataEnd
        for i in 0..<count {
            let d = descriptions[i]
            guard d.mStartOffset >= 0, d.mDataByteSize > 0, d.mStartOffset + Int64(d.mDataByteSize) <= Int64(bytes) else { return kAudio_ParamError }
            let packet = Array(UnsafeRawBufferPointer(start: buffer + Int(d.mStartOffset), count: Int(d.mDataByteSize)))
            let frames = isFLAC ? Int64(OggContainer.packetFrames(Array(packet.prefix(16)), codec: .flac, streamInfo: flacInfo))
                : Int64(OpusCodec.frames(inPacket: packet))
            guard frames > 0 else { return kAudio_ParamError }
            let status = writeOggPages(oggWriter!.add(packet, frames: frames))
            guard status == noErr else { return status }
            index.append(offset: offset, size: d.mDataByteSize, frames: UInt32(frames))
            offset += Int64(d.mDataByteSize)
        }
        layout.packetIndex = index
        headerDirty = true
        return noErr
    }

    /// Writes pages at the end of the file, their bodies added to the joined data.
    private func writeOggPages(_ pages: [[UInt8]]) -> OSStatus {
        var map = layout.dataSegments ?? DataSegmentMap()
        for page in pages {
            let at = store.size
            guard store.write(at: at, page) else { return store.writeFailure }
            let header = OggPage.minimumHeaderLength + Int(page[26])
            map.append(fileOffset: at + Int64(header), count: page.count - header)
        }
        layout.dataSegments = map
        layout.dataByteCount = map.length
        return noErr
    }

    /// At close: the held packets in the last pages (end of stream, the end trimmed by the granule
    /// position), and the OpusHead page with the priming as pre-skip.
    func updateOggHeader(final: Bool) -> OSStatus {
        guard final, !layout.tailLocked else { return noErr }
        if oggWriter == nil { oggWriter = OggStreamWriter(serial: layout.oggSerial ?? 0) }
        let table = layout.packetTable
        let priming = Int64(table?.mPrimingFrames ?? 0)
        let end = table.map { priming + $0.mNumberValidFrames }
        let status = writeOggPages(oggWriter!.pages(final: true, endGranule: end))
        guard status == noErr else { return status }
        if layout.format.mFormatID == kAudioFormatFLAC, let info = layout.magicCookie.flatMap(FLACCookie.streamInfo) {
            // The encoder's final STREAMINFO (totals, frame sizes, MD5): the mapping packet keeps its length.
            let id = OggContainer.flacMappingPacket(info)
            let page = OggStreamWriter.headerPages(serial: layout.oggSerial ?? 0, id: id, comments: OggContainer.flacCommentPacket(layout.info))
            guard store.write(at: 0, Array(page.prefix(OggPage.minimumHeaderLength + 1 + id.count))) else { return store.writeFailure }
        } else if var head = layout.magicCookie.flatMap(OpusHeader.init), table != nil {
            head.preSkip = Int(min(priming, 65535))
            layout.magicCookie = head.bytes
            let page = OggStreamWriter.headerPages(serial: layout.oggSerial ?? 0, id: head.bytes, comments: OggContainer.tagsPacket(layout.info))
            // The first page only: OpusHead's length does not change, nor does the page's.
            let first = OggPage.minimumHeaderLength + 1 + head.bytes.count
            guard store.write(at: 0, Array(page.prefix(first))) else { return store.writeFailure }
        }
        headerDirty = false
        return noErr
    }

    /// Before any packet: the header pages again, with the info dictionary as comments (OpusTags or the Vorbis
    /// comment block); the audio starts after them. Afterwards: kAudioFileOperationNotSupportedError.
    func rewriteOggHeader() -> OSStatus {
        guard oggWriter == nil, layout.dataByteCount == 0 else { return kAudioFileOperationNotSupportedError }
        // The comments go on one page (at most 255 segments of 255 bytes).
        guard OggContainer.commentBody(layout.info).count < 255 * 255 - 8 else { return kAudio_ParamError }
        guard let header = OggContainer.headerPages(layout) else { return kAudioFileInvalidChunkError }
        guard store.write(at: 0, header), store.truncate(to: Int64(header.count)) else { return store.writeFailure }
        layout.dataOffset = Int64(header.count)
        return noErr
    }
}
