import Foundation
import OpenAL
import Testing

extension OpenALTests {
    /// Sources are placed relative to the listener's position and orientation (right-handed, looking down -Z).
    @Suite struct PanningTests {
        @Test func rightLeftAndAhead() throws {
            let lb = try Loopback()
            let b = lb.buffer(frames: 44100)
            let s = lb.source(buffer: b)
            alDistanceModel(AL_NONE)
            alSourcePlay(s)
            alSource3f(s, AL_POSITION, 1, 0, 0)
            let right = lb.level()
            alSource3f(s, AL_POSITION, -1, 0, 0)
            let left = lb.level()
            alSource3f(s, AL_POSITION, 0, 0, -1)
            let ahead = lb.level()
            print("panning +X: L \(right.left) R \(right.right); -X: L \(left.left) R \(left.right); ahead: L \(ahead.left) R \(ahead.right)")
            #expect(right.right > 0.45 && right.left < 1e-3)
            #expect(left.left > 0.45 && left.right < 1e-3)
            #expect(abs(ahead.left - ahead.right) < 1e-6 && ahead.left > 0.3)
            lb.close(sources: [s], buffers: [b])
        }

        /// Apple's alcMacOSXRenderingQuality: HIGH renders with HRTF (the installed MIT KEMAR responses: a source at +X is
        /// louder on the right but heard on the left too, unlike panning), LOW pans again.
        @Test func renderingQualityHighUsesHRTF() throws {
            try #require(FileManager.default.fileExists(atPath: "/usr/share/libmysofa/default.sofa"), "libmysofa1 is required")
            #expect(alcMacOSXGetRenderingQuality() == ALC_MAC_OSX_SPATIAL_RENDERING_QUALITY_LOW)
            let lb = try Loopback()
            let b = lb.buffer(frames: 44100) { Float(sin(Double($0) * 2 * Double.pi * 1000 / 44100)) * 0.5 }
            let s = lb.source(buffer: b)
            alDistanceModel(AL_NONE)
            alSourcePlay(s)
            alSource3f(s, AL_POSITION, 1, 0, 0)
            let proc = try #require(alcGetProcAddress(nil, "alcMacOSXRenderingQuality"))
            let setQuality = unsafeBitCast(proc, to: alcMacOSXRenderingQualityProcPtr.self)
            setQuality(ALC_MAC_OSX_SPATIAL_RENDERING_QUALITY_HIGH)
            defer { alcMacOSXRenderingQuality(ALC_MAC_OSX_SPATIAL_RENDERING_QUALITY_LOW) }
            #expect(alcMacOSXGetRenderingQuality() == ALC_MAC_OSX_SPATIAL_RENDERING_QUALITY_HIGH)
            let hrtf = lb.level()
            alcMacOSXRenderingQuality(ALC_MAC_OSX_SPATIAL_RENDERING_QUALITY_LOW)
            let panned = lb.level()
            print("rendering quality HIGH +X at 1 kHz: L \(hrtf.left) R \(hrtf.right); LOW: L \(panned.left) R \(panned.right)")
            #expect(hrtf.right > 1.5 * hrtf.left && hrtf.left > 0.01, "HRTF: the far ear hears it, quieter")
            #expect(panned.left < 1e-3, "panned: the left is silent")
            lb.close(sources: [s], buffers: [b])
        }

        @Test func sourceRelativeFollowsTheListener() throws {
            let lb = try Loopback()
            let b = lb.buffer(frames: 44100)
            let s = lb.source(buffer: b)
            alDistanceModel(AL_NONE)
            alSourcePlay(s)
            alListener3f(AL_POSITION, 10, 0, 0)
            alSource3f(s, AL_POSITION, 1, 0, 0)           // world x = 1: left of a listener at x = 10
            let world = lb.level()
            alSourcei(s, AL_SOURCE_RELATIVE, AL_TRUE)     // now 1 m to the listener's right
            let relative = lb.level()
            #expect(world.left > world.right + 0.3)
            #expect(relative.right > relative.left + 0.3)
            lb.close(sources: [s], buffers: [b])
        }

        @Test func listenerOrientationTurnsTheScene() throws {
            let lb = try Loopback()
            let b = lb.buffer(frames: 44100)
            let s = lb.source(buffer: b)
            alDistanceModel(AL_NONE)
            alSourcePlay(s)
            alSource3f(s, AL_POSITION, 0, 0, -1)
            // Facing +X (up +Y): -Z is now on the listener's left.
            var orientation: [ALfloat] = [1, 0, 0, 0, 1, 0]
            alListenerfv(AL_ORIENTATION, &orientation)
            let turned = lb.level()
            #expect(turned.left > turned.right + 0.3)
            // Facing -X: -Z is on the right.
            orientation = [-1, 0, 0, 0, 1, 0]
            alListenerfv(AL_ORIENTATION, &orientation)
            let back = lb.level()
            #expect(back.right > back.left + 0.3)
            // Upside down (up -Y), facing -Z: +X is on the left.
            orientation = [0, 0, -1, 0, -1, 0]
            alListenerfv(AL_ORIENTATION, &orientation)
            alSource3f(s, AL_POSITION, 1, 0, 0)
            let flipped = lb.level()
            #expect(flipped.left > flipped.right + 0.3)
            var read = [ALfloat](repeating: 0, count: 6)
            alGetListenerfv(AL_ORIENTATION, &read)
            #expect(read == [0, 0, -1, 0, -1, 0])
            lb.close(sources: [s], buffers: [b])
        }
    }
}
