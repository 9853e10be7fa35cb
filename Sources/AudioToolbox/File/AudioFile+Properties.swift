import Foundation

/// AudioFile properties and global info.
extension AudioFileObject {
    static let objectSize = UInt32(MemoryLayout<UnsafeRawPointer>.size)

    func propertyInfo(_ id: AudioFilePropertyID) -> (UInt32, Bool)? {
        switch id {
        case kAudioFilePropertyFileFormat: return (4, false)
        case kAudioFilePropertyDataFormat: return (UInt32(MemoryLayout<AudioStreamBasicDescription>.size), layout.dataByteCount == 0 && writable)
        case kAudioFilePropertyIsOptimized, kAudioFilePropertyMaximumPacketSize, kAudioFilePropertyPacketSizeUpperBound,
             kAudioFilePropertySourceBitDepth:
            return (4, false)
        case kAudioFilePropertyAudioDataByteCount, kAudioFilePropertyAudioDataPacketCount, kAudioFilePropertyDataOffset:
            return (8, false)
        case kAudioFilePropertyBitRate: return (4, false)
        case kAudioFilePropertyAudioTrackCount: return (4, false)
        // Which track is read: settable on an MPEG-4 file opened for reading (the packets then come from that track).
        case kAudioFilePropertyUseAudioTrack: return (4, !writable && [kAudioFileM4AType, kAudioFileMPEG4Type, kAudioFileM4BType].contains(layout.fileType))
        case kAudioFilePropertyEstimatedDuration: return (8, false)
        case kAudioFilePropertyMagicCookieData:
            // CAF: before audio, or after it a replacement of the same size (setMagicCookie checks the size).
            let caf = layout.fileType == kAudioFileCAFType && (layout.dataByteCount == 0 || layout.magicCookie != nil)
            let settable = writable && (caf || layout.fileType == kAudioFileFLACType || isWrittenMP4)
            guard let cookie = layout.magicCookie else { return settable ? (0, true) : nil }
            return (UInt32(cookie.count), settable)
        case kAudioFilePropertyChannelLayout:
            guard let l = layout.channelLayout else { return writable && layout.dataByteCount == 0 ? (0, true) : nil }
            return (UInt32(l.count), writable && layout.dataByteCount == 0)
        // Settable where the file keeps it as text: MPEG-4 written here ('ilst' items, built with the 'moov') and CAF
        // (an 'info' chunk after the audio data).
        case kAudioFilePropertyInfoDictionary:
            return (Self.objectSize, writable && (isWrittenMP4 || layout.fileType == kAudioFileCAFType || layout.fileType == kOCAAudioFileOggType))
        case kAudioFilePropertyMarkerList:
            guard layout.fileType == kAudioFileCAFType else { return nil }
            let count = CAFMarkers.markers(layout)?.1.count ?? 0
            return (UInt32(NumAudioFileMarkersToNumBytes(max(count, 1))), writable)
        case kAudioFilePropertyRegionList:
            guard layout.fileType == kAudioFileCAFType, let (_, regions, _) = CAFMarkers.regions(layout) else { return nil }
            return (UInt32(CAFMarkers.regionListSize(regions)), false)
        case kAudioFilePropertyPacketTableInfo:
            let settable = writable && (layout.fileType == kAudioFileCAFType || layout.fileType == kAudioFileFLACType || isWrittenMP4)
            guard layout.packetTable != nil || isVariable || settable else { return nil }
            return (UInt32(MemoryLayout<AudioFilePacketTableInfo>.size), settable)
        case kAudioFilePropertyFrameToPacket, kAudioFilePropertyPacketToFrame:
            return (UInt32(MemoryLayout<AudioFramePacketTranslation>.size), false)
        case kAudioFilePropertyByteToPacket, kAudioFilePropertyPacketToByte:
            return (UInt32(MemoryLayout<AudioBytePacketTranslation>.size), false)
        case kAudioFilePropertyReserveDuration: return (8, writable)
        default: return nil
        }
    }

