// What the fuzz targets (FuzzTesting/) and the corpus replay tests share: open hostile bytes as an audio
// file through AudioFileOpenWithCallbacks (with a type hint), make the reads and property calls a client
// makes, read through ExtAudioFile with a client format (the converter and resampler behind it), print
// afinfo's report, feed AudioFileStream, and load it as a Standard MIDI File. Any trap, hang or sanitizer report is a bug.
import AudioToolbox
import Foundation
import ToolSupport

public final class MemoryFile {
    public let bytes: UnsafeRawBufferPointer
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
        var info: Unmanaged<CFDictionary>? = nil
        size = UInt32(MemoryLayout<Unmanaged<CFDictionary>?>.size)
        if AudioFileGetProperty(f, kAudioFilePropertyInfoDictionary, &size, &info) == noErr { info?.release() }
        exerciseMarkers(f)
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 65536, alignment: 16)
        let descriptions = UnsafeMutablePointer<AudioStreamPacketDescription>.allocate(capacity: 4096)
        var packet: Int64 = 0
        while true {
            var bytes: UInt32 = 65536, n: UInt32 = 4096
            if AudioFileReadPacketData(f, false, &bytes, packet & 1 == 0 ? descriptions : nil, packet, &n, buffer) != noErr || n == 0 { break }
            packet += Int64(n)
        }
        descriptions.deallocate()
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


/// Opens `data` with every container (no hint), wraps it in ExtAudioFile and reads it through the client
/// format `selector` picks (rate, channels, sample type, interleaving): decoding, channel mapping and
/// resampling all see the hostile file's format. Reads in varying slices, seeks to the middle and reads
/// again. At most `frameLimit` client frames are read (a huge declared length must not make a run slow).
public func exerciseExtAudioFile(_ data: UnsafeRawBufferPointer, selector: UInt8, frameLimit: Int = 1 << 18) {
    let m = MemoryFile(data)
    let client = Unmanaged.passUnretained(m).toOpaque()
    var file: AudioFileID?
    guard AudioFileOpenWithCallbacks(client, readProc, nil, sizeProc, nil, 0, &file) == noErr, let f = file else { return }
    defer { AudioFileClose(f) }
    var ext: ExtAudioFileRef?
    guard ExtAudioFileWrapAudioFileID(f, false, &ext) == noErr, let x = ext else { return }
    defer { ExtAudioFileDispose(x) }
    var fileFormat = AudioStreamBasicDescription()
    var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
    guard ExtAudioFileGetProperty(x, kExtAudioFileProperty_FileDataFormat, &size, &fileFormat) == noErr else { return }
    let rates: [Double] = [fileFormat.mSampleRate, 8000, 22050.5, 44100, 48000, 96000]
    let rate = rates[Int(selector) % rates.count]
    let channels: UInt32 = [fileFormat.mChannelsPerFrame, 1, 2][Int(selector / 8) % 3]
    let isFloat = selector & 0x20 == 0, nonInterleaved = selector & 0x40 != 0
    let bytes: UInt32 = isFloat ? 4 : 2
    let perBuffer = nonInterleaved ? bytes : bytes * channels
    var clientFormat = AudioStreamBasicDescription(
        mSampleRate: rate, mFormatID: kAudioFormatLinearPCM,
        mFormatFlags: (isFloat ? kAudioFormatFlagIsFloat : kAudioFormatFlagIsSignedInteger) | kAudioFormatFlagIsPacked
            | (nonInterleaved ? kAudioFormatFlagIsNonInterleaved : 0),
        mBytesPerPacket: perBuffer, mFramesPerPacket: 1, mBytesPerFrame: perBuffer, mChannelsPerFrame: channels,
        mBitsPerChannel: bytes * 8, mReserved: 0)
    guard ExtAudioFileSetProperty(x, kExtAudioFileProperty_ClientDataFormat, size, &clientFormat) == noErr else { return }
    var length: Int64 = 0
    size = 8
    ExtAudioFileGetProperty(x, kExtAudioFileProperty_FileLengthFrames, &size, &length)
    let maxSlice = 4096
    let buffers = nonInterleaved ? Int(channels) : 1
    let memory = UnsafeMutableRawPointer.allocate(byteCount: maxSlice * Int(perBuffer) * buffers, alignment: 16)
    defer { memory.deallocate() }
    let list = AudioBufferList.allocate(maximumBuffers: buffers)
    defer { free(list.unsafeMutablePointer) }
    func read(_ budget: Int) {
        var done = 0, slice = 1
        while done < budget {
            let n = min(slice, maxSlice)
            for b in 0..<buffers {
                list[b] = AudioBuffer(mNumberChannels: nonInterleaved ? 1 : channels, mDataByteSize: UInt32(n) * perBuffer,
                                      mData: memory + b * maxSlice * Int(perBuffer))
            }
            var frames = UInt32(n)
            if ExtAudioFileRead(x, &frames, list.unsafeMutablePointer) != noErr || frames == 0 { return }
            done += Int(frames)
            slice = slice * 3 % 5000 + 1  // 1, 4, 13, 40, 121, 364, 1093, 3280, ...
        }
    }
    read(frameLimit)
    if ExtAudioFileSeek(x, length / 2) == noErr { read(frameLimit / 4) }
}

