import AudioDSP
import COCASupport
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The SoundFont instruments (AUSampler, AUMIDISynth, DLSSynth) on AudioDSP's `SamplerEngine`: one engine per
/// initialized unit, playing a parsed bank (`SoundBankCache`). The MusicDevice base applies MIDI at its sample
/// offsets; this class hands each message to the engine and renders the stereo mix into the unit's output.
///
/// A new bank or preset is installed from a control thread under a render gate: the render thread only tries the
/// gate (a slice that finds it taken renders silence and drops that slice's events), so a load never blocks the
/// render, and the engine's allocation happens off the render thread.
class AUInstrumentUnit: AUMusicDeviceBase, @unchecked Sendable {
    /// The bank to play (nil: the unit's built-in instrument) and the selection in it.
    private(set) var font: SoundFont?
    private(set) var bankPath: String?
    /// The engine and the scratch the render uses; touched by the render thread only while it holds `gate`.
    private var engine: SamplerEngine?
    private var left: UnsafeMutablePointer<Float>?
    private var right: UnsafeMutablePointer<Float>?
    private var scratchFrames = 0
    private let gate = Atomic<Bool>(false)
    /// Whether this slice holds the gate (render thread).
    private var sliceHoldsGate = false
    /// Notes started with MusicDeviceStartNote: instance ID -> channel and key, in a small table (render thread).
    private let notes: UnsafeMutablePointer<(id: UInt32, channel: UInt8, key: UInt8)>
    private static let noteSlots = 256

    override init(component: AudioComponentEntry) {
        notes = .allocate(capacity: Self.noteSlots)
        notes.initialize(repeating: (0, 0, 0), count: Self.noteSlots)
        super.init(component: component)
    }

    deinit {
        notes.deallocate()
    }

    // MARK: Subclass hooks

    /// The bank played when none was loaded (AUSampler: its sine; the GM units: the default GM bank).
    func builtInBank() -> SoundFont? { nil }
    /// Points the engine's channels at the unit's presets after a load (the GM units keep General MIDI's defaults).
    func selectPresets(_ engine: SamplerEngine) {}
    /// The tuning of every note in cents, from the unit's parameters; read at every slice. Render thread.
    var tuningCents: Float { 0 }
    /// How many voices sound at once.
    var voiceCount: Int { 64 }
    /// Scales the stereo mix in place after the engine wrote it (gain, pan). Render thread.
    func postProcess(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frames: Int) {}

    // MARK: Banks

    /// Installs `font` (and the unit's preset selection in it) for the next render; the engine is made at
    /// initialize if the unit is not initialized. Not for the render thread.
    func install(_ font: SoundFont?, path: String?) {
        withGate {
            self.font = font
            bankPath = path
            if let engine {
                engine.load(font ?? builtInBank())
                selectPresets(engine)
            }
        }
    }

    /// Re-applies the preset selection (after a bank select or program property change).
    func reselect() {
        withGate { if let engine { selectPresets(engine) } }
    }

    /// The bank the engine plays: the loaded one or the built-in one.
    var playingBank: SoundFont? { font ?? builtInBank() }

    private func withGate<R>(_ body: () -> R) -> R {
        while !gate.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged { usleep(200) }
        defer { gate.store(false, ordering: .releasing) }
        return body()
    }

    // MARK: Lifecycle

    override func initializeUnit() -> OSStatus {
        let format = outputs[0].format
        guard format.mChannelsPerFrame >= 1 else { return kAudioUnitErr_FormatNotSupported }
        let newEngine = SamplerEngine(sampleRate: format.mSampleRate, maximumVoices: voiceCount)
        newEngine.load(playingBank)
        selectPresets(newEngine)
        let frames = Int(maxFramesPerSlice)
        // The mix buffers come from the unit's render memory. The unit is uninitialized here, so the pointers they
        // replace are nil (cleanupUnit cleared them); the swap still happens under the gate, as a slice reads them
        // only while holding it.
        let l = renderMemory.take(Float.self, count: frames)
        let r = renderMemory.take(Float.self, count: frames)
        withGate { engine = newEngine; left = l; right = r; scratchFrames = frames }
        return noErr
    }

