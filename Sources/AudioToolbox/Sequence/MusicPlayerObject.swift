import CoreMIDI
import Foundation

/// A player: the sequence it plays, its position, rate scalar and, while playing, the session that
/// delivers events. Graph-bound MIDI goes through a GraphEventScheduler on the head unit's render
/// notification (sample-accurate, offline rendering included, parameter events too); events for MIDI
/// endpoints, AU preset events and user events go through the player thread by host time (MIDI destinations receive their
/// packets ahead of time with time stamps, which CoreMIDI delivers when due).
final class MusicPlayerObject: @unchecked Sendable {
    static let handles = LiveHandleTable()

    var sequence: MusicSequenceObject?
    var rate: Double = 1
    /// The position while stopped (beats).
    var position: MusicTimeStamp = 0
    private(set) var session: Session?
    private(set) var prerolled = false
    /// The render notification's object, registered on the graph while a session plays.
    let scheduler = GraphEventScheduler()
    /// How long what the render thread may still be reading (a plan, the scheduler) is kept after it was
    /// taken away from it: far longer than a render slice.
    static let renderGrace: DispatchTimeInterval = .seconds(2)

    var isPlaying: Bool { session != nil }

    /// What one start (or seek while playing) plays.
    final class Session: @unchecked Sendable {
        let schedule: PlayerSchedule
        let rate: Double
        let hostStart: UInt64
        let graph: AUGraph?
        let sampleRate: Double
        let plan: GraphEventPlan?
        let sequenceHandle: MusicSequence?
        let callback: MusicSequenceUserCallback?
        let clientData: UnsafeMutableRawPointer?
        /// Indices into the schedule of the events the player thread handles, in time order.
        let threadItems: [Int]
        let condition = NSCondition()
        var stopping = false
        /// How many of threadItems were handled (MIDI for destinations: sent ahead).
        var threadCursor = 0

        init(schedule: PlayerSchedule, rate: Double, graph: AUGraph?, sampleRate: Double, sequence: MusicSequenceObject) {
            self.schedule = schedule
            self.rate = rate
            self.graph = graph
            self.sampleRate = sampleRate
            plan = graph == nil ? nil : GraphEventPlan(schedule: schedule, sampleRate: sampleRate, rate: rate)
            sequenceHandle = sequence.handle
            callback = sequence.userCallback
            clientData = sequence.userClientData
            threadItems = schedule.items.indices.filter {
                // MIDI with nowhere to go is not worth waking up for.
                if schedule.items[$0].target == .none {
                    if case .user = schedule.items[$0].action { return true }
                    return false
                }
                if case .unit = schedule.items[$0].target, case .midi = schedule.items[$0].action { return false }
                if case .unit = schedule.items[$0].target, case .sysEx = schedule.items[$0].action { return false }
                if case .unit = schedule.items[$0].target, case .parameter = schedule.items[$0].action { return false }
                if case .unit = schedule.items[$0].target, case .startNote = schedule.items[$0].action { return false }
                if case .unit = schedule.items[$0].target, case .stopNote = schedule.items[$0].action { return false }
                return true
            }
            hostStart = AudioGetCurrentHostTime()
        }

        /// Host time of an item.
        func hostTime(_ seconds: Double) -> UInt64 {
            let ns = (seconds - schedule.startSeconds) / rate * 1e9
            return ns <= 0 ? hostStart : hostStart &+ UInt64(ns.rounded())
        }
    }

    // MARK: Control (all under MusicSequenceObject.lock)

    /// Opens and initializes the sequence's graph if needed.
    func preroll() -> OSStatus {
        guard let sequence else { return kAudioToolboxErr_NoSequence }
        // Tracks with nowhere to go play through the default graph, as on Apple's; where it cannot be made
        // (no instrument or output here) the player plays on without it.
        if sequence.needsDefaultGraph && sequence.makeDefaultGraph() == noErr, let g = sequence.ownedGraph {
            if AUGraphOpen(g) != noErr || AUGraphInitialize(g) != noErr {
                DisposeAUGraph(g)
                sequence.ownedGraph = nil
            }
        }
        if let graph = sequence.graph ?? sequence.ownedGraph {
            var flag: DarwinBoolean = false
            AUGraphIsOpen(graph, &flag)
            if !flag.boolValue { let s = AUGraphOpen(graph); if s != noErr { return s } }
            AUGraphIsInitialized(graph, &flag)
            if !flag.boolValue { let s = AUGraphInitialize(graph); if s != noErr { return s } }
        }
        prerolled = true
        return noErr
    }

