import COCASupport

/// The parameters of one element: IDs in ascending order, their descriptions, and their current
/// values as atomically accessed Float32 bits (read and written from any thread without locks).
/// During a render it also holds per-frame automation curves built from scheduled events, so a
/// kernel can apply a ramp exactly on the frames it was scheduled for.
final class ParameterTable {
    private(set) var ids: [AudioUnitParameterID] = []
    /// A copy of `ids` in raw memory, for the render thread (array access retains its buffer).
    // Unchecked exclusivity for what the render path reads (see AUBase.inputs).
    @exclusivity(unchecked) private var idStorage: UnsafeMutablePointer<AudioUnitParameterID>
    @exclusivity(unchecked) private(set) var count = 0
    private(set) var infos: [AudioUnitParameterInfo] = []
    @exclusivity(unchecked) private var values: UnsafeMutablePointer<UInt32>
    private var capacity: Int

    /// Ramp state carried from slice to slice (render thread only).
    /// `elapsed` is the ramp position at the start of the next slice; negative while the ramp has not begun.
    struct Ramp { var active = false; var start: Float = 0; var end: Float = 0; var duration: UInt32 = 0; var elapsed = 0 }
    @exclusivity(unchecked) private var ramps: UnsafeMutablePointer<Ramp>
    @exclusivity(unchecked) private var curves: UnsafeMutablePointer<Float>?
    @exclusivity(unchecked) private var curveActive: UnsafeMutablePointer<Bool>
    @exclusivity(unchecked) private var curveFrames = 0
    /// Whether any curve was active in this slice (render thread): without one, and without events, a slice has
    /// nothing to reset, so `beginSlice` returns at once.
    @exclusivity(unchecked) private var anyCurveActive = false

    init() {
        capacity = 4
        idStorage = .allocate(capacity: capacity)
        values = .allocate(capacity: capacity)
        ramps = .allocate(capacity: capacity)
        ramps.initialize(repeating: Ramp(), count: capacity)
        curveActive = .allocate(capacity: capacity)
        curveActive.initialize(repeating: false, count: capacity)
    }

    deinit {
        idStorage.deallocate()
        values.deallocate()
        ramps.deallocate()
        curveActive.deallocate()
        curves?.deallocate()
    }

    /// Adds (or redefines) a parameter. Only while the unit is uninitialized.
    func define(_ id: AudioUnitParameterID, _ info: AudioUnitParameterInfo, value: AudioUnitParameterValue) {
        if let i = index(of: id) {
            infos[i] = info
            setValue(at: i, value)
            return
        }
        if ids.count == capacity { grow() }
        let position = ids.firstIndex { $0 > id } ?? ids.count
        // Shift values to keep them aligned with the sorted IDs.
        var i = ids.count
        while i > position { values[i] = values[i - 1]; i -= 1 }
        ids.insert(id, at: position)
        infos.insert(info, at: position)
        values[position] = value.bitPattern
        for (k, v) in ids.enumerated() { idStorage[k] = v }
        count = ids.count
    }

    private func grow() {
        let newCapacity = capacity * 2
        let newIDs = UnsafeMutablePointer<AudioUnitParameterID>.allocate(capacity: newCapacity)
        newIDs.update(from: idStorage, count: capacity)
        idStorage.deallocate()
        idStorage = newIDs
        let newValues = UnsafeMutablePointer<UInt32>.allocate(capacity: newCapacity)
        newValues.update(from: values, count: capacity)
        values.deallocate()
        values = newValues
        ramps.deallocate()
        ramps = .allocate(capacity: newCapacity)
        ramps.initialize(repeating: Ramp(), count: newCapacity)
        curveActive.deallocate()
        curveActive = .allocate(capacity: newCapacity)
        curveActive.initialize(repeating: false, count: newCapacity)
        capacity = newCapacity
    }

