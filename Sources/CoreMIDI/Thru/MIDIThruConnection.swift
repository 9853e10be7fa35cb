import Foundation

/// A thru connection's parameters, checked and copied out of the client's MIDIThruConnectionParams, and the
/// transform it applies: what its sources send is filtered and transformed message by message, then sent on
/// to its destinations (on the MIDI thread, as an input port would receive it).
final class MIDIThruConnection: @unchecked Sendable {
    /// The parameters as the client gave them, with unique IDs filled in (what MIDIThruConnectionGetParams returns).
    let data: Data
    let params: MIDIThruConnectionParams
    let controls: [MIDIControlTransform]
    let maps: [MIDIValueMap]
    let ownerID: String?
    /// Destinations by unique ID, so a device destination that comes back (a JACK port re-registered) is found again.
    let destinationIDs: [MIDIUniqueID]
    /// Cuts the incoming stream into messages (touched only on the MIDI thread).
    var splitter = MIDIMessageSplitter()

    /// Checks raw parameters: version 0, at most 8 sources and destinations, the control transforms and maps
    /// the counts announce present; nil otherwise.
    init?(_ raw: Data, ownerID: String?, resolve: (MIDIThruConnectionEndpoint, MIDIObject.Kind) -> MIDIThruConnectionEndpoint) {
        let base = MemoryLayout<MIDIThruConnectionParams>.size
        guard raw.count >= base else { return nil }
        var p = raw.withUnsafeBytes { $0.loadUnaligned(as: MIDIThruConnectionParams.self) }
        let max = UInt32(kMIDIThruConnection_MaxEndpoints)
        let controlSize = MemoryLayout<MIDIControlTransform>.size, mapSize = MemoryLayout<MIDIValueMap>.size
        let size = base + Int(p.numControlTransforms) * controlSize + Int(p.numMaps) * mapSize
        guard p.version == 0, p.numSources <= max, p.numDestinations <= max, raw.count >= size else { return nil }
        withUnsafeMutableBytes(of: &p.sources) { b in
            let e = b.bindMemory(to: MIDIThruConnectionEndpoint.self)
            for i in 0..<Int(p.numSources) { e[i] = resolve(e[i], .source) }
        }
        var destinationIDs: [MIDIUniqueID] = []
        withUnsafeMutableBytes(of: &p.destinations) { b in
            let e = b.bindMemory(to: MIDIThruConnectionEndpoint.self)
            for i in 0..<Int(p.numDestinations) {
                e[i] = resolve(e[i], .destination)
                destinationIDs.append(e[i].uniqueID)
            }
        }
        params = p
        controls = raw.withUnsafeBytes { b in (0..<Int(p.numControlTransforms)).map { b.loadUnaligned(fromByteOffset: base + $0 * controlSize, as: MIDIControlTransform.self) } }
        let mapsAt = base + Int(p.numControlTransforms) * controlSize
        maps = raw.withUnsafeBytes { b in (0..<Int(p.numMaps)).map { b.loadUnaligned(fromByteOffset: mapsAt + $0 * mapSize, as: MIDIValueMap.self) } }
        var copy = Data(raw.prefix(size))
        copy.withUnsafeMutableBytes { $0.storeBytes(of: p, as: MIDIThruConnectionParams.self) }
        data = copy
        self.ownerID = ownerID
        self.destinationIDs = destinationIDs
    }

    /// The sources (existing endpoints) the connection listens to.
    var sources: [MIDIEndpointRef] {
        withUnsafeBytes(of: params.sources) { b in
            Array(b.bindMemory(to: MIDIThruConnectionEndpoint.self).prefix(Int(params.numSources)).map(\.endpointRef).filter { $0 != 0 })
        }
    }