    func start() -> OSStatus {
        guard let sequence else { return kAudioToolboxErr_NoSequence }
        guard session == nil else { return noErr }
        let status = preroll()
        guard status == noErr else { return status }
        let graph = sequence.graph ?? sequence.ownedGraph
        var sampleRate = 44100.0
        if let graph {
            if let head = Self.headUnit(graph) {
                var format = AudioStreamBasicDescription()
                var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
                if AudioUnitGetProperty(head, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format, &size) == noErr,
                   format.mSampleRate > 0 { sampleRate = format.mSampleRate }
            }
            var running: DarwinBoolean = false
            AUGraphIsRunning(graph, &running)
            if !running.boolValue {
                let s = AUGraphStart(graph)
                if s != noErr && graph != sequence.ownedGraph { return s }
            }
        }
        let s = Session(schedule: PlayerSchedule(sequence, from: position), rate: rate, graph: graph, sampleRate: sampleRate, sequence: sequence)
        if let graph, let plan = s.plan {
            scheduler.publish(plan)
            AUGraphAddRenderNotify(graph, graphEventSchedulerNotify, Unmanaged.passUnretained(scheduler).toOpaque())
        }
        begin(s, sequence)
        return noErr
    }

    private func begin(_ s: Session, _ sequence: MusicSequenceObject) {
        session = s
        sequence.isPlaying = true
        sequence.player = self
        let thread = Thread { [s] in Self.run(s) }
        thread.name = "OpenCoreAudio.MusicPlayer"
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    /// Whether a replan is already on its way (edits come in bursts: one replan for the burst).
    private var replanPending = false

    /// The sequence was edited while playing: play goes on from the current beat with the edited events,
    /// as Apple's player picks edits up (notes already sounding keep their note-offs). Done shortly after
    /// the edit, once for a burst of edits.
    func sequenceEdited() {
        guard session != nil, !replanPending else { return }
        replanPending = true
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(5)) { [self] in
            MusicSequenceObject.lock.lock()
            defer { MusicSequenceObject.lock.unlock() }
            replanPending = false
            replan()
        }
    }

