// auval's validation of one audio unit, through the public API only, in the steps and layout of Apple's
// auval: open times, default formats, required / recommended / optional properties, parameters, presets
// and ClassInfo, channel configurations, render tests at several rates and slice sizes (with guard bytes
// around every buffer), connection and parameter scheduling, MIDI for music devices, bypass.
// AudioComponentValidate runs it in the host's process; the auval tool prints its report (SPI: not Apple's API).
import Foundation

/// Validates the audio unit a component description names and writes Apple-style report lines.
@_spi(OCATools) public final class AUValidator {
    private let description: AudioComponentDescription
    private let strict: Bool
    private let write: (String) -> Void
    private let describe: (AudioStreamBasicDescription) -> String
    private var failures = 0
    private var warnings = 0

    /// A validator for the unit `description` names. `strict` makes warnings failures (auval -strict);
    /// `output` receives each report line; `describeFormat` writes a format as the report shows it (auval
    /// passes its tools' CAStreamBasicDescription-style text).
    public init(description: AudioComponentDescription, strict: Bool = false,
                describeFormat: @escaping (AudioStreamBasicDescription) -> String = AUValidator.plainFormat,
                output: @escaping (String) -> Void) {
        self.description = description
        self.strict = strict
        self.describe = describeFormat
        self.write = output
    }

    /// A format as "2 ch, 44100 Hz, 'lpcm' (0x00000029) 32 bits/channel".
    public static func plainFormat(_ f: AudioStreamBasicDescription) -> String {
        String(format: "%2d ch, %6.0f Hz, ", Int(f.mChannelsPerFrame), f.mSampleRate)
            + quoted(f.mFormatID) + String(format: " (0x%08X) ", f.mFormatFlags) + "\(f.mBitsPerChannel) bits/channel"
    }

    /// The component types that are audio units (AUComponent.h); the registry also holds codecs.
    public static let audioUnitTypes: Set<OSType> = [
        kAudioUnitType_Output, kAudioUnitType_MusicDevice, kAudioUnitType_MusicEffect, kAudioUnitType_FormatConverter,
        kAudioUnitType_Effect, kAudioUnitType_Mixer, kAudioUnitType_Panner, kAudioUnitType_Generator,
        kAudioUnitType_OfflineEffect, kAudioUnitType_MIDIProcessor,
    ]

    /// The four-char codes as auval prints them: 'aufx' - 'dely' - 'appl'.
    public static func codes(_ d: AudioComponentDescription) -> String {
        [d.componentType, d.componentSubType, d.componentManufacturer].map { Self.quoted($0) }.joined(separator: " - ")
    }