    /// Binary search; safe on the render thread.
    @inline(__always)
    @_noLocks @_noAllocation
    func index(of id: AudioUnitParameterID) -> Int? {
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if idStorage[mid] < id { lo = mid + 1 } else { hi = mid }
        }
        if lo < count, idStorage[lo] == id { return lo }
        return nil
    }

    @inline(__always)
    @_noLocks @_noAllocation
    func value(at i: Int) -> AudioUnitParameterValue {
        Float(bitPattern: oca_atomic_load_u32(values + i))
    }

    @inline(__always)
    @_noLocks @_noAllocation
    func setValue(at i: Int, _ v: AudioUnitParameterValue) {
        oca_atomic_store_u32(values + i, v.bitPattern)
    }

    // MARK: Automation (render thread)

    /// Allocates curve memory for `maxFrames` frames per parameter. At initialize.
    func allocateCurves(maxFrames: Int) {
        curves?.deallocate()
        curveFrames = maxFrames
        curves = count == 0 ? nil : .allocate(capacity: maxFrames * count)
        for i in 0..<capacity { ramps[i] = Ramp(); curveActive[i] = false }
        anyCurveActive = false
    }

    func releaseCurves() {
        curves?.deallocate()
        curves = nil
    }

    /// Whether a curve is active in this slice. Render thread.
    var hasActiveCurves: Bool { anyCurveActive }

    /// Starts a slice: parameters with a ramp carried over get their curve; others are constant.
    @inline(__always)
    @_noLocks @_noAllocation
    func beginSlice(frames: Int) {
        // A carried ramp keeps its curve active, so no active curve means no ramp to carry either.
        guard anyCurveActive else { return }
        anyCurveActive = false
        for i in 0..<count {
            curveActive[i] = false
            if ramps[i].active { activateCurve(i, frames: frames) }
        }
    }

    /// The automation curve of parameter `i` for the current slice, or nil if it is constant.
    @inline(__always)
    @_noLocks @_noAllocation
    func curve(at i: Int) -> UnsafePointer<Float>? {
        guard curveActive[i], let curves else { return nil }
        return UnsafePointer(curves + i * curveFrames)
    }

    /// Fills parameter `i`'s curve with its value at each frame so far (constant, or the carried ramp).
    private func activateCurve(_ i: Int, frames: Int) {
        guard !curveActive[i], let curves else { return }
        curveActive[i] = true
        anyCurveActive = true
        let c = curves + i * curveFrames
        let before = value(at: i)
        let r = ramps[i]
        guard r.active else {
            for f in 0..<frames { c[f] = before }
            return
        }
        for f in 0..<frames {
            let position = r.elapsed + f
            if position < 0 {
                c[f] = before
            } else if position < Int(r.duration) {
                c[f] = parameterRampValue(r.start, r.end, position, r.duration)
            } else {
                c[f] = r.end
            }
        }
        ramps[i].elapsed = r.elapsed + frames
        ramps[i].active = ramps[i].elapsed < Int(r.duration)
        setValue(at: i, c[frames - 1])
    }

    /// Applies one scheduled event to the current slice of `frames` frames.
    @_noLocks @_noAllocation
    func apply(_ e: AudioUnitParameterEvent, at i: Int, frames: Int) {
        guard frames > 0 else { return }
        activateCurve(i, frames: frames)
        guard let curves else { return }
        let c = curves + i * curveFrames
        if e.eventType == .parameterEvent_Immediate {
            let offset = min(Int(e.eventValues.immediate.bufferOffset), frames - 1)
            for f in offset..<frames { c[f] = e.eventValues.immediate.value }
            ramps[i].active = false
            setValue(at: i, e.eventValues.immediate.value)
            return
        }
        let r = e.eventValues.ramp
        let start = Int(r.startBufferOffset)
        let duration = max(r.durationInFrames, 1)
        let end = start + Int(duration)
        var f = max(start, 0)
        while f < min(end, frames) {
            c[f] = parameterRampValue(r.startValue, r.endValue, f - start, duration)
            f += 1
        }
        while f < frames { c[f] = r.endValue; f += 1 }
        if end > frames {
            ramps[i] = Ramp(active: true, start: r.startValue, end: r.endValue, duration: duration,
                            elapsed: frames - start)
        } else {
            ramps[i].active = false
        }
        setValue(at: i, c[frames - 1])
    }
}

/// The value of a linear ramp from `start` to `end` over `duration` frames, at frame `position`.
@_noLocks @_noAllocation @inline(__always)
func parameterRampValue(_ start: Float, _ end: Float, _ position: Int, _ duration: UInt32) -> Float {
    Float(Double(start) + (Double(end) - Double(start)) * Double(position) / Double(duration))
}
