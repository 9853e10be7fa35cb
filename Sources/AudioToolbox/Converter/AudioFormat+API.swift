// Audio Format Services (AudioFormat.h): linear PCM, the registered codecs' formats, channel layouts.

/// Formats Core Audio names; those with a registered codec convert, the rest are only named.
private let knownFormatIDs: [AudioFormatID] = [
    kAudioFormatAC3, kAudioFormat60958AC3, kAudioFormatAppleIMA4, kAudioFormatMPEG4AAC, kAudioFormatMPEG4CELP,
    kAudioFormatMPEG4HVXC, kAudioFormatMPEG4TwinVQ, kAudioFormatMACE3, kAudioFormatMACE6, kAudioFormatULaw,
    kAudioFormatALaw, kAudioFormatQDesign, kAudioFormatQDesign2, kAudioFormatQUALCOMM, kAudioFormatMPEGLayer1,
    kAudioFormatMPEGLayer2, kAudioFormatMPEGLayer3, kAudioFormatTimeCode, kAudioFormatMIDIStream,
    kAudioFormatParameterValueStream, kAudioFormatAppleLossless, kAudioFormatMPEG4AAC_HE, kAudioFormatMPEG4AAC_LD,
    kAudioFormatMPEG4AAC_ELD, kAudioFormatMPEG4AAC_ELD_SBR, kAudioFormatMPEG4AAC_ELD_V2, kAudioFormatMPEG4AAC_HE_V2,
    kAudioFormatMPEG4AAC_Spatial, kAudioFormatMPEGD_USAC, kAudioFormatAMR, kAudioFormatAMR_WB, kAudioFormatAudible,
    kAudioFormatiLBC, kAudioFormatDVIIntelIMA, kAudioFormatMicrosoftGSM, kAudioFormatAES3, kAudioFormatEnhancedAC3,
    kAudioFormatFLAC, kAudioFormatOpus, kAudioFormatAPAC,
]

/// A property's value for a specifier, or the status that explains why there is none.
private enum FormatValue {
    case bytes([UInt8])
    case object(AnyObject)
    case failure(OSStatus)
}

private func bytes<T>(of value: T) -> [UInt8] { withUnsafeBytes(of: value) { Array($0) } }

private func specifier<T>(_ size: UInt32, _ pointer: UnsafeRawPointer?, as type: T.Type) -> T? {
    guard let pointer, Int(size) >= MemoryLayout<T>.size else { return nil }
    return pointer.loadUnaligned(as: T.self)
}

/// Fills in the derivable fields of a linear PCM description.
private func completedPCM(_ f: AudioStreamBasicDescription) -> AudioStreamBasicDescription? {
    guard f.mChannelsPerFrame > 0, f.mBitsPerChannel > 0 else { return nil }
    var d = f
    let nonInterleaved = f.mFormatFlags & kAudioFormatFlagIsNonInterleaved != 0
    if d.mFramesPerPacket == 0 { d.mFramesPerPacket = 1 }
    if d.mBytesPerFrame == 0 {
        let sampleBytes = (f.mBitsPerChannel + 7) / 8
        d.mBytesPerFrame = nonInterleaved ? sampleBytes : sampleBytes * f.mChannelsPerFrame
    }
    if d.mBytesPerPacket == 0 { d.mBytesPerPacket = d.mBytesPerFrame * d.mFramesPerPacket }
    if d.mBitsPerChannel % 8 == 0 && d.mBytesPerFrame == (nonInterleaved ? 1 : d.mChannelsPerFrame) * d.mBitsPerChannel / 8 {
        d.mFormatFlags |= kAudioFormatFlagIsPacked
    }
    return d
}

