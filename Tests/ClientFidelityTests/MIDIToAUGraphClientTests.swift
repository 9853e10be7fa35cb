// The book's chapter 11 program MIDIToAUGraph, in Swift against Apple's API: an AUGraph with a DLSSynth
// instrument, a Core MIDI client whose input port connects to every source, and a read proc that forwards
// NOTE ON / NOTE OFF to the instrument with MusicDeviceMIDIEvent. Chapter 12 swaps in AUSampler loaded from
// an .aupreset through kAudioUnitProperty_ClassInfo. Here the "keyboard" is a virtual source the test plays,
// and the graph's output is a generic output rendered offline (tests never touch a sound device).
import AudioToolbox
import CoreMIDI
import Foundation
import Testing

/// The book's MyMIDIPlayer struct.
struct MyMIDIPlayer {
    var graph: AUGraph?
    var instrumentUnit: AudioUnit?
}

/// The book's MyMIDIReadProc: walk the packet list and play the note messages.
private func MyMIDIReadProc(_ pktlist: UnsafePointer<MIDIPacketList>, _ refCon: UnsafeMutableRawPointer?, _ connRefCon: UnsafeMutableRawPointer?) {
    let player = refCon!.assumingMemoryBound(to: MyMIDIPlayer.self)
    for packet in pktlist.unsafeSequence() {
        let bytes = withUnsafeBytes(of: packet.pointee.data) { Array($0.prefix(Int(packet.pointee.length))) }
        guard bytes.count >= 3 else { continue }
        let midiStatus = bytes[0]
        let midiCommand = midiStatus >> 4
        if midiCommand == 0x09 || midiCommand == 0x08 {
            let note = bytes[1] & 0x7F
            let velocity = bytes[2] & 0x7F
            MusicDeviceMIDIEvent(player.pointee.instrumentUnit!, UInt32(midiStatus), UInt32(note), UInt32(velocity), 0)
            readCount.add(1)
        }
    }
}

/// How many note messages the read proc has forwarded (the test waits on it).
let readCount = ReadCounter()
final class ReadCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func add(_ k: Int) { lock.lock(); n += k; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return n }
}

@Suite(.serialized) struct MIDIToAUGraphClientTests {
    static let timGM = "/usr/share/sounds/sf2/TimGM6mb.sf2"

