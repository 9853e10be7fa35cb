import AudioToolbox
import Testing

/// AUGenericOutput renders a render callback's audio sample for sample, in every layout, in slices of
/// any size, with continuous phase (the callback computes each frame from the slice's sample time).
@Suite struct GenericOutputRenderTests {
    struct Layout: CustomTestStringConvertible, Sendable {
        var channels: UInt32, interleaved: Bool, float: Bool
        var format: AudioStreamBasicDescription {
            OCAFormat.linearPCM(sampleRate: 48000, channels: channels, bitsPerChannel: float ? 32 : 16,
                                isFloat: float, interleaved: interleaved)
        }
        var testDescription: String { "\(channels) ch \(interleaved ? "interleaved" : "non-interleaved") \(float ? "Float32" : "Int16")" }
    }

    static let layouts: [Layout] = [1, 2].flatMap { ch in
        [true, false].flatMap { il in [true, false].map { fl in Layout(channels: UInt32(ch), interleaved: il, float: fl) } }
    }

    static let slices = [1, 7, 64, 333, 512, 1156, 100]

    func expected(_ source: SineSource, channel: Int, frame: Int, float: Bool) -> Double {
        let x = source.value(channel: channel, frame: Double(frame))
        return float ? Double(Float32(x)) : Double(SineSource.int16(x))
    }

