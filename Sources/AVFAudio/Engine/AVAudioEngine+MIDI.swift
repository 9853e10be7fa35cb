import Foundation

// MIDI-only connections between nodes: the source unit's MIDI output block is set to one that hands each event to
// the host's tap and to every destination's scheduleMIDIEventBlock. It runs on the render thread, so it only calls
// blocks fixed when the connection was made (no allocation, no lock). A destination has one MIDI source at a time.
// A source with no audio connection is rendered by its first destination just before that renders, so its MIDI is
// played in the same render, each event at its own frame. A source whose audio is connected renders on its own
// schedule: its events play at the start of the destination's next render.
extension AVAudioEngine {
    /// Sends the MIDI the source node's unit makes to the destination node's unit, calling `tapBlock` (if any) with
    /// each event first. An earlier MIDI connection into the destination is broken.
    public func connectMIDI(_ sourceNode: AVAudioNode, to destinationNode: AVAudioNode, format: AVAudioFormat?, block tapBlock: AUMIDIOutputEventBlock?) {
        connectMIDI(sourceNode, to: [destinationNode], format: format, block: tapBlock)
    }

    /// Sends the MIDI the source node's unit makes to each destination node's unit, calling `tapBlock` (if any)
    /// with each event first. Earlier MIDI connections into the destinations are broken.
    public func connectMIDI(_ sourceNode: AVAudioNode, to destinationNodes: [AVAudioNode], format: AVAudioFormat?, block tapBlock: AUMIDIOutputEventBlock?) {
        withLock {
            for d in destinationNodes { removeMIDIInput(d) }
            var connection = midiConnections[ObjectIdentifier(sourceNode)] ?? EngineMIDIConnection(source: sourceNode, destinations: [], tap: nil)
            for d in destinationNodes where !connection.destinations.contains(where: { $0 === d }) { connection.destinations.append(d) }
            connection.tap = tapBlock
            midiConnections[ObjectIdentifier(sourceNode)] = connection
            installMIDIOutput(of: sourceNode)
        }
    }

    /// Breaks the MIDI connection from the source node to the destination node.
    public func disconnectMIDI(_ sourceNode: AVAudioNode, from destinationNode: AVAudioNode) {
        disconnectMIDI(sourceNode, from: [destinationNode])
    }

    /// Breaks the MIDI connections from the source node to the destination nodes; the tap goes with the last one.
    public func disconnectMIDI(_ sourceNode: AVAudioNode, from destinationNodes: [AVAudioNode]) {
        withLock {
            guard var connection = midiConnections[ObjectIdentifier(sourceNode)] else { return }
            connection.destinations.removeAll { d in destinationNodes.contains { $0 === d } }
            midiConnections[ObjectIdentifier(sourceNode)] = connection
            installMIDIOutput(of: sourceNode)
        }
    }

    /// Breaks every MIDI connection into the node.
    public func disconnectMIDIInput(_ node: AVAudioNode) {
        withLock { removeMIDIInput(node) }
    }

    /// Breaks every MIDI connection out of the node.
    public func disconnectMIDIOutput(_ node: AVAudioNode) {
        withLock {
            guard var connection = midiConnections[ObjectIdentifier(node)] else { return }
            connection.destinations.removeAll()
            midiConnections[ObjectIdentifier(node)] = connection
            installMIDIOutput(of: node)
        }
    }

    /// Removes the node from every source's destinations (under the lock).
    private func removeMIDIInput(_ node: AVAudioNode) {
        for (key, var connection) in midiConnections where connection.destinations.contains(where: { $0 === node }) {
            connection.destinations.removeAll { $0 === node }
            midiConnections[key] = connection
            installMIDIOutput(of: connection.source)
        }
    }

    /// Sets the source unit's MIDI output block for its current connections (nil, tap and all, when none is left).
    private func installMIDIOutput(of source: AVAudioNode) {
        let key = ObjectIdentifier(source)
        if let old = midiConnections[key]?.pull {
            old.detach()
            retired.append(old)
            midiConnections[key]?.pull = nil
        }
        guard var connection = midiConnections[key], !connection.destinations.isEmpty else {
            midiConnections[key] = nil
            source.auAudioUnit.midiOutputEventBlock = nil
            return
        }
        // A source whose audio goes nowhere is not pulled (nor initialized) by the graph: the engine initializes it
        // and its first destination renders it. Then the events it makes land at their own frame of that render.
        var pulled: EngineMIDISourcePull?  // held by the block: it reads the pull's render time
        if !connections.contains(where: { $0.source === source }) {
            setMaximumFrames(source.unit)  // refused, harmlessly, by a unit already initialized
            AudioUnitInitialize(source.unit)
            if let pull = EngineMIDISourcePull(source: source.unit, destination: connection.destinations[0].unit) {
                pull.attach()
                connection.pull = pull
                midiConnections[key] = connection
                pulled = pull
            }
        }
        let blocks = ContiguousArray(connection.destinations.compactMap { $0.auAudioUnit.scheduleMIDIEventBlock })
        let tap = connection.tap
        source.auAudioUnit.midiOutputEventBlock = { time, cable, length, bytes in
            if let tap { _ = tap(time, cable, length, bytes) }
            // AUEventSampleTimeImmediate (negative) plus a small offset passes as it is; an absolute sample time inside
            // the render in progress becomes an offset in it; others play at the render's start.
            let relative = time >= AUEventSampleTimeImmediate && time - AUEventSampleTimeImmediate < 0x0100_0000
            var when = relative ? time : AUEventSampleTimeImmediate
            if !relative, let start = pulled?.renderStart.pointee, !start.isNaN {
                let offset = Float64(time) - start
                if offset > 0 && offset < 0x0100_0000 { when = AUEventSampleTimeImmediate + AUEventSampleTime(offset) }
            }
            var i = 0
            while i < blocks.count {
                blocks[i](when, cable, length, bytes)
                i += 1
            }
            return noErr
        }
    }
}