    override func cleanupUnit() {
        // Under the gate: once it is released no slice can still hold the mix buffers, so AUBase may free them
        // right after this returns.
        withGate { engine = nil; left = nil; right = nil; scratchFrames = 0 }
    }

    override func resetUnit(_ scope: AudioUnitScope, _ element: AudioUnitElement) {
        super.resetUnit(scope, element)
        withGate {
            engine?.reset()
            if let engine { selectPresets(engine) }
        }
    }

    // MARK: Render

    override func renderBus(_ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, _ timeStamp: UnsafePointer<AudioTimeStamp>,
                            _ bus: UInt32, _ frames: UInt32, _ output: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        sliceHoldsGate = gate.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
        if sliceHoldsGate, let engine {
            let tuning = tuningCents
            if engine.tuningCents != tuning { engine.tuningCents = tuning }
        }
        defer {
            if sliceHoldsGate { gate.store(false, ordering: .releasing) }
            sliceHoldsGate = false
        }
        return super.renderBus(flags, timeStamp, bus, frames, output)
    }

    override func handle(_ event: MusicDeviceEvent) {
        guard sliceHoldsGate, let engine else { return }
        switch event.kind {
        case .midi:
            if event.status == 0xFF {
                engine.reset()
                selectPresets(engine)
            } else {
                engine.handle(status: event.status, data1: event.data1, data2: event.data2)
            }
        case .startNote:
            let channel = UInt8(event.group & 0x0F)
            let key = UInt8(min(max(event.pitch.rounded(), 0), 127))
            let velocity = UInt8(min(max(event.velocity.rounded(), 1), 127))
            notes[Int(event.noteID) % Self.noteSlots] = (event.noteID, channel, key)
            engine.handle(status: 0x90 | channel, data1: key, data2: velocity)
        case .stopNote:
            let slot = Int(event.noteID) % Self.noteSlots
            guard notes[slot].id == event.noteID else { return }
            engine.handle(status: 0x80 | notes[slot].channel, data1: notes[slot].key, data2: 0)
            notes[slot].id = 0
        }
    }

    override func renderInstrument(_ buffers: UnsafeMutableAudioBufferListPointer, offset: Int, frames: Int) {
        guard sliceHoldsGate, let engine, let left, let right, frames <= scratchFrames else {
            var b = 0
            while b < buffers.count {
                if let p = buffers[b].mData?.assumingMemoryBound(to: Float.self) { oca_memzero(p + offset, UInt(frames * 4)) }
                b += 1
            }
            return
        }
        engine.render(frameCount: frames, left: left, right: right)
        postProcess(left: left, right: right, frames: frames)
        // Index loops: iterating the buffer list through Collection slices allocates.
        let count = buffers.count
        guard count > 0, let first = buffers[0].mData?.assumingMemoryBound(to: Float.self) else { return }
        if count == 1 {
            // Mono output: the mix's average.
            for i in 0..<frames { first[offset + i] = 0.5 * (left[i] + right[i]) }
            return
        }
        oca_memmove(first + offset, left, UInt(frames * 4))
        if let second = buffers[1].mData?.assumingMemoryBound(to: Float.self) { oca_memmove(second + offset, right, UInt(frames * 4)) }
        var b = 2
        while b < count {
            if let p = buffers[b].mData?.assumingMemoryBound(to: Float.self) { oca_memzero(p + offset, UInt(frames * 4)) }
            b += 1
        }
    }

    // MARK: Properties

    override class var propertyRows: [AUProperty] {
        super.propertyRows + [
            .value(kMusicDeviceProperty_InstrumentCount, UInt32.self, of: AUInstrumentUnit.self, place: AUProperty.globalScope,
                   get: { unit, _, _ in UInt32(unit.playingBank?.presets.count ?? 0) }),
            .object(kMusicDeviceProperty_BankName, of: AUInstrumentUnit.self, place: AUProperty.globalScope,
                    get: { unit, _, _ in
                        guard let bank = unit.playingBank else { return .failure(OSStatusError(kAudioUnitErr_PropertyNotInUse)) }
                        return .success(bank.name as NSString)
                    }),
        ]
    }
}
