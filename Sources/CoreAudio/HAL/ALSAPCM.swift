import CALSA
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The thin unsafe layer over libasound: device hints, capability probes, and one opened PCM stream
/// (Float32 interleaved, blocking transfers with xrun recovery).
enum ALSA {
    /// Serialises ALSA's global configuration: reloading it (to see devices added to it) must not race an open.
    static let configLock = NSLock()

    struct Hint { var name: String; var description: String; var input: Bool; var output: Bool }

    /// The PCM names ALSA's configuration lists (its "hints"), with description and direction.
    static func hints() -> [Hint] {
        configLock.lock()
        defer { configLock.unlock() }
        // A full reload: snd_config_update alone notices changes of the top-level file only, not of the
        // files it includes (~/.asoundrc, /etc/asound.conf) where devices are added.
        snd_config_update_free_global()
        _ = snd_config_update()
        var raw: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        guard snd_device_name_hint(-1, "pcm", &raw) == 0, let list = raw else { return [] }
        defer { snd_device_name_free_hint(list) }
        func field(_ hint: UnsafeMutableRawPointer, _ key: String) -> String? {
            guard let c = snd_device_name_get_hint(hint, key) else { return nil }
            defer { free(c) }
            return String(cString: c)
        }
        var result: [Hint] = []
        var i = 0
        while let hint = list[i] {
            i += 1
            guard let name = field(hint, "NAME") else { continue }
            let ioid = field(hint, "IOID")
            let description = (field(hint, "DESC") ?? name).split(separator: "\n").joined(separator: ", ")
            result.append(Hint(name: name, description: description, input: ioid != "Output", output: ioid != "Input"))
        }
        return result
    }

    struct Capabilities {
        var channels: ClosedRange<UInt32>
        var rates: [Double]
        var periodFrames: ClosedRange<UInt32>
    }

    static let commonRates: [Double] = [8000, 11025, 16000, 22050, 32000, 44100, 48000, 88200, 96000, 176400, 192000]

    /// Why the last stream failed to open, in ALSA's words (configLock guards it).
    nonisolated(unsafe) private static var lastFailure: String?

    static func recordFailure(_ text: String) { lastFailure = text }

    /// The last failure's text (nil: none since the last call).
    static func takeLastFailure() -> String? {
        configLock.lock()
        defer { configLock.unlock() }
        defer { lastFailure = nil }
        return lastFailure
    }

    /// What a PCM accepts in one direction as Float32 interleaved, or nil if it cannot be opened.
    static func probe(_ name: String, output: Bool) -> Capabilities? {
        configLock.lock()
        defer { configLock.unlock() }
        var pcm: OpaquePointer?
        guard snd_pcm_open(&pcm, name, output ? SND_PCM_STREAM_PLAYBACK : SND_PCM_STREAM_CAPTURE, Int32(SND_PCM_NONBLOCK)) == 0,
              let pcm else { return nil }
        defer { snd_pcm_close(pcm) }
        var params: OpaquePointer?
        guard snd_pcm_hw_params_malloc(&params) == 0, let params else { return nil }
        defer { snd_pcm_hw_params_free(params) }
        guard snd_pcm_hw_params_any(pcm, params) >= 0,
              snd_pcm_hw_params_set_access(pcm, params, SND_PCM_ACCESS_RW_INTERLEAVED) == 0,
              snd_pcm_hw_params_set_format(pcm, params, SND_PCM_FORMAT_FLOAT_LE) == 0 else { return nil }
        var cmin: UInt32 = 0, cmax: UInt32 = 0
        snd_pcm_hw_params_get_channels_min(params, &cmin)
        snd_pcm_hw_params_get_channels_max(params, &cmax)
        let rates = commonRates.filter { snd_pcm_hw_params_test_rate(pcm, params, UInt32($0), 0) == 0 }
        var pmin: snd_pcm_uframes_t = 0, pmax: snd_pcm_uframes_t = 0
        var dir: Int32 = 0
        snd_pcm_hw_params_get_period_size_min(params, &pmin, &dir)
        snd_pcm_hw_params_get_period_size_max(params, &pmax, &dir)
        guard cmin >= 1, !rates.isEmpty else { return nil }
        let lo = UInt32(clamping: max(pmin, 16)), hi = UInt32(clamping: min(max(pmax, pmin), 8192))
        return Capabilities(channels: cmin...max(cmin, min(cmax, 64)), rates: rates, periodFrames: min(lo, hi)...max(lo, hi))
    }

    /// An open PCM stream.
    final class PCM {
        let handle: OpaquePointer
        let output: Bool
        let channels: Int
        let periodFrames: Int
        let bufferFrames: Int
        /// Waits longer than this count as a dead device.
        static let waitTimeoutMilliseconds: Int32 = 1500

