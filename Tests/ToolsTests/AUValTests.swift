@_spi(OCATools) import AudioToolbox
import Foundation
import Testing
import ToolSupport

/// auval: the listing matches the registry, every built-in unit validates, and a client's v2 effect with one
/// planted defect at a time (a property larger than its reported size, a render past the buffer, a ClassInfo
/// that cannot be restored) fails at the step that catches it.
@Suite struct AUValTests {
    /// Every built-in audio unit as auval prints it ("aufx dely appl").
    static func registered() -> [String] {
        var any = AudioComponentDescription()
        var component: AudioComponent? = nil
        var out: [String] = []
        while let c = AudioComponentFindNext(component, &any) {
            component = c
            var d = AudioComponentDescription()
            AudioComponentGetDescription(c, &d)
            guard AUValidator.audioUnitTypes.contains(d.componentType), d.componentManufacturer == kAudioUnitManufacturer_Apple else { continue }
            out.append([d.componentType, d.componentSubType, d.componentManufacturer].map { fourCharacters($0)! }.joined(separator: " "))
        }
        return out
    }

    @Test func listsEveryRegisteredUnit() throws {
        let run = try Tools.run(executable: try Tools.path("auval"), ["-a"])
        #expect(run.status == 0)
        let listed = run.stdout.split(separator: "\n").compactMap { line -> String? in
            let parts = line.components(separatedBy: "  -  ")
            return parts.count == 2 ? parts[0] : nil
        }
        #expect(Set(listed) == Set(Self.registered()), "auval -a lists exactly the registered audio units")
        #expect(run.stdout.contains("aufx dely appl  -  Apple: AUDelay"))
    }

    @Test func everyBuiltInUnitValidates() throws {
        // The GM synths' default bank: Debian's small one (the 148 MB FluidR3 takes seconds to parse in a debug build).
        setenv("OCA_DEFAULT_SOUNDBANK", "/usr/share/sounds/sf2/TimGM6mb.sf2", 1)
        // The device I/O units need a device; the generic output does not. -strict: warnings fail too.
        let units = Self.registered().filter { !$0.hasPrefix("auou") || $0 == "auou genr appl" }
        #expect(units.count > 30)
        for unit in units {
            let run = try Tools.run(executable: try Tools.path("auval"), ["-strict", "-v"] + unit.split(separator: " ").map(String.init))
            let failed = run.stdout.split(separator: "\n").filter { $0.hasPrefix("ERROR") || $0.hasPrefix("FATAL") || $0.hasPrefix("WARNING") }
            #expect(run.status == 0 && run.stdout.contains("AU VALIDATION SUCCEEDED."), "\(unit): \(failed.joined(separator: "; "))")
        }
    }

    @Test func aMissingUnitFails() throws {
        let run = try Tools.run(executable: try Tools.path("auval"), ["-v", "aufx", "nope", "OCAt"])
        #expect(run.status == 1)
        #expect(run.stdout.contains("AU VALIDATION FAILED"))
    }

    /// Validates one planted defect in process and returns the report.
    static func validate(_ defect: BrokenEffectPlugIn.Defect) -> (passed: Bool, report: [String]) {
        BrokenEffectPlugIn.register()
        var lines: [String] = []
        let passed = AUValidator(description: BrokenEffectPlugIn.description(defect)) { lines.append($0) }.run()
        return (passed, lines)
    }

    @Test func theHealthyPlugInPasses() {
        let (passed, report) = Self.validate(.none)
        #expect(passed, "\(report.filter { $0.hasPrefix("ERROR") })")
    }

