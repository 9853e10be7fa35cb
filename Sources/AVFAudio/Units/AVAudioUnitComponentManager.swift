import AudioToolbox
import Foundation

/// Apple's `AVAudioUnitComponentManager`: finds the audio units the component registry holds (the built-in units
/// and those registered with AudioComponentRegister) without opening them.
open class AVAudioUnitComponentManager: NSObject, @unchecked Sendable {
    /// Posted when components are registered or removed (Apple's AVAudioUnitComponentManagerRegistrationsChangedNotification).
    public static let registrationsChangedNotification = NSNotification.Name("AVAudioUnitComponentManagerRegistrationsChangedNotification")

    private static let instance = AVAudioUnitComponentManager()

    /// The one manager.
    @discardableResult
    open class func shared() -> Self { unsafeDowncast(instance, to: self) }

    /// Every tag a component carries (user tags included).
    open var tagNames: [String] { Array(Set(allComponents().flatMap(\.allTagNames))).sorted() }

    /// The system's standard tags, localized: none are defined here.
    open var standardLocalizedTagNames: [String] { [] }

    /// The audio units matching a description (0 fields are wildcards, as AudioComponentFindNext takes them).
    @discardableResult
    open func components(matching desc: AudioComponentDescription) -> [AVAudioUnitComponent] {
        var found: [AVAudioUnitComponent] = []
        var description = desc
        var component = AudioComponentFindNext(nil, &description)
        while let c = component {
            found.append(AVAudioUnitComponent(c))
            component = AudioComponentFindNext(c, &description)
        }
        return found
    }

    /// The audio units a predicate accepts (evaluated with each AVAudioUnitComponent).
    @discardableResult
    open func components(matching predicate: NSPredicate) -> [AVAudioUnitComponent] {
        allComponents().filter { predicate.evaluate(with: $0) }
    }

    /// The audio units the handler accepts; it may set its second argument to true to stop the search.
    @discardableResult
    open func components(passingTest testHandler: (AVAudioUnitComponent, UnsafeMutablePointer<ObjCBool>) -> Bool) -> [AVAudioUnitComponent] {
        var stop = ObjCBool(false)
        var found: [AVAudioUnitComponent] = []
        for component in allComponents() {
            if testHandler(component, &stop) { found.append(component) }
            if stop.boolValue { break }
        }
        return found
    }

    private func allComponents() -> [AVAudioUnitComponent] { components(matching: AudioComponentDescription()) }
}
