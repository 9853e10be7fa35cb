import OCAProperty

/// One row of an audio unit's property table, written in the audio-unit vocabulary: where the property exists
/// (a `Place`, with Apple's status for each wrong scope or element), when it may be written, how big it is and how
/// it is read and written, with the unit, scope and element handed to each closure. `AUBase` owns the rows every
/// unit has; a unit adds its own by overriding `propertyRows` (a row with the same ID replaces the inherited one).
/// Each row becomes a row of the shared property model (`objectProperty`), and GetPropertyInfo, GetProperty and
/// SetProperty are answered by the same `ObjectPropertyTable` as every other object's (AUBase+Properties.swift),
/// so the size Info reports is the size Get writes, and listeners fire from one place.
///
/// A unit adds a property with one row:
///
///     override class var propertyRows: [AUProperty] {
///         super.propertyRows + [
///             .value(kAudioUnitProperty_SampleRateConverterComplexity, UInt32.self, of: AUConverter.self,
///                    place: AUProperty.globalScope, writable: .always, exactSize: true,
///                    get: { unit, _, _ in unit.complexity },
///                    set: { unit, _, _, value in unit.complexity = value; return noErr }),
///         ]
///     }
struct AUProperty: @unchecked Sendable {
    /// Answers noErr where the property exists, else Apple's status for that scope and element.
    typealias Place = @Sendable (AUBase, AudioUnitScope, AudioUnitElement) -> OSStatus
    typealias Reader = (AUBase, AudioUnitScope, AudioUnitElement, UnsafeMutableRawPointer) -> OSStatus
    typealias Writer = (AUBase, AudioUnitScope, AudioUnitElement, UnsafeRawBufferPointer) -> OSStatus

    /// When a property may be written.
    enum Writability {
        /// Writable whenever it exists.
        case always
        /// Writable, but a set while the unit is initialized answers kAudioUnitErr_Initialized.
        case uninitializedOnly
        /// Read-only: a set answers kAudioUnitErr_InvalidProperty, as Apple's base does.
        case never
        /// Info reports what the closure says; the setter checks its own rules.
        case when((AUBase, AudioUnitScope, AudioUnitElement) -> Bool)
    }

    /// Who tells the listeners about a successful set.
    enum Notify {
        /// The table, after every successful set, with the caller's scope and element.
        case onSuccess
        /// The setter itself (it reports only real changes, or other properties too).
        case bySetter
    }

    let id: AudioUnitPropertyID
    /// Where Info and Get find it.
    let place: Place
    /// Where a set finds it (Apple's base checks some properties' scope only for Info).
    let setPlace: Place
    let writability: Writability
    /// The byte size Info reports and Get writes.
    let size: (AUBase, AudioUnitScope, AudioUnitElement) -> UInt32
    /// The smallest size a set accepts (and, with `exactSize`, the only one).
    let setSize: UInt32
    let exactSize: Bool
    let read: Reader
    let write: Writer?
    let notify: Notify

    /// A row with every part given.
    init(_ id: AudioUnitPropertyID, place: @escaping Place, setPlace: Place? = nil, writable: Writability,
         size: @escaping (AUBase, AudioUnitScope, AudioUnitElement) -> UInt32, setSize: UInt32 = 0, exactSize: Bool = false,
         notify: Notify = .onSuccess, read: @escaping Reader, write: Writer?) {
        self.id = id
        self.place = place
        self.setPlace = setPlace ?? place
        self.writability = writable
        self.size = size
        self.setSize = setSize
        self.exactSize = exactSize
        self.notify = notify
        self.read = read
        self.write = write
    }

    /// A fixed-size value of type `T` on units of type `U`: Info's size is `T`'s, Get stores the getter's
    /// value, a set loads a `T` (at least `T`'s size, or exactly with `exactSize`) and hands it to `set`.
    static func value<U: AUBase, T>(
        _ id: AudioUnitPropertyID, _: T.Type, of _: U.Type, place: @escaping Place, setPlace: Place? = nil,
        writable: Writability = .never, exactSize: Bool = false, notify: Notify = .onSuccess,
        get: @escaping (U, AudioUnitScope, AudioUnitElement) -> T,
        set: ((U, AudioUnitScope, AudioUnitElement, T) -> OSStatus)? = nil
    ) -> AUProperty {
        let size = UInt32(MemoryLayout<T>.size)
        return AUProperty(id, place: place, setPlace: setPlace, writable: set == nil ? .never : writable,
                          size: { _, _, _ in size }, setSize: size, exactSize: exactSize, notify: notify,
                          read: { unit, scope, element, out in
                              out.storeBytes(of: get(unsafeDowncast(unit, to: U.self), scope, element), as: T.self)
                              return noErr
                          },
                          write: set.map { set in { unit, scope, element, data in
                              set(unsafeDowncast(unit, to: U.self), scope, element, data.loadUnaligned(as: T.self))
                          } })
    }

