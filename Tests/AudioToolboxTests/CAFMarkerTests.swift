import AudioToolbox
import Foundation
import Testing

/// CAF markers: set as an AudioFileMarkerList, written as 'strg' + 'mark' chunks after the audio, read back.
@Suite struct CAFMarkerTests {
    struct Expected { var position: Double, id: Int32, name: String?, type: UInt32 }

    static let markers = [
        Expected(position: 0, id: 1, name: "Start", type: kAudioFileMarkerType_Generic),
        Expected(position: 1234.5, id: 7, name: "Chorus – ünïcode", type: 0x6567_6E20),  // 'eg n'-style custom type
        Expected(position: 44099, id: 9, name: nil, type: kAudioFileMarkerType_Generic),
    ]

    func setMarkers(_ file: AudioFileID) -> OSStatus {
        let stride = MemoryLayout<AudioFileMarker>.stride
        var bytes = [UInt8](repeating: 0, count: 8 + Self.markers.count * stride)
        let names = Self.markers.map { $0.name.map { $0 as NSString } }
        return withExtendedLifetime(names) {
            bytes.withUnsafeMutableBytes { raw -> OSStatus in
                raw.storeBytes(of: UInt32(0), as: UInt32.self)
                raw.storeBytes(of: UInt32(Self.markers.count), toByteOffset: 4, as: UInt32.self)
                for (i, m) in Self.markers.enumerated() {
                    let name = names[i].map { Unmanaged<CFString>.passUnretained($0) }
                    let marker = AudioFileMarker(mFramePosition: m.position, mName: name, mMarkerID: m.id,
                                                 mSMPTETime: AudioFile_SMPTE_Time(mHours: 0, mMinutes: 0, mSeconds: 0, mFrames: 0, mSubFrameSampleOffset: 0),
                                                 mType: m.type, mReserved: 0, mChannel: 0)
                    raw.storeBytes(of: marker, toByteOffset: 8 + i * stride, as: AudioFileMarker.self)
                }
                return AudioFileSetProperty(file, kAudioFilePropertyMarkerList, UInt32(raw.count), raw.baseAddress!)
            }
        }
    }

