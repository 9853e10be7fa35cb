/// The live audio unit instances of the process, so that API calls on a disposed or bogus `AudioUnit`
/// return `badComponentInstance` instead of crashing. Never used on the render thread.
enum AudioUnitInstances {
    static let table = LiveHandleTable()
}
