import Foundation

/// One AudioCodec instance: the adapter that drives a registered codec's PacketDecoder or PacketEncoder
/// through AudioCodec.h's buffer model (append input, produce output packets). Client-side linear PCM in
/// another interleaved layout than the codec's own is converted by an AudioConverter made at initialize.
/// Like Apple's codecs it is used from one thread at a time; never on a render thread (it allocates).
final class AudioCodecObject: @unchecked Sendable {
    let component: AudioComponentEntry
    let codec: CodecEntry
    let isEncoder: Bool

    private var inputFormat: AudioStreamBasicDescription
    private var outputFormat: AudioStreamBasicDescription
    /// Whether the client chose the PCM side (else the codec's own layout is used).
    private var pcmFormatChosen = false
    private var cookie: [UInt8] = []
    private(set) var initialized = false
    private var inputBufferSize: UInt32 = 64 * 1024
    private var quality = kAudioCodecQuality_High
    private var targetBitRate: UInt32 = 0
    private var controlMode: UInt32?
    private var endOfInput = false

    // Decoding: compressed packets waiting, PCM (client layout) decoded but not yet handed out.
    private var decoder: PacketDecoder?
    private var packets: [[UInt8]] = []
    private var pending: [UInt8] = []
    private var pendingOffset = 0
    private var scratch: [UInt8] = []

    // Encoding: PCM (codec layout) waiting, finished packets not yet handed out.
    private var encoder: PacketEncoder?
    private var pcmInput: [UInt8] = []
    private var encodedPackets: [(bytes: [UInt8], frames: Int)] = []
    private var finished = false

    /// Client PCM <-> codec PCM when they differ.
    private var pcmConverter: AudioConverterRef?

    init(component: AudioComponentEntry, codec: CodecEntry, isEncoder: Bool) {
        self.component = component
        self.codec = codec
        self.isEncoder = isEncoder
        let compressed = codec.completeFormat(Self.bare(codec.formatID, rate: 44100, channels: 2), nil)
            ?? Self.bare(codec.formatID, rate: 0, channels: 0)
        let pcm = CodecPCMFormat.float32(rate: compressed.mSampleRate, channels: compressed.mChannelsPerFrame)
        inputFormat = isEncoder ? pcm : compressed
        outputFormat = isEncoder ? compressed : pcm
    }

    deinit { disposeConverter() }

