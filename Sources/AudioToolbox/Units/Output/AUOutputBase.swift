import Synchronization

/// What every output unit shares, after AudioUnitSDK's AUOutputBase: the Start and Stop selectors, the
/// read-only IsRunning property with its notification, and a stop at uninitialize. Subclasses override
/// `start()` and `stop()` and report the outcome through `setRunning(_:)`.
class AUOutputBase: AUBase, @unchecked Sendable {
    /// Whether the unit is started.
    let running = Atomic<Bool>(false)

    override class var propertyRows: [AUProperty] {
        super.propertyRows + [
            .flag(kAudioOutputUnitProperty_IsRunning, of: AUOutputBase.self, place: AUProperty.globalScope,
                  get: { unit, _, _ in unit.running.load(ordering: .relaxed) }),
        ]
    }

    /// Records a start or a stop; IsRunning's listeners hear of a change only.
    func setRunning(_ on: Bool) {
        if running.exchange(on, ordering: .acquiringAndReleasing) != on {
            propertyChanged(kAudioOutputUnitProperty_IsRunning, kAudioUnitScope_Global, 0)
        }
    }

    override func uninitialize() -> OSStatus {
        _ = stop()
        return super.uninitialize()
    }

    override func canDo(_ selector: Int16) -> Bool {
        let s = Int(selector)
        return s == kAudioOutputUnitStartSelect || s == kAudioOutputUnitStopSelect || (s > 0 && s <= kAudioUnitComplexRenderSelect)
    }
}
