/// The instrument part of an AUSampler .aupreset (what AULab saves, as TN2283 describes): the ClassInfo
/// dictionary's "Instrument" (layers of zones, each zone naming a waveform by ID with its root key, key and
/// velocity range and loop switch) and "file-references" (waveform ID -> audio file path, as "Sample:<ID>").
/// A file missing at its recorded path is looked for beside the preset, by name. Envelopes, filters and
/// modulation layers in the preset are not read: zones play with the builder's default envelope.
struct AUSamplerPreset {
    var builder: SamplerInstrumentBuilder
    /// The unit-wide settings the preset carries (keys "gain", "pan", "coarse tune", "fine tune").
    var gain: Float?
    var pan: Float?
    var coarseTune: Float?
    var fineTune: Float?

    /// Reads the instrument from a ClassInfo dictionary; nil when it has no "Instrument" (a plain parameter
    /// preset), an error when the instrument names files that cannot be read.
    static func parse(_ d: NSDictionary, presetDirectory: String?) -> Result<AUSamplerPreset, OSStatusError>? {
        guard let instrument = d["Instrument"] as? NSDictionary else { return nil }
        let name = (instrument["name"] as? String) ?? (d["name"] as? String) ?? "Instrument"
        var builder = SamplerInstrumentBuilder(name: name)
        let references = (d["file-references"] as? NSDictionary) ?? [:]
        var sampleIndex: [Int: Int] = [:]
        for case let layer as NSDictionary in (instrument["Layers"] as? NSArray) ?? [] {
            for case let zone as NSDictionary in (layer["Zones"] as? NSArray) ?? [] {
                if let enabled = zone["enabled"] as? Bool, !enabled { continue }
                guard let waveform = (zone["waveform"] as? NSNumber)?.intValue else { continue }
                let index: Int
                if let known = sampleIndex[waveform] {
                    index = known
                } else {
                    guard let path = references["Sample:\(waveform)"] as? String else {
                        return .failure(OSStatusError(kAudioUnitErr_InvalidFile))
                    }
                    guard let resolved = resolve(path, presetDirectory: presetDirectory) else {
                        return .failure(OSStatusError(kAudioUnitErr_MissingKey))
                    }
                    switch SamplerAudioFile.read(resolved) {
                    case .success(let sample): builder.samples.append(sample)
                    case .failure(let error): return .failure(error)
                    }
                    index = builder.samples.count - 1
                    sampleIndex[waveform] = index
                }
                func key(_ k: String, _ fallback: Int) -> UInt8 { UInt8(min(max((zone[k] as? NSNumber)?.intValue ?? fallback, 0), 127)) }
                let low = key("min key", 0), high = max(key("max key", 127), low)
                let lowVelocity = key("min vel", 0), highVelocity = max(key("max vel", 127), lowVelocity)
                var z = SamplerInstrumentBuilder.Zone(sample: index, keys: low...high, velocities: lowVelocity...highVelocity,
                                                      rootKey: key("root key", 60))
                z.loops = (zone["loop enabled"] as? Bool) ?? false
                if z.loops {
                    let frames = builder.samples[index].frames.count
                    let start = min(max((zone["loop start"] as? NSNumber)?.intValue ?? 0, 0), frames)
                    let end = min(max((zone["loop end"] as? NSNumber)?.intValue ?? frames, start), frames)
                    if end > start { builder.samples[index].loop = start..<end } else { z.loops = false }
                }
                builder.zones.append(z)
            }
        }
        guard !builder.zones.isEmpty else { return .failure(OSStatusError(kAudioUnitErr_InvalidPropertyValue)) }
        var preset = AUSamplerPreset(builder: builder)
        preset.gain = (d["gain"] as? NSNumber)?.floatValue
        preset.pan = (d["pan"] as? NSNumber)?.floatValue
        preset.coarseTune = (d["coarse tune"] as? NSNumber)?.floatValue
        preset.fineTune = (d["fine tune"] as? NSNumber)?.floatValue
        return .success(preset)
    }

    private static func resolve(_ path: String, presetDirectory: String?) -> String? {
        let fm = FileManager.default
        if fm.fileExists(atPath: path) { return path }
        if let presetDirectory {
            let beside = (presetDirectory as NSString).appendingPathComponent((path as NSString).lastPathComponent)
            if fm.fileExists(atPath: beside) { return beside }
        }
        return nil
    }
}