    /// The book's setupAUGraph with the output swapped for a generic output.
    static func setupAUGraph(_ player: inout MyMIDIPlayer, instrumentSubType: OSType, configure: (AudioUnit) throws -> Void) throws {
        var graph: AUGraph?
        try #require(NewAUGraph(&graph) == noErr)
        player.graph = graph
        var outputcd = AudioComponentDescription(componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_GenericOutput,
                                                 componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        var outputNode = AUNode()
        try #require(AUGraphAddNode(graph!, &outputcd, &outputNode) == noErr)
        var instrumentcd = AudioComponentDescription(componentType: kAudioUnitType_MusicDevice, componentSubType: instrumentSubType,
                                                     componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        var instrumentNode = AUNode()
        try #require(AUGraphAddNode(graph!, &instrumentcd, &instrumentNode) == noErr)
        try #require(AUGraphOpen(graph!) == noErr)
        try #require(AUGraphNodeInfo(graph!, instrumentNode, nil, &player.instrumentUnit) == noErr)
        try #require(AUGraphConnectNodeInput(graph!, instrumentNode, 0, outputNode, 0) == noErr)
        // Instrument settings that belong before initialization (a sound bank) go here.
        try configure(player.instrumentUnit!)
        try #require(AUGraphInitialize(graph!) == noErr)
    }

    /// The book's setupMIDI: a client, an input port with the read proc, every source connected.
    static func setupMIDI(_ player: UnsafeMutablePointer<MyMIDIPlayer>) throws -> (MIDIClientRef, MIDIPortRef) {
        var client = MIDIClientRef()
        try #require(MIDIClientCreate("Core MIDI to System Sounds Demo" as CFString, nil, nil, &client) == noErr)
        var inPort = MIDIPortRef()
        try #require(MIDIInputPortCreate(client, "Input port" as CFString, MyMIDIReadProc, player, &inPort) == noErr)
        let sourceCount = MIDIGetNumberOfSources()
        for i in 0..<sourceCount {
            let src = MIDIGetSource(i)
            try #require(MIDIPortConnectSource(inPort, src, nil) == noErr)
        }
        return (client, inPort)
    }

    /// Plays notes from a virtual "keyboard" and renders the graph's output.
    static func play(instrumentSubType: OSType, configure: (AudioUnit) throws -> Void) throws -> [Float] {
        // The keyboard exists before the program starts, as a connected device would.
        var keyboardClient = MIDIClientRef()
        try #require(MIDIClientCreate("keyboard" as CFString, nil, nil, &keyboardClient) == noErr)
        var keyboard = MIDIEndpointRef()
        try #require(MIDISourceCreate(keyboardClient, "Test Keyboard" as CFString, &keyboard) == noErr)
        defer { MIDIEndpointDispose(keyboard); MIDIClientDispose(keyboardClient) }

        let player = UnsafeMutablePointer<MyMIDIPlayer>.allocate(capacity: 1)
        player.initialize(to: MyMIDIPlayer())
        defer { player.deallocate() }
        try setupAUGraph(&player.pointee, instrumentSubType: instrumentSubType, configure: configure)
        defer { DisposeAUGraph(player.pointee.graph!) }
        let (client, port) = try setupMIDI(player)
        defer { MIDIPortDispose(port); MIDIClientDispose(client) }

        // Note on A4, wait for the read proc, render half a second.
        let before = readCount.value
        var packetList = MIDIPacketList()
        let packet = MIDIPacketListInit(&packetList)
        let noteOn: [UInt8] = [0x90, 69, 100]
        _ = MIDIPacketListAdd(&packetList, MemoryLayout<MIDIPacketList>.size, packet, 0, 3, noteOn)
        try #require(MIDIReceived(keyboard, &packetList) == noErr)
        let deadline = Date().addingTimeInterval(2)
        while readCount.value == before && Date() < deadline { usleep(1000) }
        try #require(readCount.value == before + 1, "the read proc got the note")

        var outputNode = AUNode()
        var count: UInt32 = 0
        AUGraphGetNodeCount(player.pointee.graph!, &count)
        AUGraphGetIndNode(player.pointee.graph!, 0, &outputNode)
        var output: AudioUnit?
        AUGraphNodeInfo(player.pointee.graph!, outputNode, nil, &output)
        var samples: [Float] = []
        var time = AudioTimeStamp()
        time.mFlags = .sampleTimeValid
        let frames: UInt32 = 512
        let left = UnsafeMutablePointer<Float>.allocate(capacity: Int(frames) * 2)
        defer { left.deallocate() }
        let abl = AudioBufferList.allocate(maximumBuffers: 2)
        defer { free(abl.unsafeMutablePointer) }
        for _ in 0..<44 {
            abl[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: frames * 4, mData: left)
            abl[1] = AudioBuffer(mNumberChannels: 1, mDataByteSize: frames * 4, mData: left + Int(frames))
            var flags = AudioUnitRenderActionFlags()
            try #require(AudioUnitRender(output!, &flags, &time, 0, frames, abl.unsafeMutablePointer) == noErr)
            samples += UnsafeBufferPointer(start: left, count: Int(frames))
            time.mSampleTime += Double(frames)
        }
        return samples
    }

    /// The fundamental from the autocorrelation's strongest lag between 2 and 20 ms, refined by a parabola.
    static func frequency(_ x: ArraySlice<Float>) -> Double {
        let s = Array(x)
        func r(_ lag: Int) -> Double { (0..<(s.count - lag)).reduce(0.0) { $0 + Double(s[$1]) * Double(s[$1 + lag]) } }
        let lags = 44...441
        let values = lags.map { r($0) }
        var best = 1
        for i in 1..<(values.count - 1) where values[i] > values[best] && values[i] >= values[i - 1] && values[i] >= values[i + 1] { best = i }
        let (a, b, c) = (values[best - 1], values[best], values[best + 1])
        let shift = (a - c) / (2 * (a - 2 * b + c))
        return 44100 / (Double(lags.lowerBound + best) + shift)
    }

    @Test func chapter11DLSSynthPlaysTheKeyboard() throws {
        try #require(FileManager.default.fileExists(atPath: Self.timGM), "timgm6mb-soundfont is required")
        // The bank set before the graph initializes (Debian's small General MIDI bank keeps the test quick).
        let x = try Self.play(instrumentSubType: kAudioUnitSubType_DLSSynth) { unit in
            var url: Unmanaged<CFURL>? = Unmanaged.passRetained(NSURL(fileURLWithPath: Self.timGM))
            defer { url?.release() }
            try #require(AudioUnitSetProperty(unit, kMusicDeviceProperty_SoundBankURL, kAudioUnitScope_Global, 0, &url,
                                              UInt32(MemoryLayout<CFURL?>.size)) == noErr)
        }
        let level = (x[4410..<22050].map { Double($0 * $0) }.reduce(0, +) / 17640).squareRoot()
        #expect(level > 0.001, "the piano sounds")
        let f = Self.frequency(x[4410..<8820])
        #expect(abs(f - 440) < 2, "\(f) Hz")
    }

