import Foundation

/// Prints an object's internal state to standard output: for a graph, its member nodes (with O/I
/// for open and initialized), connections with the destination input's format, input callbacks and
/// current state, in the layout of Apple's CAShow.
public func CAShow(_ inObject: UnsafeMutableRawPointer) {
    print(caShowText(inObject), terminator: "")
}

/// As CAShow, to a C stream.
public func CAShowFile(_ inObject: UnsafeMutableRawPointer, _ inFile: UnsafeMutablePointer<FILE>) {
    fputs(caShowText(inObject), inFile)
}

func caShowText(_ object: UnsafeMutableRawPointer) -> String {
    if let graph = AUGraphObject.handles.object(object, as: AUGraphObject.self) {
        graph.lock.lock()
        defer { graph.lock.unlock() }
        return graph.showText()
    }
    if let unit = AudioUnitInstances.table.object(object, as: AudioUnitObject.self) {
        let d = unit.component.description
        return "AudioUnit \(String(format: "%p", Int(bitPattern: object))): \(fourCCs(d)) \(unit.component.name)\n"
    }
    return "CAShow: unknown object \(String(format: "%p", Int(bitPattern: object)))\n"
}

private func fourCCs(_ d: AudioComponentDescription) -> String {
    [d.componentType, d.componentSubType, d.componentManufacturer]
        .map { OCAFormat.string(fromFourCharCode: $0) }.joined(separator: " ")
}

extension AUGraphObject {
    func showText() -> String {
        let address = UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque())
        var s = String(format: "AudioUnitGraph 0x%X:\n", UInt32(truncatingIfNeeded: address))
        s += "  Member Nodes:\n"
        for node in nodes {
            if let child = node.subgraph {
                let childAddress = UInt(bitPattern: Unmanaged.passUnretained(child).toOpaque())
                s += String(format: "    node %d: SubGraph 0x%X, %@ %@\n", node.id, UInt32(truncatingIfNeeded: childAddress),
                            child.isOpen ? "O" : " ", node.initialized ? "I" : " ")
                continue
            }
            let instance = node.unit.map { String(format: "%p", Int(bitPattern: UnsafeMutableRawPointer($0))) } ?? "0x0"
            s += "    node \(node.id): \(fourCCs(node.description)), instance \(instance) "
            s += (node.unit != nil ? "O" : " ") + " " + (node.initialized ? "I" : " ") + "\n"
        }
        let connections = interactions.compactMap { i -> (AUNode, UInt32, AUNode, UInt32)? in
            if case let .connection(a, b, c, d) = i { return (a, b, c, d) }
            return nil
        }
        if !connections.isEmpty {
            s += "  Connections:\n"
            for (src, srcBus, dst, dstBus) in connections {
                s += String(format: "    node %3d bus %3u => node %3d bus %3u", src, srcBus, dst, dstBus)
                if let f = inputFormat(dst, dstBus) { s += "  [\(OCAFormat.describe(f))]" }
                s += "\n"
            }
        }
        let callbacks = interactions.compactMap { i -> (AUNode, UInt32, AURenderCallbackStruct)? in
            if case let .callback(d, b, cb) = i { return (d, b, cb) }
            return nil
        }
        if !callbacks.isEmpty {
            s += "  Input Callbacks:\n"
            for (dst, dstBus, cb) in callbacks {
                let proc = cb.inputProc.map { Int(bitPattern: unsafeBitCast($0, to: UnsafeRawPointer.self)) } ?? 0
                let refCon = Int(bitPattern: cb.inputProcRefCon)
                s += String(format: "    {0x%lx, 0x%lx} => node %3d bus %3u", proc, refCon, dst, dstBus)
                if let f = inputFormat(dst, dstBus) {
                    s += String(format: "  [%u ch, %.0f Hz]", f.mChannelsPerFrame, f.mSampleRate)
                }
                s += "\n"
            }
        }
        s += "  CurrentState:\n"
        s += "    mLastUpdateError=\(lastUpdateError), eventsToProcess=\(eventsToProcess ? "T" : "F"), "
        s += "isInitialized=\(isInitialized ? "T" : "F"), isRunning=\(isRunning ? "T" : "F")\n"
        for node in nodes { if let child = node.subgraph { s += child.showText() } }
        return s
    }

    /// The format of a destination input, if the unit exists and has that input.
    private func inputFormat(_ node: AUNode, _ bus: UInt32) -> AudioStreamBasicDescription? {
        guard let unit = self.node(node)?.unit else { return nil }
        var f = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        guard AudioUnitGetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, bus, &f, &size) == noErr else {
            return nil
        }
        return f
    }
}
