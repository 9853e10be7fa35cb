import CoreAudio
import Foundation

/// A moment as host time, sample time at a rate, or both. Immutable.
open class AVAudioTime: NSObject, @unchecked Sendable {
    /// The time as an AudioTimeStamp (its flags say which fields are valid).
    public let audioTimeStamp: AudioTimeStamp
    /// The rate sampleTime counts at.
    public let sampleRate: Double

    /// The time `ts` holds, with sample times counted at `sampleRate`.
    public init(audioTimeStamp ts: UnsafePointer<AudioTimeStamp>, sampleRate: Double) {
        var t = ts.pointee
        t.mFlags = t.mFlags.intersection([.sampleTimeValid, .hostTimeValid])
        audioTimeStamp = t
        self.sampleRate = sampleRate
    }

    /// A host time.
    public convenience init(hostTime: UInt64) {
        var t = AudioTimeStamp()
        t.mHostTime = hostTime
        t.mFlags = .hostTimeValid
        self.init(audioTimeStamp: &t, sampleRate: 0)
    }

    /// A sample time at `sampleRate`.
    public convenience init(sampleTime: AVAudioFramePosition, atRate sampleRate: Double) {
        var t = AudioTimeStamp()
        t.mSampleTime = Double(sampleTime)
        t.mFlags = .sampleTimeValid
        self.init(audioTimeStamp: &t, sampleRate: sampleRate)
    }

    /// Both a host time and a sample time.
    public convenience init(hostTime: UInt64, sampleTime: AVAudioFramePosition, atRate sampleRate: Double) {
        var t = AudioTimeStamp()
        t.mHostTime = hostTime
        t.mSampleTime = Double(sampleTime)
        t.mFlags = [.hostTimeValid, .sampleTimeValid]
        self.init(audioTimeStamp: &t, sampleRate: sampleRate)
    }

    /// The host time `seconds` from the host clock's zero.
    public class func hostTime(forSeconds seconds: TimeInterval) -> UInt64 {
        AudioConvertNanosToHostTime(UInt64(max(seconds, 0) * 1e9))
    }

    /// Seconds from the host clock's zero to `hostTime`.
    public class func seconds(forHostTime hostTime: UInt64) -> TimeInterval {
        Double(AudioConvertHostTimeToNanos(hostTime)) / 1e9
    }

    /// Whether hostTime is valid.
    public var isHostTimeValid: Bool { audioTimeStamp.mFlags.contains(.hostTimeValid) }
    /// The host time (meaningful when isHostTimeValid).
    public var hostTime: UInt64 { audioTimeStamp.mHostTime }
    /// Whether sampleTime is valid.
    public var isSampleTimeValid: Bool { audioTimeStamp.mFlags.contains(.sampleTimeValid) }
    /// The sample time (meaningful when isSampleTimeValid).
    public var sampleTime: AVAudioFramePosition { AVAudioFramePosition(audioTimeStamp.mSampleTime.rounded(.down)) }

    /// This time with its missing half (host or sample time) filled in from `anchorTime`, which has both; the
    /// sample time is converted to this time's rate. nil when the anchor lacks either or this time has neither.
    public func extrapolateTime(fromAnchor anchorTime: AVAudioTime) -> AVAudioTime? {
        guard anchorTime.isHostTimeValid, anchorTime.isSampleTimeValid, anchorTime.sampleRate > 0 else { return nil }
        let rate = sampleRate > 0 ? sampleRate : anchorTime.sampleRate
        if isSampleTimeValid && isHostTimeValid { return self }
        if isSampleTimeValid {
            let seconds = (audioTimeStamp.mSampleTime / rate) - (anchorTime.audioTimeStamp.mSampleTime / anchorTime.sampleRate)
            let host = Double(AudioConvertHostTimeToNanos(anchorTime.hostTime)) + seconds * 1e9
            return AVAudioTime(hostTime: AudioConvertNanosToHostTime(UInt64(max(host, 0))), sampleTime: sampleTime, atRate: rate)
        }
        if isHostTimeValid {
            let seconds = (Double(AudioConvertHostTimeToNanos(hostTime)) - Double(AudioConvertHostTimeToNanos(anchorTime.hostTime))) / 1e9
            let sample = anchorTime.audioTimeStamp.mSampleTime / anchorTime.sampleRate * rate + seconds * rate
            return AVAudioTime(hostTime: hostTime, sampleTime: AVAudioFramePosition(sample.rounded()), atRate: rate)
        }
        return nil
    }

    open override var description: String {
        "<AVAudioTime \(Unmanaged.passUnretained(self).toOpaque()): " + (isHostTimeValid ? "\(hostTime) host time" : "")
            + (isSampleTimeValid ? ", \(sampleTime) sample time at \(sampleRate) Hz" : "") + ">"
    }
}