    /// A four-char code as auval prints it: 'aufx', or hex when not printable.
    static func quoted(_ code: UInt32) -> String {
        let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: code >> $0) }
        guard bytes.allSatisfy({ (0x20...0x7E).contains($0) }) else { return String(format: "0x%08X", code) }
        return "'" + String(decoding: bytes, as: UTF8.self) + "'"
    }

    private var isEffect: Bool { [kAudioUnitType_Effect, kAudioUnitType_MusicEffect].contains(description.componentType) }
    private var isMusicDevice: Bool { description.componentType == kAudioUnitType_MusicDevice }
    private var hasInput: Bool {
        ![kAudioUnitType_Generator, kAudioUnitType_MusicDevice].contains(description.componentType)
    }

    private func section(_ title: String) {
        write("--------------------------------------------------")
        write(title)
    }

    private func fail(_ text: String) {
        failures += 1
        write("ERROR: \(text)")
    }

    private func warning(_ text: String) {
        warnings += 1
        if strict { failures += 1 }
        write("WARNING: \(text)")
    }

    private func sectionResult(_ before: Int) {
        write("")
        write(failures == before ? "* * PASS" : "* * FAIL")
    }

    /// Runs every step; true when the unit passed.
    public func run() -> Bool {
        write("--------------------------------------------------")
        write("VALIDATING AUDIO UNIT: \(Self.codes(description))")
        write("--------------------------------------------------")
        var d = description
        guard Self.audioUnitTypes.contains(description.componentType) else {
            write("FATAL ERROR: \(Self.quoted(description.componentType)) is not an audio unit type")
            failures += 1
            return finish()
        }
        guard let component = AudioComponentFindNext(nil, &d) else {
            write("ERROR: Cannot get Component's Name strings")
            write("ERROR: Error from retrieving Component Version: -50")
            write("* * FAIL")
            write("--------------------------------------------------")
            write("TESTING OPEN TIMES:")
            write("FATAL ERROR: didn't find the component")
            failures += 1
            return finish()
        }
        var name: Unmanaged<CFString>?
        AudioComponentCopyName(component, &name)
        let full = (name?.takeRetainedValue() as String?) ?? ""
        let parts = full.components(separatedBy: ": ")
        var version: UInt32 = 0
        AudioComponentGetVersion(component, &version)
        write("Manufacturer String: \(parts.count > 1 ? parts[0] : "")")
        write("AudioUnit Name: \(parts.count > 1 ? parts.dropFirst().joined(separator: ": ") : full)")
        write("Component Version: \(version >> 16).\((version >> 8) & 0xFF).\(version & 0xFF) (0x\(String(version, radix: 16)))")
        write("")
        write("* * PASS")

        guard let unit = openTimes(component) else { return finish() }
        defer { AudioComponentInstanceDispose(unit) }
        defaultFormats(unit)
        requiredProperties(unit)
        recommendedProperties(unit)
        optionalProperties(unit)
        parameters(unit)
        presets(unit)
        formatTests(unit)
        renderTests(component)
        if isMusicDevice { midiTests(component) }
        return finish()
    }

    private func finish() -> Bool {
        write("--------------------------------------------------")
        if failures == 0 {
            write("AU VALIDATION SUCCEEDED.")
        } else {
            write("AU VALIDATION FAILED: CORRECT THE ERRORS ABOVE.")
        }
        write("--------------------------------------------------")
        return failures == 0
    }

    // MARK: Open

    private func openTimes(_ component: AudioComponent) -> AudioUnit? {
        section("TESTING OPEN TIMES:")
        func open() -> (AudioUnit?, Double, OSStatus) {
            var unit: AudioUnit?
            let start = DispatchTime.now().uptimeNanoseconds
            let status = AudioComponentInstanceNew(component, &unit)
            return (unit, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6, status)
        }
        let (cold, coldTime, coldStatus) = open()
        guard coldStatus == noErr, let cold else {
            write("FATAL ERROR: OpenAComponent: result: \(coldStatus),0x\(String(UInt32(bitPattern: coldStatus), radix: 16))")
            failures += 1
            return nil
        }
        write("COLD:")
        write(String(format: "Time to open AudioUnit:         %.3f ms", coldTime))
        AudioComponentInstanceDispose(cold)
        let (warm, warmTime, _) = open()
        write("WARM:")
        write(String(format: "Time to open AudioUnit:         %.3f  ms", warmTime))
        guard let warm else { fail("second open failed"); return nil }
        let start = DispatchTime.now().uptimeNanoseconds
        let status = AudioUnitInitialize(warm)
        let initTime = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        write("FIRST TIME:")
        if status != noErr {
            write("FATAL ERROR: Initialize: result: \(status)")
            failures += 1
            AudioComponentInstanceDispose(warm)
            return nil
        }
        write(String(format: "Time for initialization:        %.3f ms", initTime))
        AudioUnitUninitialize(warm)
        sectionResult(failures)
        return warm
    }

    // MARK: Formats and properties

    private func busCount(_ unit: AudioUnit, _ scope: AudioUnitScope) -> UInt32 {
        var count: UInt32 = 0
        var size: UInt32 = 4
        return AudioUnitGetProperty(unit, kAudioUnitProperty_ElementCount, scope, 0, &count, &size) == noErr ? count : 0
    }

    private func format(_ unit: AudioUnit, _ scope: AudioUnitScope, _ element: UInt32) -> AudioStreamBasicDescription? {
        var f = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        return AudioUnitGetProperty(unit, kAudioUnitProperty_StreamFormat, scope, element, &f, &size) == noErr ? f : nil
    }

    private func defaultFormats(_ unit: AudioUnit) {
        section("VERIFYING DEFAULT SCOPE FORMATS:")
        let before = failures
        for (scope, label) in [(kAudioUnitScope_Input, "Input"), (kAudioUnitScope_Output, "Output")] {
            let count = busCount(unit, scope)
            write("\(label) Scope Bus Configuration:")
            write(" Default Bus Count:\(count)")
            if count > 0 {
                if let f = format(unit, scope, 0) {
                    write("    Default Format: AudioStreamBasicDescription:  \(describe(f))")
                } else {
                    fail("\(label) scope bus 0 has no stream format")
                }
            }
            write("")
        }
        if busCount(unit, kAudioUnitScope_Output) == 0 { fail("the unit has no output bus") }
        sectionResult(before)
    }

    /// Checks that Info's size is what Get writes, and that Get works.
    private func verify(_ unit: AudioUnit, _ id: AudioUnitPropertyID, _ label: String, scope: AudioUnitScope = kAudioUnitScope_Global,
                        required: Bool) {
        write("  VERIFYING PROPERTY: \(label)")
        var size: UInt32 = 0
        var writable = DarwinBoolean(false)
        let info = AudioUnitGetPropertyInfo(unit, id, scope, 0, &size, &writable)
        guard info == noErr else {
            if required { fail("\(label): GetPropertyInfo answered \(info)") } else { write("    (not supported)") }
            return
        }
        verifyValue(unit, id, label, scope: scope, size: size)
    }

    /// A recommended property: missing is a warning for effects (as Apple's auval prints it), nothing for others.
    private func recommend(_ unit: AudioUnit, _ id: AudioUnitPropertyID, _ label: String) {
        write("  VERIFYING PROPERTY: \(label)")
        var size: UInt32 = 0
        guard AudioUnitGetPropertyInfo(unit, id, kAudioUnitScope_Global, 0, &size, nil) == noErr else {
            if isEffect { warning("Recommended Property is not supported") } else { write("    (not supported)") }
            return
        }
        verifyValue(unit, id, label, scope: kAudioUnitScope_Global, size: size)
    }

    private func verifyValue(_ unit: AudioUnit, _ id: AudioUnitPropertyID, _ label: String, scope: AudioUnitScope, size: UInt32) {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: Int(size) + 16, alignment: 16)
        defer { buffer.deallocate() }
        memset(buffer, 0xA5, Int(size) + 16)
        var got = size
        let status = AudioUnitGetProperty(unit, id, scope, 0, buffer, &got)
        if status != noErr {
            fail("\(label): GetProperty answered \(status)")
        } else if got != size {
            fail("\(label): GetPropertyInfo reported \(size) bytes, GetProperty wrote \(got)")
        } else if (0..<16).contains(where: { buffer.load(fromByteOffset: Int(size) + $0, as: UInt8.self) != 0xA5 }) {
            fail("\(label): GetProperty wrote past the \(size) bytes it reported")
        } else {
            write("    PASS")
        }
    }

    private func requiredProperties(_ unit: AudioUnit) {
        section("VERIFYING REQUIRED PROPERTIES:")
        let before = failures
        verify(unit, kAudioUnitProperty_SampleRate, "Sample Rate", scope: kAudioUnitScope_Output, required: true)
        verify(unit, kAudioUnitProperty_StreamFormat, "Stream Format", scope: kAudioUnitScope_Output, required: true)
        verify(unit, kAudioUnitProperty_MaximumFramesPerSlice, "Maximum Frames Per Slice", required: true)
        verify(unit, kAudioUnitProperty_LastRenderError, "Last Render Error", required: true)
        sectionResult(before)
    }

    private func recommendedProperties(_ unit: AudioUnit) {
        section("VERIFYING RECOMMENDED PROPERTIES:")
        let before = failures
        recommend(unit, kAudioUnitProperty_Latency, "Latency")
        recommend(unit, kAudioUnitProperty_TailTime, "Tail Time")
        recommend(unit, kAudioUnitProperty_BypassEffect, "Bypass Effect")
        sectionResult(before)
    }

    private func optionalProperties(_ unit: AudioUnit) {
        section("VERIFYING OPTIONAL PROPERTIES:")
        let before = failures
        verify(unit, kAudioUnitProperty_SupportedNumChannels, "Supported Number of Channels", required: false)
        verify(unit, kAudioUnitProperty_RenderQuality, "Render Quality", required: false)
        verify(unit, kAudioUnitProperty_CPULoad, "CPU Load", required: false)
        sectionResult(before)
    }

    // MARK: Parameters

    private func parameterIDs(_ unit: AudioUnit, _ scope: AudioUnitScope) -> [AudioUnitParameterID] {
        var size: UInt32 = 0
        guard AudioUnitGetPropertyInfo(unit, kAudioUnitProperty_ParameterList, scope, 0, &size, nil) == noErr, size > 0 else { return [] }
        var ids = [AudioUnitParameterID](repeating: 0, count: Int(size) / 4)
        guard AudioUnitGetProperty(unit, kAudioUnitProperty_ParameterList, scope, 0, &ids, &size) == noErr else { return [] }
        return Array(ids.prefix(Int(size) / 4))
    }

    private func parameterInfo(_ unit: AudioUnit, _ id: AudioUnitParameterID, _ scope: AudioUnitScope) -> AudioUnitParameterInfo? {
        var info = AudioUnitParameterInfo()
        var size = UInt32(MemoryLayout<AudioUnitParameterInfo>.size)
        return AudioUnitGetProperty(unit, kAudioUnitProperty_ParameterInfo, scope, id, &info, &size) == noErr ? info : nil
    }

    private func parameters(_ unit: AudioUnit) {
        section("PUBLISHED PARAMETER INFO:")
        let before = failures
        let ids = parameterIDs(unit, kAudioUnitScope_Global)
        write("")
        write("# # # \(ids.count) Global Scope Parameters:")
        for id in ids {
            guard let info = parameterInfo(unit, id, kAudioUnitScope_Global) else {
                fail("Parameter ID:\(id) has no ParameterInfo")
                continue
            }
            let cfName: String? = info.cfNameString.map { $0.takeUnretainedValue().description }
            let name: String = cfName ?? withUnsafeBytes(of: info.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            write("Parameter ID:\(id)")
            write("Name: \(name)")
            write(String(format: "Values: Minimum = %f, Default = %f, Maximum = %f", info.minValue, info.defaultValue, info.maxValue))
            if name.isEmpty { fail("Parameter ID:\(id) has no name") }
            guard info.minValue <= info.defaultValue, info.defaultValue <= info.maxValue else {
                fail("Parameter ID:\(id): default \(info.defaultValue) outside \(info.minValue)...\(info.maxValue)")
                continue
            }
            let writable = info.flags.contains(.flag_IsWritable)
            if writable {
                for v in [info.minValue, info.maxValue, info.defaultValue] {
                    AudioUnitSetParameter(unit, id, kAudioUnitScope_Global, 0, v, 0)
                    var back: AudioUnitParameterValue = .nan
                    AudioUnitGetParameter(unit, id, kAudioUnitScope_Global, 0, &back)
                    if abs(back - v) > max(1e-4, abs(v) * 1e-5) {
                        fail("Parameter ID:\(id): set \(v), read back \(back)")
                        break
                    }
                }
            }
            write("-parameter PASS")
            write("")
        }
        write("Testing that parameters retain value across reset and initialization")
        var changed: [(AudioUnitParameterID, Float)] = []
        for id in ids {
            guard let info = parameterInfo(unit, id, kAudioUnitScope_Global), info.flags.contains(.flag_IsWritable),
                  !info.flags.contains(.flag_MeterReadOnly), info.maxValue > info.minValue else { continue }
            // A value between default and maximum, on the unit's grid for indexed/boolean parameters.
            var v = info.defaultValue + (info.maxValue - info.defaultValue) / 2
            if info.unit == .indexed || info.unit == .boolean { v = info.maxValue }
            AudioUnitSetParameter(unit, id, kAudioUnitScope_Global, 0, v, 0)
            changed.append((id, v))
        }
        // Read back after every set: linked parameters (Varispeed's rate and cents) move each other.
        changed = changed.map { id, _ in
            var back: Float = 0
            AudioUnitGetParameter(unit, id, kAudioUnitScope_Global, 0, &back)
            return (id, back)
        }
        AudioUnitReset(unit, kAudioUnitScope_Global, 0)
        AudioUnitInitialize(unit)
        for (id, v) in changed {
            var back: Float = .nan
            AudioUnitGetParameter(unit, id, kAudioUnitScope_Global, 0, &back)
            if back != v { fail("Parameter ID:\(id) changed from \(v) to \(back) across reset and initialization") }
        }
        AudioUnitUninitialize(unit)
        write(failures == before ? "  PASS" : "  FAIL")
        sectionResult(before)
    }

    // MARK: Presets and ClassInfo

    private func presets(_ unit: AudioUnit) {
        section("VERIFYING CLASS INFO")
        let before = failures
        var size = UInt32(MemoryLayout<CFPropertyList?>.size)
        var state: CFPropertyList?
        let status = AudioUnitGetProperty(unit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &state, &size)
        if status != noErr || state == nil {
            fail("ClassInfo: GetProperty answered \(status)")
        } else {
            let ids = parameterIDs(unit, kAudioUnitScope_Global)
            func values() -> [Float] {
                ids.map { id in var v: Float = 0; AudioUnitGetParameter(unit, id, kAudioUnitScope_Global, 0, &v); return v }
            }
            let saved = values()
            // Move every writable parameter, restore the saved state: the values must come back.
            for id in ids {
                if let info = parameterInfo(unit, id, kAudioUnitScope_Global), info.flags.contains(.flag_IsWritable) {
                    AudioUnitSetParameter(unit, id, kAudioUnitScope_Global, 0, info.minValue, 0)
                }
            }
            let restore = AudioUnitSetProperty(unit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &state,
                                               UInt32(MemoryLayout<CFPropertyList?>.size))
            if restore != noErr {
                fail("ClassInfo: setting the unit's own ClassInfo answered \(restore)")
            } else if values() != saved {
                fail("ClassInfo: restoring the unit's own state did not restore its parameters")
            } else {
                write("  PASS")
            }
        }
        var presetArray: CFArray?
        size = UInt32(MemoryLayout<CFArray?>.size)
        if AudioUnitGetProperty(unit, kAudioUnitProperty_FactoryPresets, kAudioUnitScope_Global, 0, &presetArray, &size) == noErr,
           let presetArray {
            let count = (presetArray as NSArray).count
            write("")
            write("VERIFYING FACTORY PRESETS:  \(count) presets")
            for i in 0..<count {
                var preset = AUPreset(presetNumber: Int32(i), presetName: nil)
                if let list = presetArray as? [AUPreset], i < list.count { preset = list[i] }
                let s = AudioUnitSetProperty(unit, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &preset,
                                             UInt32(MemoryLayout<AUPreset>.size))
                if s != noErr { fail("factory preset \(preset.presetNumber) could not be set: \(s)") }
            }
        }
        sectionResult(before)
    }

    // MARK: Formats

    private func formatTests(_ unit: AudioUnit) {
        section("FORMAT TESTS:")
        let before = failures
        var size: UInt32 = 0
        var configs: [AUChannelInfo] = []
        if AudioUnitGetPropertyInfo(unit, kAudioUnitProperty_SupportedNumChannels, kAudioUnitScope_Global, 0, &size, nil) == noErr,
           size >= 4 {
            configs = [AUChannelInfo](repeating: AUChannelInfo(), count: Int(size) / MemoryLayout<AUChannelInfo>.size)
            AudioUnitGetProperty(unit, kAudioUnitProperty_SupportedNumChannels, kAudioUnitScope_Global, 0, &configs, &size)
            write("")
            write("Reported Channel Capabilities (explicit):")
            write("      " + configs.map { "[\($0.inChannels), \($0.outChannels)]" }.joined(separator: "  "))
        } else {
            write("")
            write("Reported Channel Capabilities (implicit):")
            write("      [-1, -1]")
        }
        write("")
        write("Input/Output Channel Handling:")
        let pairs: [(Int, Int)] = hasInput ? [(1, 1), (1, 2), (2, 2), (4, 4), (6, 6), (8, 8)] : [(0, 1), (0, 2), (0, 4), (0, 8)]
        var header = "", marks = ""
        for (i, o) in pairs {
            let label = hasInput ? "\(i)-\(o)" : "\(o)"
            header += label.padding(toLength: 6, withPad: " ", startingAt: 0)
            var ok = setChannels(unit, kAudioUnitScope_Output, o)
            if hasInput { ok = ok && setChannels(unit, kAudioUnitScope_Input, i) }
            if ok { ok = AudioUnitInitialize(unit) == noErr; AudioUnitUninitialize(unit) }
            marks += (ok ? "X" : " ").padding(toLength: 6, withPad: " ", startingAt: 0)
            // The explicit capabilities must be honoured: a listed pair has to work.
            if !configs.isEmpty, configs.contains(where: { fits($0, i, o) }), !ok {
                fail("channel configuration \(i)-\(o) is reported as supported but does not initialize")
            }
        }
        write(header)
        write(marks)
        // Back to stereo for the render tests.
        _ = setChannels(unit, kAudioUnitScope_Output, 2)
        if hasInput { _ = setChannels(unit, kAudioUnitScope_Input, 2) }
        sectionResult(before)
    }

    private func fits(_ c: AUChannelInfo, _ i: Int, _ o: Int) -> Bool {
        func match(_ want: Int16, _ n: Int) -> Bool { want == -1 || want == -2 || Int(want) == n || (want < -2 && n <= Int(-want)) }
        if c.inChannels == -1 && c.outChannels == -1 { return i == o }
        return (c.inChannels == 0 ? i == 0 || !hasInput : match(c.inChannels, i)) && match(c.outChannels, o)
    }

    private func setChannels(_ unit: AudioUnit, _ scope: AudioUnitScope, _ channels: Int) -> Bool {
        guard var f = format(unit, scope, 0) else { return false }
        f = OCAFormat.canonical(sampleRate: f.mSampleRate, channels: UInt32(channels))
        return AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, scope, 0, &f, UInt32(MemoryLayout<AudioStreamBasicDescription>.size)) == noErr
    }

    // MARK: Render

    /// The input every render test feeds: a 1 kHz tone at -12 dBFS, by sample time (deterministic across slicings).
    private static let input: AURenderCallback = { _, _, timeStamp, _, frames, ioData in
        guard let ioData else { return kAudio_ParamError }
        let start = timeStamp.pointee.mSampleTime
        for b in UnsafeMutableAudioBufferListPointer(ioData) {
            guard let p = b.mData?.assumingMemoryBound(to: Float.self) else { continue }
            for n in 0..<Int(frames) { p[n] = 0.25 * Float(sin(2 * Double.pi * 1000 * (start + Double(n)) / 44100)) }
        }
        return noErr
    }

    /// Renders `total` frames in slices of `slice` into guarded buffers; the output (first channel) or nil on failure.
    private func render(_ unit: AudioUnit, total: Int, slice: Int, label: String) -> [Float]? {
        guard let f = format(unit, kAudioUnitScope_Output, 0) else { fail("\(label): no output format"); return nil }
        let channels = Int(f.mChannelsPerFrame)
        let guardBytes = 64
        let bytes = slice * 4
        let memory = UnsafeMutableRawPointer.allocate(byteCount: channels * (bytes + 2 * guardBytes), alignment: 16)
        defer { memory.deallocate() }
        let abl = AudioBufferList.allocate(maximumBuffers: channels)
        defer { free(abl.unsafeMutablePointer) }
        var out: [Float] = []
        var time = AudioTimeStamp()
        time.mFlags = .sampleTimeValid
        var done = 0
        while done < total {
            let frames = min(slice, total - done)
            memset(memory, 0x5A, channels * (bytes + 2 * guardBytes))
            for c in 0..<channels {
                abl[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(frames * 4),
                                     mData: memory + c * (bytes + 2 * guardBytes) + guardBytes)
            }
            var flags = AudioUnitRenderActionFlags()
            let status = AudioUnitRender(unit, &flags, &time, 0, UInt32(frames), abl.unsafeMutablePointer)
            guard status == noErr else { fail("\(label): AudioUnitRender answered \(status)"); return nil }
            for c in 0..<channels {
                let base = memory + c * (bytes + 2 * guardBytes)
                let front = (0..<guardBytes).contains { base.load(fromByteOffset: $0, as: UInt8.self) != 0x5A }
                let back = (0..<guardBytes).contains { base.load(fromByteOffset: guardBytes + frames * 4 + $0, as: UInt8.self) != 0x5A }
                if front || back { fail("\(label): the render wrote outside the buffer of channel \(c)"); return nil }
                if abl[c].mData != UnsafeMutableRawPointer(base + guardBytes) && abl[c].mData == nil {
                    fail("\(label): the render returned no buffer"); return nil
                }
            }
            let p = abl[0].mData!.assumingMemoryBound(to: Float.self)
            for n in 0..<frames where !p[n].isFinite { fail("\(label): non-finite sample"); return nil }
            out += UnsafeBufferPointer(start: p, count: frames)
            time.mSampleTime += Double(frames)
            done += frames
        }
        return out
    }

    /// A fresh instance, formats at `rate`, input from the tone callback, initialized.
    private func prepared(_ component: AudioComponent, rate: Double, maxFrames: UInt32) -> AudioUnit? {
        var unit: AudioUnit?
        guard AudioComponentInstanceNew(component, &unit) == noErr, let unit else { return nil }
        for scope in hasInput ? [kAudioUnitScope_Input, kAudioUnitScope_Output] : [kAudioUnitScope_Output] {
            var f = OCAFormat.canonical(sampleRate: rate, channels: format(unit, scope, 0)?.mChannelsPerFrame ?? 2)
            AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, scope, 0, &f, UInt32(MemoryLayout<AudioStreamBasicDescription>.size))
        }
        var frames = maxFrames
        AudioUnitSetProperty(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &frames, 4)
        if hasInput {
            var callback = AURenderCallbackStruct(inputProc: Self.input, inputProcRefCon: nil)
            AudioUnitSetProperty(unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback,
                                 UInt32(MemoryLayout<AURenderCallbackStruct>.size))
        }
        guard AudioUnitInitialize(unit) == noErr else { AudioComponentInstanceDispose(unit); return nil }
        return unit
    }

    private func renderTests(_ component: AudioComponent) {
        section("RENDER TESTS:")
        let before = failures
        guard let unit = prepared(component, rate: 44100, maxFrames: 4096) else {
            fail("the unit does not initialize with canonical formats at 44100 Hz")
            sectionResult(before)
            return
        }
        if let f = format(unit, kAudioUnitScope_Output, 0) {
            if hasInput, let i = format(unit, kAudioUnitScope_Input, 0) { write("Input Format: AudioStreamBasicDescription:  \(describe(i))") }
            write("Output Format: AudioStreamBasicDescription:  \(describe(f))")
        }
        if isMusicDevice { MusicDeviceMIDIEvent(unit, 0x90, 60, 100, 0) }
        write("Render Test at 512 frames")
        let whole = render(unit, total: 4096, slice: 512, label: "Render Test at 512 frames")
        write("Slicing Render Test at 64 frames")
        // A fresh instance for the comparison: Reset may fade voices out rather than cut them.
        if let fresh = prepared(component, rate: 44100, maxFrames: 4096) {
            if isMusicDevice { MusicDeviceMIDIEvent(fresh, 0x90, 60, 100, 0) }
            let sliced = render(fresh, total: 4096, slice: 64, label: "Slicing Render Test at 64 frames")
            if let whole, let sliced {
                let diff = zip(whole, sliced).map { abs($0 - $1) }.max() ?? 0
                if diff > 1e-4 { warning(String(format: "rendering in 64-frame slices differs from 512-frame slices by %.6f", diff)) }
            }
            AudioComponentInstanceDispose(fresh)
        }
        write(failures == before ? "PASS" : "FAIL")
        write("")
        AudioComponentInstanceDispose(unit)
        for (frames, rate) in [(64, 22050.0), (137, 96000.0), (4096, 48000.0), (4096, 192000.0), (4096, 11025.0), (512, 44100.0)] {
            let label = "Render Test at \(frames) frames, sample rate: \(Int(rate)) Hz"
            write(label)
            guard let u = prepared(component, rate: rate, maxFrames: 4096) else {
                // A unit may refuse a rate (Apple's auval notes it); it must not crash.
                write("  (the unit does not initialize at \(Int(rate)) Hz)")
                continue
            }
            _ = render(u, total: frames * 2, slice: frames, label: label)
            AudioComponentInstanceDispose(u)
        }
        write(failures == before ? "  PASS" : "  FAIL")
        write("")
        write("Checking parameter setting")
        write("Using AudioUnitSetParameter")
        write("Using AudioUnitScheduleParameter")
        if let u = prepared(component, rate: 44100, maxFrames: 4096) {
            for id in parameterIDs(u, kAudioUnitScope_Global) {
                guard let info = parameterInfo(u, id, kAudioUnitScope_Global), info.flags.contains(.flag_IsWritable) else { continue }
                var event = AudioUnitParameterEvent(scope: kAudioUnitScope_Global, element: 0, parameter: id, eventType: .parameterEvent_Immediate,
                                                    eventValues: .init(immediate: .init(bufferOffset: 100, value: info.defaultValue)))
                let s = AudioUnitScheduleParameters(u, &event, 1)
                if s != noErr && s != kAudio_UnimplementedError && s != OSStatus(badComponentSelector) { fail("AudioUnitScheduleParameters answered \(s) for parameter \(id)") }
            }
            _ = render(u, total: 1024, slice: 512, label: "Render after scheduling parameters")
            AudioComponentInstanceDispose(u)
        }
        write(failures == before ? "PASS" : "FAIL")
        if isEffect {
            write("")
            write("Checking Bypass ...")
            if let u = prepared(component, rate: 44100, maxFrames: 4096) {
                var on: UInt32 = 1
                if AudioUnitSetProperty(u, kAudioUnitProperty_BypassEffect, kAudioUnitScope_Global, 0, &on, 4) == noErr,
                   let out = render(u, total: 1024, slice: 512, label: "Bypass render") {
                    // Bypassed, the unit passes its input: the tone, sample for sample.
                    let expected = (0..<1024).map { 0.25 * Float(sin(2 * Double.pi * 1000 * Double($0) / 44100)) }
                    let diff = zip(out, expected).map { abs($0 - $1) }.max() ?? 0
                    if diff > 1e-5 { fail(String(format: "bypassed output differs from the input by %.6f", diff)) }
                }
                AudioComponentInstanceDispose(u)
            }
            write(failures == before ? "PASS" : "FAIL")
        }
        sectionResult(before)
    }

    // MARK: MIDI

    private func midiTests(_ component: AudioComponent) {
        section("MIDI TESTS:")
        let before = failures
        guard let unit = prepared(component, rate: 44100, maxFrames: 4096) else { fail("the instrument does not initialize"); return }
        defer { AudioComponentInstanceDispose(unit) }
        write("Testing MusicDeviceMIDIEvent")
        for status: UInt32 in [0x90, 0xB0, 0xE0, 0xC0, 0x80] {
            let s = MusicDeviceMIDIEvent(unit, status, status == 0xE0 ? 0 : 60, status == 0xE0 ? 64 : 100, 17)
            if s != noErr { fail(String(format: "MusicDeviceMIDIEvent(0x%02X) answered %d", status, s)) }
        }
        MusicDeviceMIDIEvent(unit, 0x90, 69, 100, 0)
        if let out = render(unit, total: 8192, slice: 512, label: "Render after note on") {
            if out.allSatisfy({ $0 == 0 }) { warning("a note on produced no output") }
        }
        write("Testing MusicDeviceStartNote / StopNote")
        var params = MusicDeviceNoteParams(argCount: 2, mPitch: 64, mVelocity: 100, mControls: NoteParamsControlValue(mID: 0, mValue: 0))
        var note: NoteInstanceID = 0
        let started = MusicDeviceStartNote(unit, kMusicNoteEvent_Unused, 0, &note, 0, &params)
        if started == noErr {
            if note == 0 || note == 0xFFFF_FFFF { fail("MusicDeviceStartNote returned the invalid instance ID \(note)") }
            let stopped = MusicDeviceStopNote(unit, 0, note, 0)
            if stopped != noErr { fail("MusicDeviceStopNote answered \(stopped)") }
        } else {
            write("  (MusicDeviceStartNote not supported: \(started))")
        }
        _ = render(unit, total: 1024, slice: 512, label: "Render after start/stop note")
        write(failures == before ? "PASS" : "FAIL")
        sectionResult(before)
    }
}
