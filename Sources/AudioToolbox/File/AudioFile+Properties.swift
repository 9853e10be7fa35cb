import OCAProperty
import Foundation

/// AudioFile properties, one row each (see `ObjectProperty`): AudioFileGetPropertyInfo, GetProperty and
/// SetProperty are answered from `propertyTable` alone, so Info's size is the size Get writes.
extension AudioFileObject {
    static let objectSize = UInt32(MemoryLayout<UnsafeRawPointer>.size)

    /// A set of a property that exists but cannot be written now: a read-only file answers
    /// kAudioFilePermissionsError, a writable one kAudioFileOperationNotSupportedError.
    static let propertyTable = ObjectPropertyTable<AudioFileObject>(propertyRows, statuses: .init(
        unsupported: kAudioFileUnsupportedPropertyError, badSize: kAudioFileBadPropertySizeError,
        notWritable: { $0.writable ? kAudioFileOperationNotSupportedError : kAudioFilePermissionsError }))

    typealias Row = ObjectProperty<AudioFileObject>

    static let propertyRows: [Row] = [
        .value(kAudioFilePropertyFileFormat, AudioFileTypeID.self, get: { $0.layout.fileType }),
        .value(kAudioFilePropertyDataFormat, AudioStreamBasicDescription.self,
               writable: .when { $0.layout.dataByteCount == 0 && $0.writable }, exactSize: false,
               get: { $0.layout.format }, set: { f, format in f.setDataFormat(format) }),
        .value(kAudioFilePropertyIsOptimized, UInt32.self, get: { $0.isOptimized ? 1 : 0 }),
        .value(kAudioFilePropertyMaximumPacketSize, UInt32.self, get: { $0.maximumPacketSize }),
        // Without reading every packet: the largest seen, or a bound from the frames a packet holds.
        .value(kAudioFilePropertyPacketSizeUpperBound, UInt32.self,
               get: { $0.isVariable ? max($0.maximumPacketSize, 1) : $0.layout.format.mBytesPerPacket }),
        .value(kAudioFilePropertySourceBitDepth, UInt32.self, get: { $0.layout.format.mBitsPerChannel }),
        .value(kAudioFilePropertyAudioDataByteCount, UInt64.self, get: { UInt64($0.layout.dataByteCount) }),
        .value(kAudioFilePropertyAudioDataPacketCount, UInt64.self, get: { UInt64($0.packetCount) }),
        .value(kAudioFilePropertyDataOffset, Int64.self, get: { $0.layout.dataOffset }),
        .value(kAudioFilePropertyBitRate, UInt32.self, get: { $0.bitRate }),
        .value(kAudioFilePropertyAudioTrackCount, UInt32.self, get: { $0.layout.audioTrackCount }),
        // Which track is read: settable on an MPEG-4 file opened for reading (the packets then come from that track).
        .value(kAudioFilePropertyUseAudioTrack, UInt32.self,
               writable: .when { !$0.writable && [kAudioFileM4AType, kAudioFileMPEG4Type, kAudioFileM4BType].contains($0.layout.fileType) },
               get: { $0.layout.audioTrack }, set: { f, track in f.useAudioTrack(track) }),
        // Valid frames only.
        .value(kAudioFilePropertyEstimatedDuration, Float64.self,
               get: { Double($0.playableRange.count) / $0.layout.format.mSampleRate }),
        .bytes(kAudioFilePropertyMagicCookieData, exists: { $0.layout.magicCookie != nil || $0.cookieSettable },
               writable: .when { $0.cookieSettable },
               get: { $0.layout.magicCookie ?? [] }, set: { f, data in f.setMagicCookie(Array(data)) }),
        .bytes(kAudioFilePropertyChannelLayout, exists: { $0.layout.channelLayout != nil || $0.beforeAudio },
               writable: .when { $0.beforeAudio }, setSize: .atLeast(12),
               get: { $0.layout.channelLayout ?? [] }, set: { f, data in f.setChannelLayout(Array(data)) }),
        // Settable where the file keeps it as text: MPEG-4 written here ('ilst' items, built with the 'moov'), CAF
        // (an 'info' chunk after the audio data) and Ogg (the comment header).
        .object(kAudioFilePropertyInfoDictionary,
                writable: .when { $0.writable && ($0.isWrittenMP4 || [kAudioFileCAFType, kOCAAudioFileOggType].contains($0.layout.fileType)) },
                get: { $0.infoDictionary() }, set: { f, object in f.setInfoDictionary(object) }),
        // The size is computed apart: the list's bytes hold +1 retained names. An empty list is its 8-byte header
        // (Info once reported room for one marker while Get wrote and reported 8).
        .bytes(kAudioFilePropertyMarkerList, exists: { $0.layout.fileType == kAudioFileCAFType }, writable: .when { $0.writable },
               size: { UInt32(NumAudioFileMarkersToNumBytes(CAFMarkers.markers($0.layout)?.1.count ?? 0)) },
               get: { f in
                   let (smpte, markers) = CAFMarkers.markers(f.layout) ?? (0, [])
                   return CAFMarkers.markerListBytes(smpte, markers)
               },
               set: { f, data in f.setMarkerList(data) }),
        .bytes(kAudioFilePropertyRegionList,
               exists: { $0.layout.fileType == kAudioFileCAFType && CAFMarkers.regions($0.layout) != nil }, writable: .never,
               size: { UInt32(CAFMarkers.regionListSize(CAFMarkers.regions($0.layout)?.1 ?? [])) },
               get: { f in
                   guard let (smpte, regions, names) = CAFMarkers.regions(f.layout) else { return [] }
                   return CAFMarkers.regionListBytes(regions, smpte, names)
               }),
        .value(kAudioFilePropertyPacketTableInfo, AudioFilePacketTableInfo.self,
               exists: { $0.layout.packetTable != nil || $0.isVariable || $0.packetTableSettable },
               writable: .when { $0.packetTableSettable }, exactSize: false,
               get: { $0.layout.packetTable ?? AudioFilePacketTableInfo(mNumberValidFrames: $0.totalFrames, mPrimingFrames: 0, mRemainderFrames: 0) },
               set: { f, table in f.setPacketTableInfo(table) }),
        .translation(kAudioFilePropertyFrameToPacket, AudioFramePacketTranslation.self) { f, t in f.frameToPacket(&t) },
        .translation(kAudioFilePropertyPacketToFrame, AudioFramePacketTranslation.self) { f, t in f.packetToFrame(&t) },
        .translation(kAudioFilePropertyByteToPacket, AudioBytePacketTranslation.self) { f, t in f.byteToPacket(&t) },
        .translation(kAudioFilePropertyPacketToByte, AudioBytePacketTranslation.self) { f, t in f.packetToByte(&t) },
        // MPEG-4 written here reserves room for the 'moov' in front of the data; elsewhere nothing is ahead.
        .value(kAudioFilePropertyReserveDuration, Float64.self, writable: .when { $0.writable },
               get: { _ in 0 }, set: { f, seconds in f.isWrittenMP4 ? f.reserveMovie(seconds: seconds) : noErr }),
    ]

