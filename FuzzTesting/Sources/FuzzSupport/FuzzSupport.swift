// What the fuzz targets share: open the fuzz input as an audio file through AudioFileOpenWithCallbacks
// (with a type hint), make the reads and property calls a client makes, and feed AudioFileStream.
import AudioToolbox
import Foundation

public final class MemoryFile {
    let bytes: UnsafeRawBufferPointer
    public init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }
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

/// Opens `data` as a file with each hint and reads everything a client would.
public func exerciseFile(_ data: UnsafeRawBufferPointer, hints: [AudioFileTypeID]) {
    let m = MemoryFile(data)
    let client = Unmanaged.passUnretained(m).toOpaque()
    for hint in hints {
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
        exerciseMarkers(f)
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
}

/// Gets the marker and region lists (hostile 'mark'/'regn'/'strg' chunks) and releases the names.
func exerciseMarkers(_ f: AudioFileID) {
    let stride = MemoryLayout<AudioFileMarker>.stride
    func release(_ markers: UnsafeRawPointer, _ count: Int) {
        for i in 0..<count {
            markers.loadUnaligned(fromByteOffset: i * stride, as: AudioFileMarker.self).mName?.release()
        }
    }
    var size: UInt32 = 0
    if AudioFileGetPropertyInfo(f, kAudioFilePropertyMarkerList, &size, nil) == noErr, size >= 8, size < 1 << 24 {
        let list = UnsafeMutableRawPointer.allocate(byteCount: Int(size), alignment: 8)
        if AudioFileGetProperty(f, kAudioFilePropertyMarkerList, &size, list) == noErr {
            release(list + 8, Int(list.load(fromByteOffset: 4, as: UInt32.self)))
        }
        list.deallocate()
    }
    if AudioFileGetPropertyInfo(f, kAudioFilePropertyRegionList, &size, nil) == noErr, size >= 8, size < 1 << 24 {
        let list = UnsafeMutableRawPointer.allocate(byteCount: Int(size), alignment: 8)
        if AudioFileGetProperty(f, kAudioFilePropertyRegionList, &size, list) == noErr {
            let header = MemoryLayout<AudioFileRegion>.offset(of: \AudioFileRegion.mMarkers)!
            let countOffset = MemoryLayout<AudioFileRegion>.offset(of: \AudioFileRegion.mNumberMarkers)!
            var at = 8
            for _ in 0..<Int(list.load(fromByteOffset: 4, as: UInt32.self)) {
                let n = Int(list.loadUnaligned(fromByteOffset: at + countOffset, as: UInt32.self))
                list.load(fromByteOffset: at + MemoryLayout<AudioFileRegion>.offset(of: \AudioFileRegion.mName)!, as: Unmanaged<CFString>.self).release()
                release(list + at + header, n)
                at += header + n * stride
            }
        }
        list.deallocate()
    }
}

/// Feeds `data` to AudioFileStream in `pieces` parts.
public func exerciseStream(_ data: UnsafeRawBufferPointer, pieces: Int) {
    var stream: AudioFileStreamID?
    AudioFileStreamOpen(nil, listener, packets, 0, &stream)
    guard let s = stream else { return }
    let step = max(1, data.count / max(pieces, 1))
    var offset = 0
    while offset < data.count {
        let n = min(step, data.count - offset)
        AudioFileStreamParseBytes(s, UInt32(n), data.baseAddress! + offset, [])
        offset += n
    }
    AudioFileStreamClose(s)
}