    /// A 0/1 flag stored as UInt32 (any non-zero value sets it).
    static func flag<U: AUBase>(
        _ id: AudioUnitPropertyID, of _: U.Type, place: @escaping Place, writable: Writability = .always,
        notify: Notify = .onSuccess,
        get: @escaping (U, AudioUnitScope, AudioUnitElement) -> Bool,
        set: ((U, AudioUnitScope, AudioUnitElement, Bool) -> OSStatus)? = nil
    ) -> AUProperty {
        value(id, UInt32.self, of: U.self, place: place, writable: writable, notify: notify,
              get: { UInt32(get($0, $1, $2) ? 1 : 0) },
              set: set.map { set in { set($0, $1, $2, $3 != 0) } })
    }

    /// A read-only array: Info's size is the getter's count times the element size.
    static func array<U: AUBase, T>(
        _ id: AudioUnitPropertyID, _: T.Type, of _: U.Type, place: @escaping Place,
        get: @escaping (U, AudioUnitScope, AudioUnitElement) -> [T]
    ) -> AUProperty {
        AUProperty(id, place: place, writable: .never,
                   size: { unit, scope, element in
                       UInt32(get(unsafeDowncast(unit, to: U.self), scope, element).count * MemoryLayout<T>.stride)
                   },
                   read: { unit, scope, element, out in
                       let values = get(unsafeDowncast(unit, to: U.self), scope, element)
                       values.withUnsafeBytes { out.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
                       return noErr
                   },
                   write: nil)
    }

    /// A Core Foundation object handed out +1 (CFStringRef, CFArrayRef, CFDictionaryRef), as Apple's
    /// units do; the getter may answer a status instead (kAudioUnitErr_PropertyNotInUse). A set hands
    /// the caller's object (nil for a NULL reference) to `set` unretained.
    static func object<U: AUBase>(
        _ id: AudioUnitPropertyID, of _: U.Type, place: @escaping Place, writable: Writability = .never,
        notify: Notify = .onSuccess,
        get: @escaping (U, AudioUnitScope, AudioUnitElement) -> Result<AnyObject, OSStatusError>,
        set: ((U, AudioUnitScope, AudioUnitElement, AnyObject?) -> OSStatus)? = nil
    ) -> AUProperty {
        let size = UInt32(MemoryLayout<UnsafeRawPointer>.size)
        return AUProperty(id, place: place, writable: set == nil ? .never : writable, size: { _, _, _ in size },
                          setSize: size, exactSize: true, notify: notify,
                          read: { unit, scope, element, out in
                              switch get(unsafeDowncast(unit, to: U.self), scope, element) {
                              case .failure(let e): return e.status
                              case .success(let object):
                                  out.storeBytes(of: UnsafeRawPointer(Unmanaged.passRetained(object).toOpaque()), as: UnsafeRawPointer.self)
                                  return noErr
                              }
                          },
                          write: set.map { set in { unit, scope, element, data in
                              let object = data.loadUnaligned(as: UnsafeRawPointer?.self).map {
                                  Unmanaged<AnyObject>.fromOpaque($0).takeUnretainedValue()
                              }
                              return set(unsafeDowncast(unit, to: U.self), scope, element, object)
                          } })
    }

    /// A property Apple's unit of this kind does not have: every call answers kAudioUnitErr_InvalidProperty
    /// (a row that hides an inherited one).
    static func absent(_ id: AudioUnitPropertyID) -> AUProperty {
        AUProperty(id, place: { _, _, _ in kAudioUnitErr_InvalidProperty }, writable: .never, size: { _, _, _ in 0 },
                   read: { _, _, _, _ in kAudioUnitErr_InvalidProperty }, write: nil)
    }
}

/// The places properties exist, with the statuses Apple's base answers elsewhere.
extension AUProperty {
    /// Global scope, element 0.
    static let global: Place = { _, scope, element in
        scope != kAudioUnitScope_Global ? kAudioUnitErr_InvalidScope : element != 0 ? kAudioUnitErr_InvalidElement : noErr
    }

