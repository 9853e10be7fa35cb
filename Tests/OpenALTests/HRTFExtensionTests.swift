import Foundation
import OpenAL
import Testing

extension OpenALTests {
    /// openal-soft's ALC_SOFT_HRTF on our contexts: ALC_HRTF_SOFT at creation or through alcResetDeviceSOFT switches
    /// the 3D mixer between HRTF (MIT KEMAR) and equal-power panning; status and specifier queries answer as
    /// openal-soft's do. And ALC_MONO_SOURCES sizes the context past 64 sources.
    @Suite struct HRTFExtensionTests {
        /// A 1 kHz source at +X: (left, right) RMS.
        static func sideLevels(_ lb: Loopback) -> (left: Double, right: Double, source: ALuint, buffer: ALuint) {
            let b = lb.buffer(frames: 44100) { Float(sin(Double($0) * 2 * Double.pi * 1000 / 44100)) * 0.5 }
            let s = lb.source(buffer: b)
            alDistanceModel(AL_NONE)
            alSourcePlay(s)
            alSource3f(s, AL_POSITION, 1, 0, 0)
            let level = lb.level()
            return (level.left, level.right, s, b)
        }

        static func integer(_ device: OpaquePointer, _ param: ALCenum) -> ALCint {
            var v: ALCint = -1
            alcGetIntegerv(device, param, 1, &v)
            return v
        }

        @Test func hrtfAttributeAndReset() throws {
            try #require(FileManager.default.fileExists(atPath: "/usr/share/libmysofa/default.sofa"), "libmysofa1 is required")
            #expect(alcIsExtensionPresent(nil, "ALC_SOFT_HRTF") == ALCboolean(ALC_TRUE))
            let lb = try Loopback(extra: [ALC_HRTF_SOFT, ALC_TRUE])
            #expect(Self.integer(lb.device, ALC_HRTF_SOFT) == ALC_TRUE)
            #expect(Self.integer(lb.device, ALC_HRTF_STATUS_SOFT) == ALC_HRTF_ENABLED_SOFT)
            #expect(Self.integer(lb.device, ALC_NUM_HRTF_SPECIFIERS_SOFT) == 1)
            let name = alcGetStringiSOFT(lb.device, ALC_HRTF_SPECIFIER_SOFT, 0).map { String(cString: $0) }
            #expect(name?.contains("KEMAR") == true)
            #expect(alcGetStringiSOFT(lb.device, ALC_HRTF_SPECIFIER_SOFT, 1) == nil)
            #expect(alcGetError(lb.device) == ALC_INVALID_VALUE)
            let hrtf = Self.sideLevels(lb)
            // Through the procedure address, as clients of openal-soft call it.
            let proc = try #require(alcGetProcAddress(lb.device, "alcResetDeviceSOFT"))
            let reset = unsafeBitCast(proc, to: LPALCRESETDEVICESOFT.self)
            let off: [ALCint] = [ALC_HRTF_SOFT, ALC_FALSE, 0]
            #expect(reset(lb.device, off) == ALCboolean(ALC_TRUE))
            #expect(Self.integer(lb.device, ALC_HRTF_STATUS_SOFT) == ALC_HRTF_DISABLED_SOFT)
            let panned = lb.level()
            print("ALC_HRTF_SOFT on, +X at 1 kHz: L \(hrtf.left) R \(hrtf.right); off: L \(panned.left) R \(panned.right)")
            #expect(hrtf.right > 1.5 * hrtf.left && hrtf.left > 0.01, "HRTF: the far ear hears it, quieter")
            #expect(panned.left < 1e-3 && panned.right > 0.3, "panned: the left is silent")
            let bad: [ALCint] = [ALC_HRTF_SOFT, 7, 0]
            #expect(alcResetDeviceSOFT(lb.device, bad) == ALCboolean(ALC_FALSE))
            #expect(alcGetError(lb.device) == ALC_INVALID_VALUE)
            lb.close(sources: [hrtf.source], buffers: [hrtf.buffer])
        }

        @Test func monoOutputCannotUseHRTF() throws {
            let lb = try Loopback(channels: ALC_MONO_SOFT, extra: [ALC_HRTF_SOFT, ALC_TRUE])
            #expect(Self.integer(lb.device, ALC_HRTF_SOFT) == ALC_FALSE)
            #expect(Self.integer(lb.device, ALC_HRTF_STATUS_SOFT) == ALC_HRTF_UNSUPPORTED_FORMAT_SOFT)
            lb.close()
            // An HRTF index other than 0, or a bad request, refuses the context.
            let device = try #require(alcLoopbackOpenDeviceSOFT(nil))
            let attributes: [ALCint] = [ALC_FREQUENCY, 44100, ALC_FORMAT_CHANNELS_SOFT, ALC_STEREO_SOFT, ALC_FORMAT_TYPE_SOFT, ALC_FLOAT_SOFT,
                                        ALC_HRTF_ID_SOFT, 3, 0]
            #expect(alcCreateContext(device, attributes) == nil)
            #expect(alcGetError(device) == ALC_INVALID_VALUE)
            #expect(alcCloseDevice(device) == ALCboolean(ALC_TRUE))
        }

        /// 255 mono + 1 stereo sources (openal-soft's defaults) give 256 voices that all play at once.
        @Test func monoSourcesSizeTheContext() throws {
            let lb = try Loopback(extra: [ALC_MONO_SOURCES, 255, ALC_STEREO_SOURCES, 1])
            #expect(Self.integer(lb.device, ALC_MONO_SOURCES) == 256)
            let b = lb.buffer(frames: 4410) { _ in 0.001 }
            var sources = [ALuint](repeating: 0, count: 256)
            alGenSources(256, &sources)
            #expect(alGetError() == AL_NO_ERROR)
            alDistanceModel(AL_NONE)
            for s in sources {
                alSourcei(s, AL_BUFFER, ALint(bitPattern: b))
                alSourcei(s, AL_LOOPING, AL_TRUE)
                alSource3f(s, AL_POSITION, 0, 0, -1)
            }
            alSourcePlayv(256, sources)
            #expect(alGetError() == AL_NO_ERROR)
            #expect(sources.allSatisfy { lb.state($0) == AL_PLAYING })
            // Ahead, equal-power: each source gives 0.001 x 0.7071 per side; 256 of them add up.
            let level = lb.level()
            #expect(abs(level.left - 256 * 0.001 * 0.5.squareRoot()) < 1e-3, "\(level.left)")
            lb.close(sources: sources, buffers: [b])
        }
    }
}
