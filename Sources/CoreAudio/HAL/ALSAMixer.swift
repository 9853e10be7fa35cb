import CALSA
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A device's ALSA mixer: the playback and capture volume/switch elements behind the HAL's VolumeScalar,
/// VolumeDecibels and Mute properties. Through ALSA's pulse plugin the mixer's "Master" and "Capture"
/// elements are the PulseAudio server's default sink and source volumes, so a change made here is what
/// `pactl get-sink-volume` shows, and a change made by any other program reaches us as a mixer event.
///
/// Channel 0 is the main control: the loudest channel (PulseAudio's overall volume); setting it scales every
/// channel by the same factor, which keeps the balance. Channels 1...n are the element's own channels.
/// libasound's mixer is not thread-safe: every call takes `lock`. Never called from an IO thread.
final class ALSAMixer: @unchecked Sendable {
    private let handle: OpaquePointer
    private let lock = NSLock()
    private let output: Element?
    private let input: Element?
    /// The raw values and switches last seen per direction, to tell real changes from repeated events.
    private var seen: [Bool: [Int]] = [:]

    /// One simple element in one direction.
    struct Element {
        let elem: OpaquePointer
        let input: Bool
        let channels: [snd_mixer_selem_channel_id_t]
        let rawRange: ClosedRange<Int>
        /// How scalar maps to dB; nil for a control without dB information (then it has no dB properties).
        let curve: VolumeCurve?
        /// The raw value follows ALSA's dB (hardware) rather than the scalar (PulseAudio, or no dB at all).
        let rawIsDecibels: Bool
        let hasSwitch: Bool
        let switchJoined: Bool
    }

    /// The control names tried first, in order, per direction (else the first element that has a volume).
    static let playbackNames = ["Master", "PCM", "Speaker", "Headphone", "Front"]
    static let captureNames = ["Capture", "Mic", "Internal Mic", "Front Mic"]

    /// Opens the mixer that belongs to the PCM `uid` (nil if it has none or no volume element).
    init?(uid: String) {
        var mixer: OpaquePointer?
        guard snd_mixer_open(&mixer, 0) == 0, let mixer else { return nil }
        let ctl = Self.controlName(forPCM: uid)
        ALSA.configLock.lock()
        let attached = snd_mixer_attach(mixer, ctl) == 0 && snd_mixer_selem_register(mixer, nil, nil) == 0 && snd_mixer_load(mixer) == 0
        ALSA.configLock.unlock()
        guard attached else { snd_mixer_close(mixer); return nil }
        handle = mixer
        let pulse = Self.isPulseAudio(mixer, ctl)
        output = Self.findElement(mixer, input: false, pulse: pulse)
        input = Self.findElement(mixer, input: true, pulse: pulse)
        // Every stored property is set: deinit closes the handle if this fails.
        guard output != nil || input != nil else { return nil }
        seen[false] = output.map(snapshot)
        seen[true] = input.map(snapshot)
    }

    deinit { snd_mixer_close(handle) }

    /// The control device of a PCM: a card's PCM ("hw:0,0", "plughw:CARD=X,DEV=0") uses that card's control;
    /// a plugin PCM ("default", "pulse", "pipewire") has a control device of the same name.
    static func controlName(forPCM uid: String) -> String {
        if let range = uid.range(of: "CARD=") {
            let card = uid[range.upperBound...].prefix { $0 != "," }
            return "hw:CARD=\(card)"
        }
        if uid.hasPrefix("hw:") || uid.hasPrefix("plughw:") {
            let card = uid.drop { $0 != ":" }.dropFirst().prefix { $0 != "," }
            return "hw:\(card)"
        }
        return uid
    }

    /// Whether the control device is ALSA's PulseAudio (or PipeWire) plugin, whose raw volume is the
    /// server's linear percentage (0...65536 = 0...100 %) with no dB table of its own.
    private static func isPulseAudio(_ mixer: OpaquePointer, _ ctl: String) -> Bool {
        var hctl: OpaquePointer?
        guard snd_mixer_get_hctl(mixer, ctl, &hctl) == 0, let hctl, let control = snd_hctl_ctl(hctl) else { return false }
        var info: OpaquePointer?
        guard snd_ctl_card_info_malloc(&info) == 0, let info else { return false }
        defer { snd_ctl_card_info_free(info) }
        guard snd_ctl_card_info(control, info) == 0 else { return false }
        let id = String(cString: snd_ctl_card_info_get_id(info)), mixerName = String(cString: snd_ctl_card_info_get_mixername(info))
        return id == "pulse" || id == "pipewire" || mixerName == "PulseAudio" || mixerName == "PipeWire"
    }

