import Foundation
import Synchronization

// AudioComponent.h's validation and configuration-info calls. Validation is auval's (AUValidator), run in the
// host's process on the calling thread; results are cached per component until ForceValidation asks again.

/// One validation's outcome, kept per component.
private struct ValidationRecord: Sendable {
    let result: AudioComponentValidationResult
    let output: [String]
}

private let validationCache = Mutex<[UInt: ValidationRecord]>([:])

private func cacheKey(_ component: AudioComponent) -> UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(component))) }

/// Validates `component` now, or answers a cached run; nil when it is not an audio unit.
private func validate(_ component: AudioComponent, parameters: CFDictionary?) -> (ValidationRecord, cached: Bool)? {
    var description = AudioComponentDescription()
    guard AudioComponentGetDescription(component, &description) == noErr,
          AUValidator.audioUnitTypes.contains(description.componentType) else { return nil }
    let options = parameters as? [String: Any] ?? [:]
    let force = (options[kAudioComponentValidationParameter_ForceValidation] as? Bool) ?? false
    if !force, let kept = validationCache.withLock({ $0[cacheKey(component)] }) { return (kept, true) }
    let timeOut = (options[kAudioComponentValidationParameter_TimeOut] as? Double) ?? 600

    // The validator runs on its own thread so that a unit that hangs times out instead of hanging the caller;
    // such a unit's thread is left running (it cannot be stopped from outside), as Apple's would be killed.
    final class Run: @unchecked Sendable { var lines: [String] = []; var passed = false }
    let run = Run()
    let unit = description
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        run.passed = AUValidator(description: unit) { run.lines.append($0) }.run()
        done.signal()
    }
    let record: ValidationRecord
    if done.wait(timeout: .now() + max(0, timeOut)) == .timedOut {
        record = ValidationRecord(result: .timedOut, output: [])
    } else {
        record = ValidationRecord(result: run.passed ? .passed : .failed, output: run.lines)
    }
    validationCache.withLock { $0[cacheKey(component)] = record }
    return (record, false)
}

/// The report's sections as Apple's "Tests" entries: a name, a result and the section's lines.
private func tests(_ lines: [String]) -> [[String: Any]] {
    var sections: [[String: Any]] = []
    var index = 0
    while index < lines.count {
        guard lines[index].hasPrefix("-----"), index + 1 < lines.count, !lines[index + 1].hasPrefix("-----") else { index += 1; continue }
        let name = lines[index + 1]
        var body: [String] = []
        index += 2
        while index < lines.count, !lines[index].hasPrefix("-----") { body.append(lines[index]); index += 1 }
        let failed = body.contains { $0 == "* * FAIL" || $0.hasPrefix("FATAL ERROR") || $0.hasPrefix("ERROR:") }
        let result: AudioComponentValidationResult = failed ? .failed : .passed
        sections.append(["Name": name, "Result": NSNumber(value: result.rawValue), "Output": body])
    }
    return sections
}

/// Tests an audio unit for API and behavioural conformance (auval's checks), synchronously. Parameters:
/// kAudioComponentValidationParameter_TimeOut (seconds) and _ForceValidation (ignore a cached result).
/// Components that are not audio units answer kAudioComponentErr_UnsupportedType.
public func AudioComponentValidate(_ inComponent: AudioComponent, _ inValidationParameters: CFDictionary?,
                                   _ outValidationResult: UnsafeMutablePointer<AudioComponentValidationResult>) -> OSStatus {
    guard let (record, _) = validate(inComponent, parameters: inValidationParameters) else { return kAudioComponentErr_UnsupportedType }
    outValidationResult.pointee = record.result
    return noErr
}

/// Validates asynchronously and hands the result and its details ("Output", "Result", "Tests", "WasCached")
/// to `inCompletionHandler` on a background queue.
public func AudioComponentValidateWithResults(_ inComponent: AudioComponent, _ inValidationParameters: CFDictionary?,
                                              _ inCompletionHandler: @escaping @Sendable (AudioComponentValidationResult, CFDictionary) -> Void) -> OSStatus {
    var description = AudioComponentDescription()
    guard AudioComponentGetDescription(inComponent, &description) == noErr,
          AUValidator.audioUnitTypes.contains(description.componentType) else { return kAudioComponentErr_UnsupportedType }
    let component = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(inComponent)))
    nonisolated(unsafe) let parameters = inValidationParameters
    DispatchQueue.global().async {
        let handle = AudioComponent(bitPattern: Int(bitPattern: component))!
        guard let (record, cached) = validate(handle, parameters: parameters) else { return }
        let details: [String: Any] = ["Output": record.output, "Result": NSNumber(value: record.result.rawValue),
                                      "Tests": tests(record.output), "WasCached": cached]
        inCompletionHandler(record.result, details as NSDictionary)
    }
    return noErr
}

