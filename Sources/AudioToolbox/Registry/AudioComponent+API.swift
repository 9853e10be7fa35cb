// Audio Component Services, with Apple's names and signatures.

/// Finds the next component matching `inDesc` after `inComponent` (the first one when nil).
/// Zero type, subtype and manufacturer fields are wildcards; flags are compared under the mask.
@discardableResult
public func AudioComponentFindNext(_ inComponent: AudioComponent?,
                                   _ inDesc: UnsafePointer<AudioComponentDescription>) -> AudioComponent? {
    AudioComponentRegistry.shared.findNext(after: inComponent, matching: inDesc.pointee)?.handle
}

/// The number of components matching `inDesc`.
@discardableResult
public func AudioComponentCount(_ inDesc: UnsafePointer<AudioComponentDescription>) -> UInt32 {
    UInt32(AudioComponentRegistry.shared.count(matching: inDesc.pointee))
}

/// Writes one fact about a registered component; kAudio_ParamError for an unknown handle.
private func withEntry(_ component: AudioComponent, _ body: (AudioComponentEntry) -> Void) -> OSStatus {
    guard let entry = AudioComponentRegistry.shared.entry(for: component) else { return kAudio_ParamError }
    body(entry)
    return noErr
}

/// The component's name ("Manufacturer: Name"), +1 retained.
@discardableResult
public func AudioComponentCopyName(_ inComponent: AudioComponent,
                                   _ outName: UnsafeMutablePointer<Unmanaged<CFString>?>) -> OSStatus {
    withEntry(inComponent) { outName.pointee = Unmanaged.passRetained($0.name as NSString) }
}

/// Apple's `AudioComponentGetDescription`: the component's type, subtype, manufacturer and flags.
@discardableResult
public func AudioComponentGetDescription(_ inComponent: AudioComponent,
                                         _ outDesc: UnsafeMutablePointer<AudioComponentDescription>) -> OSStatus {
    withEntry(inComponent) { outDesc.pointee = $0.description }
}

/// Apple's `AudioComponentGetVersion`: the component's version number.
@discardableResult
public func AudioComponentGetVersion(_ inComponent: AudioComponent,
                                     _ outVersion: UnsafeMutablePointer<UInt32>) -> OSStatus {
    withEntry(inComponent) { outVersion.pointee = $0.version }
}

/// Creates an instance of the component. Never call from the render thread.
@discardableResult
public func AudioComponentInstanceNew(_ inComponent: AudioComponent,
                                      _ outInstance: UnsafeMutablePointer<AudioComponentInstance?>) -> OSStatus {
    outInstance.pointee = nil
    guard let entry = AudioComponentRegistry.shared.entry(for: inComponent) else { return kAudio_ParamError }
    let object: AudioUnitObject
    switch entry.maker {
    case .builtIn(let make):
        object = make(entry)
    case .plugIn(let factory):
        var desc = entry.description
        guard let interface = factory(&desc) else { return kAudioComponentErr_InstanceInvalidated }
        object = PlugInAudioUnit(component: entry, interface: interface)
    case .codec:
        // An AudioCodec instance: driven by the AudioCodec calls, tracked apart from audio units.
        guard let codec = CodecRegistry.entry(entry.description.componentSubType) else { return kAudioComponentErr_UnsupportedType }
        let object = AudioCodecObject(component: entry, codec: codec, isEncoder: entry.description.componentType == kAudioEncoderComponentType)
        outInstance.pointee = OpaquePointer(AudioCodecInstances.table.add(object))
        return noErr
    case .audioFile:
        outInstance.pointee = OpaquePointer(AudioFileComponentObject.instances.add(AudioFileComponentObject(component: entry)))
        return noErr
    }
    let raw = AudioUnitInstances.table.add(object)
    let status = object.open()
    guard status == noErr else {
        _ = AudioUnitInstances.table.remove(raw, as: AudioUnitObject.self)
        return status
    }
    outInstance.pointee = object.handle
    return noErr
}

/// Disposes of an instance: uninitializes it and frees everything it owns. Never call from the
/// render thread, nor while another thread renders the unit.
@discardableResult
public func AudioComponentInstanceDispose(_ inInstance: AudioComponentInstance) -> OSStatus {
    if let codec = AudioCodecInstances.table.remove(UnsafeMutableRawPointer(inInstance), as: AudioCodecObject.self) {
        _ = codec.uninitialize()
        return noErr
    }
    if let file = AudioFileComponentObject.instances.remove(UnsafeMutableRawPointer(inInstance), as: AudioFileComponentObject.self) {
        _ = file.closeFile()
        return noErr
    }
    guard let object = AudioUnitInstances.table.remove(UnsafeMutableRawPointer(inInstance),
                                                                      as: AudioUnitObject.self) else {
        return badComponentInstance
    }
    object.close()
    return noErr
}

/// The component an instance was made from.
@discardableResult
public func AudioComponentInstanceGetComponent(_ inInstance: AudioComponentInstance) -> AudioComponent {
    if let codec = AudioCodecInstances.codec(inInstance) { return codec.component.handle }
    if let file = AudioFileComponentObject.live(inInstance) { return file.component.handle }
    return AudioUnitObject.withUnchecked(inInstance) { $0.component.handle }
}

/// Whether the instance implements the given selector (`kAudioOutputUnitStartSelect`, ...).
@discardableResult
public func AudioComponentInstanceCanDo(_ inInstance: AudioComponentInstance, _ inSelectorID: Int16) -> Bool {
    AudioUnitObject.live(inInstance)?.canDo(inSelectorID) ?? false
}

/// Registers a component implemented in the calling process through Apple's v2 plug-in interface.
/// It is then found by `AudioComponentFindNext` and instantiated like a built-in unit, and
/// kAudioComponentRegistrationsChangedNotification is posted.
@discardableResult
public func AudioComponentRegister(_ inDesc: UnsafePointer<AudioComponentDescription>, _ inName: CFString,
                                   _ inVersion: UInt32,
                                   _ inFactory: AudioComponentFactoryFunction) -> AudioComponent {
    let entry = AudioComponentEntry(description: inDesc.pointee, name: inName as String, version: inVersion,
                                    maker: .plugIn(inFactory))
    AudioComponentRegistry.shared.register(entry)
    NotificationCenter.default.post(name: Notification.Name(kAudioComponentRegistrationsChangedNotification as String), object: nil)
    return entry.handle
}