    private static func findElement(_ mixer: OpaquePointer, input: Bool, pulse: Bool) -> Element? {
        var candidates: [(String, OpaquePointer)] = []
        var e = snd_mixer_first_elem(mixer)
        while let elem = e {
            let hasVolume = input ? snd_mixer_selem_has_capture_volume(elem) != 0 : snd_mixer_selem_has_playback_volume(elem) != 0
            if snd_mixer_selem_is_active(elem) != 0, hasVolume, let name = snd_mixer_selem_get_name(elem) {
                candidates.append((String(cString: name), elem))
            }
            e = snd_mixer_elem_next(elem)
        }
        let names = input ? captureNames : playbackNames
        guard let elem = names.lazy.compactMap({ n in candidates.first { $0.0 == n }?.1 }).first ?? candidates.first?.1 else { return nil }
        var channels: [snd_mixer_selem_channel_id_t] = []
        for c in 0...Int32(SND_MIXER_SCHN_LAST.rawValue) {
            let id = snd_mixer_selem_channel_id_t(rawValue: c)
            if (input ? snd_mixer_selem_has_capture_channel(elem, id) : snd_mixer_selem_has_playback_channel(elem, id)) != 0 { channels.append(id) }
        }
        if (input ? snd_mixer_selem_is_capture_mono(elem) : snd_mixer_selem_is_playback_mono(elem)) != 0 {
            channels = [SND_MIXER_SCHN_MONO]
        }
        guard !channels.isEmpty else { return nil }
        var lo = 0, hi = 0
        _ = input ? snd_mixer_selem_get_capture_volume_range(elem, &lo, &hi) : snd_mixer_selem_get_playback_volume_range(elem, &lo, &hi)
        guard hi > lo else { return nil }
        var curve: VolumeCurve?
        var rawIsDecibels = false
        var dBmin = 0, dBmax = 0
        let hasDB = (input ? snd_mixer_selem_get_capture_dB_range(elem, &dBmin, &dBmax) : snd_mixer_selem_get_playback_dB_range(elem, &dBmin, &dBmax)) == 0
        if pulse {
            curve = .pulseAudio
        } else if hasDB, dBmax > dBmin {
            // ALSA's mute step (SND_CTL_TLV_DB_GAIN_MUTE) reports as a huge negative minimum: the range starts at
            // the lowest audible step and its bottom is silence.
            let mute = dBmin <= -9_999_999
            var lowest = dBmin
            if mute {
                var v = 0
                _ = input ? snd_mixer_selem_ask_capture_vol_dB(elem, lo + 1, &v) : snd_mixer_selem_ask_playback_vol_dB(elem, lo + 1, &v)
                lowest = min(v, dBmax - 1)
            }
            curve = VolumeCurve(minimum: Double(lowest) / 100, maximum: Double(dBmax) / 100, minimumIsSilence: mute)
            rawIsDecibels = true
        }
        let hasSwitch = (input ? snd_mixer_selem_has_capture_switch(elem) : snd_mixer_selem_has_playback_switch(elem)) != 0
        let joined = (input ? snd_mixer_selem_has_capture_switch_joined(elem) : snd_mixer_selem_has_playback_switch_joined(elem)) != 0
        return Element(elem: elem, input: input, channels: channels, rawRange: lo...hi, curve: curve, rawIsDecibels: rawIsDecibels,
                       hasSwitch: hasSwitch, switchJoined: joined || channels.count == 1)
    }

    // MARK: What the controls are

    /// Whether there is a volume control in the direction.
    func hasVolume(input: Bool) -> Bool { element(input) != nil }

    /// Channels with a control of their own (0 for a mono control, which has the main element only).
    func channelCount(input: Bool) -> Int {
        guard let e = element(input), e.channels.count > 1 else { return 0 }
        return e.channels.count
    }

