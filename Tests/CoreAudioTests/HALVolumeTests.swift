import CoreAudio
import DeviceTestSupport
import Foundation
import Testing

/// Volume and mute on the default devices, against the private PulseAudio server: the pulse plugin's mixer is
/// the server's default sink ("out") and source ("mic.monitor"), and pactl, the server's own tool, is the
/// independent check in both directions.
@Suite(.serialized, .audioServer) struct HALVolumeTests {
    func device(_ selector: AudioObjectPropertySelector) -> AudioObjectID {
        var a = AudioObjectPropertyAddress(mSelector: selector, mScope: kAudioObjectPropertyScopeGlobal, mElement: kAudioObjectPropertyElementMain)
        var id = AudioObjectID(0)
        var size = UInt32(4)
        _ = AudioObjectGetPropertyData(kAudioObjectSystemObject, &a, 0, nil, &size, &id)
        return id
    }

    func address(_ selector: AudioObjectPropertySelector, _ scope: AudioObjectPropertyScope = kAudioObjectPropertyScopeOutput,
                 _ element: AudioObjectPropertyElement = kAudioObjectPropertyElementMain) -> AudioObjectPropertyAddress {
        AudioObjectPropertyAddress(mSelector: selector, mScope: scope, mElement: element)
    }

    func getFloat(_ id: AudioObjectID, _ a: AudioObjectPropertyAddress) -> (OSStatus, Float32) {
        var a = a
        var v: Float32 = -1
        var size = UInt32(4)
        let status = AudioObjectGetPropertyData(id, &a, 0, nil, &size, &v)
        return (status, v)
    }

    func setFloat(_ id: AudioObjectID, _ a: AudioObjectPropertyAddress, _ value: Float32) -> OSStatus {
        var a = a
        var v = value
        return AudioObjectSetPropertyData(id, &a, 0, nil, 4, &v)
    }

    func getUInt32(_ id: AudioObjectID, _ a: AudioObjectPropertyAddress) -> (OSStatus, UInt32) {
        var a = a
        var v: UInt32 = 99
        var size = UInt32(4)
        let status = AudioObjectGetPropertyData(id, &a, 0, nil, &size, &v)
        return (status, v)
    }

    func setUInt32(_ id: AudioObjectID, _ a: AudioObjectPropertyAddress, _ value: UInt32) -> OSStatus {
        var a = a
        var v = value
        return AudioObjectSetPropertyData(id, &a, 0, nil, 4, &v)
    }