    /// Info for `AudioFileGetPropertyInfo`: nil where the file lacks the property.
    func propertyInfo(_ id: AudioFilePropertyID) -> (UInt32, Bool)? {
        Self.propertyTable.info(self, id).map { ($0.size, $0.writable) }
    }

    func getProperty(_ id: AudioFilePropertyID, _ ioSize: UnsafeMutablePointer<UInt32>, _ out: UnsafeMutableRawPointer) -> OSStatus {
        Self.propertyTable.get(self, id, ioSize, out)
    }

    func setProperty(_ id: AudioFilePropertyID, _ size: UInt32, _ data: UnsafeRawPointer) -> OSStatus {
        Self.propertyTable.set(self, id, size, data)
    }

    // MARK: What the rows use

    /// A writable file with no audio data yet (the format and channel layout may still change).
    private var beforeAudio: Bool { writable && layout.dataByteCount == 0 }

    /// CAF: before audio, or after it a replacement of the same size (setMagicCookie checks the size).
    private var cookieSettable: Bool {
        let caf = layout.fileType == kAudioFileCAFType && (layout.dataByteCount == 0 || layout.magicCookie != nil)
        return writable && (caf || layout.fileType == kAudioFileFLACType || isWrittenMP4)
    }

    private var packetTableSettable: Bool {
        writable && (layout.fileType == kAudioFileCAFType || layout.fileType == kAudioFileFLACType || isWrittenMP4)
    }