    func getProperty(_ id: AudioFilePropertyID, _ ioSize: UnsafeMutablePointer<UInt32>, _ out: UnsafeMutableRawPointer) -> OSStatus {
        guard let (size, _) = propertyInfo(id) else { return kAudioFileUnsupportedPropertyError }
        guard ioSize.pointee >= size else { return kAudioFileBadPropertySizeError }
        func put<T>(_ v: T) -> OSStatus {
            out.storeBytes(of: v, as: T.self)
            ioSize.pointee = UInt32(MemoryLayout<T>.size)
            return noErr
        }
        let f = layout.format
        switch id {
        case kAudioFilePropertyFileFormat: return put(layout.fileType)
        case kAudioFilePropertyDataFormat: return put(f)
        case kAudioFilePropertyIsOptimized: return put(UInt32(isOptimized ? 1 : 0))
        case kAudioFilePropertyMaximumPacketSize: return put(maximumPacketSize)
        case kAudioFilePropertyPacketSizeUpperBound:
            // Without reading every packet: the largest seen, or a bound from the frames a packet holds.
            return put(isVariable ? max(maximumPacketSize, 1) : f.mBytesPerPacket)
        case kAudioFilePropertySourceBitDepth: return put(f.mBitsPerChannel)
        case kAudioFilePropertyAudioTrackCount: return put(layout.audioTrackCount)
        case kAudioFilePropertyUseAudioTrack: return put(layout.audioTrack)
        case kAudioFilePropertyAudioDataByteCount: return put(UInt64(layout.dataByteCount))
        case kAudioFilePropertyAudioDataPacketCount: return put(UInt64(packetCount))
        case kAudioFilePropertyDataOffset: return put(layout.dataOffset)
        case kAudioFilePropertyBitRate:
            // Data bits over the playing time (exact for linear PCM, an average for compressed data).
            let seconds = Double(totalFrames) / f.mSampleRate
            if f.mFormatID == kAudioFormatLinearPCM || seconds <= 0 { return put(UInt32((f.mSampleRate * Double(f.mBytesPerFrame) * 8).rounded())) }
            return put(UInt32(min(Double(UInt32.max), (Double(layout.dataByteCount) * 8 / seconds).rounded())))
        case kAudioFilePropertyEstimatedDuration: return put(Double(playableRange.count) / f.mSampleRate)  // valid frames only
        case kAudioFilePropertyMagicCookieData, kAudioFilePropertyChannelLayout:
            let bytes = (id == kAudioFilePropertyMagicCookieData ? layout.magicCookie : layout.channelLayout) ?? []
            bytes.withUnsafeBytes { if !bytes.isEmpty { out.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) } }
            ioSize.pointee = UInt32(bytes.count)
            return noErr
        case kAudioFilePropertyInfoDictionary:
            let d = NSMutableDictionary()
            for (k, v) in layout.info { d[k] = v }
            d["approximate duration in seconds"] = String(format: "%.3f", Double(playableRange.count) / f.mSampleRate)
            return put(UnsafeRawPointer(Unmanaged.passRetained(d as NSDictionary).toOpaque()))
        case kAudioFilePropertyFrameToPacket:
            var t = out.load(as: AudioFramePacketTranslation.self)
            guard t.mFrame >= 0 else { return kAudioFileInvalidPacketOffsetError }
            if let index = layout.packetIndex, f.mFramesPerPacket == 0 {
                let (packet, offset) = index.packet(containing: t.mFrame, constant: 0)
                t.mPacket = Int64(packet)
                t.mFrameOffsetInPacket = UInt32(offset)
            } else {
                t.mPacket = t.mFrame / Int64(framesPerPacket)
                t.mFrameOffsetInPacket = UInt32(t.mFrame % Int64(framesPerPacket))
            }
            return put(t)
        case kAudioFilePropertyPacketToFrame:
            var t = out.load(as: AudioFramePacketTranslation.self)
            guard t.mPacket >= 0 else { return kAudioFileInvalidPacketOffsetError }
            if let index = layout.packetIndex, f.mFramesPerPacket == 0 {
                t.mFrame = index.firstFrame(of: Int(min(t.mPacket, Int64(index.count))), constant: 0) + Int64(t.mFrameOffsetInPacket)
            } else {
                t.mFrame = t.mPacket * Int64(framesPerPacket) + Int64(t.mFrameOffsetInPacket)
            }
            return put(t)
        case kAudioFilePropertyByteToPacket:
            var t = out.load(as: AudioBytePacketTranslation.self)
            guard t.mByte >= 0 else { return kAudioFileInvalidPacketOffsetError }
            if let index = layout.packetIndex {
                // The last packet starting at or before the byte.
                let offsets = index.offsets
                var low = 0, high = offsets.count
                while low < high { let mid = (low + high) / 2; if offsets[mid] <= t.mByte { low = mid + 1 } else { high = mid } }
                let p = max(low - 1, 0)
                t.mPacket = Int64(p)
                t.mByteOffsetInPacket = offsets.isEmpty ? 0 : UInt32(clamping: t.mByte - offsets[p])
            } else {
                t.mPacket = t.mByte / bytesPerPacket
                t.mByteOffsetInPacket = UInt32(t.mByte % bytesPerPacket)
            }
            t.mFlags = []
            return put(t)
        case kAudioFilePropertyPacketToByte:
            var t = out.load(as: AudioBytePacketTranslation.self)
            guard t.mPacket >= 0 else { return kAudioFileInvalidPacketOffsetError }
            if let index = layout.packetIndex {
                guard t.mPacket < Int64(index.count) else { return kAudioFileInvalidPacketOffsetError }
                t.mByte = index.offsets[Int(t.mPacket)] + Int64(t.mByteOffsetInPacket)
            } else {
                t.mByte = t.mPacket * bytesPerPacket + Int64(t.mByteOffsetInPacket)
            }
            t.mFlags = []
            return put(t)
        case kAudioFilePropertyReserveDuration:
            return put(Double(0))
        case kAudioFilePropertyPacketTableInfo:
            return put(layout.packetTable ?? AudioFilePacketTableInfo(mNumberValidFrames: totalFrames, mPrimingFrames: 0, mRemainderFrames: 0))
        case kAudioFilePropertyMarkerList:
            let (smpte, markers) = CAFMarkers.markers(layout) ?? (0, [])
            let bytes = CAFMarkers.markerListBytes(smpte, markers)
            let n = min(Int(ioSize.pointee), bytes.count)
            bytes.withUnsafeBytes { out.copyMemory(from: $0.baseAddress!, byteCount: n) }
            ioSize.pointee = UInt32(n)
            return noErr
        case kAudioFilePropertyRegionList:
            guard let (smpte, regions, names) = CAFMarkers.regions(layout) else { return kAudioFileUnsupportedPropertyError }
            let bytes = CAFMarkers.regionListBytes(regions, smpte, names)
            bytes.withUnsafeBytes { out.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
            ioSize.pointee = UInt32(bytes.count)
            return noErr
        default:
            return kAudioFileUnsupportedPropertyError
        }
    }