    /// Global scope, any element (Apple's base checks only the scope for these).
    static let globalScope: Place = { _, scope, _ in scope == kAudioUnitScope_Global ? noErr : kAudioUnitErr_InvalidScope }

    /// An existing element of the global, input or output scope.
    static let anyElement: Place = { unit, scope, element in
        if case .failure(let e) = unit.element(scope, element) { return e.status }
        return noErr
    }

    /// An existing input or output element; global scope means output 0.
    static let ioElement: Place = { unit, scope, element in
        if case .failure(let e) = unit.ioElement(scope, element) { return e.status }
        return noErr
    }

    /// An existing input or output element, never the global scope.
    static let inputOrOutputElement: Place = { unit, scope, element in
        guard scope == kAudioUnitScope_Input || scope == kAudioUnitScope_Output else { return kAudioUnitErr_InvalidScope }
        if case .failure(let e) = unit.element(scope, element) { return e.status }
        return noErr
    }

    /// An existing input element, or global element 0 (MakeConnection, SetRenderCallback).
    static let inputOrGlobalElement: Place = { unit, scope, element in
        guard scope == kAudioUnitScope_Input || scope == kAudioUnitScope_Global else { return kAudioUnitErr_InvalidScope }
        if case .failure(let e) = unit.element(scope, element) { return e.status }
        return noErr
    }

    /// An existing input element.
    static let inputElement: Place = { unit, scope, element in
        guard scope == kAudioUnitScope_Input else { return kAudioUnitErr_InvalidScope }
        return Int(element) < unit.inputs.count ? noErr : kAudioUnitErr_InvalidElement
    }

    /// Global, input, output or group scope, any element (ParameterList, ElementCount).
    static let anyScope: Place = { _, scope, _ in scope <= kAudioUnitScope_Group ? noErr : kAudioUnitErr_InvalidScope }

    /// Anywhere: the setter reads what it needs from the value.
    static let anywhere: Place = { _, _, _ in noErr }

    /// `place`, where `available` says the unit has the property at all (else kAudioUnitErr_InvalidProperty).
    static func when(_ available: @escaping @Sendable (AUBase) -> Bool, _ place: @escaping Place) -> Place {
        { unit, scope, element in available(unit) ? place(unit, scope, element) : kAudioUnitErr_InvalidProperty }
    }
}

extension AUProperty {
    /// This row in the shared property model, with the audio-unit rules:
    /// - Info and Get answer the place's status where the property is not (`availability`); a set, the set place's;
    /// - Info reports the row's writability, while a set of a row with a writer always reaches it (it checks its own
    ///   rules: the stream format is read-only on a connected input, yet setting the same format succeeds);
    /// - a set of the wrong size is kAudioUnitErr_InvalidPropertyValue (the table's bad-size status), then a
    ///   `.uninitializedOnly` row answers kAudioUnitErr_Initialized while the unit is initialized;
    /// - a successful set tells the listeners unless the setter does (`notify`).
    var objectProperty: ObjectProperty<AUPropertyRequest> {
        let row = self
        let write: ObjectProperty<AUPropertyRequest>.Writer? = row.write.map { write in
            { request, data in
                if case .uninitializedOnly = row.writability, request.unit.isInitialized { return kAudioUnitErr_Initialized }
                let status = write(request.unit, request.scope, request.element, data)
                if status == noErr, case .onSuccess = row.notify { request.unit.propertyChanged(row.id, request.scope, request.element) }
                return status
            }
        }
        var lifted = ObjectProperty<AUPropertyRequest>(
            id, size: { row.size($0.unit, $0.scope, $0.element) },
            setSize: row.exactSize ? .exactly(row.setSize) : .atLeast(row.setSize),
            read: { request, out, _ in row.read(request.unit, request.scope, request.element, out) }, write: write)
        switch row.writability {
        case .always, .uninitializedOnly: lifted.writability = .reported { _ in true }
        case .never: lifted.writability = .reported { _ in false }
        case .when(let writable): lifted.writability = .reported { writable($0.unit, $0.scope, $0.element) }
        }
        lifted.availability = { row.place($0.unit, $0.scope, $0.element) }
        lifted.setAvailability = { row.setPlace($0.unit, $0.scope, $0.element) }
        return lifted
    }
}