    @Test func markersSurviveWriteAndReopen() throws {
        let url = FileSupport.tempURL("caf")
        defer { try? FileManager.default.removeItem(at: url) }
        let format = OCAFormat.linearPCM(sampleRate: 44100, channels: 1, bitsPerChannel: 16, isFloat: false, isSignedInteger: true,
                                         interleaved: true, bigEndian: true)
        let file = try FileSupport.createFile(url, kAudioFileCAFType, format)
        #expect(setMarkers(file) == noErr)
        let samples = (0..<44100).map { Int16(truncatingIfNeeded: $0 &* 7) }
        var bigEndian = samples.map(\.bigEndian)  // raw bytes in the file's (big-endian) order
        var bytes = UInt32(samples.count * 2)
        #expect(AudioFileWriteBytes(file, false, 0, &bytes, &bigEndian) == noErr)
        #expect(AudioFileClose(file) == noErr)

        // The chunk layout, parsed here independently: desc, ..., data (sized, not -1), then strg and mark.
        let data = try [UInt8](Data(contentsOf: url))
        var chunks: [(String, Int64, Int)] = []  // (type, size, body offset)
        var at = 8
        while at + 12 <= data.count {
            let type = String(decoding: data[at..<at + 4], as: UTF8.self)
            let size = data[at + 4..<at + 12].reduce(Int64(0)) { $0 << 8 | Int64($1) }
            chunks.append((type, size, at + 12))
            at += 12 + Int(size)
        }
        #expect(at == data.count)
        let types = chunks.map(\.0)
        #expect(Array(types.suffix(3)) == ["data", "strg", "mark"])
        let dataChunk = try #require(chunks.first { $0.0 == "data" })
        #expect(dataChunk.1 == 4 + 44100 * 2)  // edit count + samples
        let mark = try #require(chunks.first { $0.0 == "mark" })
        #expect(mark.1 == 8 + 3 * 28)

        // sox still reads the audio (it skips chunks after data it does not know).
        if FileSupport.sox != nil {
            let read = try FileSupport.soxSamples(url)
            #expect(read.count == samples.count)
            #expect(read.prefix(100).map { Int16(truncatingIfNeeded: $0 >> 16) } == Array(samples.prefix(100)))
        }

        var reopened: AudioFileID?
        #expect(AudioFileOpenURL(url as CFURL, .readPermission, 0, &reopened) == noErr)
        let f = try #require(reopened)
        var size: UInt32 = 0, writable: UInt32 = 1
        #expect(AudioFileGetPropertyInfo(f, kAudioFilePropertyMarkerList, &size, &writable) == noErr)
        #expect(writable == 0)
        let stride = MemoryLayout<AudioFileMarker>.stride
        #expect(Int(size) == 8 + 3 * stride)
        var list = [UInt8](repeating: 0, count: Int(size))
        #expect(AudioFileGetProperty(f, kAudioFilePropertyMarkerList, &size, &list) == noErr)
        list.withUnsafeBytes { raw in
            #expect(raw.load(fromByteOffset: 4, as: UInt32.self) == 3)
            for (i, want) in Self.markers.enumerated() {
                let got = raw.loadUnaligned(fromByteOffset: 8 + i * stride, as: AudioFileMarker.self)
                #expect(got.mFramePosition == want.position)
                #expect(got.mMarkerID == want.id)
                #expect(got.mType == want.type)
                let name = got.mName.map { $0.takeRetainedValue() as String }
                #expect(name == want.name)
            }
        }
        var packets: UInt64 = 0
        size = 8
        #expect(AudioFileGetProperty(f, kAudioFilePropertyAudioDataPacketCount, &size, &packets) == noErr)
        #expect(packets == 44100)
        // Region list: this file has none.
        #expect(AudioFileGetPropertyInfo(f, kAudioFilePropertyRegionList, &size, nil) == kAudioFileUnsupportedPropertyError)
        #expect(AudioFileClose(f) == noErr)

        // Appending moves the marker chunks behind the new audio instead of overwriting them.
        var rw: AudioFileID?
        #expect(AudioFileOpenURL(url as CFURL, .readWritePermission, 0, &rw) == noErr)
        let w = try #require(rw)
        var more = [Int16](repeating: Int16(0x1234).bigEndian, count: 1000)
        bytes = 2000
        #expect(AudioFileWriteBytes(w, false, 44100 * 2, &bytes, &more) == noErr)
        #expect(AudioFileClose(w) == noErr)
        var again: AudioFileID?
        #expect(AudioFileOpenURL(url as CFURL, .readPermission, 0, &again) == noErr)
        let g = try #require(again)
        defer { AudioFileClose(g) }
        size = 8
        #expect(AudioFileGetProperty(g, kAudioFilePropertyAudioDataPacketCount, &size, &packets) == noErr)
        #expect(packets == 45100)
        size = UInt32(list.count)
        #expect(AudioFileGetProperty(g, kAudioFilePropertyMarkerList, &size, &list) == noErr)
        list.withUnsafeBytes { raw in
            let names = (0..<3).map { i in
                raw.loadUnaligned(fromByteOffset: 8 + i * stride, as: AudioFileMarker.self).mName
                    .map { $0.takeRetainedValue() as String }
            }
            #expect(names == Self.markers.map(\.name))
        }
        if FileSupport.sox != nil { #expect(try FileSupport.soxSamples(url).count == 45100) }
    }

    /// A WAVE file with a chunk after its audio grows: the chunk moves behind the new audio. Bytes after the audio that
    /// are not a chunk cannot be moved, and growing over them is refused (rewriting in place is not).
    @Test(arguments: [true, false])
    func growingWAVEDataMovesAChunkThatFollows(_ chunk: Bool) throws {
        let url = FileSupport.tempURL("wav")
        defer { try? FileManager.default.removeItem(at: url) }
        let file = try FileSupport.createFile(url, kAudioFileWAVEType, OCAFormat.linearPCM(sampleRate: 8000, channels: 1, bitsPerChannel: 16,
                                                                                         isFloat: false, isSignedInteger: true, interleaved: true))
        var audio = [Int16](repeating: 100, count: 50)
        var bytes: UInt32 = 100
        #expect(AudioFileWriteBytes(file, false, 0, &bytes, &audio) == noErr)
        #expect(AudioFileClose(file) == noErr)
        var data = try [UInt8](Data(contentsOf: url))
        let tail = chunk ? Array("LIST".utf8) + [12, 0, 0, 0] + [UInt8](repeating: 0x41, count: 12) : [0x00, 0x7F, 0x13, 0x99]
        data += tail
        let riff = UInt32(data.count - 8)
        data.replaceSubrange(4..<8, with: withUnsafeBytes(of: riff.littleEndian, Array.init))
        try Data(data).write(to: url)

        var rw: AudioFileID?
        #expect(AudioFileOpenURL(url as CFURL, .readWritePermission, 0, &rw) == noErr)
        let w = try #require(rw)
        var louder = [Int16](repeating: 200, count: 50)
        bytes = 100
        #expect(AudioFileWriteBytes(w, false, 0, &bytes, &louder) == noErr)
        bytes = 2
        #expect(AudioFileWriteBytes(w, false, 100, &bytes, &louder) == (chunk ? noErr : kAudioFileOperationNotSupportedError))
        #expect(AudioFileClose(w) == noErr)
        let after = try [UInt8](Data(contentsOf: url))
        #expect(after.suffix(tail.count) == ArraySlice(tail))
        #expect(after.count == data.count + (chunk ? 2 : 0))
        let samples = try FileSupport.soxSamples(url)
        #expect(samples.count == (chunk ? 51 : 50) && samples.allSatisfy { $0 >> 16 == 200 })
    }

    /// The Swift-declared structs keep Apple's C layout.
    @Test func markerStructsHaveTheCLayout() {
        #expect(MemoryLayout<AudioFileMarker>.size == 36 && MemoryLayout<AudioFileMarker>.stride == 40)
        #expect([\AudioFileMarker.mFramePosition, \.mName, \.mMarkerID, \.mSMPTETime, \.mType, \.mReserved, \.mChannel]
                    .map { MemoryLayout<AudioFileMarker>.offset(of: $0)! } == [0, 8, 16, 20, 28, 32, 34])
        #expect(MemoryLayout<AudioFileRegion>.offset(of: \AudioFileRegion.mMarkers) == 24)
        #expect(MemoryLayout<AudioFileRegionList>.offset(of: \AudioFileRegionList.mRegions) == 8)
        #expect(NumAudioFileMarkersToNumBytes(3) == 128)
    }

