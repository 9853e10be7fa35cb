import OCAProperty
import Foundation

/// ExtAudioFile properties, one row each (see `ObjectProperty`): ExtAudioFileGetPropertyInfo, GetProperty
/// and SetProperty are answered from `propertyTable` alone. The file's channel layout is the AudioFile's,
/// asked through AudioFile's own calls (its lock, its sizes and its status codes).
extension ExtAudioFileObject {
    static let propertyTable = ObjectPropertyTable<ExtAudioFileObject>(propertyRows, statuses: .init(
        unsupported: kExtAudioFileError_InvalidProperty, badSize: kExtAudioFileError_InvalidPropertySize,
        notWritable: { _ in kExtAudioFileError_InvalidProperty }))

    typealias Row = ObjectProperty<ExtAudioFileObject>

    static let propertyRows: [Row] = [
        .value(kExtAudioFileProperty_FileDataFormat, AudioStreamBasicDescription.self, get: { $0.fileFormat }),
        // The last field (mReserved) may be left out.
        ObjectProperty(kExtAudioFileProperty_ClientDataFormat, writable: .always,
                       size: { _ in UInt32(MemoryLayout<AudioStreamBasicDescription>.size) }, setSize: .atLeast(36),
                       read: { x, out, _ in out.storeBytes(of: x.clientFormat, as: AudioStreamBasicDescription.self); return noErr },
                       write: { x, data in
                           var f = AudioStreamBasicDescription()
                           withUnsafeMutableBytes(of: &f) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: data.prefix(36))) }
                           return x.setClientFormat(f)
                       }),
        // Truncating a file being written is not done here.
        .value(kExtAudioFileProperty_FileLengthFrames, Int64.self, writable: .when { $0.forWriting },
               get: { $0.lengthFrames }, set: { _, _ in kAudioFileOperationNotSupportedError }),
        .value(kExtAudioFileProperty_PacketTable, AudioFilePacketTableInfo.self,
               exists: { $0.file.layout.packetTable != nil || $0.isCompressed },
               get: { $0.file.layout.packetTable ?? AudioFilePacketTableInfo(mNumberValidFrames: $0.file.totalFrames, mPrimingFrames: 0, mRemainderFrames: 0) }),
        .value(kExtAudioFileProperty_AudioFile, AudioFileID.self, get: { $0.fileHandle }),
        // Linear PCM files read without a converter: the property exists, its value does not.
        ObjectProperty(kExtAudioFileProperty_AudioConverter, size: { _ in UInt32(MemoryLayout<AudioConverterRef>.size) },
                       read: { x, out, _ in
                           guard let c = x.converterHandle else { return kExtAudioFileError_InvalidProperty }
                           out.storeBytes(of: c, as: AudioConverterRef.self)
                           return noErr
                       }),
        .value(kExtAudioFileProperty_IOBufferSizeBytes, UInt32.self, get: { $0.ioBufferSizeBytes },
               set: { x, bytes in x.ioBufferSizeBytes = max(bytes, 1024); return noErr }),
        .value(kExtAudioFileProperty_FileMaxPacketSize, UInt32.self, get: { $0.file.maximumPacketSize }),
        .value(kExtAudioFileProperty_ClientMaxPacketSize, UInt32.self, get: { $0.clientFormat.mBytesPerPacket }),
        ObjectProperty(kExtAudioFileProperty_FileChannelLayout, exists: { $0.fileChannelLayoutInfo != nil },
                       writable: .when { $0.fileChannelLayoutInfo?.writable ?? false },
                       size: { $0.fileChannelLayoutInfo?.size ?? 0 },
                       read: { x, out, size in
                           var ioSize = size
                           return AudioFileGetProperty(x.fileHandle, kAudioFilePropertyChannelLayout, &ioSize, out)
                       },
                       write: { x, data in
                           AudioFileSetProperty(x.fileHandle, kAudioFilePropertyChannelLayout, UInt32(data.count), data.baseAddress!)
                       }),
        .bytes(kExtAudioFileProperty_ClientChannelLayout, setSize: .atLeast(12), get: { $0.clientChannelLayoutBytes },
               set: { x, data in
                   x.clientChannelLayout = Array(data)
                   x.applyClientChannelLayout()
                   return noErr
               }),
        // Nothing to configure for linear PCM; the value read is a null dictionary.
        ObjectProperty(kExtAudioFileProperty_ConverterConfig, writable: .always, size: { _ in UInt32(MemoryLayout<UnsafeRawPointer>.size) },
                       read: { _, out, _ in out.storeBytes(of: UnsafeRawPointer?.none, as: UnsafeRawPointer?.self); return noErr },
                       write: { _, _ in noErr }),
    ]

    /// The AudioFile's channel-layout Info, nil where it has none.
    private var fileChannelLayoutInfo: (size: UInt32, writable: Bool)? {
        var size: UInt32 = 0
        var writable: UInt32 = 0
        guard AudioFileGetPropertyInfo(fileHandle, kAudioFilePropertyChannelLayout, &size, &writable) == noErr else { return nil }
        return (size, writable != 0)
    }

    /// The client's layout, or a plain one for the client's channel count (mono, stereo, discrete).
    private var clientChannelLayoutBytes: [UInt8] {
        if let clientChannelLayout { return clientChannelLayout }
        var w = ByteWriter()
        let channels = clientFormat.mChannelsPerFrame
        w.le(UInt64(channels == 1 ? kAudioChannelLayoutTag_Mono : channels == 2 ? kAudioChannelLayoutTag_Stereo
                    : kAudioChannelLayoutTag_DiscreteInOrder | channels), 4)
        w.le(0, 8)
        return w.bytes
    }
}
