import Foundation
import OpenAL
import Testing

extension OpenALTests {
    /// Our OpenAL beside openal-soft (Debian's libopenal1, driven by scripts/openal-soft-scene.py through its loopback
    /// device): the same scenes, measured the same way (the RMS of a 441 Hz tone over 40 whole periods after 8,192
    /// frames of settling, divided by the level with the distance model off), against the 1.1 specification's formulas.
    @Suite struct OpenALSoftComparisonTests {
        static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/openal-soft-scene.py")

        /// openal-soft's measurements for a scene, as the script prints them.
        static func openALSoft(_ scene: String) throws -> [String: Any] {
            try #require(FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/libopenal.so.1")
                         || FileManager.default.fileExists(atPath: "/lib/x86_64-linux-gnu/libopenal.so.1"),
                         "openal-soft (libopenal1) is required: scripts/setup.sh installs it")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = [script.path, scene]
            let pipe = Pipe(), errors = Pipe()
            process.standardOutput = pipe
            process.standardError = errors
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            try #require(process.terminationStatus == 0, "openal-soft-scene.py \(scene): \(stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(json["error"] as? Int == 0)
            return json
        }

        /// The same measurement on our loopback device.
        static func level(_ lb: Loopback) -> Double {
            _ = lb.render(8192)
            let (l, r) = lb.render(4000)
            return ((l + r).reduce(0) { $0 + Double($1) * Double($1) } / 8000).squareRoot()
        }

        static func toneSource(_ lb: Loopback) -> (ALuint, ALuint) {
            let b = lb.buffer(frames: 44100) { Float(0.25 * sin(2 * Double.pi * 441 * Double($0) / 44100)) }
            let s = lb.source(buffer: b)
            alSourcePlay(s)
            return (s, b)
        }

        static let models: [(String, ALenum)] = [
            ("INVERSE_DISTANCE", AL_INVERSE_DISTANCE), ("INVERSE_DISTANCE_CLAMPED", AL_INVERSE_DISTANCE_CLAMPED),
            ("LINEAR_DISTANCE", AL_LINEAR_DISTANCE), ("LINEAR_DISTANCE_CLAMPED", AL_LINEAR_DISTANCE_CLAMPED),
            ("EXPONENT_DISTANCE", AL_EXPONENT_DISTANCE), ("EXPONENT_DISTANCE_CLAMPED", AL_EXPONENT_DISTANCE_CLAMPED),
        ]

        @Test func distanceModelsMatchOpenALSoft() throws {
            let soft = try Self.openALSoft("distance")
            print("openal-soft: \(soft["version"] ?? "?")")
            let lb = try Loopback()
            let (s, b) = Self.toneSource(lb)
            alSourcef(s, AL_REFERENCE_DISTANCE, Float(DistanceModelTests.reference))
            alSourcef(s, AL_ROLLOFF_FACTOR, Float(DistanceModelTests.rolloff))
            alSourcef(s, AL_MAX_DISTANCE, Float(DistanceModelTests.maxDistance))
            var worstOurs = 0.0, worstSoft = 0.0, worstApart = 0.0
            for (name, model) in Self.models {
                let theirs = try #require(soft[name] as? [Double])
                try #require(theirs.count == DistanceModelTests.distances.count)
                var ours: [Double] = []
                for d in DistanceModelTests.distances {
                    alSource3f(s, AL_POSITION, 0, 0, -Float(d))
                    alDistanceModel(AL_NONE)
                    let unity = Self.level(lb)
                    alDistanceModel(model)
                    ours.append(Self.level(lb) / unity)
                }
                for (i, d) in DistanceModelTests.distances.enumerated() {
                    let spec = DistanceModelTests.expected(model, d)
                    worstOurs = max(worstOurs, abs(ours[i] - spec))
                    worstSoft = max(worstSoft, abs(theirs[i] - spec))
                    worstApart = max(worstApart, abs(ours[i] - theirs[i]))
                    #expect(abs(ours[i] - theirs[i]) < 1e-4, "\(name) at \(d): ours \(ours[i]), openal-soft \(theirs[i]), spec \(spec)")
                }
                print("\(name): ours \(ours.map { String(format: "%.4f", $0) }) openal-soft \(theirs.map { String(format: "%.4f", $0) })")
            }
            print("largest |ours - spec| \(worstOurs), |openal-soft - spec| \(worstSoft), |ours - openal-soft| \(worstApart)")
            #expect(worstOurs < 1e-4 && worstSoft < 1e-4)
            lb.close(sources: [s], buffers: [b])
        }

        @Test func conesMatchOpenALSoft() throws {
            let soft = try #require(try Self.openALSoft("cone")["cone"] as? [Double])
            let lb = try Loopback()
            let (s, b) = Self.toneSource(lb)
            alDistanceModel(AL_NONE)
            alSourcef(s, AL_CONE_INNER_ANGLE, 60)
            alSourcef(s, AL_CONE_OUTER_ANGLE, 180)
            alSourcef(s, AL_CONE_OUTER_GAIN, 0.25)
            alSource3f(s, AL_DIRECTION, 0, 0, 1)
            let unity = Self.level(lb)
            let angles: [Double] = [0, 20, 30, 45, 60, 75, 90, 120, 180]
            try #require(soft.count == angles.count)
            for (i, angle) in angles.enumerated() {
                let r = angle * Double.pi / 180
                alSource3f(s, AL_DIRECTION, Float(sin(r)), 0, Float(cos(r)))
                let ours = Self.level(lb) / unity
                // The 1.1 spec: full gain inside half the inner angle, the outer gain past half the outer, linear between.
                let spec = angle <= 30 ? 1 : angle >= 90 ? 0.25 : 1 + (0.25 - 1) * (angle - 30) / 60
                #expect(abs(ours - spec) < 1e-4 && abs(soft[i] - spec) < 1e-4 && abs(ours - soft[i]) < 1e-4,
                        "cone at \(angle)°: ours \(ours), openal-soft \(soft[i]), spec \(spec)")
            }
            lb.close(sources: [s], buffers: [b])
        }
    }
}