    /// One message through the connection's filters and transforms; nil if filtered out.
    func transform(_ m: [UInt8]) -> [UInt8]? {
        guard var status = m.first else { return nil }
        switch status {
        case 0xF8, 0xFA, 0xFB, 0xFC: return params.filterOutBeatClock != 0 ? nil : m
        case 0xF0: return params.filterOutSysEx != 0 ? nil : m
        case 0xF1: return params.filterOutMTC != 0 ? nil : m
        case 0xF6: return params.filterOutTuneRequest != 0 ? nil : m
        case 0xF0...: return m
        default: break
        }
        let channel = Int(status & 0xF)
        let mapped = withUnsafeBytes(of: params.channelMap) { $0[channel] }
        guard mapped < 16 else { return nil }
        status = status & 0xF0 | mapped
        var out = m
        out[0] = status
        let kind = status >> 4
        guard out.count >= ((kind == 0xC || kind == 0xD) ? 2 : 3) else { return nil }
        switch kind {
        case 0x8, 0x9, 0xA:
            if params.noteNumber.transform != .mapValue && !noteInRange(out[1]) { return nil }
            if kind == 0x9 && out[2] > 0 {
                // Velocity limits apply to note-ons (a note-off always passes, so that no note hangs).
                if out[2] < params.lowVelocity || (params.highVelocity != 0 && out[2] > params.highVelocity) { return nil }
            }
            guard let note = apply(params.noteNumber, out[1]) else { return nil }
            out[1] = note
            let valueTransform = kind == 0xA ? params.keyPressure : params.velocity
            guard let value = apply(valueTransform, out[2]) else { return nil }
            // A transform must not turn a note-on into a note-off by accident (or back): velocity stays 1...127.
            out[2] = kind == 0x9 && m[2] > 0 ? Swift.max(value, 1) : (kind == 0x9 ? 0 : value)
        case 0xB:
            if params.filterOutAllControls != 0 { return nil }
            for c in controls where c.controlType == .controlType_7Bit && c.controlNumber == UInt16(out[1]) {
                switch c.transform {
                case .filterOut: return nil
                case .mapControl: out[1] = UInt8(clamping: Swift.min(Swift.max(Int(c.param), 0), 127))
                default:
                    // Control values go through the transforms as 14-bit numbers (Apple's convention).
                    guard let v = apply14(c.transform, c.param, Int(out[2]) << 7) else { return nil }
                    out[2] = UInt8(v >> 7)
                }
            }
        case 0xC:
            guard let v = apply(params.programChange, out[1]) else { return nil }
            out[1] = v
        case 0xD:
            guard let v = apply(params.channelPressure, out[1]) else { return nil }
            out[1] = v
        case 0xE:
            let t = params.pitchBend
            if t.transform == .filterOut { return nil }
            if t.transform != .none {
                guard let v = apply14(t.transform, t.param, Int(out[1]) | Int(out[2]) << 7) else { return nil }
                out[1] = UInt8(v & 0x7F)
                out[2] = UInt8(v >> 7)
            }
        default: break
        }
        return out
    }

    /// Whether a note number passes lowNote/highNote: inside [low, high], or outside (high, low) when low > high.
    private func noteInRange(_ note: UInt8) -> Bool {
        let low = params.lowNote, high = params.highNote
        return high >= low ? (note >= low && note <= high) : (note >= low || note <= high)
    }

    /// A 7-bit value through a transform; nil when filtered out.
    private func apply(_ t: MIDITransform, _ v: UInt8) -> UInt8? {
        switch t.transform {
        case .none, .mapControl: return v
        case .filterOut: return nil
        case .mapValue:
            guard t.param >= 0, Int(t.param) < maps.count else { return v }
            return withUnsafeBytes(of: maps[Int(t.param)].value) { $0[Int(v & 0x7F)] } & 0x7F
        default: return apply14(t.transform, t.param, Int(v), limit: 127).map { UInt8($0) }
        }
    }

    /// A value through an arithmetic transform, clamped to 0...limit: Add, Scale (param is 4.12 fixed point),
    /// Min, Max. nil for FilterOut.
    private func apply14(_ transform: MIDITransformType, _ param: Int16, _ v: Int, limit: Int = 16383) -> Int? {
        let p = Int(param)
        let r: Int
        switch transform {
        case .filterOut: return nil
        case .add: r = v + p
        case .scale: r = (v * p) >> 12
        case .minValue: r = Swift.max(v, p)
        case .maxValue: r = Swift.min(v, p)
        default: r = v
        }
        return Swift.min(Swift.max(r, 0), limit)
    }
}
