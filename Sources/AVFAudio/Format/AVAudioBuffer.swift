import Foundation

/// A buffer of audio in some format: the base of AVAudioPCMBuffer and AVAudioCompressedBuffer.
open class AVAudioBuffer: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {
    /// The buffer's format.
    public let format: AVAudioFormat
    let list: UnsafeMutableAudioBufferListPointer

    init(format: AVAudioFormat, buffers: Int) {
        self.format = format
        list = AudioBufferList.allocate(maximumBuffers: max(buffers, 1))
        super.init()
    }

    deinit { free(list.unsafeMutablePointer) }

    /// The buffer list describing the samples (its byte sizes follow frameLength or byteLength).
    public var audioBufferList: UnsafePointer<AudioBufferList> { UnsafePointer(list.unsafeMutablePointer) }
    /// The buffer list, for writing samples into (its byte sizes follow frameLength or byteLength).
    public var mutableAudioBufferList: UnsafeMutablePointer<AudioBufferList> { list.unsafeMutablePointer }

    /// A copy of the buffer and its contents.
    open func copy(with zone: NSZone? = nil) -> Any { self }
    /// A copy of the buffer and its contents.
    open func mutableCopy(with zone: NSZone? = nil) -> Any { copy(with: zone) }
}
