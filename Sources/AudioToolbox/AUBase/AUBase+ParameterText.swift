import Foundation

/// The properties that turn parameter values into text and back, and name parameters and clumps, as rows of
/// every unit's table. Apple's AUBase leaves them to each unit; ours answers them for every parameter: value
/// names where a unit gives them (`parameterValueStrings`), else the number with two decimals (as
/// AUParameter's default string does).
extension AUBase {
    /// Byte offsets of the in/out structs' fields (their Swift layout is the C layout: 4-byte ID, then
    /// pointer-aligned references).
    private static let referenceOffset = MemoryLayout<AudioUnitParameterStringFromValue>.offset(of: \.inValue)!
    private static let outStringOffset = MemoryLayout<AudioUnitParameterStringFromValue>.offset(of: \.outString)!
    private static let inStringOffset = MemoryLayout<AudioUnitParameterValueFromString>.offset(of: \.inString)!
    private static let outValueOffset = MemoryLayout<AudioUnitParameterValueFromString>.offset(of: \.outValue)!
    private static let desiredLengthOffset = MemoryLayout<AudioUnitParameterNameInfo>.offset(of: \.inDesiredLength)!
    private static let outNameOffset = MemoryLayout<AudioUnitParameterNameInfo>.offset(of: \.outName)!

    static let parameterTextRows: [AUProperty] = [
        .object(kAudioUnitProperty_ParameterValueStrings, of: AUBase.self,
                place: { unit, scope, id in
                    guard scope <= kAudioUnitScope_Group else { return kAudioUnitErr_InvalidScope }
                    return unit.parameterInfo(scope, id) != nil && unit.parameterValueStrings(scope, id) != nil
                        ? noErr : kAudioUnitErr_InvalidProperty
                },
                get: { unit, scope, id in .success(unit.parameterValueStrings(scope, id)! as NSArray) }),
        AUProperty(kAudioUnitProperty_ParameterStringFromValue, place: AUProperty.anyElement, writable: .never,
                   size: { _, _, _ in UInt32(MemoryLayout<AudioUnitParameterStringFromValue>.size) },
                   read: { unit, scope, element, io in
                       let id = io.load(as: AudioUnitParameterID.self)
                       guard let (table, i) = unit.parameterSlot(id, scope, element) else { return kAudioUnitErr_InvalidParameter }
                       // A C caller may pass NULL for the value: then the current value is named.
                       let given = io.load(fromByteOffset: referenceOffset, as: UnsafeRawPointer?.self)
                       let value = given?.loadUnaligned(as: AudioUnitParameterValue.self) ?? table.value(at: i)
                       let text = unit.parameterText(scope, id, table.infos[i], value) as NSString
                       io.storeBytes(of: Unmanaged.passRetained(text).toOpaque(), toByteOffset: outStringOffset, as: UnsafeMutableRawPointer.self)
                       return noErr
                   },
                   write: nil),
        AUProperty(kAudioUnitProperty_ParameterValueFromString, place: AUProperty.anyElement, writable: .never,
                   size: { _, _, _ in UInt32(MemoryLayout<AudioUnitParameterValueFromString>.size) },
                   read: { unit, scope, element, io in
                       let id = io.load(as: AudioUnitParameterID.self)
                       guard let (table, i) = unit.parameterSlot(id, scope, element) else { return kAudioUnitErr_InvalidParameter }
                       guard let reference = io.load(fromByteOffset: inStringOffset, as: UnsafeRawPointer?.self),
                             let string = Unmanaged<AnyObject>.fromOpaque(reference).takeUnretainedValue() as? NSString,
                             let value = unit.parameterValue(scope, id, table.infos[i], string as String) else {
                           return kAudioUnitErr_InvalidPropertyValue
                       }
                       io.storeBytes(of: value, toByteOffset: outValueOffset, as: AudioUnitParameterValue.self)
                       return noErr
                   },
                   write: nil),
        AUProperty(kAudioUnitProperty_ParameterIDName, place: AUProperty.anyElement, writable: .never,
                   size: { _, _, _ in UInt32(MemoryLayout<AudioUnitParameterNameInfo>.size) },
                   read: { unit, scope, element, io in
                       let id = io.load(as: AudioUnitParameterID.self)
                       guard let (table, i) = unit.parameterSlot(id, scope, element) else { return kAudioUnitErr_InvalidParameter }
                       let desired = io.load(fromByteOffset: desiredLengthOffset, as: Int32.self)
                       var name = parameterName(table.infos[i])
                       if desired > 0, name.count > Int(desired) { name = String(name.prefix(Int(desired))) }
                       io.storeBytes(of: Unmanaged.passRetained(name as NSString).toOpaque(), toByteOffset: outNameOffset,
                                     as: UnsafeMutableRawPointer.self)
                       return noErr
                   },
                   write: nil),
        // As AudioUnitSDK's base: Info always answers; clump 0 (kAudioUnitClumpID_System) is reserved.
        AUProperty(kAudioUnitProperty_ParameterClumpName, place: AUProperty.anywhere, writable: .never,
                   size: { _, _, _ in UInt32(MemoryLayout<AudioUnitParameterNameInfo>.size) },
                   read: { unit, scope, _, io in
                       let id = io.load(as: UInt32.self)
                       guard id != UInt32(kAudioUnitClumpID_System) else { return kAudioUnitErr_InvalidPropertyValue }
                       guard var name = unit.clumpName(scope, id) else { return kAudioUnitErr_InvalidProperty }
                       let desired = io.load(fromByteOffset: desiredLengthOffset, as: Int32.self)
                       if desired > 0, name.count > Int(desired) { name = String(name.prefix(Int(desired))) }
                       io.storeBytes(of: Unmanaged.passRetained(name as NSString).toOpaque(), toByteOffset: outNameOffset,
                                     as: UnsafeMutableRawPointer.self)
                       return noErr
                   },
                   write: nil),
    ]

    /// A parameter's full name: its CFString name, else its C name.
    static func parameterName(_ info: AudioUnitParameterInfo) -> String {
        if let name = info.cfNameString { return name.takeUnretainedValue() as String }
        return withUnsafeBytes(of: info.name) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// The text of `value`: its name when the parameter has value names and the value is one of them, else
    /// the number with two decimals.
    func parameterText(_ scope: AudioUnitScope, _ id: AudioUnitParameterID, _ info: AudioUnitParameterInfo,
                       _ value: AudioUnitParameterValue) -> String {
        if let names = parameterValueStrings(scope, id), value.isFinite {
            let index = Int((Double(value) - Double(info.minValue)).rounded())
            if names.indices.contains(index) { return names[index] }
        }
        return String(format: "%.2f", Double(value))
    }

    /// The value `text` names: one of the parameter's value names (case-insensitively), else a number.
    func parameterValue(_ scope: AudioUnitScope, _ id: AudioUnitParameterID, _ info: AudioUnitParameterInfo,
                        _ text: String) -> AudioUnitParameterValue? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let names = parameterValueStrings(scope, id),
           let index = names.firstIndex(where: { $0.caseInsensitiveCompare(trimmed) == .orderedSame }) {
            return info.minValue + Float(index)
        }
        guard let number = Double(trimmed), number.isFinite else { return nil }
        return Float(number)
    }
}