    @Test func aPropertyLargerThanItsSizeFails() {
        let (passed, report) = Self.validate(.propertySize)
        #expect(!passed)
        // Either the bytes past the reported size changed or the size Get reports differs: both name the property.
        #expect(report.contains { $0.hasPrefix("ERROR: Latency:") && ($0.contains("wrote past") || $0.contains("GetProperty wrote 8")) },
                "\(report.filter { $0.hasPrefix("ERROR") })")
    }

    @Test func aRenderPastTheBufferFails() {
        let (passed, report) = Self.validate(.renderOverrun)
        #expect(!passed)
        #expect(report.contains { $0.contains("wrote outside the buffer") }, "\(report.filter { $0.hasPrefix("ERROR") })")
    }

    @Test func aClassInfoThatCannotBeRestoredFails() {
        let (passed, report) = Self.validate(.classInfo)
        #expect(!passed)
        #expect(report.contains { $0.hasPrefix("ERROR: ClassInfo:") }, "\(report.filter { $0.hasPrefix("ERROR") })")
    }
}

/// A client's gain effect written against Apple's v2 plug-in interface, registered four times: healthy, and
/// with one defect each. One parameter (gain, 0...2, default 1).
enum BrokenEffectPlugIn {
    enum Defect: UInt32, CaseIterable {
        case none = 0x6F6B6179          // 'okay'
        case propertySize = 0x6273697A  // 'bsiz'
        case renderOverrun = 0x626F7672 // 'bovr'
        case classInfo = 0x62636C73     // 'bcls'
    }

    static func description(_ defect: Defect) -> AudioComponentDescription {
        AudioComponentDescription(componentType: kAudioUnitType_Effect, componentSubType: defect.rawValue,
                                  componentManufacturer: 0x4F434174 /* 'OCAt' */, componentFlags: 0, componentFlagsMask: 0)
    }

    private static let registered: Bool = {
        for defect in Defect.allCases {
            var d = description(defect)
            AudioComponentRegister(&d, "OCAt: Broken \(defect)" as CFString, 0x0001_0000, factory)
        }
        return true
    }()

    static func register() { _ = registered }

    final class State {
        var defect = Defect.none
        var instance: AudioComponentInstance?
        var format = OCAFormat.canonical(sampleRate: 44100, channels: 2)
        var maxFrames: UInt32 = 1156
        var gain: Float = 1
        var input = AURenderCallbackStruct(inputProc: nil, inputProcRefCon: nil)
        var initialized = false
    }

    static let stride = MemoryLayout<AudioComponentPlugInInterface>.stride

    static func state(_ s: UnsafeMutableRawPointer) -> State {
        Unmanaged<State>.fromOpaque(s.load(fromByteOffset: stride, as: UnsafeRawPointer.self)).takeUnretainedValue()
    }

    static let factory: AudioComponentFactoryFunction = { _ in
        let memory = UnsafeMutableRawPointer.allocate(byteCount: stride + 8, alignment: 16)
        let interface = memory.bindMemory(to: AudioComponentPlugInInterface.self, capacity: 1)
        interface.initialize(to: AudioComponentPlugInInterface(
            Open: { s, instance in
                let st = BrokenEffectPlugIn.state(s)
                st.instance = instance
                var d = AudioComponentDescription()
                AudioComponentGetDescription(AudioComponentInstanceGetComponent(instance), &d)
                st.defect = Defect(rawValue: d.componentSubType) ?? .none
                return noErr
            },
            Close: { s in
                Unmanaged<State>.fromOpaque(s.load(fromByteOffset: BrokenEffectPlugIn.stride, as: UnsafeRawPointer.self)).release()
                s.deallocate()
                return noErr
            },
            Lookup: { BrokenEffectPlugIn.lookup($0) }, reserved: nil))
        memory.storeBytes(of: UnsafeRawPointer(Unmanaged.passRetained(State()).toOpaque()), toByteOffset: stride, as: UnsafeRawPointer.self)
        return interface
    }