    @Test func markerListRefusedOutsideCAFAndWhenShort() throws {
        let url = FileSupport.tempURL("wav")
        defer { try? FileManager.default.removeItem(at: url) }
        let file = try FileSupport.createFile(url, kAudioFileWAVEType, OCAFormat.linearPCM(sampleRate: 8000, channels: 1, bitsPerChannel: 16,
                                                                                         isFloat: false, isSignedInteger: true, interleaved: true))
        defer { AudioFileClose(file) }
        #expect(setMarkers(file) == kAudioFileUnsupportedPropertyError)

        let caf = FileSupport.tempURL("caf")
        defer { try? FileManager.default.removeItem(at: caf) }
        let c = try FileSupport.createFile(caf, kAudioFileCAFType, OCAFormat.linearPCM(sampleRate: 8000, channels: 1, bitsPerChannel: 16,
                                                                                      isFloat: false, isSignedInteger: true, interleaved: true))
        defer { AudioFileClose(c) }
        var header: (UInt32, UInt32) = (0, 5)  // claims five markers, carries none
        #expect(AudioFileSetProperty(c, kAudioFilePropertyMarkerList, 8, &header) == kAudioFileBadPropertySizeError)
    }

    /// A 'regn' chunk (written here byte by byte, as CAF specifies it) read through kAudioFilePropertyRegionList.
    @Test func regionsAreReadFromCAF() throws {
        let url = FileSupport.tempURL("caf")
        defer { try? FileManager.default.removeItem(at: url) }
        let file = try FileSupport.createFile(url, kAudioFileCAFType, OCAFormat.linearPCM(sampleRate: 8000, channels: 1, bitsPerChannel: 16,
                                                                                         isFloat: false, isSignedInteger: true, interleaved: true))
        var audio = [Int16](repeating: 0, count: 100)
        var bytes: UInt32 = 200
        #expect(AudioFileWriteBytes(file, false, 0, &bytes, &audio) == noErr)
        #expect(AudioFileClose(file) == noErr)

        let be = FileSupport.be
        func marker(_ type: String, _ pos: Double, _ id: UInt32) -> [UInt8] {
            Array(type.utf8) + be(pos.bitPattern, 8) + be(UInt64(id), 4) + [0, 0, 0, 0] + be(0, 4) + be(0, 4)
        }
        let regn = be(0, 4) + be(1, 4) + be(5, 4) + be(3, 4) + be(2, 4) + marker("rbeg", 10, 1) + marker("rend", 90, 2)
        let name = Array("Loop start".utf8) + [0]
        let strg = be(1, 4) + be(1, 4) + be(0, 8) + name
        var data = try [UInt8](Data(contentsOf: url))
        data += Array("strg".utf8) + be(UInt64(strg.count), 8) + strg + Array("regn".utf8) + be(UInt64(regn.count), 8) + regn
        try Data(data).write(to: url)

        var opened: AudioFileID?
        #expect(AudioFileOpenURL(url as CFURL, .readPermission, 0, &opened) == noErr)
        let f = try #require(opened)
        defer { AudioFileClose(f) }
        var size: UInt32 = 0, writable: UInt32 = 1
        #expect(AudioFileGetPropertyInfo(f, kAudioFilePropertyRegionList, &size, &writable) == noErr)
        let header = MemoryLayout<AudioFileRegion>.offset(of: \AudioFileRegion.mMarkers)!
        let stride = MemoryLayout<AudioFileMarker>.stride
        #expect(Int(size) == 8 + header + 2 * stride)
        #expect(writable == 0)
        var list = [UInt8](repeating: 0, count: Int(size))
        #expect(AudioFileGetProperty(f, kAudioFilePropertyRegionList, &size, &list) == noErr)
        list.withUnsafeBytes { raw in
            #expect(raw.load(fromByteOffset: 4, as: UInt32.self) == 1)
            let region = raw.baseAddress! + 8
            #expect(region.loadUnaligned(as: UInt32.self) == 5)
            #expect(region.loadUnaligned(fromByteOffset: MemoryLayout<AudioFileRegion>.offset(of: \AudioFileRegion.mFlags)!, as: UInt32.self) == 3)
            #expect(region.loadUnaligned(fromByteOffset: MemoryLayout<AudioFileRegion>.offset(of: \AudioFileRegion.mNumberMarkers)!, as: UInt32.self) == 2)
            let first = region.loadUnaligned(fromByteOffset: header, as: AudioFileMarker.self)
            let second = region.loadUnaligned(fromByteOffset: header + stride, as: AudioFileMarker.self)
            #expect(first.mFramePosition == 10 && first.mType == OCAFormat.fourCharCode("rbeg") && first.mMarkerID == 1)
            #expect(second.mFramePosition == 90 && second.mType == OCAFormat.fourCharCode("rend") && second.mName == nil)
            #expect(first.mName.map { $0.takeRetainedValue() as String } == "Loop start")
            let r = (raw.baseAddress! + MemoryLayout<AudioFileRegionList>.offset(of: \AudioFileRegionList.mRegions)!)
                .assumingMemoryBound(to: AudioFileRegion.self)
            #expect(r.pointee.mName.takeRetainedValue() as String == "")  // unnamed, yet never null
            #expect(r.pointee.mFlags == [.loopEnable, .playForward])
            #expect(UnsafeRawPointer(NextAudioFileRegion(r)) - raw.baseAddress! == Int(size))  // walks to the end
        }
        // No 'mark' chunk: an empty marker list.
        size = 8 + UInt32(stride)
        var markers = [UInt8](repeating: 0xFF, count: Int(size))
        #expect(AudioFileGetProperty(f, kAudioFilePropertyMarkerList, &size, &markers) == noErr)
        #expect(size == 8 && markers[4..<8] == [0, 0, 0, 0])
    }
}
