/// `kAudioUnitProperty_ClassInfo`: the unit's state as a property list, in the layout of Apple's
/// base class (keys version/type/subtype/manufacturer/data/name/render-quality/element-name; the
/// data blob holds big-endian records of scope, element, count, then parameter ID and Float32 bits).
extension AUBase {
    func saveState() -> NSDictionary {
        let d = NSMutableDictionary()
        let desc = component.description
        d[kAUPresetVersionKey] = NSNumber(value: Int32(0))
        d[kAUPresetTypeKey] = NSNumber(value: Int32(bitPattern: desc.componentType))
        d[kAUPresetSubtypeKey] = NSNumber(value: Int32(bitPattern: desc.componentSubType))
        d[kAUPresetManufacturerKey] = NSNumber(value: Int32(bitPattern: desc.componentManufacturer))
        var blob = Data()
        func append(_ v: UInt32) { withUnsafeBytes(of: v.bigEndian) { blob.append(contentsOf: $0) } }
        let scopes: [(AudioUnitScope, [AUElement])] = [
            (kAudioUnitScope_Global, [globalElement]), (kAudioUnitScope_Input, inputs), (kAudioUnitScope_Output, outputs),
        ]
        for (scope, elements) in scopes {
            for (index, e) in elements.enumerated() where e.parameters.count > 0 {
                let table = e.parameters
                let kept = (0..<table.count).filter {
                    !table.infos[$0].flags.contains(.flag_OmitFromPresets) && !table.infos[$0].flags.contains(.flag_MeterReadOnly)
                }
                append(scope); append(UInt32(index)); append(UInt32(kept.count))
                for i in kept { append(table.ids[i]); append(table.value(at: i).bitPattern) }
            }
        }
        d[kAUPresetDataKey] = blob as NSData
        d[kAUPresetNameKey] = currentPreset.name as NSString
        // A factory preset's number too, so units whose state is the preset (the iPod EQ) come back the same.
        if currentPreset.number >= 0 { d[kAUPresetNumberKey] = NSNumber(value: currentPreset.number) }
        d[kAUPresetRenderQualityKey] = NSNumber(value: Int32(renderQuality))
        var names: [String: [String: String]] = [:]
        for (scope, elements) in scopes {
            for (index, e) in elements.enumerated() {
                if let name = e.name { names[String(scope), default: [:]][String(index)] = name }
            }
        }
        if !names.isEmpty { d[kAUPresetElementNameKey] = names as NSDictionary }
        return d
    }

    func restoreState(_ plist: AnyObject) -> OSStatus {
        guard let d = plist as? NSDictionary else { return kAudioUnitErr_InvalidPropertyValue }
        if d[kAUPresetPartKey] != nil { return kAudioUnitErr_InvalidPropertyValue }
        let desc = component.description
        guard let version = d[kAUPresetVersionKey] as? NSNumber, version.int32Value == 0,
              let subtype = d[kAUPresetSubtypeKey] as? NSNumber,
              UInt32(truncatingIfNeeded: subtype.int64Value) == desc.componentSubType,
              let manufacturer = d[kAUPresetManufacturerKey] as? NSNumber,
              UInt32(truncatingIfNeeded: manufacturer.int64Value) == desc.componentManufacturer
        else { return kAudioUnitErr_InvalidPropertyValue }

        if let data = d[kAUPresetDataKey] as? NSData {
            let bytes = [UInt8](data as Data)
            var p = 0
            // Every read is bounds-checked: the blob may come from anywhere.
            func read() -> UInt32? {
                guard p + 4 <= bytes.count else { return nil }
                defer { p += 4 }
                return UInt32(bytes[p]) << 24 | UInt32(bytes[p + 1]) << 16 | UInt32(bytes[p + 2]) << 8 | UInt32(bytes[p + 3])
            }
            while p < bytes.count {
                guard let scope = read(), let element = read(), let count = read() else { return kAudioUnitErr_InvalidPropertyValue }
                guard scope <= kAudioUnitScope_Group else { return kAudioUnitErr_InvalidScope }
                guard Int(count) <= (bytes.count - p) / 8 else { return kAudioUnitErr_InvalidPropertyValue }
                for _ in 0..<count {
                    guard let id = read(), let bits = read() else { return kAudioUnitErr_InvalidPropertyValue }
                    let value = Float(bitPattern: bits)
                    if value.isFinite, let (table, i) = parameterSlot(id, scope, element) { table.setValue(at: i, value) }
                }
            }
        }
        if let quality = d[kAUPresetRenderQualityKey] as? NSNumber {
            renderQuality = min(UInt32(truncatingIfNeeded: quality.int64Value), UInt32(kRenderQuality_Max))
        }
        if let names = d[kAUPresetElementNameKey] as? NSDictionary {
            for case let (scopeKey as String, elementNames as NSDictionary) in names {
                guard let scope = UInt32(scopeKey) else { continue }
                for case let (elementKey as String, name as String) in elementNames {
                    guard let index = UInt32(elementKey), case .success(let e) = element(scope, index) else { continue }
                    e.name = name
                    propertyChanged(kAudioUnitProperty_ElementName, scope, index)
                }
            }
        }
        currentPreset = (-1, (d[kAUPresetNameKey] as? String) ?? "Untitled")
        if let number = (d[kAUPresetNumberKey] as? NSNumber)?.int32Value, number >= 0, factoryPresets != nil {
            _ = applyFactoryPreset(number)  // an unknown number leaves the state as restored above
        }
        propertyChanged(kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0)
        return noErr
    }
}
