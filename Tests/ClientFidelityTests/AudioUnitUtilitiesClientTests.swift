// AudioUnitUtilities.h as a generic parameter view, an automation recorder and a host use it: listeners on a
// run loop and on a dispatch queue, AUParameterSet and the Notify calls, property-change events, the linear
// mapping and AUParameterFormatValue, and the parameter-text properties of a real unit.
import AudioToolbox.AudioUnitUtilities
import Foundation
import Testing

/// What a listener saw, from whichever thread delivered it.
private final class Inbox: @unchecked Sendable {
    struct Entry { var object: UnsafeMutableRawPointer?; var type: AudioUnitEventType; var id: UInt32; var scope: AudioUnitScope
                   var element: AudioUnitElement; var value: Float; var onMainTestThread: Bool }
    private let lock = NSLock()
    private var entries: [Entry] = []
    var testThread: Thread?

    func add(_ e: Entry) { lock.lock(); entries.append(e); lock.unlock() }
    var all: [Entry] { lock.lock(); defer { lock.unlock() }; return entries }
    var ptr: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
    static func from(_ p: UnsafeMutableRawPointer?) -> Inbox { Unmanaged<Inbox>.fromOpaque(p!).takeUnretainedValue() }
}

private let parameterProc: AUParameterListenerProc = { user, object, parameter, value in
    let inbox = Inbox.from(user)
    let p = parameter.pointee
    inbox.add(.init(object: object, type: .parameterValueChange, id: p.mParameterID, scope: p.mScope, element: p.mElement,
                    value: value, onMainTestThread: Thread.current == inbox.testThread))
}

private let eventProc: AUEventListenerProc = { user, object, event, _, value in
    let inbox = Inbox.from(user)
    let e = event.pointee
    let id = e.mEventType == .propertyChange ? e.mArgument.mProperty.mPropertyID : e.mArgument.mParameter.mParameterID
    let scope = e.mEventType == .propertyChange ? e.mArgument.mProperty.mScope : e.mArgument.mParameter.mScope
    let element = e.mEventType == .propertyChange ? e.mArgument.mProperty.mElement : e.mArgument.mParameter.mElement
    inbox.add(.init(object: object, type: e.mEventType, id: id, scope: scope, element: element, value: value,
                    onMainTestThread: Thread.current == inbox.testThread))
}

