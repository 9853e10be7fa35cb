import Foundation

/// kAudioQueueProperty_ChannelAssignments: a write-only array of AudioQueueChannelAssignment, one per queue channel.
extension AudioQueueObject {
    /// Checks and takes the assignments (the caller holds the lock): stopped, one element per queue
    /// channel (kAudioQueueErr_InvalidPropertySize), each naming a device by a UID the HAL knows
    /// (kAudioQueueErr_InvalidDevice), all the same device, and a channel from 1 to the device's channel count
    /// (kAudioQueueErr_InvalidPropertyValue). The queue then plays on (or records from) that device, each channel
    /// on its own.
    func setChannelAssignments(_ raw: UnsafeRawBufferPointer) -> OSStatus {
        let stride = MemoryLayout<AudioQueueChannelAssignment>.stride
        guard raw.count == pcm.channels * stride, let base = raw.baseAddress else { return kAudioQueueErr_InvalidPropertySize }
        guard runState == .stopped else { return kAudioQueueErr_InvalidRunState }
        var uid: String?
        var map: [Int] = []
        for c in 0..<pcm.channels {
            // Read field by field: the UID pointer may be NULL, which Unmanaged cannot hold.
            let element = base + c * stride
            guard let pointer = element.loadUnaligned(fromByteOffset: MemoryLayout<AudioQueueChannelAssignment>.offset(of: \.mDeviceUID)!,
                                                      as: UnsafeRawPointer?.self) else { return kAudioQueueErr_InvalidDevice }
            let channel = element.loadUnaligned(fromByteOffset: MemoryLayout<AudioQueueChannelAssignment>.offset(of: \.mChannelNumber)!,
                                                as: UInt32.self)
            let name = Unmanaged<CFString>.fromOpaque(pointer).takeUnretainedValue() as String
            if let uid, uid != name { return kAudioQueueErr_InvalidPropertyValue }
            uid = name
            map.append(Int(channel) - 1)
        }
        guard let uid, let device = Self.device(forUID: uid) else { return kAudioQueueErr_InvalidDevice }
        let deviceChannels = Int(HALDeviceQuery.streamFormat(device, input: direction == .input)?.mChannelsPerFrame ?? 0)
        guard map.allSatisfy({ $0 >= 0 && $0 < deviceChannels }) else { return kAudioQueueErr_InvalidPropertyValue }
        deviceUID = uid
        channelRoute = AudioQueueChannelRoute(map: map, deviceChannels: deviceChannels, input: direction == .input,
                                              maximumFrames: Self.maximumFramesPerSlice)
        // The I/O unit is made again for the device and its channel count.
        if let u = unit { AudioComponentInstanceDispose(u) }
        unit = nil
        ioUnit = nil
        return noErr
    }
}