        /// Opens `name` for Float32 interleaved at exactly `rate` with periods of `periodFrames`
        /// (three periods of buffer). Nil if the device refuses.
        init?(name: String, output: Bool, rate: Double, channels: Int, periodFrames: Int) {
            ALSA.configLock.lock()
            defer { ALSA.configLock.unlock() }
            var pcm: OpaquePointer?
            // Blocking transfers: the plugins (PulseAudio's among them) wait inside on their own condition;
            // their poll descriptors do not always make a non-blocking wait sleep.
            let opened = snd_pcm_open(&pcm, name, output ? SND_PCM_STREAM_PLAYBACK : SND_PCM_STREAM_CAPTURE, 0)
            guard opened == 0, let pcm else {
                ALSA.recordFailure("can't open ALSA PCM \"\(name)\" for \(output ? "playback" : "capture"): "
                                   + String(cString: snd_strerror(opened)))
                return nil
            }
            var params: OpaquePointer?
            guard snd_pcm_hw_params_malloc(&params) == 0, let params else { snd_pcm_close(pcm); return nil }
            defer { snd_pcm_hw_params_free(params) }
            // Playback: three periods (the buffer is latency). Capture: at least 100 ms, since data is read as
            // soon as a period is in and a larger buffer only absorbs a server's bursts (PulseAudio delivers a
            // monitor source in its own fragments) without adding latency.
            let captureFrames = max(periodFrames * 8, Int(rate * 0.1))
            var period = snd_pcm_uframes_t(periodFrames), buffer = snd_pcm_uframes_t(output ? periodFrames * 3 : captureFrames)
            var dir: Int32 = 0
            guard snd_pcm_hw_params_any(pcm, params) >= 0,
                  snd_pcm_hw_params_set_access(pcm, params, SND_PCM_ACCESS_RW_INTERLEAVED) == 0,
                  snd_pcm_hw_params_set_format(pcm, params, SND_PCM_FORMAT_FLOAT_LE) == 0,
                  snd_pcm_hw_params_set_channels(pcm, params, UInt32(channels)) == 0,
                  snd_pcm_hw_params_set_rate(pcm, params, UInt32(rate), 0) == 0,
                  snd_pcm_hw_params_set_period_size_near(pcm, params, &period, &dir) == 0,
                  snd_pcm_hw_params_set_buffer_size_near(pcm, params, &buffer) == 0,
                  snd_pcm_hw_params(pcm, params) == 0 else {
                ALSA.recordFailure("ALSA PCM \"\(name)\" refused Float32 x \(channels) at \(Int(rate)) Hz, periods of \(periodFrames) frames")
                snd_pcm_close(pcm)
                return nil
            }
            snd_pcm_hw_params_get_period_size(params, &period, &dir)
            snd_pcm_hw_params_get_buffer_size(params, &buffer)
            var sw: OpaquePointer?
            if snd_pcm_sw_params_malloc(&sw) == 0, let sw {
                snd_pcm_sw_params_current(pcm, sw)
                snd_pcm_sw_params_set_avail_min(pcm, sw, period)
                // Playback starts when the prefill is in, not at the first period.
                snd_pcm_sw_params_set_start_threshold(pcm, sw, output ? buffer : 1)
                snd_pcm_sw_params(pcm, sw)
                snd_pcm_sw_params_free(sw)
            }
            handle = pcm
            self.output = output
            self.channels = channels
            self.periodFrames = Int(period)
            self.bufferFrames = Int(buffer)
        }

        deinit {
            snd_pcm_drop(handle)
            snd_pcm_close(handle)
        }

        func start() { snd_pcm_start(handle) }

        /// Moves `frames` frames to or from `samples`, waiting as needed. Returns 0, or a negative errno
        /// when the stream failed beyond recovery (an xrun is recovered and counted in `xruns`).
        func transfer(_ samples: UnsafeMutablePointer<Float>, frames: Int, xruns: inout Int) -> Int32 {
            var done = 0
            var timeouts = 0
            while done < frames {
                let p = UnsafeMutableRawPointer(samples + done * channels)
                let n = output ? snd_pcm_writei(handle, p, snd_pcm_uframes_t(frames - done))
                               : snd_pcm_readi(handle, p, snd_pcm_uframes_t(frames - done))
                if n > 0 { done += n; timeouts = 0; continue }
                let error = Int32(n)
                if n == 0 || error == -EAGAIN {
                    let w = snd_pcm_wait(handle, Self.waitTimeoutMilliseconds)
                    if w == 0 { timeouts += 1; if timeouts >= 2 { return -ETIMEDOUT } }
                    if w < 0 { if snd_pcm_recover(handle, w, 1) < 0 { return w }; xruns += 1 }
                    continue
                }
                if error == -EPIPE || error == -ESTRPIPE { xruns += 1 }
                if snd_pcm_recover(handle, error, 1) < 0 { return error }
                if !output { snd_pcm_start(handle) }
            }
            return 0
        }

        /// Frames queued but not yet played (playback) or captured but not yet read.
        var delay: Int {
            var d: snd_pcm_sframes_t = 0
            return snd_pcm_delay(handle, &d) == 0 ? Int(d) : 0
        }
    }
}