    func curve(input: Bool) -> VolumeCurve? { element(input)?.curve }

    /// Whether there is a mute control for `channel` (0: the main one; per channel only if not joined).
    func hasMute(input: Bool, channel: Int) -> Bool {
        guard let e = element(input), e.hasSwitch else { return false }
        return channel == 0 || (!e.switchJoined && channel <= e.channels.count)
    }

    private func element(_ input: Bool) -> Element? { input ? self.input : output }

    // MARK: Values

    /// The scalar (0...1) of a channel, or of the main control (channel 0: the loudest channel).
    func scalar(input: Bool, channel: Int) -> Double? {
        lock.withLock {
            guard let e = element(input) else { return nil }
            takePendingEvents()
            let all = e.channels.map { scalar(e, raw(e, $0)) }
            return channel == 0 ? all.max() : (channel <= all.count ? all[channel - 1] : nil)
        }
    }

    /// Sets a channel's scalar, or (channel 0) every channel's in proportion so that the loudest one gets it.
    func setScalar(_ value: Double, input: Bool, channel: Int) -> Bool {
        let v = min(max(value, 0), 1)
        return lock.withLock {
            guard let e = element(input) else { return false }
            // The other channels' values as they are now: another program (pactl, a desktop slider) may have
            // changed them since the watcher last looked, and the main control scales them in proportion.
            takePendingEvents()
            var ok = true
            if channel == 0 {
                let current = e.channels.map { scalar(e, raw(e, $0)) }
                let top = current.max() ?? 0
                for (i, c) in e.channels.enumerated() {
                    ok = setRaw(e, c, rawValue(e, top > 0 ? current[i] * v / top : v)) && ok
                }
            } else if channel <= e.channels.count {
                ok = setRaw(e, e.channels[channel - 1], rawValue(e, v))
            } else {
                return false
            }
            seen[input] = snapshot(e)
            return ok
        }
    }

    /// Muted: the switch is off.
    func isMuted(input: Bool, channel: Int) -> Bool? {
        lock.withLock {
            guard let e = element(input), e.hasSwitch else { return nil }
            let c = channel == 0 || e.switchJoined ? e.channels[0] : (channel <= e.channels.count ? e.channels[channel - 1] : nil)
            guard let c else { return nil }
            var on: Int32 = 1
            _ = e.input ? snd_mixer_selem_get_capture_switch(e.elem, c, &on) : snd_mixer_selem_get_playback_switch(e.elem, c, &on)
            return on == 0
        }
    }

    func setMuted(_ muted: Bool, input: Bool, channel: Int) -> Bool {
        lock.withLock {
            guard let e = element(input), e.hasSwitch else { return false }
            let on: Int32 = muted ? 0 : 1
            let status: Int32
            if channel == 0 || e.switchJoined {
                status = e.input ? snd_mixer_selem_set_capture_switch_all(e.elem, on) : snd_mixer_selem_set_playback_switch_all(e.elem, on)
            } else if channel <= e.channels.count {
                let c = e.channels[channel - 1]
                status = e.input ? snd_mixer_selem_set_capture_switch(e.elem, c, on) : snd_mixer_selem_set_playback_switch(e.elem, c, on)
            } else {
                return false
            }
            seen[input] = snapshot(e)
            return status == 0
        }
    }

    /// What a poll found changed in one direction.
    struct Change { var input: Bool; var volume: Bool; var mute: Bool }

    /// Brings the mixer's cached values up to date with the events waiting (without waiting for more): lock held.
    /// `seen` is left alone, so the watcher's next poll still reports what another program changed.
    @discardableResult
    private func takePendingEvents() -> Bool {
        let count = Int(snd_mixer_poll_descriptors_count(handle))
        if count > 0 {
            var fds = [pollfd](repeating: pollfd(), count: count)
            let n = snd_mixer_poll_descriptors(handle, &fds, UInt32(count))
            guard n > 0, Glibc.poll(&fds, nfds_t(n), 0) > 0 else { return false }
            var revents: UInt16 = 0
            snd_mixer_poll_descriptors_revents(handle, &fds, UInt32(n), &revents)
            guard revents != 0 else { return false }
        }
        snd_mixer_handle_events(handle)
        return true
    }

