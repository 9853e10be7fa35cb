import Foundation

/// An AudioChannelLayout, immutable, by tag or with channel descriptions.
open class AVAudioChannelLayout: NSObject, @unchecked Sendable {
    private let storage: UnsafeMutableRawPointer
    private let byteCount: Int

    /// The layout with `layoutTag`; nil for the tags that need descriptions or a bitmap.
    public convenience init?(layoutTag: AudioChannelLayoutTag) {
        guard layoutTag != kAudioChannelLayoutTag_UseChannelDescriptions, layoutTag != kAudioChannelLayoutTag_UseChannelBitmap
        else { return nil }
        var layout = AudioChannelLayout()
        layout.mChannelLayoutTag = layoutTag
        self.init(layout: &layout)
    }

    /// A copy of `layout` (with its channel descriptions).
    public init(layout: UnsafePointer<AudioChannelLayout>) {
        let count = Int(layout.pointee.mNumberChannelDescriptions)
        byteCount = Self.size(descriptions: count)
        storage = .allocate(byteCount: byteCount, alignment: MemoryLayout<AudioChannelLayout>.alignment)
        storage.copyMemory(from: layout, byteCount: byteCount)
        super.init()
    }

    deinit { storage.deallocate() }

    /// Bytes of an AudioChannelLayout with `descriptions` channel descriptions.
    static func size(descriptions: Int) -> Int {
        MemoryLayout<AudioChannelLayout>.size + max(descriptions - 1, 0) * MemoryLayout<AudioChannelDescription>.stride
    }

    /// The layout's tag.
    public var layoutTag: AudioChannelLayoutTag { layout.pointee.mChannelLayoutTag }

    /// The AudioChannelLayout itself (valid while this object lives).
    public var layout: UnsafePointer<AudioChannelLayout> {
        UnsafePointer(storage.assumingMemoryBound(to: AudioChannelLayout.self))
    }

    /// The layout's bytes, as AVChannelLayoutKey carries them.
    var data: Data { Data(bytes: storage, count: byteCount) }

    /// The layout described by AVChannelLayoutKey's data.
    convenience init?(data: Data) {
        guard data.count >= MemoryLayout<AudioChannelLayout>.size else { return nil }
        let layout: AVAudioChannelLayout? = data.withUnsafeBytes { raw in
            var head = AudioChannelLayout()
            withUnsafeMutableBytes(of: &head) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[..<MemoryLayout<AudioChannelLayout>.size])) }
            guard Self.size(descriptions: Int(head.mNumberChannelDescriptions)) <= raw.count else { return nil }
            let aligned = UnsafeMutableRawPointer.allocate(byteCount: raw.count, alignment: MemoryLayout<AudioChannelLayout>.alignment)
            defer { aligned.deallocate() }
            aligned.copyMemory(from: raw.baseAddress!, byteCount: raw.count)
            return AVAudioChannelLayout(layout: aligned.assumingMemoryBound(to: AudioChannelLayout.self))
        }
        guard let layout else { return nil }
        self.init(layout: layout.layout)
    }

    /// The number of channels the layout describes.
    public var channelCount: AVAudioChannelCount {
        let l = layout.pointee
        switch l.mChannelLayoutTag {
        case kAudioChannelLayoutTag_UseChannelDescriptions: return l.mNumberChannelDescriptions
        case kAudioChannelLayoutTag_UseChannelBitmap: return UInt32(l.mChannelBitmap.rawValue.nonzeroBitCount)
        default: return l.mChannelLayoutTag & 0xFFFF
        }
    }

    /// Equal when the layouts are byte for byte the same.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? AVAudioChannelLayout, other.byteCount == byteCount else { return false }
        return memcmp(storage, other.storage, byteCount) == 0
    }

    open override var hash: Int { Int(layoutTag) }
}
