import AudioToolbox
import Foundation
import Testing

/// A music device written against Apple's v2 plug-in interface for the MusicPlayer tests. Its
/// MusicDeviceMIDIEvent records each message with the absolute frame it lands on (the sample time of
/// the render that applies it plus its offset), and its render writes 0.1 per sounding note from that
/// frame on, so the audio shows each note-on and note-off at its frame too. One instance at a time.
enum RecordingInstrumentPlugIn {
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_MusicDevice, componentSubType: 0x72656364 /* 'recd' */,
        componentManufacturer: 0x4F434174 /* 'OCAt' */, componentFlags: 0, componentFlagsMask: 0)

    struct Received: Equatable, CustomStringConvertible {
        var frame: Int
        var status: UInt8
        var data1: UInt8
        var data2: UInt8
        var description: String { "\(frame): \(String(status, radix: 16)) \(data1) \(data2)" }
    }

    /// State shared by the (single) instance and the test.
    final class Log: @unchecked Sendable {
        let lock = NSLock()
        var pending: [(offset: UInt32, status: UInt8, d1: UInt8, d2: UInt8)] = []
        /// Scheduled parameters waiting for the next render: (offset, parameter, value).
        var pendingParameters: [(UInt32, AudioUnitParameterID, Float32)] = []
        /// Extended notes: pending (offset, start?, group, id, pitch), applied as "frame start|stop group id pitch".
        var pendingNotes: [(UInt32, Bool, UInt32, UInt32, Float32)] = []
        var notes: [String] = []
        var nextNoteID: UInt32 = 100
        /// Applied parameters: absolute frame, parameter, value.
        var parameters: [(frame: Int, id: AudioUnitParameterID, value: Float32)] = []
        var received: [Received] = []
        var sounding = Set<Int>()
        var format = OCAFormat.canonical(sampleRate: 44100, channels: 2)
        var maxFrames: UInt32 = 4096
        var initialized = false

        func reset() {
            lock.lock(); defer { lock.unlock() }
            pending = []; received = []; sounding = []; pendingParameters = []; parameters = []; pendingNotes = []; notes = []
        }
        var events: [Received] {
            lock.lock(); defer { lock.unlock() }
            return received
        }
    }
    static let log = Log()

    static let factory: AudioComponentFactoryFunction = { _ in
        let interface = UnsafeMutablePointer<AudioComponentPlugInInterface>.allocate(capacity: 1)
        interface.initialize(to: AudioComponentPlugInInterface(
            Open: { _, _ in noErr },
            Close: { selfPointer in
                selfPointer.assumingMemoryBound(to: AudioComponentPlugInInterface.self).deallocate()
                return noErr
            },
            Lookup: { selector in RecordingInstrumentPlugIn.lookup(selector) },
            reserved: nil))
        return interface
    }

    static let initialize: AudioUnitInitializeProc = { _ in log.initialized = true; return noErr }
    static let uninitialize: AudioUnitUninitializeProc = { _ in log.initialized = false; return noErr }

    static let getPropertyInfo: AudioUnitGetPropertyInfoProc = { _, id, scope, element, outSize, outWritable in
        switch (id, scope) {
        case (kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output) where element == 0:
            outSize?.pointee = UInt32(MemoryLayout<AudioStreamBasicDescription>.size); outWritable?.pointee = true
        case (kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global):
            outSize?.pointee = 4; outWritable?.pointee = true
        default:
            return kAudioUnitErr_InvalidProperty
        }
        return noErr
    }

    static let getProperty: AudioUnitGetPropertyProc = { _, id, scope, element, outData, ioSize in
        switch (id, scope) {
        case (kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output) where element == 0:
            outData.storeBytes(of: log.format, as: AudioStreamBasicDescription.self)
            ioSize.pointee = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        case (kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global):
            outData.storeBytes(of: log.maxFrames, as: UInt32.self)
            ioSize.pointee = 4
        default:
            return kAudioUnitErr_InvalidProperty
        }
        return noErr
    }

    static let setProperty: AudioUnitSetPropertyProc = { _, id, scope, _, data, _ in
        guard let data else { return kAudioUnitErr_InvalidPropertyValue }
        switch (id, scope) {
        case (kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global): log.maxFrames = data.load(as: UInt32.self)
        case (kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output): log.format = data.load(as: AudioStreamBasicDescription.self)
        default: return kAudioUnitErr_InvalidProperty
        }
        return noErr
    }

    static let midiEvent: MusicDeviceMIDIEventProc = { _, status, d1, d2, offset in
        log.lock.lock(); defer { log.lock.unlock() }
        log.pending.append((offset, UInt8(status), UInt8(d1), UInt8(d2)))
        return noErr
    }

    static let scheduleParameters: AudioUnitScheduleParametersProc = { _, events, count in
        log.lock.lock(); defer { log.lock.unlock() }
        for i in 0..<Int(count) where events[i].eventType.rawValue == 1 {  // immediate
            log.pendingParameters.append((events[i].eventValues.immediate.bufferOffset, events[i].parameter, events[i].eventValues.immediate.value))
        }
        return noErr
    }

    static let startNote: MusicDeviceStartNoteProc = { _, _, group, outID, offset, params in
        log.lock.lock(); defer { log.lock.unlock() }
        log.nextNoteID += 1
        outID.pointee = log.nextNoteID
        log.pendingNotes.append((offset, true, group, log.nextNoteID, params.pointee.mPitch))
        return noErr
    }

    static let stopNote: MusicDeviceStopNoteProc = { _, group, id, offset in
        log.lock.lock(); defer { log.lock.unlock() }
        log.pendingNotes.append((offset, false, group, id, 0))
        return noErr
    }

    static let render: AudioUnitRenderProc = { _, _, timeStamp, _, frames, ioData in
        guard log.initialized else { return kAudioUnitErr_Uninitialized }
        log.lock.lock(); defer { log.lock.unlock() }
        let start = Int(timeStamp.pointee.mSampleTime)
        for (offset, id, value) in log.pendingParameters { log.parameters.append((start + Int(offset), id, value)) }
        log.pendingParameters = []
        for (offset, start, group, id, pitch) in log.pendingNotes {
            log.notes.append("\(Int(timeStamp.pointee.mSampleTime) + Int(offset)) \(start ? "start" : "stop") \(group) \(id) \(pitch)")
        }
        log.pendingNotes = []
        let events = log.pending.enumerated().sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }.map(\.element)
        log.pending = []
        var next = 0
        let abl = UnsafeMutableAudioBufferListPointer(ioData)
        for n in 0..<Int(frames) {
            while next < events.count && Int(events[next].offset) <= n {
                let e = events[next]
                log.received.append(Received(frame: start + Int(e.offset), status: e.status, data1: e.d1, data2: e.d2))
                let key = Int(e.status & 0x0F) << 7 | Int(e.d1)
                switch e.status & 0xF0 {
                case 0x90 where e.d2 > 0: log.sounding.insert(key)
                case 0x80, 0x90: log.sounding.remove(key)
                case 0xB0 where e.d1 == 123: log.sounding = log.sounding.filter { $0 >> 7 != Int(e.status & 0x0F) }
                default: break
                }
                next += 1
            }
            let level = Float32(log.sounding.count) * 0.1
            for b in 0..<abl.count { abl[b].mData?.assumingMemoryBound(to: Float32.self)[n] = level }
        }
        // Offsets beyond the slice are applied at its last frame (the player never sends them).
        for e in events[next...] { log.received.append(Received(frame: start + Int(e.offset), status: e.status, data1: e.d1, data2: e.d2)) }
        for b in 0..<abl.count { abl[b].mDataByteSize = frames * 4 }
        return noErr
    }

    static func lookup(_ selector: Int16) -> AudioComponentMethod? {
        switch Int(selector) {
        case kAudioUnitInitializeSelect: unsafeBitCast(initialize, to: AudioComponentMethod.self)
        case kAudioUnitUninitializeSelect: unsafeBitCast(uninitialize, to: AudioComponentMethod.self)
        case kAudioUnitGetPropertyInfoSelect: unsafeBitCast(getPropertyInfo, to: AudioComponentMethod.self)
        case kAudioUnitGetPropertySelect: unsafeBitCast(getProperty, to: AudioComponentMethod.self)
        case kAudioUnitSetPropertySelect: unsafeBitCast(setProperty, to: AudioComponentMethod.self)
        case kAudioUnitRenderSelect: unsafeBitCast(render, to: AudioComponentMethod.self)
        case kMusicDeviceMIDIEventSelect: unsafeBitCast(midiEvent, to: AudioComponentMethod.self)
        case kMusicDeviceStartNoteSelect: unsafeBitCast(startNote, to: AudioComponentMethod.self)
        case kMusicDeviceStopNoteSelect: unsafeBitCast(stopNote, to: AudioComponentMethod.self)
        case kAudioUnitScheduleParametersSelect: unsafeBitCast(scheduleParameters, to: AudioComponentMethod.self)
        default: nil
        }
    }

    nonisolated(unsafe) static let registered: AudioComponent = {
        var d = description
        return AudioComponentRegister(&d, "OCA Tests: Recording Instrument" as CFString, 0x0001_0000, factory)
    }()

    /// A graph: this instrument into a GenericOutput (44.1 kHz stereo); returns the graph and output unit.
    static func graph() throws -> (AUGraph, AudioUnit) {
        _ = registered
        log.reset()
        var graph: AUGraph?
        NewAUGraph(&graph)
        let g = try #require(graph)
        var instrument = description
        var output = AudioComponentDescription(componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_GenericOutput,
                                               componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        var instrumentNode: AUNode = 0, outputNode: AUNode = 0
        try #require(AUGraphAddNode(g, &instrument, &instrumentNode) == noErr)
        try #require(AUGraphAddNode(g, &output, &outputNode) == noErr)
        try #require(AUGraphConnectNodeInput(g, instrumentNode, 0, outputNode, 0) == noErr)
        try #require(AUGraphOpen(g) == noErr)
        var unit: AudioUnit?
        AUGraphNodeInfo(g, outputNode, nil, &unit)
        return (g, try #require(unit))
    }
}