    static func size(_ id: AudioUnitPropertyID) -> UInt32? {
        switch id {
        case kAudioUnitProperty_StreamFormat: UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        case kAudioUnitProperty_SampleRate, kAudioUnitProperty_Latency, kAudioUnitProperty_TailTime: 8
        case kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitProperty_LastRenderError, kAudioUnitProperty_BypassEffect,
             kAudioUnitProperty_ElementCount: 4
        case kAudioUnitProperty_ClassInfo: UInt32(MemoryLayout<CFPropertyList?>.size)
        case kAudioUnitProperty_ParameterList: 4
        case kAudioUnitProperty_ParameterInfo: UInt32(MemoryLayout<AudioUnitParameterInfo>.size)
        case kAudioUnitProperty_SetRenderCallback: UInt32(MemoryLayout<AURenderCallbackStruct>.size)
        default: nil
        }
    }

    static let getPropertyInfo: AudioUnitGetPropertyInfoProc = { s, id, _, _, outSize, outWritable in
        guard var n = size(id) else { return kAudioUnitErr_InvalidProperty }
        // The planted defect: Latency reported as 4 bytes (Get writes a Float64).
        if id == kAudioUnitProperty_Latency && state(s).defect == .propertySize { n = 4 }
        outSize?.pointee = n
        outWritable?.pointee = true
        return noErr
    }

    static let getProperty: AudioUnitGetPropertyProc = { s, id, scope, element, out, ioSize in
        let st = state(s)
        switch id {
        case kAudioUnitProperty_StreamFormat: out.storeBytes(of: st.format, as: AudioStreamBasicDescription.self)
        case kAudioUnitProperty_SampleRate: out.storeBytes(of: st.format.mSampleRate, as: Float64.self)
        case kAudioUnitProperty_Latency, kAudioUnitProperty_TailTime: out.storeBytes(of: Float64(0), as: Float64.self)
        case kAudioUnitProperty_MaximumFramesPerSlice: out.storeBytes(of: st.maxFrames, as: UInt32.self)
        case kAudioUnitProperty_LastRenderError, kAudioUnitProperty_BypassEffect: out.storeBytes(of: UInt32(0), as: UInt32.self)
        case kAudioUnitProperty_ElementCount: out.storeBytes(of: UInt32(scope == kAudioUnitScope_Global ? 1 : 1), as: UInt32.self)
        case kAudioUnitProperty_ParameterList:
            guard scope == kAudioUnitScope_Global else { ioSize.pointee = 0; return noErr }
            out.storeBytes(of: UInt32(0), as: UInt32.self)
        case kAudioUnitProperty_ParameterInfo:
            guard element == 0 else { return kAudioUnitErr_InvalidParameter }
            var info = AudioUnitParameterInfo()
            withUnsafeMutableBytes(of: &info.name) { $0.copyBytes(from: Array("Gain".utf8) + [0]) }
            info.unit = .linearGain
            info.minValue = 0; info.maxValue = 2; info.defaultValue = 1
            info.flags = [.flag_IsReadable, .flag_IsWritable]
            out.storeBytes(of: info, as: AudioUnitParameterInfo.self)
        case kAudioUnitProperty_ClassInfo:
            let d: NSDictionary = ["version": 0, "type": Int(kAudioUnitType_Effect), "subtype": Int(st.defect.rawValue),
                                   "manufacturer": 0x4F434174, "name": "Untitled", "gain": st.gain]
            out.storeBytes(of: Unmanaged.passRetained(d as AnyObject).toOpaque(), as: UnsafeMutableRawPointer.self)
        default: return kAudioUnitErr_InvalidProperty
        }
        ioSize.pointee = size(id)!
        return noErr
    }