    /// Reads the mixer's pending events without waiting; returns what changed since it was last seen (by an
    /// earlier poll, a read that took the events, or a change made here), per direction.
    func poll() -> [Change] {
        lock.withLock {
            takePendingEvents()
            var changed: [Change] = []
            for direction in [false, true] {
                guard let e = element(direction) else { continue }
                let now = snapshot(e), before = seen[direction] ?? []
                guard before != now else { continue }
                seen[direction] = now
                let n = e.channels.count
                changed.append(Change(input: direction, volume: Array(before.prefix(n)) != Array(now.prefix(n)),
                                      mute: Array(before.dropFirst(n)) != Array(now.dropFirst(n))))
            }
            return changed
        }
    }

    // MARK: Raw access (lock held)

    private func raw(_ e: Element, _ c: snd_mixer_selem_channel_id_t) -> Int {
        var v = 0
        _ = e.input ? snd_mixer_selem_get_capture_volume(e.elem, c, &v) : snd_mixer_selem_get_playback_volume(e.elem, c, &v)
        return v
    }

    private func setRaw(_ e: Element, _ c: snd_mixer_selem_channel_id_t, _ v: Int) -> Bool {
        (e.input ? snd_mixer_selem_set_capture_volume(e.elem, c, v) : snd_mixer_selem_set_playback_volume(e.elem, c, v)) == 0
    }

    private func scalar(_ e: Element, _ raw: Int) -> Double {
        if e.rawIsDecibels, let curve = e.curve {
            if raw <= e.rawRange.lowerBound && curve.minimumIsSilence { return 0 }
            var cdB = 0
            _ = e.input ? snd_mixer_selem_ask_capture_vol_dB(e.elem, raw, &cdB) : snd_mixer_selem_ask_playback_vol_dB(e.elem, raw, &cdB)
            return curve.scalar(decibels: Double(cdB) / 100)
        }
        return Double(raw - e.rawRange.lowerBound) / Double(e.rawRange.upperBound - e.rawRange.lowerBound)
    }

    private func rawValue(_ e: Element, _ scalar: Double) -> Int {
        if e.rawIsDecibels, let curve = e.curve {
            if scalar <= 0 && curve.minimumIsSilence { return e.rawRange.lowerBound }
            let cdB = Int((curve.decibels(scalar: scalar) * 100).rounded())
            // The step nearest in dB: ALSA rounds one way or the other on request.
            var down = e.rawRange.lowerBound, up = e.rawRange.upperBound
            _ = e.input ? snd_mixer_selem_ask_capture_dB_vol(e.elem, cdB, -1, &down) : snd_mixer_selem_ask_playback_dB_vol(e.elem, cdB, -1, &down)
            _ = e.input ? snd_mixer_selem_ask_capture_dB_vol(e.elem, cdB, 1, &up) : snd_mixer_selem_ask_playback_dB_vol(e.elem, cdB, 1, &up)
            var dDown = 0, dUp = 0
            _ = e.input ? snd_mixer_selem_ask_capture_vol_dB(e.elem, down, &dDown) : snd_mixer_selem_ask_playback_vol_dB(e.elem, down, &dDown)
            _ = e.input ? snd_mixer_selem_ask_capture_vol_dB(e.elem, up, &dUp) : snd_mixer_selem_ask_playback_vol_dB(e.elem, up, &dUp)
            return abs(dUp - cdB) < abs(cdB - dDown) ? up : down
        }
        let span = Double(e.rawRange.upperBound - e.rawRange.lowerBound)
        return e.rawRange.lowerBound + Int((scalar * span).rounded())
    }

    private func snapshot(_ e: Element) -> [Int] {
        var values = e.channels.map { raw(e, $0) }
        if e.hasSwitch {
            for c in e.channels {
                var on: Int32 = 0
                _ = e.input ? snd_mixer_selem_get_capture_switch(e.elem, c, &on) : snd_mixer_selem_get_playback_switch(e.elem, c, &on)
                values.append(Int(on))
            }
        }
        return values
    }
}