private func formatName(_ f: AudioStreamBasicDescription) -> String {
    guard f.mFormatID == kAudioFormatLinearPCM else {
        return OCAFormat.string(fromFourCharCode: f.mFormatID) + String(format: ", %u channels, %.0f Hz", f.mChannelsPerFrame, f.mSampleRate)
    }
    let flags = f.mFormatFlags
    var sample = "\(f.mBitsPerChannel)-bit"
    if f.mBitsPerChannel > 8 { sample += flags & kAudioFormatFlagIsBigEndian != 0 ? " big-endian" : " little-endian" }
    if flags & kAudioFormatFlagIsFloat != 0 {
        sample += " float"
    } else {
        sample += flags & kAudioFormatFlagIsSignedInteger != 0 ? " signed integer" : " unsigned integer"
    }
    let layout = flags & kAudioFormatFlagIsNonInterleaved != 0 ? ", deinterleaved" : ""
    return String(format: "Linear PCM, %@, %u channels, %.0f Hz%@", sample, f.mChannelsPerFrame, f.mSampleRate, layout)
}

private func channelCount(_ layout: UnsafeRawPointer, size: UInt32) -> UInt32? {
    guard size >= 12 else { return nil }
    let tag = layout.loadUnaligned(as: AudioChannelLayoutTag.self)
    switch tag {
    case kAudioChannelLayoutTag_UseChannelDescriptions:
        return layout.loadUnaligned(fromByteOffset: 8, as: UInt32.self)
    case kAudioChannelLayoutTag_UseChannelBitmap:
        return UInt32(layout.loadUnaligned(fromByteOffset: 4, as: UInt32.self).nonzeroBitCount)
    default:
        return tag & 0xFFFF  // the low 16 bits of a layout tag are its channel count
    }
}

/// An AudioChannelLayout holding `labels` as channel descriptions (ChannelLayoutForTag's value).
private func describedLayout(_ labels: [AudioChannelLabel]) -> [UInt8] {
    var out = bytes(of: kAudioChannelLayoutTag_UseChannelDescriptions) + bytes(of: UInt32(0)) + bytes(of: UInt32(labels.count))
    for label in labels {
        out += bytes(of: AudioChannelDescription(mChannelLabel: label, mChannelFlags: [], mCoordinates: (0, 0, 0)))
    }
    return out
}

/// The channels of a layout given as the specifier, within the specifier's size.
private func layoutLabels(_ size: UInt32, _ spec: UnsafeRawPointer?) -> [AudioChannelLabel]? {
    guard let spec, size >= 12 else { return nil }
    return ChannelLayoutCatalog.labels(inLayout: UnsafeRawBufferPointer(start: spec, count: Int(size)))
}

/// The channels of the two layouts an array of two AudioChannelLayout pointers names (nil inside for a layout
/// with channels no catalog knows), or nil for a bad specifier.
private func layoutPair(_ size: UInt32, _ spec: UnsafeRawPointer?) -> ([AudioChannelLabel]?, [AudioChannelLabel]?)? {
    guard let spec, Int(size) >= 2 * MemoryLayout<UnsafeRawPointer>.size,
          let a = spec.loadUnaligned(as: UnsafeRawPointer?.self),
          let b = spec.loadUnaligned(fromByteOffset: MemoryLayout<UnsafeRawPointer>.size, as: UnsafeRawPointer?.self) else { return nil }
    func labels(_ p: UnsafeRawPointer) -> [AudioChannelLabel]? {
        ChannelLayoutCatalog.labels(inLayout: UnsafeRawBufferPointer(start: p, count: ChannelLayoutCatalog.layoutSize(at: p)))
    }
    return (labels(a), labels(b))
}