    static let setProperty: AudioUnitSetPropertyProc = { s, id, scope, _, data, _ in
        let st = state(s)
        guard let data else { return kAudioUnitErr_InvalidPropertyValue }
        switch id {
        case kAudioUnitProperty_StreamFormat:
            let f = data.load(as: AudioStreamBasicDescription.self)
            guard f.mFormatID == kAudioFormatLinearPCM, f.mFormatFlags & kAudioFormatFlagIsFloat != 0,
                  f.mFormatFlags & kAudioFormatFlagIsNonInterleaved != 0, f.mChannelsPerFrame >= 1 else { return kAudioUnitErr_FormatNotSupported }
            st.format = f
        case kAudioUnitProperty_MaximumFramesPerSlice: st.maxFrames = data.load(as: UInt32.self)
        case kAudioUnitProperty_SetRenderCallback: st.input = data.load(as: AURenderCallbackStruct.self)
        case kAudioUnitProperty_ClassInfo:
            if st.defect == .classInfo { return kAudioUnitErr_InvalidPropertyValue }
            guard let d = data.load(as: UnsafeRawPointer?.self).map({ Unmanaged<AnyObject>.fromOpaque($0).takeUnretainedValue() }) as? NSDictionary
            else { return kAudioUnitErr_InvalidPropertyValue }
            st.gain = (d["gain"] as? NSNumber)?.floatValue ?? 1
        case kAudioUnitProperty_BypassEffect, kAudioUnitProperty_SampleRate: break
        default: return kAudioUnitErr_InvalidProperty
        }
        return noErr
    }

    static let getParameter: AudioUnitGetParameterProc = { s, id, _, _, out in
        guard id == 0 else { return kAudioUnitErr_InvalidParameter }
        out.pointee = state(s).gain
        return noErr
    }

    static let setParameter: AudioUnitSetParameterProc = { s, id, _, _, value, _ in
        guard id == 0 else { return kAudioUnitErr_InvalidParameter }
        state(s).gain = min(max(value, 0), 2)
        return noErr
    }

    static let initialize: AudioUnitInitializeProc = { s in state(s).initialized = true; return noErr }
    static let uninitialize: AudioUnitUninitializeProc = { s in state(s).initialized = false; return noErr }
    static let reset: AudioUnitResetProc = { _, _, _ in noErr }

    static let render: AudioUnitRenderProc = { s, flags, timeStamp, _, frames, ioData in
        let st = state(s)
        guard st.initialized else { return kAudioUnitErr_Uninitialized }
        guard let proc = st.input.inputProc, let flags else { return kAudioUnitErr_NoConnection }
        let status = proc(st.input.inputProcRefCon ?? s, flags, timeStamp, 0, frames, ioData)
        guard status == noErr else { return status }
        // The planted defect: four frames more than asked for.
        let count = Int(frames) + (st.defect == .renderOverrun ? 4 : 0)
        for b in UnsafeMutableAudioBufferListPointer(ioData) {
            guard let p = b.mData?.assumingMemoryBound(to: Float.self) else { continue }
            for n in 0..<count { p[n] = n < Int(frames) ? p[n] * st.gain : 0.5 }
        }
        return noErr
    }

    static func lookup(_ selector: Int16) -> AudioComponentMethod? {
        switch Int(selector) {
        case kAudioUnitInitializeSelect: unsafeBitCast(initialize, to: AudioComponentMethod.self)
        case kAudioUnitUninitializeSelect: unsafeBitCast(uninitialize, to: AudioComponentMethod.self)
        case kAudioUnitResetSelect: unsafeBitCast(reset, to: AudioComponentMethod.self)
        case kAudioUnitGetPropertyInfoSelect: unsafeBitCast(getPropertyInfo, to: AudioComponentMethod.self)
        case kAudioUnitGetPropertySelect: unsafeBitCast(getProperty, to: AudioComponentMethod.self)
        case kAudioUnitSetPropertySelect: unsafeBitCast(setProperty, to: AudioComponentMethod.self)
        case kAudioUnitGetParameterSelect: unsafeBitCast(getParameter, to: AudioComponentMethod.self)
        case kAudioUnitSetParameterSelect: unsafeBitCast(setParameter, to: AudioComponentMethod.self)
        case kAudioUnitRenderSelect: unsafeBitCast(render, to: AudioComponentMethod.self)
        default: nil
        }
    }
}