    @Test func chapter12SamplerFromAnAUPreset() throws {
        // The chapter's .aupreset: one recorded sample (here a 220 Hz tone) with its root key set to 57 (A3).
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("oca-ch12-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: url) }
        var format = AudioStreamBasicDescription(mSampleRate: 44100, mFormatID: kAudioFormatLinearPCM,
                                                 mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
                                                 mBytesPerPacket: 2, mFramesPerPacket: 1, mBytesPerFrame: 2, mChannelsPerFrame: 1,
                                                 mBitsPerChannel: 16, mReserved: 0)
        var file: AudioFileID?
        try #require(AudioFileCreateWithURL(url as CFURL, kAudioFileWAVEType, &format, .eraseFile, &file) == noErr)
        var tone = (0..<44100).map { Int16(12000 * sin(2 * Double.pi * 220 * Double($0) / 44100)) }
        var bytes = UInt32(tone.count * 2)
        try #require(AudioFileWriteBytes(file!, false, 0, &bytes, &tone) == noErr)
        AudioFileClose(file!)
        let presetURL = FileManager.default.temporaryDirectory.appendingPathComponent("oca-ch12-\(UUID().uuidString).aupreset")
        defer { try? FileManager.default.removeItem(at: presetURL) }
        let preset: NSDictionary = [
            "AU version": 1, "type": Int(kAudioUnitType_MusicDevice), "subtype": Int(kAudioUnitSubType_Sampler),
            "manufacturer": Int(kAudioUnitManufacturer_Apple), "version": 0, "name": "ch12-aupreset",
            "Instrument": ["name": "ch12", "Layers": [["Zones": [["ID": 1, "root key": 57, "waveform": 268435457]]]]],
            "file-references": ["Sample:268435457": url.path],
        ]
        try #require(preset.write(to: presetURL, atomically: true))

        let x = try Self.play(instrumentSubType: kAudioUnitSubType_Sampler) { unit in
            // Listings 12.2-12.5: the file's contents as a property list, set as ClassInfo.
            let presetData = try Data(contentsOf: presetURL)
            var presetPropertyList: CFPropertyList? = try PropertyListSerialization.propertyList(from: presetData, format: nil) as CFPropertyList
            try #require(AudioUnitSetProperty(unit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &presetPropertyList,
                                              UInt32(MemoryLayout<CFPropertyList?>.size)) == noErr)
        }
        // Key 69 is an octave above the sample's root: 440 Hz.
        let f = Self.frequency(x[4410..<8820])
        #expect(abs(f - 440) < 1, "\(f) Hz")
    }
}