    func setProperty(_ id: AudioFilePropertyID, _ size: UInt32, _ data: UnsafeRawPointer) -> OSStatus {
        guard let (_, writable) = propertyInfo(id) else { return kAudioFileUnsupportedPropertyError }
        guard writable else { return self.writable ? kAudioFileOperationNotSupportedError : kAudioFilePermissionsError }
        switch id {
        case kAudioFilePropertyChannelLayout:
            guard size >= 12 else { return kAudioFileBadPropertySizeError }
            return setChannelLayout(Array(UnsafeRawBufferPointer(start: data, count: Int(size))))
        case kAudioFilePropertyUseAudioTrack:
            guard size == 4 else { return kAudioFileBadPropertySizeError }
            let track = data.loadUnaligned(as: UInt32.self)
            guard track < layout.audioTrackCount else { return kAudio_ParamError }
            switch MP4Container.parse(store, track: track) {
            case .success(let other): layout = other
            case .failure(let e): return e.status
            }
            return noErr
        case kAudioFilePropertyReserveDuration:
            guard size == 8 else { return kAudioFileBadPropertySizeError }
            // MPEG-4 written here reserves room for the 'moov' in front of the data; elsewhere nothing is ahead.
            return isWrittenMP4 ? reserveMovie(seconds: data.loadUnaligned(as: Float64.self)) : noErr
        case kAudioFilePropertyInfoDictionary:
            guard size >= Self.objectSize else { return kAudioFileBadPropertySizeError }
            guard let raw = data.loadUnaligned(as: UnsafeRawPointer?.self),
                  let dictionary = Unmanaged<AnyObject>.fromOpaque(raw).takeUnretainedValue() as? NSDictionary else { return kAudio_ParamError }
            var info: [String: String] = [:]
            for (key, value) in dictionary {
                guard let k = key as? String else { continue }
                if let v = value as? String { info[k] = v } else if let n = value as? NSNumber { info[k] = n.stringValue }
            }
            if layout.fileType == kAudioFileCAFType {
                layout.trailingChunks.removeAll { $0.0 == CAFContainer.info }
                if !info.isEmpty { layout.trailingChunks.append((CAFContainer.info, CAFContainer.infoBody(info))) }
            } else if layout.fileType == kOCAAudioFileOggType {
                // The comments are the second header packet: set before the first audio packet.
                let old = layout.info
                layout.info = info
                let status = rewriteOggHeader()
                if status != noErr { layout.info = old; return status }
            } else if !isWrittenMP4 {
                return kAudioFileUnsupportedPropertyError
            }
            layout.info = info
            markHeaderDirty()
            return noErr
        case kAudioFilePropertyMagicCookieData:
            return setMagicCookie(Array(UnsafeRawBufferPointer(start: data, count: Int(size))))
        case kAudioFilePropertyPacketTableInfo:
            guard size >= UInt32(MemoryLayout<AudioFilePacketTableInfo>.size) else { return kAudioFileBadPropertySizeError }
            return setPacketTableInfo(data.loadUnaligned(as: AudioFilePacketTableInfo.self))
        case kAudioFilePropertyMarkerList:
            guard let (smpte, markers) = CAFMarkers.parseMarkerList(data, size: Int(size)) else { return kAudioFileBadPropertySizeError }
            layout.userData.removeAll { $0.0 == CAFMarkers.mark || $0.0 == CAFMarkers.strg }
            layout.trailingChunks.removeAll { $0.0 == CAFMarkers.mark || $0.0 == CAFMarkers.strg }
            let chunks = CAFMarkers.chunks(smpte, markers)
            layout.trailingChunks += chunks
            layout.userData += chunks
            markHeaderDirty()
            return noErr
        case kAudioFilePropertyDataFormat:
            guard size >= 40 else { return kAudioFileBadPropertySizeError }
            let f = data.loadUnaligned(as: AudioStreamBasicDescription.self)
            switch container.create(format: f, channelLayout: layout.channelLayout, magicCookie: layout.magicCookie) {
            case .failure(let e): return e.status
            case .success(let (header, newLayout)):
                guard store.write(at: 0, header), store.truncate(to: Int64(header.count)) else { return store.writeFailure }
                layout = newLayout
                return noErr
            }
        default:
            return kAudioFileUnsupportedPropertyError
        }
    }
}

