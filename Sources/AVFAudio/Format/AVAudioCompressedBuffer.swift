import Foundation

/// A buffer of compressed packets with their descriptions (for formats whose packets vary in size).
open class AVAudioCompressedBuffer: AVAudioBuffer, @unchecked Sendable {
    /// Packets the buffer can hold.
    public let packetCapacity: AVAudioPacketCount
    /// The largest packet, in bytes.
    public let maximumPacketSize: Int
    /// The packet bytes.
    public let data: UnsafeMutableRawPointer
    /// The packet descriptions; nil for constant-size packets.
    public let packetDescriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?

    /// A buffer of `packetCapacity` packets of at most `maximumPacketSize` bytes.
    public init(format: AVAudioFormat, packetCapacity: AVAudioPacketCount, maximumPacketSize: Int) {
        let f = format.streamDescription.pointee
        self.packetCapacity = packetCapacity
        self.maximumPacketSize = max(maximumPacketSize, Int(f.mBytesPerPacket), 1)
        let bytes = Int(packetCapacity).multipliedReportingOverflow(by: self.maximumPacketSize)
        data = .allocate(byteCount: bytes.overflow ? 1 : max(bytes.partialValue, 1), alignment: 16)
        packetDescriptions = f.mBytesPerPacket == 0 ? .allocate(capacity: max(Int(packetCapacity), 1)) : nil
        super.init(format: format, buffers: 1)
        list[0] = AudioBuffer(mNumberChannels: f.mChannelsPerFrame, mDataByteSize: 0, mData: data)
    }

    /// A buffer for a format whose packet size is constant or known to the codec.
    public convenience init(format: AVAudioFormat, packetCapacity: AVAudioPacketCount) {
        var f = format.streamDescription.pointee
        var size: UInt32 = 0
        if f.mBytesPerPacket == 0 {
            var maxSize: UInt32 = 0
            var propertySize = UInt32(MemoryLayout<UInt32>.size)
            if AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, nil, &propertySize, &f) == noErr, f.mBytesPerPacket > 0 {
                maxSize = f.mBytesPerPacket
            }
            size = maxSize > 0 ? maxSize : 6144 * max(f.mChannelsPerFrame, 1)  // room for any codec's worst packet
        }
        self.init(format: format, packetCapacity: packetCapacity, maximumPacketSize: Int(size))
    }

    deinit {
        data.deallocate()
        packetDescriptions?.deallocate()
    }

    /// Valid packets.
    public var packetCount: AVAudioPacketCount = 0 {
        didSet {
            if packetCount > packetCapacity { packetCount = packetCapacity }
            let f = format.streamDescription.pointee
            if f.mBytesPerPacket > 0 { byteLength = packetCount * f.mBytesPerPacket }
        }
    }

    /// Bytes the buffer can hold.
    public var byteCapacity: UInt32 { UInt32(clamping: Int(packetCapacity) * maximumPacketSize) }

    /// Valid bytes.
    public var byteLength: UInt32 {
        get { list[0].mDataByteSize }
        set { list[0].mDataByteSize = min(newValue, byteCapacity) }
    }
}