    /// Data bits over the playing time (exact for linear PCM, an average for compressed data).
    private var bitRate: UInt32 {
        let f = layout.format
        let seconds = Double(totalFrames) / f.mSampleRate
        if f.mFormatID == kAudioFormatLinearPCM || seconds <= 0 { return UInt32((f.mSampleRate * Double(f.mBytesPerFrame) * 8).rounded()) }
        return UInt32(min(Double(UInt32.max), (Double(layout.dataByteCount) * 8 / seconds).rounded()))
    }

    private func infoDictionary() -> NSDictionary {
        let d = NSMutableDictionary()
        for (k, v) in layout.info { d[k] = v }
        d["approximate duration in seconds"] = String(format: "%.3f", Double(playableRange.count) / layout.format.mSampleRate)
        return d
    }

    private func setDataFormat(_ f: AudioStreamBasicDescription) -> OSStatus {
        switch container.create(format: f, channelLayout: layout.channelLayout, magicCookie: layout.magicCookie) {
        case .failure(let e): return e.status
        case .success(let (header, newLayout)):
            guard store.write(at: 0, header), store.truncate(to: Int64(header.count)) else { return store.writeFailure }
            layout = newLayout
            return noErr
        }
    }

    private func useAudioTrack(_ track: UInt32) -> OSStatus {
        guard track < layout.audioTrackCount else { return kAudio_ParamError }
        switch MP4Container.parse(store, track: track) {
        case .success(let other): layout = other
        case .failure(let e): return e.status
        }
        return noErr
    }

    private func setInfoDictionary(_ object: AnyObject?) -> OSStatus {
        guard let dictionary = object as? NSDictionary else { return kAudio_ParamError }
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
    }

    private func setMarkerList(_ data: UnsafeRawBufferPointer) -> OSStatus {
        guard let base = data.baseAddress, let (smpte, markers) = CAFMarkers.parseMarkerList(base, size: data.count) else {
            return kAudioFileBadPropertySizeError
        }
        layout.userData.removeAll { $0.0 == CAFMarkers.mark || $0.0 == CAFMarkers.strg }
        layout.trailingChunks.removeAll { $0.0 == CAFMarkers.mark || $0.0 == CAFMarkers.strg }
        let chunks = CAFMarkers.chunks(smpte, markers)
        layout.trailingChunks += chunks
        layout.userData += chunks
        markHeaderDirty()
        return noErr
    }

    private func frameToPacket(_ t: inout AudioFramePacketTranslation) -> OSStatus {
        guard t.mFrame >= 0 else { return kAudioFileInvalidPacketOffsetError }
        if let index = layout.packetIndex, layout.format.mFramesPerPacket == 0 {
            let (packet, offset) = index.packet(containing: t.mFrame, constant: 0)
            t.mPacket = Int64(packet)
            t.mFrameOffsetInPacket = UInt32(offset)
        } else {
            t.mPacket = t.mFrame / Int64(framesPerPacket)
            t.mFrameOffsetInPacket = UInt32(t.mFrame % Int64(framesPerPacket))
        }
        return noErr
    }

    private func packetToFrame(_ t: inout AudioFramePacketTranslation) -> OSStatus {
        guard t.mPacket >= 0 else { return kAudioFileInvalidPacketOffsetError }
        if let index = layout.packetIndex, layout.format.mFramesPerPacket == 0 {
            t.mFrame = index.firstFrame(of: Int(min(t.mPacket, Int64(index.count))), constant: 0) + Int64(t.mFrameOffsetInPacket)
        } else {
            t.mFrame = t.mPacket * Int64(framesPerPacket) + Int64(t.mFrameOffsetInPacket)
        }
        return noErr
    }

    private func byteToPacket(_ t: inout AudioBytePacketTranslation) -> OSStatus {
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
        return noErr
    }

    private func packetToByte(_ t: inout AudioBytePacketTranslation) -> OSStatus {
        guard t.mPacket >= 0 else { return kAudioFileInvalidPacketOffsetError }
        if let index = layout.packetIndex {
            guard t.mPacket < Int64(index.count) else { return kAudioFileInvalidPacketOffsetError }
            t.mByte = index.offsets[Int(t.mPacket)] + Int64(t.mByteOffsetInPacket)
        } else {
            t.mByte = t.mPacket * bytesPerPacket + Int64(t.mByteOffsetInPacket)
        }
        t.mFlags = []
        return noErr
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