    private func replan() {
        guard let old = session, let sequence else { return }
        let beat = currentBeat()
        old.condition.lock()
        old.stopping = true
        old.condition.broadcast()
        old.condition.unlock()
        // What was sent ahead to MIDI destinations is sent again by the new session.
        for i in old.threadItems { if case .endpoint(let e) = old.schedule.items[i].target { MIDIFlushOutput(e) } }
        let s = Session(schedule: PlayerSchedule(sequence, from: beat, carryingNoteOffs: true), rate: old.rate, graph: old.graph,
                        sampleRate: old.sampleRate, sequence: sequence)
        if s.plan != nil || old.plan != nil { scheduler.publish(s.plan) }
        let oldPlan = old.plan
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.renderGrace) { withExtendedLifetime(oldPlan) {} }
        begin(s, sequence)
    }

    /// Stops delivering; notes that are sounding get their note-offs, then all-notes-off goes to each
    /// channel used.
    func stop() -> OSStatus {
        guard let s = session else { return noErr }
        position = currentBeat()
        s.condition.lock()
        s.stopping = true  // the thread ends at its next check (not waited for: a user callback may be calling in)
        s.condition.broadcast()
        s.condition.unlock()
        let sentToGraph = scheduler.sent.load(ordering: .acquiring)
        if let graph = s.graph, s.plan != nil {
            AUGraphRemoveRenderNotify(graph, graphEventSchedulerNotify, Unmanaged.passUnretained(scheduler).toOpaque())
            scheduler.publish(nil)
            // A render that adopted the plan before the notification went away may still be reading it.
            let plan = s.plan
            DispatchQueue.global().asyncAfter(deadline: .now() + Self.renderGrace) { withExtendedLifetime(plan) {} }
        }
        silence(s, sentToGraph: sentToGraph)
        session = nil
        sequence?.isPlaying = false
        return noErr
    }

    /// The player's time now (beats).
    func currentBeat() -> MusicTimeStamp {
        guard let s = session else { return position }
        let elapsed: Double
        if s.plan != nil {
            let origin = scheduler.originSample.load(ordering: .acquiring)
            elapsed = origin < 0 ? 0 : Double(scheduler.renderedSample.load(ordering: .acquiring) - origin) / s.sampleRate
        } else {
            let now = AudioGetCurrentHostTime()
            elapsed = now > s.hostStart ? Double(now - s.hostStart) / 1e9 : 0
        }
        return s.schedule.tempo.beats(forSeconds: s.schedule.startSeconds + max(0, elapsed) * s.rate)
    }

    /// Restarts the session from a new beat or with a new rate (sounding notes are released first).
    func restart(at beat: MusicTimeStamp) -> OSStatus {
        guard session != nil else {
            position = beat
            return noErr
        }
        _ = stop()
        position = beat
        return start()
    }

    func dispose() {
        _ = stop()
        sequence?.player = nil
        sequence = nil
        // The scheduler (this object's) may still be inside a render notification that began before it was removed.
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.renderGrace) { withExtendedLifetime(self) {} }
    }

    private static func headUnit(_ graph: AUGraph) -> AudioUnit? {
        var count: UInt32 = 0
        AUGraphGetNodeCount(graph, &count)
        for i in 0..<count {
            var node: AUNode = 0
            var d = AudioComponentDescription()
            var unit: AudioUnit?
            guard AUGraphGetIndNode(graph, i, &node) == noErr, AUGraphNodeInfo(graph, node, &d, &unit) == noErr else { continue }
            if d.componentType == kAudioUnitType_Output { return unit }
        }
        return nil
    }

    // MARK: Delivery

    /// Note-offs for notes that started and have not ended, then all-notes-off per channel used.
    private func silence(_ s: Session, sentToGraph sent: Int) {
        let items = s.schedule.items
        var started = Set<Int>()
        if let plan = s.plan {
            for i in 0..<min(sent, plan.scheduleIndex.count) { started.insert(plan.scheduleIndex[i]) }
        }
        let now = AudioGetCurrentHostTime()
        for i in s.threadItems where s.hostTime(items[i].seconds) <= now { started.insert(i) }
        var channels: [PlayerSchedule.Target: Set<UInt8>] = [:]
        for item in items {
            guard case .midi(let status, _, _) = item.action, item.target != .none else { continue }
            channels[item.target, default: []].insert(status & 0x0F)
        }
        // Drop what was sent ahead to destinations first, so the note-offs below are not dropped too.
        for target in channels.keys { if case .endpoint(let e) = target { MIDIFlushOutput(e) } }
        for (i, item) in items.enumerated() {
            guard case .midi(let status, let note, _) = item.action, item.target != .none else { continue }
            if item.noteOff >= 0 && started.contains(i) && !started.contains(item.noteOff) {
                Self.send(item.target, 0x80 | (status & 0x0F), note, 0, at: 0)
            }
        }
        for (target, used) in channels {
            for ch in used.sorted() { Self.send(target, 0xB0 | ch, 123, 0, at: 0) }
        }
        // Extended notes started and not stopped.
        if let plan = s.plan {
            var open: [Int32: GraphEventPlan.Event] = [:]
            for i in 0..<min(sent, plan.count) {
                let e = plan.events[i]
                if e.kind == .startNote { open[e.slot] = e } else if e.kind == .stopNote { open[e.slot] = nil }
            }
            for e in open.values { MusicDeviceStopNote(e.unit, e.group, plan.noteIDs[Int(e.slot)], 0) }
        }
    }

    /// The player thread: hands out endpoint MIDI (ahead, with time stamps, for destinations), parameter
    /// and user events when due.
    private static func run(_ s: Session) {
        let lookahead: UInt64 = 50_000_000
        let items = s.schedule.items
        s.condition.lock()
        while !s.stopping && s.threadCursor < s.threadItems.count {
            let item = items[s.threadItems[s.threadCursor]]
            let due = s.hostTime(item.seconds)
            let early: UInt64
            if case .endpoint(let e) = item.target, case .midi = item.action, isDestination(e) { early = lookahead } else { early = 0 }
            let now = AudioGetCurrentHostTime()
            if due > now &+ early {
                let wait = Double(due - now - early) / 1e9
                _ = s.condition.wait(until: Date(timeIntervalSinceNow: min(wait, 0.25)))
                continue
            }
            s.threadCursor += 1
            s.condition.unlock()
            deliver(item, s, hostTime: due)
            s.condition.lock()
        }
        s.condition.unlock()
    }

    private static func deliver(_ item: PlayerSchedule.Item, _ s: Session, hostTime: UInt64) {
        switch item.action {
        case .midi(let a, let b, let c):
            send(item.target, a, b, c, at: hostTime)
        case .sysEx(let data):
            if case .endpoint(let e) = item.target { sendPacket(e, data, at: hostTime) }
        case .parameter(let p):
            if case .unit(let unit) = item.target { AudioUnitSetParameter(unit, p.parameterID, p.scope, p.element, p.value, 0) }
        case .preset(let payload):
            // The unit's ClassInfo from the event's property list (the payload keeps it alive).
            guard case .unit(let unit) = item.target else { return }
            let event = payload.load(as: AUPresetEvent.self)
            var preset = event.preset  // the property's value is the CFPropertyListRef itself
            AudioUnitSetProperty(unit, kAudioUnitProperty_ClassInfo, event.scope, event.element, &preset,
                                 UInt32(MemoryLayout<Unmanaged<CFPropertyList>>.size))
        case .startNote, .stopNote:
            break  // graph units only: sent from the render notification
        case .user(let payload, let track):
            guard let callback = s.callback, let seq = s.sequenceHandle, let track else { return }
            let end = item.beat.nextUp
            callback(s.clientData, seq, track, item.beat, payload.bytes.assumingMemoryBound(to: MusicEventUserData.self), item.beat, end)
        }
    }

    static func send(_ target: PlayerSchedule.Target, _ a: UInt8, _ b: UInt8, _ c: UInt8, at hostTime: UInt64) {
        switch target {
        case .unit(let unit):
            MusicDeviceMIDIEvent(unit, UInt32(a), UInt32(b), UInt32(c), 0)
        case .endpoint(let e):
            let length = (a & 0xE0) == 0xC0 ? 2 : 3
            sendPacket(e, Array([a, b, c].prefix(length)), at: hostTime)
        case .none:
            break
        }
    }

    /// One packet to a destination through the players' output port, or from a virtual source.
    private static func sendPacket(_ endpoint: MIDIEndpointRef, _ bytes: [UInt8], at hostTime: UInt64) {
        let size = MemoryLayout<MIDIPacketList>.size + bytes.count + 64
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        let list = buffer.assumingMemoryBound(to: MIDIPacketList.self)
        let packet = MIDIPacketListInit(list)
        _ = bytes.withUnsafeBufferPointer { MIDIPacketListAdd(list, size, packet, hostTime, bytes.count, $0.baseAddress!) }
        if isDestination(endpoint) { MIDISend(MIDIOutput.shared.port, endpoint, list) } else { MIDIReceived(endpoint, list) }
    }

    private static func isDestination(_ endpoint: MIDIEndpointRef) -> Bool { MIDIOutput.shared.isDestination(endpoint) }
}

/// The process's MIDI client and output port for players (made on first use).
final class MIDIOutput: @unchecked Sendable {
    static let shared = MIDIOutput()
    private(set) var client: MIDIClientRef = 0
    private(set) var port: MIDIPortRef = 0

    private init() {
        MIDIClientCreate("OpenCoreAudio MusicPlayer" as CFString, nil, nil, &client)
        MIDIOutputPortCreate(client, "MusicPlayer" as CFString, &port)
    }

    func isDestination(_ endpoint: MIDIEndpointRef) -> Bool {
        for i in 0..<MIDIGetNumberOfDestinations() where MIDIGetDestination(i) == endpoint { return true }
        return false
    }
}