// MARK: Global info

/// The file types this implementation reads and writes, with their names, extensions and MIME types.
struct AudioFileTypeInfo {
    let type: AudioFileTypeID
    let name: String
    let extensions: [String]
    let mimeTypes: [String]
    let utis: [String]
    /// The linear PCM layouts the type holds, as (flags, bits) pairs in Apple's order.
    let pcm: [(AudioFormatFlags, UInt32)]
    /// Compressed formats the type holds (CAF: whatever a codec exists for).
    var compressed: [AudioFormatID] = []
    var writable = true

    /// Formats the type lists in AvailableFormatIDs: linear PCM first if it holds it.
    var formatIDs: [AudioFormatID] {
        let codecs = type == kAudioFileCAFType ? CodecRegistry.decodeFormatIDs.filter { $0 != kAudioFormatLinearPCM } : compressed
        return (pcm.isEmpty ? [] : [kAudioFormatLinearPCM]) + codecs
    }

    static let all: [AudioFileTypeInfo] = [
        AudioFileTypeInfo(type: kAudioFileAIFFType, name: "AIFF", extensions: ["aif", "aiff"], mimeTypes: ["audio/aiff", "audio/x-aiff"],
                          utis: ["public.aiff-audio"], pcm: [(14, 8), (14, 16), (14, 24), (14, 32)]),
        AudioFileTypeInfo(type: kAudioFileAIFCType, name: "AIFC", extensions: ["aifc", "aiff", "aif"], mimeTypes: ["audio/aiff", "audio/x-aiff"],
                          utis: ["public.aifc-audio"], pcm: [(14, 8), (14, 16), (14, 24), (14, 32), (11, 32), (11, 64), (12, 16)],
                          compressed: [kAudioFormatULaw, kAudioFormatALaw, kAudioFormatAppleIMA4]),
        AudioFileTypeInfo(type: kAudioFileWAVEType, name: "WAVE", extensions: ["wav", "wave"], mimeTypes: ["audio/wav", "audio/x-wav", "audio/vnd.wave"],
                          utis: ["com.microsoft.waveform-audio"], pcm: [(8, 8), (12, 16), (12, 24), (12, 32), (9, 32), (9, 64)],
                          compressed: [kAudioFormatULaw, kAudioFormatALaw]),
        AudioFileTypeInfo(type: kAudioFileRF64Type, name: "RF64", extensions: ["rf64", "wav"], mimeTypes: ["audio/x-rf64"],
                          utis: ["public.rf64-audio"], pcm: [(8, 8), (12, 16), (12, 24), (12, 32), (9, 32), (9, 64)],
                          compressed: [kAudioFormatULaw, kAudioFormatALaw]),
        AudioFileTypeInfo(type: kAudioFileCAFType, name: "CAF", extensions: ["caf"], mimeTypes: ["audio/x-caf"],
                          utis: ["com.apple.coreaudio-format"],
                          pcm: [(14, 8), (14, 16), (14, 24), (14, 32), (11, 32), (11, 64), (12, 16), (12, 24), (12, 32), (9, 32), (9, 64)]),
        AudioFileTypeInfo(type: kAudioFileFLACType, name: "FLAC", extensions: ["flac"], mimeTypes: ["audio/flac"],
                          utis: ["org.xiph.flac"], pcm: [], compressed: [kAudioFormatFLAC]),
        AudioFileTypeInfo(type: kAudioFileM4AType, name: "Apple MPEG-4 Audio", extensions: ["m4a", "m4r"], mimeTypes: ["audio/mp4", "audio/x-m4a"],
                          utis: ["com.apple.m4a-audio"], pcm: [],
                          compressed: MP4Container.writableFormats),
        AudioFileTypeInfo(type: kAudioFileMPEG4Type, name: "MPEG-4 Audio", extensions: ["mp4"], mimeTypes: ["audio/mp4"],
                          utis: ["public.mpeg-4-audio"], pcm: [], compressed: MP4Container.writableFormats),
        AudioFileTypeInfo(type: kAudioFileM4BType, name: "Apple MPEG-4 AudioBooks", extensions: ["m4b"], mimeTypes: ["audio/mp4"],
                          utis: ["com.apple.protected-mpeg-4-audio-b"], pcm: [], compressed: MP4Container.writableFormats),
        AudioFileTypeInfo(type: kAudioFileAAC_ADTSType, name: "AAC ADTS", extensions: ["aac", "adts"], mimeTypes: ["audio/aac", "audio/x-aac"],
                          utis: ["public.aac-audio"], pcm: [], compressed: [kAudioFormatMPEG4AAC]),
        AudioFileTypeInfo(type: kAudioFileMP3Type, name: "MPEG Layer 3", extensions: ["mp3"], mimeTypes: ["audio/mpeg", "audio/mpeg3"],
                          utis: ["public.mp3"], pcm: [], compressed: [kAudioFormatMPEGLayer3], writable: false),
        AudioFileTypeInfo(type: kAudioFileAMRType, name: "AMR", extensions: ["amr"], mimeTypes: ["audio/amr"],
                          utis: ["org.3gpp.adaptive-multi-rate-audio"], pcm: [], compressed: [kAudioFormatAMR, kAudioFormatAMR_WB]),
        // 3GP and 3GPP2: AMR and AAC inside, read and written.
        AudioFileTypeInfo(type: kAudioFile3GPType, name: "3GP Audio", extensions: ["3gp", "3gpp"], mimeTypes: ["audio/3gpp", "video/3gpp"],
                          utis: ["public.3gpp"], pcm: [], compressed: MP4Container.writable3GPFormats),
        AudioFileTypeInfo(type: kAudioFile3GP2Type, name: "3GPP-2 Audio", extensions: ["3g2", "3gp2"], mimeTypes: ["audio/3gpp2", "video/3gpp2"],
                          utis: ["public.3gpp2"], pcm: [], compressed: MP4Container.writable3GPFormats),
        // Not one of Apple's types: Opus and FLAC in Ogg, read and written, under this package's 'OggS'.
        AudioFileTypeInfo(type: kOCAAudioFileOggType, name: "Ogg", extensions: ["ogg", "opus", "oga"], mimeTypes: ["audio/ogg", "audio/opus"],
                          utis: ["org.xiph.ogg-audio"], pcm: [], compressed: [kAudioFormatOpus, kAudioFormatFLAC]),
    ]

