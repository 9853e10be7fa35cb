import Foundation

/// One row of the queue's property table. Size is what the getter returns, so GetPropertySize and
/// GetProperty cannot disagree; a row without a setter is read-only.
struct AudioQueueProperty: @unchecked Sendable {
    let id: AudioQueuePropertyID
    /// The value's bytes, or Apple's status when it has none now.
    let get: (AudioQueueObject) -> Result<[UInt8], OSStatusError>
    /// Takes new bytes (the caller holds the queue's lock); nil: read-only.
    let set: ((AudioQueueObject, UnsafeRawBufferPointer) -> OSStatus)?
    /// Whether a smaller buffer than the whole value is accepted (the meters: fewer channels).
    var truncates = false

    static func bytes<T>(of value: T) -> [UInt8] { withUnsafeBytes(of: value) { Array($0) } }

    /// A fixed-size value (UInt32, Float64, an ASBD) with an optional setter taking the same type.
    static func value<T>(_ id: AudioQueuePropertyID, _ get: @escaping (AudioQueueObject) -> T,
                         set: ((AudioQueueObject, T) -> OSStatus)? = nil) -> AudioQueueProperty {
        AudioQueueProperty(id: id, get: { .success(bytes(of: get($0))) }, set: set.map { set in
            { q, raw in
                guard raw.count >= MemoryLayout<T>.size else { return kAudioQueueErr_InvalidPropertySize }
                return set(q, raw.loadUnaligned(as: T.self))
            }
        })
    }

    /// A UInt32 flag (0 or not).
    static func flag(_ id: AudioQueuePropertyID, _ get: @escaping (AudioQueueObject) -> Bool,
                     set: ((AudioQueueObject, Bool) -> OSStatus)? = nil) -> AudioQueueProperty {
        value(id, { UInt32(get($0) ? 1 : 0) }, set: set.map { set in { q, v in set(q, v != 0) } })
    }

    /// A UInt32 setting of a compressed input queue's encoder, as AudioConverter takes it: answered by a codec with
    /// settings (kAudioQueueErr_InvalidProperty otherwise), set only while the queue is stopped.
    static func encoderSetting(_ id: AudioQueuePropertyID, _ get: @escaping (CodecSettings) -> UInt32,
                               set: @escaping (CodecSettings, UInt32) -> OSStatus) -> AudioQueueProperty {
        AudioQueueProperty(id: id, get: { q in
            guard let s = q.encoding?.encoder.settings else { return .failure(OSStatusError(kAudioQueueErr_InvalidProperty)) }
            return .success(bytes(of: get(s)))
        }, set: { q, raw in
            guard let s = q.encoding?.encoder.settings else { return kAudioQueueErr_InvalidProperty }
            guard raw.count >= 4 else { return kAudioQueueErr_InvalidPropertySize }
            guard q.runState == .stopped else { return kAudioQueueErr_InvalidRunState }
            return set(s, raw.loadUnaligned(as: UInt32.self))
        })
    }

    /// Opaque bytes stored as given (magic cookie, channel layout).
    static func blob(_ id: AudioQueuePropertyID, _ keyPath: ReferenceWritableKeyPath<AudioQueueObject, [UInt8]>) -> AudioQueueProperty {
        AudioQueueProperty(id: id, get: { .success($0[keyPath: keyPath]) }, set: { q, raw in
            q[keyPath: keyPath] = Array(raw)
            return noErr
        })
    }
}
