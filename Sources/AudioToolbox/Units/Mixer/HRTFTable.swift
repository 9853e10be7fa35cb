import CMySofa

/// Head-related impulse responses for the 3D mixer's HRTF algorithms, read once per sample rate from a SOFA file
/// through libmysofa (Debian's libmysofa1 ships the MIT KEMAR set as /usr/share/libmysofa/default.sofa;
/// `OCA_HRTF_SOFA` names another file) and kept on a grid: every 5° of azimuth and 10° of elevation from -40° to 90°,
/// each pair cut to 256 taps (more than 99.9% of KEMAR's energy) with a short fade. Lookup is the nearest grid point,
/// allocation-free, for the render thread; a change of point crossfades in the convolver.
final class HRTFTable: @unchecked Sendable {
    static let taps = 256
    static let azimuthStep: Float = 5
    static let elevations: [Float] = Array(stride(from: Float(-40), through: 90, by: 10))
    let sampleRate: Double
    /// [elevation][azimuth][ear][tap].
    private let filters: UnsafeMutablePointer<Float>
    private let azimuthCount = Int(360 / HRTFTable.azimuthStep)

    private static let tables = LockedState<[Double: HRTFTable]>([:])

    /// The SOFA file to read.
    static var path: String {
        if let env = ProcessInfo.processInfo.environment["OCA_HRTF_SOFA"], !env.isEmpty { return env }
        return "/usr/share/libmysofa/default.sofa"
    }

    /// Whether HRTF rendering is possible here (the SOFA file exists).
    static var isAvailable: Bool { FileManager.default.fileExists(atPath: path) }

    /// The table for `sampleRate`, read on first use; nil when the file is missing or unreadable. Not for the render thread.
    static func table(sampleRate: Double) -> HRTFTable? {
        if let t = tables.withLock({ $0[sampleRate] }) { return t }
        guard let t = HRTFTable(sampleRate: sampleRate) else { return nil }
        tables.withLock { $0[sampleRate] = t }
        return t
    }

    private init?(sampleRate: Double) {
        var length: Int32 = 0, error: Int32 = 0
        guard let easy = mysofa_open(Self.path, Float(sampleRate), &length, &error), error == 0, length > 0 else { return nil }
        defer { mysofa_close(easy) }
        self.sampleRate = sampleRate
        let count = Self.elevations.count * azimuthCount * 2 * Self.taps
        filters = .allocate(capacity: count)
        filters.initialize(repeating: 0, count: count)
        let full = Int(length)
        let l = UnsafeMutablePointer<Float>.allocate(capacity: full), r = UnsafeMutablePointer<Float>.allocate(capacity: full)
        defer { l.deallocate(); r.deallocate() }
        let fade = 32
        for (e, elevation) in Self.elevations.enumerated() {
            for a in 0..<azimuthCount {
                // Apple's azimuth turns clockwise from ahead (90 is right); SOFA's y axis points left.
                let az = Float(a) * Self.azimuthStep * .pi / 180, el = elevation * .pi / 180
                var delayL: Float = 0, delayR: Float = 0
                mysofa_getfilter_float(easy, cos(el) * cos(az), -cos(el) * sin(az), sin(el), l, r, &delayL, &delayR)
                let base = filters + ((e * azimuthCount + a) * 2) * Self.taps
                // Whole-sample delays (KEMAR's are in the responses already, so these are 0) ahead of the cut.
                let dl = min(Int((delayL * Float(sampleRate)).rounded()), Self.taps - 1)
                let dr = min(Int((delayR * Float(sampleRate)).rounded()), Self.taps - 1)
                for k in 0..<Self.taps {
                    let w: Float = k >= Self.taps - fade ? Float(Self.taps - k) / Float(fade) : 1
                    if k >= dl && k - dl < full { base[k] = l[k - dl] * w }
                    if k >= dr && k - dr < full { base[Self.taps + k] = r[k - dr] * w }
                }
            }
        }
    }

    deinit { filters.deallocate() }

    /// The grid point nearest a direction (degrees: azimuth clockwise from ahead, elevation up). Render thread.
    @inline(__always)
    func index(azimuth: Float, elevation: Float) -> Int {
        var az = azimuth.truncatingRemainder(dividingBy: 360)
        if az < 0 { az += 360 }
        let a = Int((az / Self.azimuthStep).rounded()) % azimuthCount
        let e = Int(((min(max(elevation, -40), 90) + 40) / 10).rounded())
        return e * azimuthCount + a
    }

    /// The left and right responses of a grid point (`taps` each).
    @inline(__always)
    func filter(_ index: Int) -> (left: UnsafePointer<Float>, right: UnsafePointer<Float>) {
        let base = filters + index * 2 * Self.taps
        return (UnsafePointer(base), UnsafePointer(base + Self.taps))
    }
}
