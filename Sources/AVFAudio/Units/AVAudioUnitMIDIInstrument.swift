import Foundation

/// A node on an instrument unit (`kAudioUnitType_MusicDevice`): no inputs, notes and MIDI messages in. Every
/// send goes through the MusicDevice API with offset 0, so it sounds from the unit's next render; the sends
/// take no lock and allocate nothing (safe from a real-time thread, as Apple's are used from MIDI callbacks).
open class AVAudioUnitMIDIInstrument: AVAudioUnit, AVAudioMixing, @unchecked Sendable {
    /// An instrument on the registered music device `description` finds.
    public convenience init(audioComponentDescription description: AudioComponentDescription) {
        self.init(description: description, unit: Self.instantiate(description))
    }

    /// Note on: `note` 0-127 at `velocity` 0-127 on `channel` 0-15.
    public func startNote(_ note: UInt8, withVelocity velocity: UInt8, onChannel channel: UInt8) {
        sendMIDIEvent(0x90 | (channel & 0x0F), data1: note, data2: velocity)
    }

    /// Note off for `note` on `channel`.
    public func stopNote(_ note: UInt8, onChannel channel: UInt8) {
        sendMIDIEvent(0x80 | (channel & 0x0F), data1: note, data2: 0)
    }

    /// A control change: `controller` 0-127 to `value` 0-127.
    public func sendController(_ controller: UInt8, withValue value: UInt8, onChannel channel: UInt8) {
        sendMIDIEvent(0xB0 | (channel & 0x0F), data1: controller, data2: value)
    }

    /// Pitch bend, 0-16383 (8192 is centre).
    public func sendPitchBend(_ pitchbend: UInt16, onChannel channel: UInt8) {
        let value = min(pitchbend, 16383)
        sendMIDIEvent(0xE0 | (channel & 0x0F), data1: UInt8(value & 0x7F), data2: UInt8(value >> 7))
    }

    /// Channel pressure (aftertouch), 0-127.
    public func sendPressure(_ pressure: UInt8, onChannel channel: UInt8) {
        sendMIDIEvent(0xD0 | (channel & 0x0F), data1: pressure)
    }

    /// Polyphonic key pressure for `key`.
    public func sendPressure(forKey key: UInt8, withValue value: UInt8, onChannel channel: UInt8) {
        sendMIDIEvent(0xA0 | (channel & 0x0F), data1: key, data2: value)
    }

    /// Program change within the bank last selected on the channel (bank 0 if none).
    public func sendProgramChange(_ program: UInt8, onChannel channel: UInt8) {
        sendMIDIEvent(0xC0 | (channel & 0x0F), data1: program)
    }

    /// Bank select (controllers 0 and 32) then program change.
    public func sendProgramChange(_ program: UInt8, bankMSB: UInt8, bankLSB: UInt8, onChannel channel: UInt8) {
        sendController(0, withValue: bankMSB, onChannel: channel)
        sendController(32, withValue: bankLSB, onChannel: channel)
        sendProgramChange(program, onChannel: channel)
    }

    /// A MIDI message with two data bytes.
    public func sendMIDIEvent(_ midiStatus: UInt8, data1: UInt8, data2: UInt8) {
        MusicDeviceMIDIEvent(unit, UInt32(midiStatus), UInt32(data1), UInt32(data2), 0)
    }

    /// A MIDI message with one data byte.
    public func sendMIDIEvent(_ midiStatus: UInt8, data1: UInt8) {
        MusicDeviceMIDIEvent(unit, UInt32(midiStatus), UInt32(data1), 0, 0)
    }

    /// A complete system-exclusive message, F0 through F7.
    public func sendMIDISysExEvent(_ midiData: Data) {
        midiData.withUnsafeBytes { raw in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return }
            MusicDeviceSysEx(unit, base, UInt32(raw.count))
        }
    }

    /// Universal MIDI Packets (MIDI 1.0 or 2.0 protocol), each at its time stamp in frames from the next render.
    public func sendMIDIEventList(_ eventList: UnsafePointer<MIDIEventList>) {
        MusicDeviceMIDIEventList(unit, 0, eventList)
    }
}
