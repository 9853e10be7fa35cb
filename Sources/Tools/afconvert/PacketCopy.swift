import AudioToolbox
import ToolSupport

/// `-d 0` from a compressed source: the packets copied exactly into a new file of `type` (Apple's afconvert:
/// "with packets copied exactly"), with the source's magic cookie, channel layout and packet table. Nil when done,
/// else what went wrong.
func copyPackets(from source: AudioFileID, format: AudioStreamBasicDescription, to url: CFURL, type: AudioFileTypeID,
                 flags: UInt32) -> String? {
    func bytes(_ file: AudioFileID, _ id: AudioFilePropertyID) -> [UInt8]? {
        var size: UInt32 = 0
        guard AudioFileGetPropertyInfo(file, id, &size, nil) == noErr, size > 0 else { return nil }
        var data = [UInt8](repeating: 0, count: Int(size))
        guard AudioFileGetProperty(file, id, &size, &data) == noErr else { return nil }
        return Array(data.prefix(Int(size)))
    }
    var asbd = format
    var created: AudioFileID?
    var status = AudioFileCreateWithURL(url, type, &asbd, AudioFileFlags(rawValue: flags | AudioFileFlags.eraseFile.rawValue), &created)
    guard status == noErr, let target = created else {
        return "can't create a \(quoted(type)) file of \(describe(format).trimmingCharacters(in: .whitespaces)): \(describe(status))"
    }
    defer { AudioFileClose(target) }
    if var cookie = bytes(source, kAudioFilePropertyMagicCookieData) {
        status = AudioFileSetProperty(target, kAudioFilePropertyMagicCookieData, UInt32(cookie.count), &cookie)
        if status != noErr { return "can't write the magic cookie: \(describe(status))" }
    }
    // A layout the type cannot hold is left out, as the conversion path leaves it.
    if var layout = bytes(source, kAudioFilePropertyChannelLayout) {
        _ = AudioFileSetProperty(target, kAudioFilePropertyChannelLayout, UInt32(layout.count), &layout)
    }
    var maxPacket: UInt32 = 0
    var size = UInt32(4)
    AudioFileGetProperty(source, kAudioFilePropertyMaximumPacketSize, &size, &maxPacket)
    let chunk = 256
    var buffer = [UInt8](repeating: 0, count: chunk * Int(max(maxPacket, 1)))
    var descriptions = [AudioStreamPacketDescription](repeating: AudioStreamPacketDescription(), count: chunk)
    var packet: Int64 = 0
    while true {
        var count = UInt32(chunk), byteCount = UInt32(buffer.count)
        status = AudioFileReadPacketData(source, false, &byteCount, &descriptions, packet, &count, &buffer)
        if status != noErr && status != kAudioFileEndOfFileError { return "error reading packet \(packet): \(describe(status))" }
        if count == 0 { break }
        let constant = format.mBytesPerPacket > 0
        status = descriptions.withUnsafeBufferPointer { d in
            AudioFileWritePackets(target, false, byteCount, constant ? nil : d.baseAddress, packet, &count, buffer)
        }
        if status != noErr { return "error writing packet \(packet): \(describe(status))" }
        packet += Int64(count)
    }
    var table = AudioFilePacketTableInfo()
    size = UInt32(MemoryLayout<AudioFilePacketTableInfo>.size)
    if AudioFileGetProperty(source, kAudioFilePropertyPacketTableInfo, &size, &table) == noErr {
        _ = AudioFileSetProperty(target, kAudioFilePropertyPacketTableInfo, size, &table)
    }
    return nil
}