/// kAudioFormatProperty_ValidateChannelLayout: kAudio_ParamError for a structural problem, kAudioFormatUnknownFormatError
/// for a tag or label Core Audio does not define.
private func validateLayout(_ size: UInt32, _ spec: UnsafeRawPointer?) -> OSStatus {
    guard let spec, size >= 12 else { return kAudio_ParamError }
    let raw = UnsafeRawBufferPointer(start: spec, count: Int(size))
    let tag = raw.loadUnaligned(as: UInt32.self)
    switch tag {
    case kAudioChannelLayoutTag_UseChannelDescriptions:
        let count = Int(raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
        guard count > 0, count <= (raw.count - 12) / 20 else { return kAudio_ParamError }
        for i in 0..<count {
            let label = raw.loadUnaligned(fromByteOffset: 12 + 20 * i, as: UInt32.self)
            guard ChannelLayoutCatalog.isDefined(label) else { return kAudioFormatUnknownFormatError }
        }
        return noErr
    case kAudioChannelLayoutTag_UseChannelBitmap:
        let bitmap = raw.loadUnaligned(fromByteOffset: 4, as: UInt32.self)
        return bitmap != 0 && bitmap < 1 << 18 ? noErr : kAudio_ParamError
    default:
        if tag & 0xFFFF0000 == kAudioChannelLayoutTag_Unknown { return noErr }  // N unknown channels
        return ChannelLayoutCatalog.labels(forTag: tag) != nil ? noErr : kAudioFormatUnknownFormatError
    }
}

private func formatValue(_ id: AudioFormatPropertyID, _ size: UInt32, _ spec: UnsafeRawPointer?,
                         _ inData: UnsafeMutableRawPointer?) -> FormatValue {
    switch id {
    case kAudioFormatProperty_FormatInfo:
        // The description to complete is passed in the property data itself.
        guard let inData else { return .bytes(bytes(of: AudioStreamBasicDescription())) }
        let f = inData.loadUnaligned(as: AudioStreamBasicDescription.self)
        guard f.mFormatID == kAudioFormatLinearPCM else {
            if let codec = CodecRegistry.entry(f.mFormatID) {
                guard let d = codec.completeFormat(f, nil) else { return .failure(kAudioFormatUnsupportedDataFormatError) }
                return .bytes(bytes(of: d))
            }
            return .failure(knownFormatIDs.contains(f.mFormatID) ? kAudioFormatUnsupportedDataFormatError : kAudioFormatUnknownFormatError)
        }
        guard let d = completedPCM(f) else { return .failure(kAudioFormatUnsupportedDataFormatError) }
        return .bytes(bytes(of: d))
    case kAudioFormatProperty_FormatName:
        guard let f = specifier(size, spec, as: AudioStreamBasicDescription.self) else { return .failure(kAudioFormatBadSpecifierSizeError) }
        guard f.mFormatID == kAudioFormatLinearPCM || knownFormatIDs.contains(f.mFormatID) else { return .failure(kAudioFormatUnknownFormatError) }
        return .object(formatName(f) as NSString)
    case kAudioFormatProperty_FormatIsVBR, kAudioFormatProperty_FormatIsExternallyFramed:
        guard let f = specifier(size, spec, as: AudioStreamBasicDescription.self) else { return .failure(kAudioFormatBadSpecifierSizeError) }
        let variable = f.mBytesPerPacket == 0 || (id == kAudioFormatProperty_FormatIsExternallyFramed && f.mFramesPerPacket == 0)
        return .bytes(bytes(of: UInt32(variable ? 1 : 0)))
    case kAudioFormatProperty_FormatIsEncrypted, kAudioFormatProperty_FormatEmploysDependentPackets:
        guard specifier(size, spec, as: AudioStreamBasicDescription.self) != nil || specifier(size, spec, as: AudioFormatID.self) != nil else {
            return .failure(kAudioFormatBadSpecifierSizeError)
        }
        return .bytes(bytes(of: UInt32(0)))
    case kAudioFormatProperty_EncodeFormatIDs:
        return .bytes(CodecRegistry.encodeFormatIDs.withUnsafeBytes { Array($0) })
    case kAudioFormatProperty_DecodeFormatIDs:
        return .bytes(CodecRegistry.decodeFormatIDs.withUnsafeBytes { Array($0) })
    case kAudioFormatProperty_FormatList:
        // One item per layer of the stream; no format here is layered (HE-AAC would list its SBR layer first).
        guard let info = specifier(size, spec, as: AudioFormatInfo.self) else { return .failure(kAudioFormatBadSpecifierSizeError) }
        var f = info.mASBD
        if f.mFormatID != kAudioFormatLinearPCM {
            let cookie = info.mMagicCookieSize > 0 ? Array(UnsafeRawBufferPointer(start: info.mMagicCookie, count: Int(info.mMagicCookieSize))) : nil
            guard let codec = CodecRegistry.entry(f.mFormatID), let complete = codec.completeFormat(f, cookie) else {
                return .failure(knownFormatIDs.contains(f.mFormatID) ? kAudioFormatUnsupportedDataFormatError : kAudioFormatUnknownFormatError)
            }
            f = complete
        }
        let channels = f.mChannelsPerFrame
        let tag = channels == 1 ? kAudioChannelLayoutTag_Mono : channels == 2 ? kAudioChannelLayoutTag_Stereo
            : kAudioChannelLayoutTag_DiscreteInOrder | channels
        return .bytes(bytes(of: AudioFormatListItem(mASBD: f, mChannelLayoutTag: tag)))
    case kAudioFormatProperty_FirstPlayableFormatFromList:
        guard let spec, size > 0, Int(size) % MemoryLayout<AudioFormatListItem>.size == 0 else {
            return .failure(kAudioFormatBadSpecifierSizeError)
        }
        let count = Int(size) / MemoryLayout<AudioFormatListItem>.size
        for i in 0..<count {
            let item = spec.loadUnaligned(fromByteOffset: i * MemoryLayout<AudioFormatListItem>.size, as: AudioFormatListItem.self)
            let id = item.mASBD.mFormatID
            if id == kAudioFormatLinearPCM || CodecRegistry.entry(id)?.makeDecoder != nil { return .bytes(bytes(of: UInt32(i))) }
        }
        return .failure(kAudioFormatUnsupportedDataFormatError)
    case kAudioFormatProperty_Encoders, kAudioFormatProperty_Decoders:
        // The codec components for a format, as AudioConverterNewSpecific takes them.
        guard let format = specifier(size, spec, as: AudioFormatID.self) else { return .failure(kAudioFormatBadSpecifierSizeError) }
        let encoders = id == kAudioFormatProperty_Encoders
        guard let codec = CodecRegistry.entry(format), encoders ? codec.makeEncoder != nil : codec.makeDecoder != nil else {
            return .failure(kAudioFormatUnsupportedDataFormatError)
        }
        return .bytes(bytes(of: AudioClassDescription(mType: encoders ? kAudioEncoderComponentType : kAudioDecoderComponentType,
                                                      mSubType: format, mManufacturer: kAudioUnitManufacturer_Apple)))
    case kAudioFormatProperty_ASBDFromESDS:
        // The specifier is an ES_Descriptor (an esds box's body).
        guard let spec, size > 0 else { return .failure(kAudioFormatBadSpecifierSizeError) }
        guard let es = ESDescriptor(Array(UnsafeRawBufferPointer(start: spec, count: Int(size)))), let f = es.streamDescription else {
            return .failure(kAudioFormatUnsupportedDataFormatError)
        }
        return .bytes(bytes(of: f))
    case kAudioFormatProperty_ID3TagSize:
        guard let spec, size >= 10 else { return .failure(kAudioFormatBadSpecifierSizeError) }
        guard let tagSize = ID3Tag.v2Size(Array(UnsafeRawBufferPointer(start: spec, count: 10))) else {
            return .failure(kAudioFormatUnsupportedDataFormatError)
        }
        return .bytes(bytes(of: UInt32(tagSize)))
    case kAudioFormatProperty_ID3TagToDictionary:
        guard let spec, size >= 10 else { return .failure(kAudioFormatBadSpecifierSizeError) }
        let tag = Array(UnsafeRawBufferPointer(start: spec, count: Int(size)))
        guard ID3Tag.v2Size(Array(tag.prefix(10))) != nil else { return .failure(kAudioFormatUnsupportedDataFormatError) }
        let d = NSMutableDictionary()
        for (k, v) in ID3Tag.parseV2(tag) { d[k] = v }
        return .object(d as NSDictionary)
    case kAudioFormatProperty_NumberOfChannelsForLayout:
        guard let spec, let n = channelCount(spec, size: size) else { return .failure(kAudioFormatBadSpecifierSizeError) }
        return .bytes(bytes(of: n))
    case kAudioFormatProperty_BitmapForLayoutTag:
        // A tag has a bitmap when each of its channels is one of the bitmap's 18 labels, in label order.
        guard let tag = specifier(size, spec, as: AudioChannelLayoutTag.self) else { return .failure(kAudioFormatBadSpecifierSizeError) }
        guard let labels = ChannelLayoutCatalog.labels(forTag: tag), labels.allSatisfy({ (1...18).contains($0) }),
              labels == labels.sorted() else { return .failure(kAudioFormatUnknownFormatError) }
        return .bytes(bytes(of: labels.reduce(UInt32(0)) { $0 | 1 << ($1 - 1) }))
    case kAudioFormatProperty_ChannelLayoutForTag:
        guard let tag = specifier(size, spec, as: AudioChannelLayoutTag.self) else { return .failure(kAudioFormatBadSpecifierSizeError) }
        guard let labels = ChannelLayoutCatalog.labels(forTag: tag) else { return .failure(kAudioFormatUnknownFormatError) }
        return .bytes(describedLayout(labels))
    case kAudioFormatProperty_ChannelLayoutForBitmap:
        guard let bitmap = specifier(size, spec, as: UInt32.self) else { return .failure(kAudioFormatBadSpecifierSizeError) }
        let labels = ChannelLayoutCatalog.labels(forBitmap: bitmap)
        guard !labels.isEmpty else { return .failure(kAudioFormatUnknownFormatError) }
        return .bytes(describedLayout(labels))
    case kAudioFormatProperty_TagForChannelLayout:
        guard let labels = layoutLabels(size, spec) else { return .failure(kAudioFormatUnknownFormatError) }
        guard let tag = ChannelLayoutCatalog.tag(for: labels) else { return .failure(kAudioFormatUnknownFormatError) }
        return .bytes(bytes(of: tag))
    case kAudioFormatProperty_TagsForNumberOfChannels:
        guard let count = specifier(size, spec, as: UInt32.self) else { return .failure(kAudioFormatBadSpecifierSizeError) }
        var tags = ChannelLayoutCatalog.tags(channels: Int(count))
        if count > 0 && count <= 0xFFFF { tags.append(kAudioChannelLayoutTag_DiscreteInOrder | count) }
        guard !tags.isEmpty else { return .failure(kAudioFormatUnknownFormatError) }
        return .bytes(tags.flatMap { bytes(of: $0) })
    case kAudioFormatProperty_ChannelLayoutName, kAudioFormatProperty_ChannelLayoutSimpleName:
        guard let labels = layoutLabels(size, spec) else { return .failure(kAudioFormatUnknownFormatError) }
        let name = id == kAudioFormatProperty_ChannelLayoutName ? ChannelLayoutCatalog.name(labels: labels)
            : ChannelLayoutCatalog.simpleName(labels: labels)
        guard let name else { return .failure(kAudioFormatUnknownFormatError) }
        return .object(name as NSString)
    case kAudioFormatProperty_ChannelName, kAudioFormatProperty_ChannelShortName:
        guard let description = specifier(size, spec, as: AudioChannelDescription.self) else {
            return .failure(kAudioFormatBadSpecifierSizeError)
        }
        let label = description.mChannelLabel
        return .object((id == kAudioFormatProperty_ChannelName ? ChannelLayoutCatalog.longName(label)
                        : ChannelLayoutCatalog.shortName(label)) as NSString)
    case kAudioFormatProperty_AreChannelLayoutsEquivalent, kAudioFormatProperty_MatrixMixMap, kAudioFormatProperty_ChannelMap:
        guard let (from, to) = layoutPair(size, spec) else { return .failure(kAudioFormatBadSpecifierSizeError) }
        guard let from, let to else { return .failure(kAudioFormatUnknownFormatError) }
        switch id {
        case kAudioFormatProperty_AreChannelLayoutsEquivalent:
            return .bytes(bytes(of: UInt32(from == to ? 1 : 0)))
        case kAudioFormatProperty_ChannelMap:
            return .bytes(ChannelMixMatrix.channelMap(from: from, to: to).flatMap { bytes(of: $0) })
        default:
            guard let matrix = ChannelMixMatrix.matrix(from: from, to: to) else { return .failure(kAudioFormatUnknownFormatError) }
            return .bytes(matrix.flatMap { $0 }.flatMap { bytes(of: Float32($0)) })
        }
    case kAudioFormatProperty_ValidateChannelLayout:
        let status = validateLayout(size, spec)
        return status == noErr ? .bytes([]) : .failure(status)
    default:
        return .failure(kAudioFormatUnsupportedPropertyError)
    }
}

/// The size of a property's value for a specifier.
@discardableResult
public func AudioFormatGetPropertyInfo(_ inPropertyID: AudioFormatPropertyID, _ inSpecifierSize: UInt32,
                                       _ inSpecifier: UnsafeRawPointer?, _ outPropertyDataSize: UnsafeMutablePointer<UInt32>) -> OSStatus {
    switch formatValue(inPropertyID, inSpecifierSize, inSpecifier, nil) {
    case .bytes(let b): outPropertyDataSize.pointee = UInt32(b.count)
    case .object: outPropertyDataSize.pointee = UInt32(MemoryLayout<UnsafeRawPointer>.size)
    case .failure(let status):
        if inPropertyID == kAudioFormatProperty_FormatInfo { outPropertyDataSize.pointee = 40; return noErr }
        return status
    }
    return noErr
}

/// A property's value for a specifier (object values, such as FormatName, are +1 retained).
@discardableResult
public func AudioFormatGetProperty(_ inPropertyID: AudioFormatPropertyID, _ inSpecifierSize: UInt32, _ inSpecifier: UnsafeRawPointer?,
                                   _ ioPropertyDataSize: UnsafeMutablePointer<UInt32>?,
                                   _ outPropertyData: UnsafeMutableRawPointer?) -> OSStatus {
    // Validation answers through its status alone; its value and size "must be set to NULL".
    if inPropertyID == kAudioFormatProperty_ValidateChannelLayout { return validateLayout(inSpecifierSize, inSpecifier) }
    guard let ioPropertyDataSize, let outPropertyData else { return kAudio_ParamError }
    switch formatValue(inPropertyID, inSpecifierSize, inSpecifier, outPropertyData) {
    case .bytes(let b):
        guard Int(ioPropertyDataSize.pointee) >= b.count else { return kAudioFormatBadPropertySizeError }
        b.withUnsafeBytes { outPropertyData.copyMemory(from: $0.baseAddress!, byteCount: b.count) }
        ioPropertyDataSize.pointee = UInt32(b.count)
    case .object(let o):
        guard Int(ioPropertyDataSize.pointee) >= MemoryLayout<UnsafeRawPointer>.size else { return kAudioFormatBadPropertySizeError }
        outPropertyData.storeBytes(of: UnsafeRawPointer(Unmanaged.passRetained(o).toOpaque()), as: UnsafeRawPointer.self)
        ioPropertyDataSize.pointee = UInt32(MemoryLayout<UnsafeRawPointer>.size)
    case .failure(let status):
        return status
    }
    return noErr
}