    /// The server's raw per-channel volumes (65536 = 100 %) and dB, as pactl prints them.
    static func pactlVolume(_ kind: String, _ name: String) -> [(raw: Int, dB: Double)] {
        let text = String(decoding: PulseTestServer.run(["pactl", "get-\(kind)-volume", name]).1, as: UTF8.self)
        let first = text.split(separator: "\n").first.map(String.init) ?? ""
        let regex = try! NSRegularExpression(pattern: #"(\d+) / +\d+% / (-?[0-9.]+|-inf) dB"#)
        return regex.matches(in: first, range: NSRange(first.startIndex..., in: first)).map { m in
            let raw = Int(first[Range(m.range(at: 1), in: first)!])!
            let dB = first[Range(m.range(at: 2), in: first)!]
            return (raw, dB == "-inf" ? -.infinity : Double(dB)!)
        }
    }

    static func pactlMute(_ kind: String, _ name: String) -> Bool? {
        let text = String(decoding: PulseTestServer.run(["pactl", "get-\(kind)-mute", name]).1, as: UTF8.self)
        return text.contains("yes") ? true : text.contains("no") ? false : nil
    }

    static func restore() {
        PulseTestServer.run(["pactl", "set-sink-volume", "out", "100%"])
        PulseTestServer.run(["pactl", "set-sink-mute", "out", "0"])
        PulseTestServer.run(["pactl", "set-source-volume", "mic.monitor", "100%"])
        PulseTestServer.run(["pactl", "set-source-mute", "mic.monitor", "0"])
    }

    /// Waits until `condition` holds (a server round trip or a watcher tick away), up to `timeout` seconds.
    func eventually(_ timeout: Double = 3, _ condition: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline { if condition() { return true }; Thread.sleep(forTimeInterval: 0.05) }
        return condition()
    }

    @Test func outputVolumeScalarIsTheSinkVolume() throws {
        Self.restore()
        defer { Self.restore() }
        let out = device(kAudioHardwarePropertyDefaultOutputDevice)
        try #require(out != 0)
        var main = address(kAudioDevicePropertyVolumeScalar)
        #expect(AudioObjectHasProperty(out, &main))
        var settable = DarwinBoolean(false)
        #expect(AudioObjectIsPropertySettable(out, &main, &settable) == noErr && settable.boolValue)
        var size: UInt32 = 0
        #expect(AudioObjectGetPropertyDataSize(out, &main, 0, nil, &size) == noErr && size == 4)
        #expect(eventually { getFloat(out, main).1 == 1 })
        // Main 0.5: both channels at half the server's 100 % (raw 32768 of 65536).
        #expect(setFloat(out, main, 0.5) == noErr)
        #expect(eventually { Self.pactlVolume("sink", "out").map(\.raw) == [32768, 32768] }, "\(Self.pactlVolume("sink", "out"))")
        #expect(getFloat(out, main).1 == 0.5)
        // Channel 1 (left) alone to 0.25; the main control reads the loudest channel.
        #expect(setFloat(out, address(kAudioDevicePropertyVolumeScalar, kAudioObjectPropertyScopeOutput, 1), 0.25) == noErr)
        #expect(eventually { Self.pactlVolume("sink", "out").map(\.raw) == [16384, 32768] }, "\(Self.pactlVolume("sink", "out"))")
        #expect(getFloat(out, address(kAudioDevicePropertyVolumeScalar, kAudioObjectPropertyScopeOutput, 1)).1 == 0.25)
        #expect(getFloat(out, address(kAudioDevicePropertyVolumeScalar, kAudioObjectPropertyScopeOutput, 2)).1 == 0.5)
        #expect(getFloat(out, main).1 == 0.5)
        // Main to 1 keeps the balance: left goes with it in proportion (0.25 * 1 / 0.5).
        #expect(setFloat(out, main, 1) == noErr)
        #expect(eventually { Self.pactlVolume("sink", "out").map(\.raw) == [32768, 65536] }, "\(Self.pactlVolume("sink", "out"))")
        // Out-of-range values are clamped as a slider would.
        #expect(setFloat(out, main, 1.5) == noErr && getFloat(out, main).1 == 1)
        // No control: a third channel, the global scope.
        var third = address(kAudioDevicePropertyVolumeScalar, kAudioObjectPropertyScopeOutput, 3)
        #expect(!AudioObjectHasProperty(out, &third))
        #expect(getFloat(out, third).0 == kAudioHardwareUnknownPropertyError)
        var global = address(kAudioDevicePropertyVolumeScalar, kAudioObjectPropertyScopeGlobal)
        #expect(!AudioObjectHasProperty(out, &global))
        #expect(setFloat(out, global, 0.5) == kAudioHardwareUnknownPropertyError)
    }

    @Test func changesByAnotherProgramReachPropertiesAndListeners() throws {
        Self.restore()
        defer { Self.restore() }
        let out = device(kAudioHardwarePropertyDefaultOutputDevice)
        try #require(out != 0)
        let heard = HeardAddresses()
        var any = address(kAudioObjectPropertySelectorWildcard, kAudioObjectPropertyScopeWildcard, kAudioObjectPropertyElementWildcard)
        let listener: AudioObjectPropertyListenerBlock = { count, addresses in
            heard.add(UnsafeBufferPointer(start: addresses, count: Int(count)))
        }
        #expect(AudioObjectAddPropertyListenerBlock(out, &any, nil, listener) == noErr)
        Thread.sleep(forTimeInterval: 0.3)
        heard.reset()
        // pactl sets 40 % / 60 %: our channel scalars are the server's raw volumes over its 100 % (65536).
        PulseTestServer.run(["pactl", "set-sink-volume", "out", "40%", "60%"])
        #expect(heard.wait { $0.mSelector == kAudioDevicePropertyVolumeScalar && $0.mScope == kAudioObjectPropertyScopeOutput })
        let raw = Self.pactlVolume("sink", "out").map(\.raw)
        try #require(raw.count == 2 && abs(raw[0] - 26214) <= 1 && abs(raw[1] - 39322) <= 1, "\(raw)")
        let left = getFloat(out, address(kAudioDevicePropertyVolumeScalar, kAudioObjectPropertyScopeOutput, 1)).1
        let right = getFloat(out, address(kAudioDevicePropertyVolumeScalar, kAudioObjectPropertyScopeOutput, 2)).1
        #expect(left == Float32(Double(raw[0]) / 65536) && right == Float32(Double(raw[1]) / 65536), "\(left) \(right) for \(raw)")
        #expect(!heard.contains { $0.mSelector == kAudioDevicePropertyMute })
        // Mute by pactl: the Mute property and its listener.
        heard.reset()
        PulseTestServer.run(["pactl", "set-sink-mute", "out", "1"])
        #expect(heard.wait { $0.mSelector == kAudioDevicePropertyMute && $0.mScope == kAudioObjectPropertyScopeOutput })
        #expect(getUInt32(out, address(kAudioDevicePropertyMute)) == (noErr, 1))
        // Our own change notifies too.
        heard.reset()
        #expect(setUInt32(out, address(kAudioDevicePropertyMute), 0) == noErr)
        #expect(heard.wait { $0.mSelector == kAudioDevicePropertyMute })
        #expect(Self.pactlMute("sink", "out") == false)
        let removed = AudioObjectRemovePropertyListenerBlock(out, &any, nil, listener)
        #expect(removed == noErr)
    }

    @Test func muteBothWays() throws {
        Self.restore()
        defer { Self.restore() }
        let out = device(kAudioHardwarePropertyDefaultOutputDevice)
        var mute = address(kAudioDevicePropertyMute)
        #expect(AudioObjectHasProperty(out, &mute))
        var settable = DarwinBoolean(false)
        #expect(AudioObjectIsPropertySettable(out, &mute, &settable) == noErr && settable.boolValue)
        #expect(getUInt32(out, mute) == (noErr, 0))
        #expect(setUInt32(out, mute, 1) == noErr)
        #expect(eventually { Self.pactlMute("sink", "out") == true })
        #expect(getUInt32(out, mute) == (noErr, 1))
        PulseTestServer.run(["pactl", "set-sink-mute", "out", "0"])
        #expect(eventually { getUInt32(out, mute).1 == 0 })
        // The pulse plugin's switch is joined: no per-channel mute.
        var channelMute = address(kAudioDevicePropertyMute, kAudioObjectPropertyScopeOutput, 1)
        #expect(!AudioObjectHasProperty(out, &channelMute))
    }

    /// PulseAudio's curve: dB = 60 log10(scalar), 0 dB at full scale, -200 dB (its floor) as silence.
    @Test func decibelsFollowPulseAudiosCurve() throws {
        Self.restore()
        defer { Self.restore() }
        let out = device(kAudioHardwarePropertyDefaultOutputDevice)
        var range = address(kAudioDevicePropertyVolumeRangeDecibels)
        var r = AudioValueRange()
        var size = UInt32(MemoryLayout<AudioValueRange>.size)
        #expect(AudioObjectGetPropertyData(out, &range, 0, nil, &size, &r) == noErr)
        #expect(r.mMinimum == -200 && r.mMaximum == 0)
        #expect(setFloat(out, address(kAudioDevicePropertyVolumeScalar), 0.5) == noErr)
        let dB = getFloat(out, address(kAudioDevicePropertyVolumeDecibels))
        #expect(dB.0 == noErr && abs(Double(dB.1) - 60 * log10(0.5)) < 1e-4, "\(dB)")
        // pactl prints the same level (to 0.01 dB).
        #expect(eventually { Self.pactlVolume("sink", "out").allSatisfy { abs($0.dB - 60 * log10(0.5)) < 0.006 } })
        // Setting dB: -12 dB is 10^(-12/60) of full scale.
        #expect(setFloat(out, address(kAudioDevicePropertyVolumeDecibels), -12) == noErr)
        let expected = (65536 * pow(10, -12.0 / 60)).rounded()
        #expect(eventually { Self.pactlVolume("sink", "out").allSatisfy { abs(Double($0.raw) - expected) <= 1 } }, "\(Self.pactlVolume("sink", "out"))")
        // The translations, in place, round-trip.
        for scalar: Float32 in [1, 0.75, 0.5, 0.25, 0.01] {
            var a = address(kAudioDevicePropertyVolumeScalarToDecibels)
            var v = scalar
            size = 4
            #expect(AudioObjectGetPropertyData(out, &a, 0, nil, &size, &v) == noErr)
            #expect(abs(Double(v) - 60 * log10(Double(scalar))) < 1e-3, "\(scalar) -> \(v)")
            var b = address(kAudioDevicePropertyVolumeDecibelsToScalar)
            #expect(AudioObjectGetPropertyData(out, &b, 0, nil, &size, &v) == noErr)
            #expect(abs(v - scalar) < 1e-5, "\(scalar) round trip \(v)")
        }
        // The floor is silence, and values outside the range clamp.
        var b = address(kAudioDevicePropertyVolumeDecibelsToScalar)
        var v: Float32 = -300
        size = 4
        #expect(AudioObjectGetPropertyData(out, &b, 0, nil, &size, &v) == noErr && v == 0)
        v = 6
        #expect(AudioObjectGetPropertyData(out, &b, 0, nil, &size, &v) == noErr && v == 1)
        var s2d = address(kAudioDevicePropertyVolumeScalarToDecibels)
        v = 0
        #expect(AudioObjectGetPropertyData(out, &s2d, 0, nil, &size, &v) == noErr && v == -200)
        // The translations are not settable.
        var settable = DarwinBoolean(true)
        #expect(AudioObjectIsPropertySettable(out, &s2d, &settable) == noErr && !settable.boolValue)
    }

    @Test func inputVolumeIsTheSourceVolume() throws {
        Self.restore()
        defer { Self.restore() }
        let input = device(kAudioHardwarePropertyDefaultInputDevice)
        try #require(input != 0)
        let main = address(kAudioDevicePropertyVolumeScalar, kAudioObjectPropertyScopeInput)
        #expect(setFloat(input, main, 0.3) == noErr)
        let raw = Int((0.3 * 65536).rounded())
        #expect(eventually { Self.pactlVolume("source", "mic.monitor").map(\.raw) == [raw, raw] }, "\(Self.pactlVolume("source", "mic.monitor"))")
        #expect(abs(getFloat(input, main).1 - Float32(Double(raw) / 65536)) < 1e-7)
        #expect(setUInt32(input, address(kAudioDevicePropertyMute, kAudioObjectPropertyScopeInput), 1) == noErr)
        #expect(eventually { Self.pactlMute("source", "mic.monitor") == true })
    }
}

/// Collects every notified address across threads.
final class HeardAddresses: @unchecked Sendable {
    private let lock = NSCondition()
    private var addresses: [AudioObjectPropertyAddress] = []
    func add(_ list: UnsafeBufferPointer<AudioObjectPropertyAddress>) { lock.withLock { addresses += list; lock.broadcast() } }
    func reset() { lock.withLock { addresses.removeAll() } }
    func contains(_ match: (AudioObjectPropertyAddress) -> Bool) -> Bool { lock.withLock { addresses.contains(where: match) } }
    func wait(timeout: Double = 3, _ match: (AudioObjectPropertyAddress) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        lock.lock()
        defer { lock.unlock() }
        while !addresses.contains(where: match) { if !lock.wait(until: deadline) { return addresses.contains(where: match) } }
        return true
    }
}