    private static func bare(_ id: AudioFormatID, rate: Double, channels: UInt32) -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(mSampleRate: rate, mFormatID: id, mFormatFlags: 0, mBytesPerPacket: 0, mFramesPerPacket: 0,
                                    mBytesPerFrame: 0, mChannelsPerFrame: channels, mBitsPerChannel: 0, mReserved: 0)
    }

    private var compressedFormat: AudioStreamBasicDescription { isEncoder ? outputFormat : inputFormat }
    private var pcmFormat: AudioStreamBasicDescription { isEncoder ? inputFormat : outputFormat }

    private func disposeConverter() {
        if let pcmConverter { AudioConverterDispose(pcmConverter) }
        pcmConverter = nil
    }

    // MARK: Formats

    /// An interleaved linear PCM description with its derived fields filled, or nil.
    private static func completedPCM(_ f: AudioStreamBasicDescription) -> AudioStreamBasicDescription? {
        guard f.mFormatID == kAudioFormatLinearPCM, f.mFormatFlags & kAudioFormatFlagIsNonInterleaved == 0,
              f.mChannelsPerFrame > 0, f.mBitsPerChannel > 0 else { return nil }
        var d = f
        if d.mFramesPerPacket == 0 { d.mFramesPerPacket = 1 }
        if d.mBytesPerFrame == 0 { d.mBytesPerFrame = (f.mBitsPerChannel + 7) / 8 * f.mChannelsPerFrame }
        if d.mBytesPerPacket == 0 { d.mBytesPerPacket = d.mBytesPerFrame }
        guard d.mFramesPerPacket == 1, d.mBytesPerPacket == d.mBytesPerFrame else { return nil }
        return d
    }

    private static func sameLayout(_ a: AudioStreamBasicDescription, _ b: AudioStreamBasicDescription) -> Bool {
        a.mFormatFlags & ~kAudioFormatFlagIsPacked == b.mFormatFlags & ~kAudioFormatFlagIsPacked
            && a.mBitsPerChannel == b.mBitsPerChannel && a.mBytesPerFrame == b.mBytesPerFrame
            && a.mChannelsPerFrame == b.mChannelsPerFrame && a.mSampleRate == b.mSampleRate
    }

    /// Sets the input or output format (uninitialized only); the compressed side must be this codec's format.
    private func setFormat(_ f: AudioStreamBasicDescription, input: Bool) -> OSStatus {
        guard !initialized else { return kAudioCodecStateError }
        let compressedSide = input != isEncoder
        if compressedSide {
            guard f.mFormatID == codec.formatID else { return kAudioCodecUnsupportedFormatError }
        } else {
            guard Self.completedPCM(f) != nil else { return kAudioCodecUnsupportedFormatError }
            pcmFormatChosen = true
        }
        if input { inputFormat = f } else { outputFormat = f }
        return noErr
    }

    // MARK: Life cycle

    /// AudioCodecInitialize: takes the formats and cookie given (nil keeps what properties set), makes the codec.
    func initialize(input: AudioStreamBasicDescription?, output: AudioStreamBasicDescription?, cookie newCookie: [UInt8]?) -> OSStatus {
        guard !initialized else { return kAudioCodecStateError }
        if let input { let s = setFormat(input, input: true); guard s == noErr else { return s } }
        if let output { let s = setFormat(output, input: false); guard s == noErr else { return s } }
        if let newCookie { cookie = newCookie }
        do throws(OSStatusError) {
            if isEncoder { try makeEncoder() } else { try makeDecoder() }
        } catch {
            disposeConverter()
            decoder = nil
            encoder = nil
            return error.status
        }
        initialized = true
        clearBuffers()
        return noErr
    }

    private func makeDecoder() throws(OSStatusError) {
        guard let make = codec.makeDecoder,
              let compressed = codec.completeFormat(inputFormat, cookie.isEmpty ? nil : cookie) else {
            throw OSStatusError(kAudioCodecUnsupportedFormatError)
        }
        let d = try make(compressed, cookie.isEmpty ? nil : cookie)
        inputFormat = compressed
        var native = d.pcmFormat
        if !pcmFormatChosen {
            outputFormat = native
        } else {
            guard var out = Self.completedPCM(outputFormat) else { throw OSStatusError(kAudioCodecUnsupportedFormatError) }
            // The PCM side takes the stream's rate and channels (no rate or channel conversion here).
            if out.mSampleRate == 0 { out.mSampleRate = native.mSampleRate }
            guard out.mSampleRate == native.mSampleRate, out.mChannelsPerFrame == native.mChannelsPerFrame else {
                throw OSStatusError(kAudioCodecUnsupportedFormatError)
            }
            outputFormat = out
            if !Self.sameLayout(out, native) {
                var converter: AudioConverterRef?
                let status = AudioConverterNew(&native, &out, &converter)
                guard status == noErr else { throw OSStatusError(kAudioCodecUnsupportedFormatError) }
                pcmConverter = converter
            }
        }
        scratch = [UInt8](repeating: 0, count: d.maximumFramesPerPacket * Int(native.mBytesPerFrame))
        decoder = d
    }

    private func makeEncoder() throws(OSStatusError) {
        guard let make = codec.makeEncoder, var input = Self.completedPCM(inputFormat) else {
            throw OSStatusError(kAudioCodecUnsupportedFormatError)
        }
        var wanted = outputFormat
        if wanted.mSampleRate == 0 { wanted.mSampleRate = input.mSampleRate }
        if wanted.mChannelsPerFrame == 0 { wanted.mChannelsPerFrame = input.mChannelsPerFrame }
        guard let output = codec.completeFormat(wanted, nil) else { throw OSStatusError(kAudioCodecUnsupportedFormatError) }
        let e = try make(output, input)
        var native = e.pcmFormat
        guard native.mSampleRate == input.mSampleRate, native.mChannelsPerFrame == input.mChannelsPerFrame else {
            throw OSStatusError(kAudioCodecUnsupportedFormatError)
        }
        if !Self.sameLayout(input, native) {
            var converter: AudioConverterRef?
            guard AudioConverterNew(&input, &native, &converter) == noErr else { throw OSStatusError(kAudioCodecUnsupportedFormatError) }
            pcmConverter = converter
        }
        if let settings = e.settings {
            if targetBitRate != 0 { settings.bitRate = targetBitRate }
            settings.quality = quality
            if let controlMode { settings.bitRateControlMode = controlMode }
        }
        inputFormat = input
        outputFormat = e.format
        encoder = e
    }

    /// AudioCodecUninitialize: back to the state where formats can be set; buffered data is dropped.
    func uninitialize() -> OSStatus {
        guard initialized else { return noErr }
        initialized = false
        decoder = nil
        encoder = nil
        disposeConverter()
        clearBuffers()
        return noErr
    }

    /// AudioCodecReset: drops buffered data and the codec's carried state; formats and cookie stay.
    func reset() -> OSStatus {
        guard initialized else { return kAudioCodecStateError }
        decoder?.reset()
        encoder?.reset()
        if let pcmConverter { AudioConverterReset(pcmConverter) }
        clearBuffers()
        return noErr
    }

    private func clearBuffers() {
        packets = []
        pending = []
        pendingOffset = 0
        pcmInput = []
        encodedPackets = []
        endOfInput = false
        finished = false
    }

    /// Bytes of input held (in the client's input layout).
    private var usedInputBytes: Int {
        if isEncoder {
            let native = encoder?.pcmFormat.mBytesPerFrame ?? inputFormat.mBytesPerFrame
            return native == 0 ? 0 : pcmInput.count / Int(native) * Int(inputFormat.mBytesPerFrame)
        }
        return packets.reduce(0) { $0 + $1.count }
    }

    // MARK: Input

    /// AudioCodecAppendInputData: takes as many whole packets as the input buffer has room for; an empty
    /// append (0 bytes, as Apple documents) marks the end of the input, so the encoder flushes its last packets.
    func appendInput(_ data: UnsafeRawPointer?, bytes: inout UInt32, packetCount: inout UInt32,
                     descriptions: UnsafePointer<AudioStreamPacketDescription>?) -> OSStatus {
        guard initialized else { return kAudioCodecStateError }
        if bytes == 0 {
            endOfInput = true
            return noErr
        }
        guard let data else { return kAudio_ParamError }
        endOfInput = false
        let room = max(0, Int(inputBufferSize) - usedInputBytes)
        if isEncoder {
            let bpf = Int(inputFormat.mBytesPerFrame)
            let frames = min(Int(bytes) / bpf, room / bpf)
            if frames > 0 {
                let status = appendPCM(data, frames: frames)
                guard status == noErr else { return status }
            }
            bytes = UInt32(frames * bpf)
            packetCount = UInt32(frames)
            return noErr
        }
        var used = 0
        var taken = 0
        let fixed = Int(inputFormat.mBytesPerPacket)
        if let descriptions {
            for i in 0..<Int(packetCount) {
                let d = descriptions[i]
                let start = Int(d.mStartOffset), size = Int(d.mDataByteSize)
                guard start >= 0, start + size <= Int(bytes) else { return kAudio_ParamError }
                guard used + size <= room else { break }
                packets.append(Array(UnsafeRawBufferPointer(start: data + start, count: size)))
                used += size
                taken += 1
            }
            bytes = UInt32(taken == 0 ? 0 : Int(descriptions[taken - 1].mStartOffset) + Int(descriptions[taken - 1].mDataByteSize))
        } else {
            guard fixed > 0 else { return kAudio_ParamError } // variable-size packets need descriptions
            let count = min(Int(bytes) / fixed, room / fixed)
            for i in 0..<count {
                packets.append(Array(UnsafeRawBufferPointer(start: data + i * fixed, count: fixed)))
            }
            taken = count
            bytes = UInt32(count * fixed)
        }
        packetCount = UInt32(taken)
        return noErr
    }

    /// Converts client PCM to the encoder's layout and queues it.
    private func appendPCM(_ data: UnsafeRawPointer, frames: Int) -> OSStatus {
        guard let encoder else { return kAudioCodecStateError }
        let inBytes = frames * Int(inputFormat.mBytesPerFrame)
        guard let pcmConverter else {
            pcmInput.append(contentsOf: UnsafeRawBufferPointer(start: data, count: inBytes))
            return noErr
        }
        var converted = [UInt8](repeating: 0, count: frames * Int(encoder.pcmFormat.mBytesPerFrame))
        let status = convert(pcmConverter, data, inBytes, channels: inputFormat.mChannelsPerFrame, frames: frames, into: &converted)
        guard status == noErr else { return status }
        pcmInput.append(contentsOf: converted)
        return noErr
    }

    private func convert(_ converter: AudioConverterRef, _ data: UnsafeRawPointer, _ bytes: Int, channels: UInt32,
                         frames: Int, into out: inout [UInt8]) -> OSStatus {
        let outCount = out.count
        return out.withUnsafeMutableBytes { o in
            var inList = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: channels, mDataByteSize: UInt32(bytes),
                                                                                 mData: UnsafeMutableRawPointer(mutating: data)))
            var outList = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: channels, mDataByteSize: UInt32(outCount),
                                                                                  mData: o.baseAddress))
            return AudioConverterConvertComplexBuffer(converter, UInt32(frames), &inList, &outList)
        }
    }

    // MARK: Output

    /// AudioCodecProduceOutputPackets: up to `packetCount` packets (frames, for a decoder's PCM) into
    /// `bytes` bytes; both are updated to what was written, `status` tells whether more can follow.
    func produceOutput(_ out: UnsafeMutableRawPointer?, bytes: inout UInt32, packetCount: inout UInt32,
                       descriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?, status: inout UInt32) -> OSStatus {
        status = kAudioCodecProduceOutputPacketFailure
        guard initialized else { return kAudioCodecStateError }
        guard let out else { return kAudio_ParamError }
        do throws(OSStatusError) {
            if isEncoder {
                try produceEncoded(out, bytes: &bytes, packetCount: &packetCount, descriptions: descriptions, status: &status)
            } else {
                try produceDecoded(out, bytes: &bytes, frameCount: &packetCount, status: &status)
            }
        } catch {
            bytes = 0
            packetCount = 0
            status = kAudioCodecProduceOutputPacketFailure
            return error.status
        }
        return noErr
    }

    private func produceDecoded(_ out: UnsafeMutableRawPointer, bytes: inout UInt32, frameCount: inout UInt32,
                                status: inout UInt32) throws(OSStatusError) {
        let bpf = Int(outputFormat.mBytesPerFrame)
        guard Int(bytes) >= bpf else { throw OSStatusError(kAudioCodecNotEnoughBufferSpaceError) }
        let wanted = min(Int(frameCount), Int(bytes) / bpf)
        var produced = 0
        while produced < wanted {
            if pendingOffset < pending.count {
                let n = min(wanted - produced, (pending.count - pendingOffset) / bpf)
                pending.withUnsafeBytes { p in
                    (out + produced * bpf).copyMemory(from: p.baseAddress! + pendingOffset, byteCount: n * bpf)
                }
                pendingOffset += n * bpf
                produced += n
            } else if !packets.isEmpty {
                try decodeNextPacket()
            } else {
                break
            }
        }
        bytes = UInt32(produced * bpf)
        frameCount = UInt32(produced)
        let more = pendingOffset < pending.count || !packets.isEmpty
        if produced == wanted {
            status = more ? kAudioCodecProduceOutputPacketSuccessHasMore : kAudioCodecProduceOutputPacketSuccess
        } else {
            status = endOfInput ? kAudioCodecProduceOutputPacketAtEOF : kAudioCodecProduceOutputPacketNeedsMoreInputData
        }
    }

    private func decodeNextPacket() throws(OSStatusError) {
        guard let decoder else { throw OSStatusError(kAudioCodecStateError) }
        let packet = packets.removeFirst()
        let native = decoder.pcmFormat
        let capacity = decoder.maximumFramesPerPacket
        if scratch.count < capacity * Int(native.mBytesPerFrame) {
            scratch = [UInt8](repeating: 0, count: capacity * Int(native.mBytesPerFrame))
        }
        let result: Result<Int, OSStatusError> = packet.withUnsafeBytes { p in
            scratch.withUnsafeMutableBytes { s in
                Result { () throws(OSStatusError) in try decoder.decode(p, packetCount: 1, into: s.baseAddress!, capacityFrames: capacity) }
            }
        }
        let frames = try result.get()
        let nativeBytes = frames * Int(native.mBytesPerFrame)
        if let pcmConverter {
            var converted = [UInt8](repeating: 0, count: frames * Int(outputFormat.mBytesPerFrame))
            let status = scratch.withUnsafeBytes {
                convert(pcmConverter, $0.baseAddress!, nativeBytes, channels: native.mChannelsPerFrame, frames: frames, into: &converted)
            }
            guard status == noErr else { throw OSStatusError(status) }
            pending = converted
        } else {
            pending = Array(scratch[0..<nativeBytes])
        }
        pendingOffset = 0
    }

    private func produceEncoded(_ out: UnsafeMutableRawPointer, bytes: inout UInt32, packetCount: inout UInt32,
                                descriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?,
                                status: inout UInt32) throws(OSStatusError) {
        guard let encoder else { throw OSStatusError(kAudioCodecStateError) }
        let capacity = Int(bytes)
        let wanted = Int(packetCount)
        let fpp = encoder.framesPerPacket
        let bpf = Int(encoder.pcmFormat.mBytesPerFrame)
        var written = 0, produced = 0
        while produced < wanted {
            if let first = encodedPackets.first {
                guard written + first.bytes.count <= capacity else {
                    if produced == 0 { throw OSStatusError(kAudioCodecNotEnoughBufferSpaceError) }
                    break
                }
                first.bytes.withUnsafeBytes { (out + written).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
                let variableFrames = outputFormat.mFramesPerPacket == 0 ? UInt32(first.frames) : 0
                descriptions?[produced] = AudioStreamPacketDescription(mStartOffset: Int64(written), mVariableFramesInPacket: variableFrames,
                                                                       mDataByteSize: UInt32(first.bytes.count))
                written += first.bytes.count
                produced += 1
                encodedPackets.removeFirst()
            } else if pcmInput.count >= fpp * bpf {
                try encodeFrames(fpp, encoder)
            } else if endOfInput && !finished {
                if !pcmInput.isEmpty { try encodeFrames(pcmInput.count / bpf, encoder) }
                try encoder.finish { data, frames in self.queuePackets(data, frames: frames) }
                finished = true
            } else {
                break
            }
        }
        bytes = UInt32(written)
        packetCount = UInt32(produced)
        let more = !encodedPackets.isEmpty || pcmInput.count >= fpp * bpf || (endOfInput && !finished)
        if produced == wanted {
            status = more ? kAudioCodecProduceOutputPacketSuccessHasMore : kAudioCodecProduceOutputPacketSuccess
        } else {
            status = finished && !more ? kAudioCodecProduceOutputPacketAtEOF : kAudioCodecProduceOutputPacketNeedsMoreInputData
        }
    }

    private func encodeFrames(_ frames: Int, _ encoder: PacketEncoder) throws(OSStatusError) {
        let byteCount = frames * Int(encoder.pcmFormat.mBytesPerFrame)
        let chunk = Array(pcmInput[0..<byteCount])
        pcmInput.removeFirst(byteCount)
        let result: Result<Void, OSStatusError> = chunk.withUnsafeBytes { p in
            Result { () throws(OSStatusError) in
                try encoder.encode(p.baseAddress!, frames: frames) { data, frames in self.queuePackets(data, frames: frames) }
            }
        }
        try result.get()
    }

    /// Queues what an encoder emitted: a constant-bit-rate run is split into its packets.
    private func queuePackets(_ data: UnsafeRawBufferPointer, frames: Int) {
        let fixed = Int(outputFormat.mBytesPerPacket)
        guard fixed > 0, data.count > fixed, data.count % fixed == 0 else {
            encodedPackets.append((Array(data), frames))
            return
        }
        let count = data.count / fixed
        for i in 0..<count {
            encodedPackets.append((Array(data[(i * fixed)..<((i + 1) * fixed)]), frames / count))
        }
    }

    // MARK: Properties

    /// A property's value: bytes, a CFString (handed out +1), or the status that says why there is none.
    enum Value {
        case bytes([UInt8])
        case string(String)
        case failure(OSStatus)
    }

    private static func bytes<T>(of value: T) -> [UInt8] { withUnsafeBytes(of: value) { Array($0) } }
    private static func bytes<T>(ofArray values: [T]) -> [UInt8] { values.withUnsafeBytes { Array($0) } }

    /// Whether a property can be set now (nil: the codec does not have it).
    func isWritable(_ id: AudioCodecPropertyID) -> Bool? {
        switch id {
        case kAudioCodecPropertyCurrentInputFormat, kAudioCodecPropertyCurrentOutputFormat, kAudioCodecPropertyMagicCookie,
             kAudioCodecPropertyInputBufferSize:
            return !initialized
        case kAudioCodecPropertyQualitySetting:
            return true
        case kAudioCodecPropertyCurrentTargetBitRate, kAudioCodecPropertyAvailableBitRateRange,
             kAudioCodecPropertyApplicableBitRateRange, kAudioCodecPropertyBitRateControlMode:
            guard case .bytes = value(id, specifier: nil) else { return nil }
            return id == kAudioCodecPropertyCurrentTargetBitRate || (id == kAudioCodecPropertyBitRateControlMode && controlModes.count > 1)
        default:
            if case .failure = value(id, specifier: nil) { return nil }
            return false
        }
    }

    /// The encoder's adjustable settings: the live encoder's, else a probe made from the current formats.
    private var settings: CodecSettings? {
        guard isEncoder else { return nil }
        if let encoder { return encoder.settings }
        guard let make = codec.makeEncoder, let input = Self.completedPCM(inputFormat) else { return nil }
        var wanted = outputFormat
        if wanted.mSampleRate == 0 { wanted.mSampleRate = input.mSampleRate }
        if wanted.mChannelsPerFrame == 0 { wanted.mChannelsPerFrame = input.mChannelsPerFrame }
        guard let output = codec.completeFormat(wanted, nil) else { return nil }
        return (try? make(output, input))?.settings
    }

    private var controlModes: [UInt32] { settings?.bitRateControlModes ?? [] }

    private var supportedPCM: [AudioStreamBasicDescription] {
        let rate = pcmFormat.mSampleRate, channels = pcmFormat.mChannelsPerFrame
        return [CodecPCMFormat.int16(rate: rate, channels: channels), CodecPCMFormat.float32(rate: rate, channels: channels)]
    }

    /// A property's value; `specifier` is what the caller passed in the buffer (for ...FormatsFor... queries).
    func value(_ id: AudioCodecPropertyID, specifier: AudioStreamBasicDescription?) -> Value {
        let compressed = compressedFormat
        switch id {
        case kAudioCodecPropertySupportedInputFormats:
            return .bytes(Self.bytes(ofArray: isEncoder ? supportedPCM : [Self.bare(codec.formatID, rate: 0, channels: 0)]))
        case kAudioCodecPropertySupportedOutputFormats:
            return .bytes(Self.bytes(ofArray: isEncoder ? [Self.bare(codec.formatID, rate: 0, channels: 0)] : supportedPCM))
        case kAudioCodecPropertyInputFormatsForOutputFormat, kAudioCodecPropertyOutputFormatsForInputFormat:
            let wantsInputs = id == kAudioCodecPropertyInputFormatsForOutputFormat
            let given = specifier ?? (wantsInputs ? outputFormat : inputFormat)
            // The given side must be a format this codec has on that side.
            let givenIsCompressed = wantsInputs == isEncoder
            if givenIsCompressed ? given.mFormatID != codec.formatID : given.mFormatID != kAudioFormatLinearPCM {
                return .failure(kAudioCodecUnsupportedFormatError)
            }
            if givenIsCompressed {
                return .bytes(Self.bytes(ofArray: [CodecPCMFormat.int16(rate: given.mSampleRate, channels: given.mChannelsPerFrame),
                                                   CodecPCMFormat.float32(rate: given.mSampleRate, channels: given.mChannelsPerFrame)]))
            }
            let f = codec.completeFormat(Self.bare(codec.formatID, rate: given.mSampleRate, channels: given.mChannelsPerFrame), nil)
                ?? Self.bare(codec.formatID, rate: given.mSampleRate, channels: given.mChannelsPerFrame)
            return .bytes(Self.bytes(ofArray: [f]))
        case kAudioCodecPropertyCurrentInputFormat: return .bytes(Self.bytes(of: inputFormat))
        case kAudioCodecPropertyCurrentOutputFormat: return .bytes(Self.bytes(of: outputFormat))
        case kAudioCodecPropertyMagicCookie:
            return .bytes(isEncoder ? (encoder?.magicCookie ?? []) : cookie)
        case kAudioCodecPropertyPacketFrameSize:
            let frames = isEncoder ? (encoder.map { UInt32($0.framesPerPacket) } ?? compressed.mFramesPerPacket) : compressed.mFramesPerPacket
            return .bytes(Self.bytes(of: frames))
        case kAudioCodecPropertyMaximumPacketByteSize:
            let size = isEncoder ? (encoder.map { UInt32($0.maximumPacketBytes) } ?? compressed.mBytesPerPacket) : compressed.mBytesPerPacket
            return .bytes(Self.bytes(of: size))
        case kAudioCodecPropertyHasVariablePacketByteSizes, kAudioCodecPropertyRequiresPacketDescription:
            return .bytes(Self.bytes(of: UInt32(compressed.mBytesPerPacket == 0 ? 1 : 0)))
        case kAudioCodecPropertyInputBufferSize: return .bytes(Self.bytes(of: inputBufferSize))
        case kAudioCodecPropertyUsedInputBufferSize: return .bytes(Self.bytes(of: UInt32(usedInputBytes)))
        case kAudioCodecPropertyIsInitialized: return .bytes(Self.bytes(of: UInt32(initialized ? 1 : 0)))
        case kAudioCodecPropertyMinimumNumberInputPackets, kAudioCodecPropertyMinimumNumberOutputPackets:
            return .bytes(Self.bytes(of: UInt32(1)))
        case kAudioCodecPropertyQualitySetting: return .bytes(Self.bytes(of: quality))
        case kAudioCodecPropertyPrimeInfo:
            let p = encoder?.primeInfo
            return .bytes(Self.bytes(of: AudioCodecPrimeInfo(leadingFrames: p?.leadingFrames ?? 0, trailingFrames: p?.trailingFrames ?? 0)))
        case kAudioCodecPropertyCurrentTargetBitRate:
            guard let s = settings else { return .failure(kAudioCodecUnknownPropertyError) }
            return .bytes(Self.bytes(of: encoder == nil && targetBitRate != 0 ? targetBitRate : s.bitRate))
        case kAudioCodecPropertyAvailableBitRateRange, kAudioCodecPropertyApplicableBitRateRange:
            guard let s = settings else { return .failure(kAudioCodecUnknownPropertyError) }
            return .bytes(Self.bytes(ofArray: s.availableBitRates))
        case kAudioCodecPropertyBitRateControlMode:
            guard let s = settings else { return .failure(kAudioCodecUnknownPropertyError) }
            return .bytes(Self.bytes(of: controlMode ?? s.bitRateControlMode))
        case kAudioCodecPropertyFormatList:
            let item = AudioFormatListItem(mASBD: codec.completeFormat(compressed, cookie.isEmpty ? nil : cookie) ?? compressed,
                                           mChannelLayoutTag: 0)
            return .bytes(Self.bytes(ofArray: [item]))
        case kAudioCodecPropertyNameCFString:
            return .string(component.name.hasPrefix("Apple: ") ? String(component.name.dropFirst(7)) : component.name)
        case kAudioCodecPropertyManufacturerCFString: return .string("Apple, Inc.")
        case kAudioCodecPropertyFormatCFString: return .string(codec.name)
        default:
            return .failure(kAudioCodecUnknownPropertyError)
        }
    }

    /// Sets a property from `data` (exactly the value's size).
    func setValue(_ id: AudioCodecPropertyID, _ data: UnsafeRawPointer, size: Int) -> OSStatus {
        func scalar<T>(_ type: T.Type) -> T? { size == MemoryLayout<T>.size ? data.loadUnaligned(as: T.self) : nil }
        guard let writable = isWritable(id) else { return kAudioCodecUnknownPropertyError }
        switch id {
        case kAudioCodecPropertyCurrentInputFormat, kAudioCodecPropertyCurrentOutputFormat:
            guard let f = scalar(AudioStreamBasicDescription.self) else { return kAudioCodecBadPropertySizeError }
            guard writable else { return kAudioCodecStateError }
            return setFormat(f, input: id == kAudioCodecPropertyCurrentInputFormat)
        case kAudioCodecPropertyMagicCookie:
            guard writable else { return kAudioCodecStateError }
            guard !isEncoder else { return kAudioCodecIllegalOperationError }
            cookie = Array(UnsafeRawBufferPointer(start: data, count: size))
            return noErr
        case kAudioCodecPropertyInputBufferSize:
            guard let v = scalar(UInt32.self) else { return kAudioCodecBadPropertySizeError }
            guard writable else { return kAudioCodecStateError }
            guard v > 0 else { return kAudio_ParamError }
            inputBufferSize = v
            return noErr
        case kAudioCodecPropertyQualitySetting:
            guard let v = scalar(UInt32.self) else { return kAudioCodecBadPropertySizeError }
            quality = min(v, kAudioCodecQuality_Max)
            encoder?.settings?.quality = quality
            return noErr
        case kAudioCodecPropertyCurrentTargetBitRate:
            guard let v = scalar(UInt32.self) else { return kAudioCodecBadPropertySizeError }
            if let live = encoder?.settings { live.bitRate = v } else { targetBitRate = v }
            return noErr
        case kAudioCodecPropertyBitRateControlMode:
            guard let v = scalar(UInt32.self) else { return kAudioCodecBadPropertySizeError }
            guard writable else { return kAudioCodecIllegalOperationError }
            guard controlModes.contains(v) else { return kAudio_ParamError }
            if let live = encoder?.settings { live.bitRateControlMode = v } else { controlMode = v }
            return noErr
        default:
            return kAudioCodecIllegalOperationError
        }
    }
}
