import Foundation
import Testing

/// batch/: a 48-file catalog converted by batch/ray_batch.py on a local Ray cluster (2 workers) gives outputs
/// byte-identical to a serial run; a missing input fails alone after Ray's retries (3 attempts) and is in the results
/// table; four Kubernetes-style shards together are the serial run; the Indexed Job manifest is checked against the
/// Kubernetes API's models and the image's entry point takes its arguments.
@Suite(.serialized) struct BatchTests {
    /// Files in the catalog: a multiple of 4 (each kind of conversion as often) and of 3 (each rate), so the missing
    /// input after them is row 48, in shard 0 of 4. (200 made this test the slowest of the suite: 600 debug conversions.)
    static let files = 48
    static let script = SoundCheckTests.root.appendingPathComponent("batch/ray_batch.py").path

    /// The results table: output name -> (status, attempts, sha256).
    static func results(_ url: URL) throws -> [String: (String, Int, String)] {
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").dropFirst()
        var table: [String: (String, Int, String)] = [:]
        for line in lines {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard f.count >= 8 else { continue }
            table[f[1]] = (f[2], Int(f[4]) ?? -1, f[7])
        }
        return table
    }

    /// 48 short files of several rates, channel counts and tones, with four kinds of conversion, and one missing input.
    static func catalog(in dir: URL) throws -> URL {
        let inputs = dir.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        var rows = ["input,output,args"]
        let conversions = ["-f caff -d LEI24", "-f m4af -d aac -b 64000", "-f WAVE -d LEI16@22050", "-f caff -d flac"]
        let outputExtensions = ["caf", "m4a", "wav", "caf"]
        for i in 0..<Self.files {
            let input = inputs.appendingPathComponent("f\(i).wav")
            let rate = [22050, 44100, 48000][i % 3], channels = 1 + i % 2
            try SoundCheckTests.require("/usr/bin/sox", ["-n", "-r", "\(rate)", "-c", "\(channels)", "-b", "16", input.path, "synth", "0.25",
                                                         "sine", "\(200 + 7 * i)", "vol", "0.3"])
            rows.append("\(input.path),out/f\(i).\(outputExtensions[i % 4]),\(conversions[i % 4])")
        }
        rows.append("\(inputs.path)/missing.wav,out/missing.caf,-f caff")
        let manifest = dir.appendingPathComponent("manifest.csv")
        try (rows.joined(separator: "\n") + "\n").write(to: manifest, atomically: true, encoding: .utf8)
        return manifest
    }

    @Test func rayBatchEqualsSerialRun() throws {
        try #require(SoundCheckTests.python(["-c", "import ray; print(ray.__version__)"]).count > 0)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oca-batch-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let manifest = try Self.catalog(in: dir)
        let tools = try Tools.directory.get().path
        func run(_ name: String, _ extra: [String], missing: Bool = true) throws -> [String: (String, Int, String)] {
            let results = dir.appendingPathComponent("\(name).csv")
            let r = try Tools.run(executable: "/usr/bin/env", ["python3", Self.script, manifest.path, "--output-dir", dir.appendingPathComponent(name).path,
                                                                   "--results", results.path, "--tools", tools] + extra)
            print(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(r.status == (missing ? 1 : 0), "one input is missing: \(r.stderr.suffix(2000))")
            return try Self.results(results)
        }
        let serial = try run("serial", ["--serial"])
        let ray = try run("ray", ["--workers", "2"])
        try #require(serial.count == Self.files + 1 && ray.count == Self.files + 1)
        for (output, (status, _, hash)) in serial where output != "out/missing.caf" {
            #expect(status == "ok" && !hash.isEmpty, "\(output): \(status)")
            #expect(ray[output]?.0 == "ok" && ray[output]?.2 == hash, "\(output): Ray's output differs from the serial run's")
        }
        #expect(serial["out/missing.caf"]?.0 == "failed" && ray["out/missing.caf"]?.0 == "failed")
        #expect(ray["out/missing.caf"]?.1 == 3, "attempts: \(String(describing: ray["out/missing.caf"]))")
        #expect(ray.values.filter { $0.0 == "ok" }.allSatisfy { $0.1 == 1 })
        // Four shards (what four indexes of the Indexed Job run) cover the catalog once, with the serial run's bytes.
        var union: [String: (String, Int, String)] = [:]
        for k in 0..<4 {
            let shard = try run("shard\(k)", ["--serial", "--shard", "\(k)/4"], missing: k == 0)  // the missing input is row 48
            #expect(shard.count == Self.files / 4 + (k == 0 ? 1 : 0))
            union.merge(shard) { a, _ in a }
        }
        #expect(union.count == Self.files + 1 && union.allSatisfy { serial[$0.key]?.2 == $0.value.2 })
    }

    @Test func indexedJobManifestIsValid() throws {
        let root = SoundCheckTests.root
        let check = try SoundCheckTests.python([root.appendingPathComponent("batch/validate_k8s.py").path,
                                                                     root.appendingPathComponent("batch/k8s/indexed-job.yaml").path])
        #expect(check.contains("Job oca-afconvert-catalog valid"), "\(check)")
        // A misspelt field is caught (the validator is not a rubber stamp).
        let bad = Fixture.tempURL("yaml")
        defer { try? FileManager.default.removeItem(at: bad) }
        let text = try String(contentsOf: root.appendingPathComponent("batch/k8s/indexed-job.yaml"), encoding: .utf8)
        try text.replacingOccurrences(of: "completionMode", with: "completionMod").write(to: bad, atomically: true, encoding: .utf8)
        let r = try Tools.run(executable: "/usr/bin/env", ["python3", root.appendingPathComponent("batch/validate_k8s.py").path, bad.path])
        #expect(r.status == 1 && r.stderr.contains("completionMod: not a field of V1JobSpec"), "\(r.stderr)")
        // The job's arguments are options the image's entry point (ray_batch.py) takes, and it runs the image the
        // Containerfile's comment builds.
        let help = try SoundCheckTests.python([Self.script, "--help"])
        for option in ["--output-dir", "--results", "--shard", "--serial", "--tools"] { #expect(help.contains(option), "\(option)") }
        #expect(text.contains("image: opencoreaudio/tools:latest") && text.contains("completionMode: Indexed"))
        let containerfile = try String(contentsOf: root.appendingPathComponent("batch/Containerfile"), encoding: .utf8)
        #expect(containerfile.contains("-t opencoreaudio/tools") && containerfile.contains("\"--serial\"]"))
    }
}