/// The capabilities of an audio unit as a dictionary with the kAudioUnitConfigurationInfo_* keys (channel
/// configurations, initial bus channel counts, bus-count writability, supported layout tags, custom view,
/// architectures) plus the cached validation result, read from a fresh instance. The caller releases it.
public func AudioComponentCopyConfigurationInfo(_ inComponent: AudioComponent,
                                                _ outConfigurationInfo: UnsafeMutablePointer<Unmanaged<CFDictionary>?>) -> OSStatus {
    var description = AudioComponentDescription()
    guard AudioComponentGetDescription(inComponent, &description) == noErr,
          AUValidator.audioUnitTypes.contains(description.componentType) else { return kAudioComponentErr_UnsupportedType }
    var instance: AudioComponentInstance?
    let status = AudioComponentInstanceNew(inComponent, &instance)
    guard status == noErr, let unit = instance else { return status }
    defer { AudioComponentInstanceDispose(unit) }

    var info: [String: Any] = [kAudioUnitConfigurationInfo_HasCustomView: false]
    // Channel configurations: SupportedNumChannels, else {-1, -1} for effects and none for the rest.
    var size: UInt32 = 0
    var writable: DarwinBoolean = false
    var configurations: [[Int]] = []
    if AudioUnitGetPropertyInfo(unit, kAudioUnitProperty_SupportedNumChannels, kAudioUnitScope_Global, 0, &size, &writable) == noErr, size > 0 {
        var channels = [AUChannelInfo](repeating: AUChannelInfo(), count: Int(size) / MemoryLayout<AUChannelInfo>.stride)
        if AudioUnitGetProperty(unit, kAudioUnitProperty_SupportedNumChannels, kAudioUnitScope_Global, 0, &channels, &size) == noErr {
            configurations = channels.prefix(Int(size) / MemoryLayout<AUChannelInfo>.stride).map { [Int($0.inChannels), Int($0.outChannels)] }
        }
    } else if [kAudioUnitType_Effect, kAudioUnitType_MusicEffect].contains(description.componentType) {
        configurations = [[-1, -1]]
    }
    info[kAudioUnitConfigurationInfo_ChannelConfigurations] = configurations

    func busChannels(_ scope: AudioUnitScope) -> [Int] {
        var count: UInt32 = 0
        var countSize = UInt32(MemoryLayout<UInt32>.size)
        guard AudioUnitGetProperty(unit, kAudioUnitProperty_ElementCount, scope, 0, &count, &countSize) == noErr else { return [] }
        return (0..<count).map { element in
            var format = AudioStreamBasicDescription()
            var formatSize = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
            let s = AudioUnitGetProperty(unit, kAudioUnitProperty_StreamFormat, scope, element, &format, &formatSize)
            return s == noErr ? Int(format.mChannelsPerFrame) : 0
        }
    }
    info[kAudioUnitConfigurationInfo_InitialInputs] = busChannels(kAudioUnitScope_Input)
    info[kAudioUnitConfigurationInfo_InitialOutputs] = busChannels(kAudioUnitScope_Output)

    info[kAudioUnitConfigurationInfo_BusCountWritable] = [kAudioUnitScope_Global, kAudioUnitScope_Input, kAudioUnitScope_Output].map { scope -> Bool in
        var countSize: UInt32 = 0
        var canWrite: DarwinBoolean = false
        return AudioUnitGetPropertyInfo(unit, kAudioUnitProperty_ElementCount, scope, 0, &countSize, &canWrite) == noErr && canWrite.boolValue
    }

    func layoutTags(_ scope: AudioUnitScope) -> [Int] {
        var tagsSize: UInt32 = 0
        guard AudioUnitGetPropertyInfo(unit, kAudioUnitProperty_SupportedChannelLayoutTags, scope, 0, &tagsSize, nil) == noErr, tagsSize > 0 else { return [] }
        var tags = [AudioChannelLayoutTag](repeating: 0, count: Int(tagsSize) / 4)
        guard AudioUnitGetProperty(unit, kAudioUnitProperty_SupportedChannelLayoutTags, scope, 0, &tags, &tagsSize) == noErr else { return [] }
        return tags.prefix(Int(tagsSize) / 4).map { Int($0) }
    }
    info[kAudioUnitConfigurationInfo_SupportedChannelLayoutTags] = ["Input": layoutTags(kAudioUnitScope_Input), "Output": layoutTags(kAudioUnitScope_Output)]
    #if arch(x86_64)
    info[kAudioUnitConfigurationInfo_AvailableArchitectures] = ["x86_64"]
    #elseif arch(arm64)
    info[kAudioUnitConfigurationInfo_AvailableArchitectures] = ["arm64"]
    #endif
    if let kept = validationCache.withLock({ $0[cacheKey(inComponent)] }) {
        info[kAudioComponentConfigurationInfo_ValidationResult] = NSNumber(value: kept.result.rawValue)
    }
    outConfigurationInfo.pointee = Unmanaged.passRetained(info as NSDictionary)
    return noErr
}