    @Test(arguments: layouts)
    func callbackSineMatchesClosedForm(_ layout: Layout) throws {
        let unit = try TestSupport.newUnit()
        defer { AudioComponentInstanceDispose(unit) }
        let format = layout.format
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Input, 0, format) == noErr)
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Output, 0, format) == noErr)
        let source = SineSource(frequency: 997, amplitude: 0.8, format: format)
        #expect(TestSupport.setCallback(unit, 0, SineSource.callback, source.refCon) == noErr)
        #expect(AudioUnitInitialize(unit) == noErr)

        let total = 10_000
        let out = try TestSupport.render(unit, format: format, totalFrames: total, slices: Self.slices)
        #expect(out.channels.count == Int(layout.channels))
        for c in 0..<Int(layout.channels) {
            #expect(out.channels[c].count == total)
            var mismatches = 0
            for n in 0..<total where out.channels[c][n] != expected(source, channel: c, frame: n, float: layout.float) {
                mismatches += 1
            }
            #expect(mismatches == 0, "channel \(c): \(mismatches) samples differ from the closed form")
        }
        // One callback per slice: the 7 slice sizes sum to 2173 frames, so 4 full cycles and 6 more slices.
        #expect(source.calls == 4 * 7 + 6)
    }

    @Test func unitLendsItsBuffersWhenCallerPassesNilData() throws {
        let unit = try TestSupport.newUnit()
        defer { AudioComponentInstanceDispose(unit) }
        let format = OCAFormat.canonical(sampleRate: 44100, channels: 2)
        TestSupport.setFormat(unit, kAudioUnitScope_Input, 0, format)
        let source = SineSource(frequency: 440, amplitude: 0.5, format: format)
        TestSupport.setCallback(unit, 0, SineSource.callback, source.refCon)
        #expect(AudioUnitInitialize(unit) == noErr)
        let out = try TestSupport.render(unit, format: format, totalFrames: 3000, slices: [512, 17], callerMemory: false)
        for c in 0..<2 {
            for n in stride(from: 0, to: 3000, by: 37) {
                #expect(out.channels[c][n] == Double(Float32(source.value(channel: c, frame: Double(n)))))
            }
        }
    }

    @Test func connectionPullsUpstreamUnit() throws {
        let upstream = try TestSupport.newUnit()
        let downstream = try TestSupport.newUnit()
        defer { AudioComponentInstanceDispose(downstream); AudioComponentInstanceDispose(upstream) }
        let format = OCAFormat.linearPCM(sampleRate: 22050, channels: 2, bitsPerChannel: 16, isFloat: false, interleaved: true)
        TestSupport.setFormat(upstream, kAudioUnitScope_Input, 0, format)
        TestSupport.setFormat(upstream, kAudioUnitScope_Output, 0, format)
        TestSupport.setFormat(downstream, kAudioUnitScope_Output, 0, format)
        let source = SineSource(frequency: 1234.5, amplitude: 0.9, format: format)
        TestSupport.setCallback(upstream, 0, SineSource.callback, source.refCon)
        var connection = AudioUnitConnection(sourceAudioUnit: upstream, sourceOutputNumber: 0, destInputNumber: 0)
        #expect(AudioUnitSetProperty(downstream, kAudioUnitProperty_MakeConnection, kAudioUnitScope_Input, 0, &connection,
                                     UInt32(MemoryLayout<AudioUnitConnection>.size)) == noErr)
        // The connection propagated the source's output format to the destination's input.
        #expect(OCAFormat.describe(TestSupport.format(downstream, kAudioUnitScope_Input, 0)) == OCAFormat.describe(format))
        // A connected input's format cannot be set directly any more.
        #expect(TestSupport.setFormat(downstream, kAudioUnitScope_Input, 0, OCAFormat.canonical(sampleRate: 22050, channels: 2))
                == kAudioUnitErr_PropertyNotWritable)
        #expect(AudioUnitInitialize(upstream) == noErr)
        #expect(AudioUnitInitialize(downstream) == noErr)
        let out = try TestSupport.render(downstream, format: format, totalFrames: 5000, slices: [256, 1000, 3])
        for c in 0..<2 {
            for n in 0..<5000 {
                if out.channels[c][n] != Double(SineSource.int16(source.value(channel: c, frame: Double(n)))) {
                    Issue.record("channel \(c) frame \(n) differs"); return
                }
            }
        }
    }

    /// The unit keeps input 0's upstream unit in its own render fields; every way of changing the source must reach
    /// them: another unit, no unit, a render callback, another unit's bus 1 (which the kept copy does not cover).
    @Test func reconnectingWhileInitializedRendersTheNewSource() throws {
        let format = OCAFormat.canonical(sampleRate: 44100, channels: 2)
        let a = try TestSupport.newUnit(), b = try TestSupport.newUnit(), downstream = try TestSupport.newUnit()
        var splitterDesc = AudioComponentDescription(componentType: kAudioUnitType_FormatConverter, componentSubType: kAudioUnitSubType_Splitter,
                                                     componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        var splitter: AudioUnit?
        #expect(AudioComponentInstanceNew(try #require(AudioComponentFindNext(nil, &splitterDesc)), &splitter) == noErr)
        let split = try #require(splitter)
        defer { [downstream, split, b, a].forEach { AudioComponentInstanceDispose($0) } }
        let sources = [SineSource(frequency: 440, amplitude: 0.5, format: format), SineSource(frequency: 1000, amplitude: 0.25, format: format),
                       SineSource(frequency: 3000, amplitude: 0.125, format: format), SineSource(frequency: 50, amplitude: 0.9, format: format)]
        for (unit, source) in zip([a, b, split], sources) {
            TestSupport.setFormat(unit, kAudioUnitScope_Input, 0, format)
            TestSupport.setFormat(unit, kAudioUnitScope_Output, 0, format)
            TestSupport.setCallback(unit, 0, SineSource.callback, source.refCon)
        }
        TestSupport.setFormat(split, kAudioUnitScope_Output, 1, format)
        TestSupport.setFormat(downstream, kAudioUnitScope_Input, 0, format)
        TestSupport.setFormat(downstream, kAudioUnitScope_Output, 0, format)
        for unit in [a, b, split, downstream] { #expect(AudioUnitInitialize(unit) == noErr) }
        func connect(_ source: AudioUnit?, bus: UInt32 = 0) -> OSStatus {
            var c = AudioUnitConnection(sourceAudioUnit: source, sourceOutputNumber: bus, destInputNumber: 0)
            return AudioUnitSetProperty(downstream, kAudioUnitProperty_MakeConnection, kAudioUnitScope_Input, 0, &c,
                                        UInt32(MemoryLayout<AudioUnitConnection>.size))
        }
        func rendersSource(_ source: SineSource) throws -> Bool {
            let out = try TestSupport.render(downstream, format: format, totalFrames: 600, slices: [256])
            return (0..<600).allSatisfy { out.channels[1][$0] == Double(Float32(source.value(channel: 1, frame: Double($0)))) }
        }
        #expect(connect(a) == noErr)
        #expect(try rendersSource(sources[0]))
        #expect(connect(b) == noErr)
        #expect(try rendersSource(sources[1]))
        #expect(connect(split, bus: 1) == noErr)
        #expect(try rendersSource(sources[2]))
        #expect(connect(nil) == noErr)
        let memory = UnsafeMutablePointer<Float32>.allocate(capacity: 512)
        defer { memory.deallocate() }
        let list = AudioBufferList.allocate(maximumBuffers: 2)
        defer { free(list.unsafeMutablePointer) }
        for i in 0..<2 { list[i] = AudioBuffer(mNumberChannels: 1, mDataByteSize: 1024, mData: memory + i * 256) }
        var flags = AudioUnitRenderActionFlags(), ts = AudioTimeStamp()
        ts.mFlags = .sampleTimeValid
        #expect(AudioUnitRender(downstream, &flags, &ts, 0, 256, list.unsafeMutablePointer) == kAudioUnitErr_NoConnection)
        #expect(TestSupport.setCallback(downstream, 0, SineSource.callback, sources[3].refCon) == noErr)
        #expect(try rendersSource(sources[3]))
        #expect(connect(a) == noErr)
        #expect(try rendersSource(sources[0]))
    }

    @Test func timeStampsReachTheCallbackUnchanged() throws {
        let unit = try TestSupport.newUnit()
        defer { AudioComponentInstanceDispose(unit) }
        let format = OCAFormat.canonical(sampleRate: 44100, channels: 1)
        TestSupport.setFormat(unit, kAudioUnitScope_Input, 0, format)
        TestSupport.setFormat(unit, kAudioUnitScope_Output, 0, format)
        let source = SineSource(frequency: 100, amplitude: 0.1, format: format)
        TestSupport.setCallback(unit, 0, SineSource.callback, source.refCon)
        AudioUnitInitialize(unit)
        _ = try TestSupport.render(unit, format: format, totalFrames: 300, slices: [100])
        #expect(source.calls == 3)
        #expect(source.lastTimeStamp.mSampleTime == 200)
        #expect(source.lastTimeStamp.mFlags.contains(.sampleTimeValid))
    }
}
