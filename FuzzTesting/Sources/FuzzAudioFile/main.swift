// libFuzzer target: every container parser (through AudioFileOpenWithCallbacks over the fuzz input,
// with each type hint), the reads and properties a client makes after opening, and AudioFileStream
// fed the same bytes in two pieces. Any crash, hang or sanitizer report is a bug.
import AudioToolbox
import Foundation

final class MemoryFile {
    let bytes: UnsafeRawBufferPointer
    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }
}

let readProc: AudioFile_ReadProc = { client, position, count, buffer, actual in
    let m = Unmanaged<MemoryFile>.fromOpaque(client).takeUnretainedValue()
    guard position >= 0, position < Int64(m.bytes.count) else { actual.pointee = 0; return kAudioFileEndOfFileError }
    let n = min(Int(count), m.bytes.count - Int(position))
    buffer.copyMemory(from: m.bytes.baseAddress! + Int(position), byteCount: n)
    actual.pointee = UInt32(n)
    return noErr
}
let sizeProc: AudioFile_GetSizeProc = { client in
    Int64(Unmanaged<MemoryFile>.fromOpaque(client).takeUnretainedValue().bytes.count)
}
let listener: AudioFileStream_PropertyListenerProc = { _, _, _, _ in }
let packets: AudioFileStream_PacketsProc = { _, _, _, _, _ in }

func exercise(_ data: UnsafeRawBufferPointer) {
    let m = MemoryFile(data)
    let client = Unmanaged.passUnretained(m).toOpaque()
    for hint in [0, kAudioFileWAVEType, kAudioFileAIFFType, kAudioFileCAFType] {
        var file: AudioFileID?
        guard AudioFileOpenWithCallbacks(client, readProc, nil, sizeProc, nil, hint, &file) == noErr, let f = file else { continue }
        var count: UInt64 = 0
        var size: UInt32 = 8
        AudioFileGetProperty(f, kAudioFilePropertyAudioDataPacketCount, &size, &count)
        var format = AudioStreamBasicDescription()
        size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        AudioFileGetProperty(f, kAudioFilePropertyDataFormat, &size, &format)
        var layoutSize: UInt32 = 0
        if AudioFileGetPropertyInfo(f, kAudioFilePropertyChannelLayout, &layoutSize, nil) == noErr, layoutSize > 0, layoutSize < 1 << 20 {
            let layout = UnsafeMutableRawPointer.allocate(byteCount: Int(layoutSize), alignment: 8)
            AudioFileGetProperty(f, kAudioFilePropertyChannelLayout, &layoutSize, layout)
            layout.deallocate()
        }
        var info: CFDictionary? = nil
        size = UInt32(MemoryLayout<CFDictionary?>.size)
        AudioFileGetProperty(f, kAudioFilePropertyInfoDictionary, &size, &info)
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 65536, alignment: 16)
        var packet: Int64 = 0
        while true {
            var bytes: UInt32 = 65536, n: UInt32 = 4096
            if AudioFileReadPacketData(f, false, &bytes, nil, packet, &n, buffer) != noErr || n == 0 { break }
            packet += Int64(n)
        }
        buffer.deallocate()
        AudioFileClose(f)
    }
    var stream: AudioFileStreamID?
    AudioFileStreamOpen(nil, listener, packets, 0, &stream)
    if let s = stream {
        let half = data.count / 2
        AudioFileStreamParseBytes(s, UInt32(half), data.baseAddress, [])
        AudioFileStreamParseBytes(s, UInt32(data.count - half), data.baseAddress.map { $0 + half }, [])
        AudioFileStreamClose(s)
    }
}

/// libFuzzer's entry point (libFuzzer supplies main).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    exercise(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