private func makeUnit(_ type: OSType, _ subType: OSType) throws -> AudioUnit {
    var description = AudioComponentDescription(componentType: type, componentSubType: subType,
                                                componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    let component = try #require(AudioComponentFindNext(nil, &description))
    var unit: AudioUnit?
    try #require(AudioComponentInstanceNew(component, &unit) == noErr)
    return try #require(unit)
}

private func makeMixer() throws -> AudioUnit { try makeUnit(kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer) }

/// Runs the calling thread's run loop until `done` or `seconds` pass.
private func runLoop(for seconds: Double, until done: () -> Bool = { false }) {
    let end = Date().addingTimeInterval(seconds)
    while !done(), Date() < end { CFRunLoopRunInMode(CFRunLoopMode.defaultMode, 0.02, false) }
}

/// Runs `body` on another thread and waits for it.
private func onOtherThread(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    Thread { body(); done.signal() }.start()
    done.wait()
}

@Suite(.serialized) struct AudioUnitUtilitiesClientTests {
    @Test func constantsAndShapes() {
        #expect(kAUParameterListener_AnyParameter == 0xFFFF_FFFF)
        #expect([AudioUnitEventType.parameterValueChange, .beginParameterChangeGesture, .endParameterChangeGesture, .propertyChange]
            .map(\.rawValue) == [0, 1, 2, 3])
        #expect(MemoryLayout<AudioUnitEvent>.size == 32 && MemoryLayout<AUParameterMIDIMapping>.size == 32)
        #expect(AUParameterMIDIMappingFlags.bipolar_On.rawValue == 32)
        #expect(MemoryLayout<AudioUnitParameterStringFromValue>.size == 24 && MemoryLayout<AudioUnitParameterIDName>.size == 16)
        #expect(MemoryLayout<AudioUnitParameterValueTranslation>.size == 32 && kOtherPluginFormat_AU == 3)
        #expect(GetAudioUnitParameterDisplayType([.flag_IsReadable, .flag_DisplayCubed]) == .flag_DisplayCubed)
    }

    @Test func runLoopListenerGetsAUParameterSetFromAnotherThreadOnlyWhenTheLoopRuns() throws {
        let mixer = try makeMixer()
        defer { AudioComponentInstanceDispose(mixer) }
        let inbox = Inbox()
        inbox.testThread = Thread.current
        var listener: AUParameterListenerRef?
        #expect(AUListenerCreate(parameterProc, inbox.ptr, CFRunLoopGetCurrent(), kCFRunLoopDefaultMode.rawValue, 0.05, &listener) == noErr)
        var volume = AudioUnitParameter(mAudioUnit: mixer, mParameterID: kMultiChannelMixerParam_Volume, mScope: kAudioUnitScope_Input, mElement: 0)
        #expect(AUListenerAddParameter(listener!, nil, &volume) == noErr)
        nonisolated(unsafe) var fromElsewhere = volume
        onOtherThread { _ = AUParameterSet(nil, nil, &fromElsewhere, 0.25, 0) }
        var value: AudioUnitParameterValue = 0
        #expect(AudioUnitGetParameter(mixer, kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, 0, &value) == noErr && value == 0.25)
        Thread.sleep(forTimeInterval: 0.15)
        #expect(inbox.all.isEmpty)  // the loop has not run yet
        runLoop(for: 2) { !inbox.all.isEmpty }
        let got = inbox.all
        #expect(got.count == 1 && got.first?.value == 0.25 && got.first?.id == kMultiChannelMixerParam_Volume)
        #expect(got.first?.onMainTestThread == true)
        #expect(AUListenerDispose(listener!) == noErr)
    }

    @Test func tenRapidSetsWithinTheIntervalArriveAsOneCallbackWithTheLastValue() throws {
        let mixer = try makeMixer()
        defer { AudioComponentInstanceDispose(mixer) }
        let inbox = Inbox()
        var listener: AUParameterListenerRef?
        #expect(AUListenerCreate(parameterProc, inbox.ptr, CFRunLoopGetCurrent(), nil, 0.1, &listener) == noErr)
        var volume = AudioUnitParameter(mAudioUnit: mixer, mParameterID: kMultiChannelMixerParam_Volume, mScope: kAudioUnitScope_Input, mElement: 0)
        #expect(AUListenerAddParameter(listener!, nil, &volume) == noErr)
        for k in 1...10 { #expect(AUParameterSet(nil, nil, &volume, Float(k) / 10, 0) == noErr) }
        // Wait for the first delivery (a loaded machine may take longer than the interval), then long enough
        // for a second one to show if the sets had not been merged.
        runLoop(for: 3) { !inbox.all.isEmpty }
        runLoop(for: 0.3)
        #expect(inbox.all.map(\.value) == [1.0])
        AUListenerDispose(listener!)
    }

    @Test func dispatchQueueListenerRunsOnItsQueue() throws {
        let mixer = try makeMixer()
        defer { AudioComponentInstanceDispose(mixer) }
        let queue = DispatchQueue(label: "oca.listener")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 7)
        let inbox = Inbox()
        let arrived = DispatchSemaphore(value: 0)
        var listener: AUParameterListenerRef?
        #expect(AUListenerCreateWithDispatchQueue(&listener, 0.02, queue) { object, parameter, value in
            inbox.add(.init(object: object, type: .parameterValueChange, id: parameter.pointee.mParameterID, scope: parameter.pointee.mScope,
                            element: parameter.pointee.mElement, value: value, onMainTestThread: DispatchQueue.getSpecific(key: key) == 7))
            arrived.signal()
        } == noErr)
        var pan = AudioUnitParameter(mAudioUnit: mixer, mParameterID: kMultiChannelMixerParam_Pan, mScope: kAudioUnitScope_Input, mElement: 1)
        let widget = UnsafeMutableRawPointer(bitPattern: 0x1234)
        #expect(AUListenerAddParameter(listener!, widget, &pan) == noErr)
        #expect(AUParameterSet(nil, nil, &pan, -0.5, 0) == noErr)
        #expect(arrived.wait(timeout: .now() + 2) == .success)
        let got = inbox.all
        #expect(got.count == 1 && got[0].value == -0.5 && got[0].object == widget && got[0].element == 1 && got[0].onMainTestThread)
        AUListenerDispose(listener!)
    }

    @Test func audioUnitSetParameterAloneNotifiesNobodyButNotifyWithTheWildcardTellsEveryParameter() throws {
        let mixer = try makeMixer()
        defer { AudioComponentInstanceDispose(mixer) }
        let inbox = Inbox()
        var listener: AUParameterListenerRef?
        #expect(AUListenerCreate(parameterProc, inbox.ptr, CFRunLoopGetCurrent(), nil, 0.01, &listener) == noErr)
        var volume0 = AudioUnitParameter(mAudioUnit: mixer, mParameterID: kMultiChannelMixerParam_Volume, mScope: kAudioUnitScope_Input, mElement: 0)
        var pan1 = AudioUnitParameter(mAudioUnit: mixer, mParameterID: kMultiChannelMixerParam_Pan, mScope: kAudioUnitScope_Input, mElement: 1)
        #expect(AUListenerAddParameter(listener!, nil, &volume0) == noErr)
        #expect(AUListenerAddParameter(listener!, nil, &pan1) == noErr)
        #expect(AudioUnitSetParameter(mixer, kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, 0, 0.75, 0) == noErr)
        #expect(AudioUnitSetParameter(mixer, kMultiChannelMixerParam_Pan, kAudioUnitScope_Input, 1, 0.5, 0) == noErr)
        runLoop(for: 0.1)
        #expect(inbox.all.isEmpty)
        // The unit (or a host ramping it) announces the change itself: the listener gets the current value.
        #expect(AUParameterListenerNotify(nil, nil, &volume0) == noErr)
        runLoop(for: 1) { inbox.all.count >= 1 }
        #expect(inbox.all.map(\.value) == [0.75])
        var any = AudioUnitParameter(mAudioUnit: mixer, mParameterID: kAUParameterListener_AnyParameter, mScope: kAudioUnitScope_Global, mElement: 0)
        #expect(AUParameterListenerNotify(nil, nil, &any) == noErr)
        runLoop(for: 1) { inbox.all.count >= 3 }
        let got = inbox.all.dropFirst().sorted { $0.id < $1.id }
        #expect(got.map(\.id) == [kMultiChannelMixerParam_Volume, kMultiChannelMixerParam_Pan].sorted())
        #expect(got.first { $0.id == kMultiChannelMixerParam_Volume }?.value == 0.75)
        #expect(got.first { $0.id == kMultiChannelMixerParam_Pan }?.value == 0.5)
        AUListenerDispose(listener!)
    }

    @Test func theSenderIsLeftOut() throws {
        let mixer = try makeMixer()
        defer { AudioComponentInstanceDispose(mixer) }
        let view = Inbox(), recorder = Inbox()
        var viewListener: AUParameterListenerRef?, recorderListener: AUParameterListenerRef?
        #expect(AUListenerCreate(parameterProc, view.ptr, CFRunLoopGetCurrent(), nil, 0.01, &viewListener) == noErr)
        #expect(AUListenerCreate(parameterProc, recorder.ptr, CFRunLoopGetCurrent(), nil, 0.01, &recorderListener) == noErr)
        var volume = AudioUnitParameter(mAudioUnit: mixer, mParameterID: kMultiChannelMixerParam_Volume, mScope: kAudioUnitScope_Input, mElement: 0)
        let slider = UnsafeMutableRawPointer(bitPattern: 0x10), field = UnsafeMutableRawPointer(bitPattern: 0x20)
        #expect(AUListenerAddParameter(viewListener!, slider, &volume) == noErr)
        #expect(AUListenerAddParameter(viewListener!, field, &volume) == noErr)
        #expect(AUListenerAddParameter(recorderListener!, nil, &volume) == noErr)
        // The slider moved: the text field and the recorder hear of it, the slider does not.
        #expect(AUParameterSet(viewListener, slider, &volume, 0.5, 0) == noErr)
        runLoop(for: 1) { view.all.count >= 1 && recorder.all.count >= 1 }
        runLoop(for: 0.05)
        #expect(view.all.map(\.object) == [field] && view.all.map(\.value) == [0.5])
        #expect(recorder.all.map(\.value) == [0.5])
        // A nil sending object leaves out every object of the sending listener.
        #expect(AUParameterSet(viewListener, nil, &volume, 0.6, 0) == noErr)
        runLoop(for: 1) { recorder.all.count >= 2 }
        runLoop(for: 0.05)
        #expect(view.all.count == 1 && recorder.all.map(\.value) == [0.5, 0.6])
        AUListenerDispose(viewListener!)
        AUListenerDispose(recorderListener!)
    }

    @Test func propertyChangeEventsComeFromTheUnitsOwnNotifications() throws {
        let filter = try makeUnit(kAudioUnitType_Effect, kAudioUnitSubType_LowPassFilter)
        defer { AudioComponentInstanceDispose(filter) }
        let inbox = Inbox()
        var listener: AUEventListenerRef?
        #expect(AUEventListenerCreate(eventProc, inbox.ptr, CFRunLoopGetCurrent(), kCFRunLoopDefaultMode.rawValue, 0.01, 0.01, &listener) == noErr)
        var event = AudioUnitEvent(mEventType: .propertyChange, mArgument: .init(mProperty: AudioUnitProperty(
            mAudioUnit: filter, mPropertyID: kAudioUnitProperty_StreamFormat, mScope: kAudioUnitScope_Input, mElement: 0)))
        #expect(AUEventListenerAddEventType(listener!, nil, &event) == noErr)
        var format = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioUnitGetProperty(filter, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, &size) == noErr)
        format.mSampleRate = 48000
        #expect(AudioUnitSetProperty(filter, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, size) == noErr)
        runLoop(for: 1) { !inbox.all.isEmpty }
        runLoop(for: 0.05)
        let got = inbox.all
        #expect(got.count == 1 && got.first?.type == .propertyChange && got.first?.id == kAudioUnitProperty_StreamFormat
            && got.first?.scope == kAudioUnitScope_Input && got.first?.element == 0)
        // Output-scope changes are not what it asked for; once removed, input changes stop too.
        format.mSampleRate = 96000
        #expect(AudioUnitSetProperty(filter, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format, size) == noErr)
        runLoop(for: 0.1)
        #expect(inbox.all.count == 1)
        #expect(AUEventListenerRemoveEventType(listener!, nil, &event) == noErr)
        #expect(AudioUnitSetProperty(filter, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, size) == noErr)
        runLoop(for: 0.1)
        #expect(inbox.all.count == 1)
        AUListenerDispose(listener!)
    }

    @Test func gesturesAndValueChangesArriveInOrderThroughAUEventListenerNotify() throws {
        let mixer = try makeMixer()
        defer { AudioComponentInstanceDispose(mixer) }
        let inbox = Inbox()
        var listener: AUEventListenerRef?
        #expect(AUEventListenerCreate(eventProc, inbox.ptr, CFRunLoopGetCurrent(), nil, 0.05, 0.0, &listener) == noErr)
        let volume = AudioUnitParameter(mAudioUnit: mixer, mParameterID: kMultiChannelMixerParam_Volume, mScope: kAudioUnitScope_Output, mElement: 0)
        for type in [AudioUnitEventType.beginParameterChangeGesture, .parameterValueChange, .endParameterChangeGesture] {
            var e = AudioUnitEvent(mEventType: type, mArgument: .init(mParameter: volume))
            #expect(AUEventListenerAddEventType(listener!, nil, &e) == noErr)
        }
        var begin = AudioUnitEvent(mEventType: .beginParameterChangeGesture, mArgument: .init(mParameter: volume))
        var end = AudioUnitEvent(mEventType: .endParameterChangeGesture, mArgument: .init(mParameter: volume))
        var p = volume
        #expect(AUEventListenerNotify(nil, nil, &begin) == noErr)
        #expect(AUParameterSet(nil, nil, &p, 0.3, 0) == noErr)
        #expect(AUEventListenerNotify(nil, nil, &end) == noErr)
        runLoop(for: 1) { inbox.all.count >= 3 }
        let got = inbox.all
        #expect(got.map(\.type) == [.beginParameterChangeGesture, .parameterValueChange, .endParameterChangeGesture])
        #expect(got.count == 3 && got[1].value == 0.3)
        AUListenerDispose(listener!)
    }

    @Test func disposingStopsDeliveryOfQueuedEvents() throws {
        let mixer = try makeMixer()
        defer { AudioComponentInstanceDispose(mixer) }
        let inbox = Inbox()
        var listener: AUParameterListenerRef?
        #expect(AUListenerCreate(parameterProc, inbox.ptr, CFRunLoopGetCurrent(), nil, 0.05, &listener) == noErr)
        var volume = AudioUnitParameter(mAudioUnit: mixer, mParameterID: kMultiChannelMixerParam_Volume, mScope: kAudioUnitScope_Input, mElement: 0)
        #expect(AUListenerAddParameter(listener!, nil, &volume) == noErr)
        #expect(AUParameterSet(nil, nil, &volume, 0.4, 0) == noErr)
        #expect(AUListenerDispose(listener!) == noErr)
        runLoop(for: 0.3)
        #expect(inbox.all.isEmpty)
    }

    @Test func linearMappingFollowsTheDisplayCurve() throws {
        // AUVarispeed's playback rate: 0.25...4, displayed logarithmically; ln(1/0.25) / ln(4/0.25) = 1/2.
        let varispeed = try makeUnit(kAudioUnitType_FormatConverter, kAudioUnitSubType_Varispeed)
        defer { AudioComponentInstanceDispose(varispeed) }
        var rate = AudioUnitParameter(mAudioUnit: varispeed, mParameterID: kVarispeedParam_PlaybackRate, mScope: kAudioUnitScope_Global, mElement: 0)
        #expect(abs(AUParameterValueToLinear(1, &rate) - 0.5) < 1e-6)
        #expect(abs(AUParameterValueToLinear(2, &rate) - 0.75) < 1e-6)
        #expect(abs(AUParameterValueFromLinear(0.25, &rate) - 0.5) < 1e-6)
        #expect(abs(AUParameterValueFromLinear(1, &rate) - 4) < 1e-5)
        // The mixer's volume is linear 0...1 and not clamped.
        let mixer = try makeMixer()
        defer { AudioComponentInstanceDispose(mixer) }
        var volume = AudioUnitParameter(mAudioUnit: mixer, mParameterID: kMultiChannelMixerParam_Volume, mScope: kAudioUnitScope_Input, mElement: 0)
        for v: Float in [0, 0.3, 0.5, 1] {
            #expect(abs(AUParameterValueToLinear(v, &volume) - v) < 1e-6)
            #expect(abs(AUParameterValueFromLinear(AUParameterValueToLinear(v, &volume), &volume) - v) < 1e-6)
        }
        #expect(AUParameterValueFromLinear(1.5, &volume) == 1.5)
        // A parameter the unit does not publish gives 0.
        var missing = AudioUnitParameter(mAudioUnit: mixer, mParameterID: 999, mScope: kAudioUnitScope_Global, mElement: 0)
        #expect(AUParameterValueFromLinear(0.5, &missing) == 0 && AUParameterValueToLinear(0.5, &missing) == 0)
    }

    @Test func formatValueFollowsApplesDigitTable() throws {
        // A Hertz parameter: the digits count from the value's own power of ten (the header's table, inDigits 3).
        let filter = try makeUnit(kAudioUnitType_Effect, kAudioUnitSubType_LowPassFilter)
        defer { AudioComponentInstanceDispose(filter) }
        var cutoff = AudioUnitParameter(mAudioUnit: filter, mParameterID: kLowPassParam_CutoffFrequency, mScope: kAudioUnitScope_Global, mElement: 0)
        var text = [CChar](repeating: 0, count: 32)
        func format(_ v: Double, _ p: inout AudioUnitParameter, digits: UInt32 = 3) -> String {
            String(cString: AUParameterFormatValue(v, &p, &text, digits))
        }
        #expect(format(0.0123, &cutoff) == "0.0123")
        #expect(format(0.123, &cutoff) == "0.123")
        #expect(format(1.234, &cutoff) == "1.23")
        #expect(format(12.34, &cutoff) == "12.3")
        #expect(format(123.4, &cutoff) == "123")
        #expect(format(1234, &cutoff) == "1230")
        #expect(format(12345, &cutoff) == "12300")
        // Otherwise from the range's: the mixer's volume spans 1, so two decimals at any value.
        let mixer = try makeMixer()
        defer { AudioComponentInstanceDispose(mixer) }
        var volume = AudioUnitParameter(mAudioUnit: mixer, mParameterID: kMultiChannelMixerParam_Volume, mScope: kAudioUnitScope_Input, mElement: 0)
        #expect(format(0.5, &volume) == "0.50")
        #expect(format(0.004, &volume) == "0.00")
        #expect(format(0.125, &volume, digits: 4) == "0.125")
    }

    @Test func nBandEQNamesItsFilterTypes() throws {
        let eq = try makeUnit(kAudioUnitType_Effect, kAudioUnitSubType_NBandEQ)
        defer { AudioComponentInstanceDispose(eq) }
        let band1Type = AudioUnitParameterID(kAUNBandEQParam_FilterType + 1)
        var names: Unmanaged<CFArray>?
        var size = UInt32(MemoryLayout<Unmanaged<CFArray>?>.size)
        #expect(AudioUnitGetProperty(eq, kAudioUnitProperty_ParameterValueStrings, kAudioUnitScope_Global, band1Type, &names, &size) == noErr)
        let array = try #require(names?.takeRetainedValue()) as NSArray
        #expect(array.compactMap { ($0 as? NSString).map { $0 as String } } == [
            "Parametric", "2nd Order Butterworth Low Pass", "2nd Order Butterworth High Pass", "Resonant Low Pass",
            "Resonant High Pass", "Band Pass", "Band Stop", "Low Shelf", "High Shelf", "Resonant Low Shelf", "Resonant High Shelf"])
        // A continuous parameter has no value names.
        #expect(AudioUnitGetProperty(eq, kAudioUnitProperty_ParameterValueStrings, kAudioUnitScope_Global,
                                     AudioUnitParameterID(kAUNBandEQParam_Gain), &names, &size) == kAudioUnitErr_InvalidProperty)

        var value: AudioUnitParameterValue = 3
        let (typeText, gainText) = withUnsafePointer(to: &value) { v -> (String?, String?) in
            var request = AudioUnitParameterStringFromValue(inParamID: band1Type, inValue: v, outString: nil)
            var requestSize = UInt32(MemoryLayout<AudioUnitParameterStringFromValue>.size)
            #expect(AudioUnitGetProperty(eq, kAudioUnitProperty_ParameterStringFromValue, kAudioUnitScope_Global, 0, &request, &requestSize) == noErr)
            var gain = AudioUnitParameterStringFromValue(inParamID: AudioUnitParameterID(kAUNBandEQParam_Gain), inValue: v, outString: nil)
            #expect(AudioUnitGetProperty(eq, kAudioUnitProperty_ParameterStringFromValue, kAudioUnitScope_Global, 0, &gain, &requestSize) == noErr)
            return (request.outString?.takeRetainedValue() as String?, gain.outString?.takeRetainedValue() as String?)
        }
        #expect(typeText == "Resonant Low Pass")
        #expect(gainText == "3.00")
        var fromString = AudioUnitParameterValueFromString(inParamID: band1Type, inString: Unmanaged.passRetained("Band Stop" as CFString), outValue: 0)
        var fromSize = UInt32(MemoryLayout<AudioUnitParameterValueFromString>.size)
        #expect(AudioUnitGetProperty(eq, kAudioUnitProperty_ParameterValueFromString, kAudioUnitScope_Global, 0, &fromString, &fromSize) == noErr)
        fromString.inString.release()
        #expect(fromString.outValue == 6)

        var shortName = AudioUnitParameterIDName(inID: AudioUnitParameterID(kAUNBandEQParam_Frequency), inDesiredLength: 4, outName: nil)
        var nameSize = UInt32(MemoryLayout<AudioUnitParameterIDName>.size)
        #expect(AudioUnitGetProperty(eq, kAudioUnitProperty_ParameterIDName, kAudioUnitScope_Global, 0, &shortName, &nameSize) == noErr)
        let short = try #require(shortName.outName).takeRetainedValue() as String
        #expect(short.count == 4)
        var clump = AudioUnitParameterIDName(inID: UInt32(kAudioUnitClumpID_System), inDesiredLength: Int32(kAudioUnitParameterName_Full), outName: nil)
        #expect(AudioUnitGetProperty(eq, kAudioUnitProperty_ParameterClumpName, kAudioUnitScope_Global, 0, &clump, &nameSize)
            == kAudioUnitErr_InvalidPropertyValue)
    }
}