    static func find(_ type: AudioFileTypeID) -> AudioFileTypeInfo? { all.first { $0.type == type } }
}

enum AudioFileGlobalInfo {
    enum Value {
        case bytes([UInt8])
        case object(AnyObject)
    }

    static func value(_ id: AudioFilePropertyID, _ size: UInt32, _ spec: UnsafeMutableRawPointer?) -> Result<Value, OSStatusError> {
        func bytes<T>(_ values: [T]) -> Value { .bytes(values.withUnsafeBytes { Array($0) }) }
        func specifier<T>(_ t: T.Type) -> T? {
            guard let spec, Int(size) >= MemoryLayout<T>.size else { return nil }
            return spec.loadUnaligned(as: T.self)
        }
        switch id {
        case kAudioFileGlobalInfo_ReadableTypes:
            return .success(bytes(AudioFileTypeInfo.all.map(\.type)))
        case kAudioFileGlobalInfo_WritableTypes:
            return .success(bytes(AudioFileTypeInfo.all.filter(\.writable).map(\.type)))
        case kAudioFileGlobalInfo_FileTypeName:
            guard let t = specifier(AudioFileTypeID.self) else { return .failure(OSStatusError(kAudioFileBadPropertySizeError)) }
            guard let info = AudioFileTypeInfo.find(t) else { return .failure(OSStatusError(kAudioFileUnsupportedFileTypeError)) }
            return .success(.object(info.name as NSString))
        case kAudioFileGlobalInfo_AvailableFormatIDs:
            guard let t = specifier(AudioFileTypeID.self) else { return .failure(OSStatusError(kAudioFileBadPropertySizeError)) }
            guard let info = AudioFileTypeInfo.find(t) else { return .failure(OSStatusError(kAudioFileUnsupportedFileTypeError)) }
            return .success(bytes(info.formatIDs))
        case kAudioFileGlobalInfo_AvailableStreamDescriptionsForFormat:
            guard let tf = specifier(AudioFileTypeAndFormatID.self) else { return .failure(OSStatusError(kAudioFileBadPropertySizeError)) }
            guard let info = AudioFileTypeInfo.find(tf.mFileType) else { return .failure(OSStatusError(kAudioFileUnsupportedFileTypeError)) }
            guard info.formatIDs.contains(tf.mFormatID) else { return .failure(OSStatusError(kAudioFileUnsupportedDataFormatError)) }
            if tf.mFormatID != kAudioFormatLinearPCM {
                // A compressed format: its codec's fixed fields, rate and channels left open.
                var f = AudioStreamBasicDescription()
                f.mFormatID = tf.mFormatID
                let complete = CodecRegistry.entry(tf.mFormatID)?.completeFormat(f, nil) ?? f
                return .success(bytes([complete]))
            }
            let list = info.pcm.map { flags, bits in
                AudioStreamBasicDescription(mSampleRate: 0, mFormatID: kAudioFormatLinearPCM, mFormatFlags: flags, mBytesPerPacket: 0,
                                            mFramesPerPacket: 0, mBytesPerFrame: 0, mChannelsPerFrame: 0, mBitsPerChannel: bits, mReserved: 0)
            }
            return .success(bytes(list))
        case kAudioFileGlobalInfo_ExtensionsForType, kAudioFileGlobalInfo_MIMETypesForType, kAudioFileGlobalInfo_UTIsForType:
            guard let t = specifier(AudioFileTypeID.self) else { return .failure(OSStatusError(kAudioFileBadPropertySizeError)) }
            guard let info = AudioFileTypeInfo.find(t) else { return .failure(OSStatusError(kAudioFileUnsupportedFileTypeError)) }
            let list = id == kAudioFileGlobalInfo_ExtensionsForType ? info.extensions : id == kAudioFileGlobalInfo_MIMETypesForType ? info.mimeTypes : info.utis
            return .success(.object(list as NSArray))
        case kAudioFileGlobalInfo_AllExtensions, kAudioFileGlobalInfo_AllMIMETypes, kAudioFileGlobalInfo_AllUTIs:
            var seen: [String] = []
            for info in AudioFileTypeInfo.all {
                let list = id == kAudioFileGlobalInfo_AllExtensions ? info.extensions : id == kAudioFileGlobalInfo_AllMIMETypes ? info.mimeTypes : info.utis
                for e in list where !seen.contains(e) { seen.append(e) }
            }
            return .success(.object(seen as NSArray))
        case kAudioFileGlobalInfo_TypesForExtension, kAudioFileGlobalInfo_TypesForMIMEType, kAudioFileGlobalInfo_TypesForUTI:
            guard let spec, Int(size) == MemoryLayout<UnsafeRawPointer>.size,
                  let raw = spec.load(as: UnsafeRawPointer?.self),
                  let key = Unmanaged<AnyObject>.fromOpaque(raw).takeUnretainedValue() as? String else {
                return .failure(OSStatusError(kAudioFileBadPropertySizeError))
            }
            let types = AudioFileTypeInfo.all.filter { info in
                let list = id == kAudioFileGlobalInfo_TypesForExtension ? info.extensions : id == kAudioFileGlobalInfo_TypesForMIMEType ? info.mimeTypes : info.utis
                return list.contains(key.lowercased())
            }.map(\.type)
            return .success(bytes(types))
        default:
            return .failure(OSStatusError(kAudioFileUnsupportedPropertyError))
        }
    }
}
