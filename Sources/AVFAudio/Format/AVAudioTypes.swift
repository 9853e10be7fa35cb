// AVAudioTypes.h: the frame, packet, channel and bus types and the 3D geometry structs.

/// A position in an audio file or stream, in sample frames.
public typealias AVAudioFramePosition = Int64
/// A number of sample frames.
public typealias AVAudioFrameCount = UInt32
/// A number of packets.
public typealias AVAudioPacketCount = UInt32
/// A number of audio channels.
public typealias AVAudioChannelCount = UInt32
/// A handler called when a scheduled operation completes.
public typealias AVAudioNodeCompletionHandler = () -> Void
/// The index of a node's input or output bus.
public typealias AVAudioNodeBus = Int
/// A time in beats, for music events.
public typealias AVMusicTimeStamp = Double

/// A point in 3D space, in meters.
public struct AVAudio3DPoint: Equatable, Sendable {
    public var x: Float
    public var y: Float
    public var z: Float
    /// The origin.
    public init() { x = 0; y = 0; z = 0 }
    /// The point (x, y, z).
    public init(x: Float, y: Float, z: Float) { self.x = x; self.y = y; self.z = z }
}

/// A vector in 3D space (the same struct as a point, as in Apple's header).
public typealias AVAudio3DVector = AVAudio3DPoint

/// Makes a point.
public func AVAudioMake3DPoint(_ x: Float, _ y: Float, _ z: Float) -> AVAudio3DPoint { AVAudio3DPoint(x: x, y: y, z: z) }
/// Makes a vector.
public func AVAudioMake3DVector(_ x: Float, _ y: Float, _ z: Float) -> AVAudio3DVector { AVAudio3DVector(x: x, y: y, z: z) }

/// An orientation as forward and up vectors.
public struct AVAudio3DVectorOrientation: Equatable, Sendable {
    public var forward: AVAudio3DVector
    public var up: AVAudio3DVector
    /// Zero vectors.
    public init() { forward = AVAudio3DVector(); up = AVAudio3DVector() }
    /// The orientation with these vectors.
    public init(forward: AVAudio3DVector, up: AVAudio3DVector) { self.forward = forward; self.up = up }
}

/// Makes a vector orientation.
public func AVAudioMake3DVectorOrientation(_ forward: AVAudio3DVector, _ up: AVAudio3DVector) -> AVAudio3DVectorOrientation {
    AVAudio3DVectorOrientation(forward: forward, up: up)
}

/// An orientation as yaw, pitch and roll in degrees.
public struct AVAudio3DAngularOrientation: Equatable, Sendable {
    public var yaw: Float
    public var pitch: Float
    public var roll: Float
    /// All angles zero.
    public init() { yaw = 0; pitch = 0; roll = 0 }
    /// The orientation with these angles.
    public init(yaw: Float, pitch: Float, roll: Float) { self.yaw = yaw; self.pitch = pitch; self.roll = roll }
}

/// Makes an angular orientation.
public func AVAudioMake3DAngularOrientation(_ yaw: Float, _ pitch: Float, _ roll: Float) -> AVAudio3DAngularOrientation {
    AVAudio3DAngularOrientation(yaw: yaw, pitch: pitch, roll: roll)
}