/// Opens `data` (no hint) and prints afinfo's full, brief, info-only and XML reports into memory.
public func exerciseReport(_ data: UnsafeRawBufferPointer) {
    let m = MemoryFile(data)
    let client = Unmanaged.passUnretained(m).toOpaque()
    var file: AudioFileID?
    guard AudioFileOpenWithCallbacks(client, readProc, nil, sizeProc, nil, 0, &file) == noErr, let f = file else { return }
    var report = AudioFileReport()
    printFull("fuzz", f, to: &report)
    printBrief("fuzz", f, to: &report)
    printInfoOnly("fuzz", f, to: &report)
    AudioFileXMLReport.element("fuzz", f, to: &report)
    AudioFileClose(f)
}

/// Loads `data` as a Standard MIDI File (tracks kept, then split by channel), walks every event, asks
/// the tempo and bar/beat maps, writes the sequence back as a MIDI file and loads that again.
public func exerciseMIDIFile(_ data: UnsafeRawBufferPointer) {
    let bytes = Data(data)
    for flags: MusicSequenceLoadFlags in [[], .smf_ChannelsToTracks] {
        var sequence: MusicSequence?
        NewMusicSequence(&sequence)
        guard let s = sequence else { return }
        defer { DisposeMusicSequence(s) }
        guard MusicSequenceFileLoadData(s, bytes as CFData, .anyType, flags) == noErr else { continue }
        var count: UInt32 = 0
        MusicSequenceGetTrackCount(s, &count)
        var tracks: [MusicTrack] = []
        var tempo: MusicTrack?
        MusicSequenceGetTempoTrack(s, &tempo)
        if let tempo { tracks.append(tempo) }
        for i in 0..<count {
            var t: MusicTrack?
            MusicSequenceGetIndTrack(s, i, &t)
            if let t { tracks.append(t) }
        }
        var last: MusicTimeStamp = 0
        for t in tracks {
            var iterator: MusicEventIterator?
            NewMusicEventIterator(t, &iterator)
            guard let it = iterator else { continue }
            var has: DarwinBoolean = false
            MusicEventIteratorHasCurrentEvent(it, &has)
            while has.boolValue {
                var time: MusicTimeStamp = 0
                var type: MusicEventType = 0
                var eventData: UnsafeRawPointer?
                var size: UInt32 = 0
                MusicEventIteratorGetEventInfo(it, &time, &type, &eventData, &size)
                if let eventData, size > 0 { _ = UnsafeRawBufferPointer(start: eventData, count: Int(size)).reduce(0, &+) }
                last = max(last, time)
                MusicEventIteratorNextEvent(it)
                MusicEventIteratorHasCurrentEvent(it, &has)
            }
            DisposeMusicEventIterator(it)
        }
        var seconds: Float64 = 0
        MusicSequenceGetSecondsForBeats(s, last, &seconds)
        var beats: MusicTimeStamp = 0
        MusicSequenceGetBeatsForSeconds(s, seconds, &beats)
        var bar = CABarBeatTime()
        MusicSequenceBeatsToBarBeatTime(s, last, 480, &bar)
        MusicSequenceBarBeatTimeToBeats(s, &bar, &beats)
        _ = MusicSequenceGetInfoDictionary(s)
        var written: Unmanaged<CFData>?
        guard MusicSequenceFileCreateData(s, .midiType, [], 0, &written) == noErr, let w = written?.takeRetainedValue() else { continue }
        var again: MusicSequence?
        NewMusicSequence(&again)
        if let again {
            MusicSequenceFileLoadData(again, w, .midiType, [])
            DisposeMusicSequence(again)
        }
    }
}

/// Everything above, for one input: what the corpus replay tests run on each kept file.
public func exerciseAll(_ data: UnsafeRawBufferPointer) {
    exerciseMIDIFile(data)
    exerciseFile(data, hints: [kAudioFileWAVEType, kAudioFileAIFFType, kAudioFileCAFType, kAudioFileMP3Type, kAudioFileFLACType, kAudioFileM4AType,
                              kAudioFileAAC_ADTSType, OCAFormat.fourCharCode("OggS"), kAudioFileAMRType, kAudioFile3GPType])
    for selector: UInt8 in [0, 9, 0x22, 0x45, 0x63] { exerciseExtAudioFile(data, selector: selector, frameLimit: 1 << 16) }
    exerciseReport(data)
    exerciseStream(data, pieces: 1)
    exerciseStream(data, pieces: 7)
}
