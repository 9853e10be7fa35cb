import Foundation

/// CAF markers ('mark', names in 'strg') and regions ('regn'), to and from Apple's AudioFileMarkerList
/// and AudioFileRegionList. All chunk fields are big-endian; every count is checked against the bytes.
enum CAFMarkers {
    static let mark = OCAFormat.fourCharCode("mark"), regn = OCAFormat.fourCharCode("regn"), strg = OCAFormat.fourCharCode("strg")

    struct Marker {
        var type: UInt32, position: Double, id: UInt32, smpte: AudioFile_SMPTE_Time, channel: UInt32, name: String?
    }

    /// The strings of a 'strg' chunk by ID.
    static func strings(_ b: [UInt8]) -> [UInt32: String] {
        var r = ByteReader(b)
        guard let count = r.u32be(), Int(count) <= r.remaining / 12 else { return [:] }
        var entries: [(UInt32, Int64)] = []
        for _ in 0..<count { entries.append((r.u32be()!, Int64(bitPattern: r.u64be()!))) }
        let base = r.position
        var out: [UInt32: String] = [:]
        for (id, offset) in entries where offset >= 0 && base + Int(offset) < b.count {
            let start = base + Int(offset)
            let end = b[start...].firstIndex(of: 0) ?? b.count
            out[id] = String(decoding: b[start..<end], as: UTF8.self)
        }
        return out
    }

    static func readMarkers(_ r: inout ByteReader, count: Int, names: [UInt32: String]) -> [Marker]? {
        guard count <= r.remaining / 28 else { return nil }
        var markers: [Marker] = []
        for _ in 0..<count {
            let type = r.u32be()!, position = Double(bitPattern: r.u64be()!), id = r.u32be()!
            let hours = Int8(bitPattern: r.take(1)!.first!), minutes = r.take(1)!.first!, seconds = r.take(1)!.first!, frames = r.take(1)!.first!
            let sub = r.u32be()!, channel = r.u32be()!
            markers.append(Marker(type: type, position: position, id: id,
                                  smpte: AudioFile_SMPTE_Time(mHours: hours, mMinutes: minutes, mSeconds: seconds, mFrames: frames,
                                                              mSubFrameSampleOffset: sub),
                                  channel: channel, name: names[id]))
        }
        return markers
    }

    /// (SMPTE time type, markers) of a 'mark' chunk.
    static func markers(_ layout: AudioFileLayout) -> (UInt32, [Marker])? {
        guard let chunk = layout.userData.first(where: { $0.0 == mark })?.1 else { return nil }
        let names = layout.userData.first { $0.0 == strg }.map { strings($0.1) } ?? [:]
        var r = ByteReader(chunk)
        guard let smpteType = r.u32be(), let count = r.u32be(), let list = readMarkers(&r, count: Int(count), names: names) else { return nil }
        return (smpteType, list)
    }

    /// Regions of a 'regn' chunk: (ID, flags, markers), and the 'strg' names by ID.
    static func regions(_ layout: AudioFileLayout) -> (UInt32, [(UInt32, UInt32, [Marker])], [UInt32: String])? {
        guard let chunk = layout.userData.first(where: { $0.0 == regn })?.1 else { return nil }
        let names = layout.userData.first { $0.0 == strg }.map { strings($0.1) } ?? [:]
        var r = ByteReader(chunk)
        guard let smpteType = r.u32be(), let count = r.u32be(), Int(count) <= r.remaining / 12 else { return nil }
        var regions: [(UInt32, UInt32, [Marker])] = []
        for _ in 0..<count {
            guard let id = r.u32be(), let flags = r.u32be(), let n = r.u32be(), let list = readMarkers(&r, count: Int(n), names: names) else { return nil }
            regions.append((id, flags, list))
        }
        return (smpteType, regions, names)
    }

    /// AudioFileMarkerList bytes (names +1 retained CFStrings, as Apple's callers release them).
    static func markerListBytes(_ smpteType: UInt32, _ markers: [Marker]) -> [UInt8] {
        let stride = MemoryLayout<AudioFileMarker>.stride
        var bytes = [UInt8](repeating: 0, count: NumAudioFileMarkersToNumBytes(max(markers.count, 1)))
        bytes.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: smpteType, as: UInt32.self)
            raw.storeBytes(of: UInt32(markers.count), toByteOffset: 4, as: UInt32.self)
            for (i, m) in markers.enumerated() {
                let name = m.name.map { Unmanaged<CFString>.passRetained($0 as NSString) }
                let marker = AudioFileMarker(mFramePosition: m.position, mName: name, mMarkerID: Int32(bitPattern: m.id), mSMPTETime: m.smpte,
                                             mType: m.type, mReserved: 0, mChannel: UInt16(truncatingIfNeeded: m.channel))
                raw.storeBytes(of: marker, toByteOffset: 8 + i * stride, as: AudioFileMarker.self)
            }
        }
        return Array(bytes.prefix(NumAudioFileMarkersToNumBytes(markers.count)))
    }

    /// The bytes of an AudioFileRegionList holding `regions` (each region followed by its markers).
    static func regionListSize(_ regions: [(UInt32, UInt32, [Marker])]) -> Int {
        regions.reduce(8) { $0 + MemoryLayout<AudioFileRegion>.offset(of: \AudioFileRegion.mMarkers)! + $1.2.count * MemoryLayout<AudioFileMarker>.stride }
    }

    /// AudioFileRegionList bytes: regions laid out one after another, each with its markers. A region's name
    /// (never null in Apple's struct) is the 'strg' string with its ID, else empty; names are +1 retained.
    static func regionListBytes(_ regions: [(UInt32, UInt32, [Marker])], _ smpteType: UInt32, _ names: [UInt32: String]) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(regionListSize(regions))
        out += [UInt8](repeating: 0, count: 8)
        out.withUnsafeMutableBytes { $0.storeBytes(of: smpteType, as: UInt32.self); $0.storeBytes(of: UInt32(regions.count), toByteOffset: 4, as: UInt32.self) }
        let markerStride = MemoryLayout<AudioFileMarker>.stride
        let header = MemoryLayout<AudioFileRegion>.offset(of: \AudioFileRegion.mMarkers)!
        for (id, flags, markers) in regions {
            var region = [UInt8](repeating: 0, count: header + max(markers.count, 1) * markerStride)
            region.withUnsafeMutableBytes { raw in
                raw.storeBytes(of: id, as: UInt32.self)
                raw.storeBytes(of: Unmanaged<CFString>.passRetained((names[id] ?? "") as NSString),
                               toByteOffset: MemoryLayout<AudioFileRegion>.offset(of: \AudioFileRegion.mName)!, as: Unmanaged<CFString>.self)
                raw.storeBytes(of: flags, toByteOffset: MemoryLayout<AudioFileRegion>.offset(of: \AudioFileRegion.mFlags)!, as: UInt32.self)
                raw.storeBytes(of: UInt32(markers.count), toByteOffset: MemoryLayout<AudioFileRegion>.offset(of: \AudioFileRegion.mNumberMarkers)!, as: UInt32.self)
                let list = markerListBytes(0, markers)
                list.dropFirst(8).withUnsafeBytes { if !$0.isEmpty { (raw.baseAddress! + header).copyMemory(from: $0.baseAddress!, byteCount: $0.count) } }
            }
            out += region.prefix(header + markers.count * markerStride)
        }
        return out
    }

    /// Markers from a client's AudioFileMarkerList.
    static func parseMarkerList(_ data: UnsafeRawPointer, size: Int) -> (UInt32, [Marker])? {
        guard size >= 8 else { return nil }
        let smpteType = data.loadUnaligned(as: UInt32.self), count = Int(data.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
        let stride = MemoryLayout<AudioFileMarker>.stride
        guard count <= (size - 8) / stride else { return nil }
        var list: [Marker] = []
        for i in 0..<count {
            let m = data.loadUnaligned(fromByteOffset: 8 + i * stride, as: AudioFileMarker.self)
            let name = m.mName.map { $0.takeUnretainedValue() as String }
            list.append(Marker(type: m.mType, position: m.mFramePosition, id: UInt32(bitPattern: m.mMarkerID), smpte: m.mSMPTETime,
                               channel: UInt32(m.mChannel), name: name))
        }
        return (smpteType, list)
    }

    /// 'mark' and 'strg' chunk bodies for markers.
    static func chunks(_ smpteType: UInt32, _ markers: [Marker]) -> [(UInt32, [UInt8])] {
        var m = ByteWriter()
        m.be(UInt64(smpteType), 4); m.be(UInt64(markers.count), 4)
        for x in markers {
            m.be(UInt64(x.type), 4); m.be(x.position.bitPattern, 8); m.be(UInt64(x.id), 4)
            m.append([UInt8(bitPattern: x.smpte.mHours), x.smpte.mMinutes, x.smpte.mSeconds, x.smpte.mFrames])
            m.be(UInt64(x.smpte.mSubFrameSampleOffset), 4); m.be(UInt64(x.channel), 4)
        }
        let named = markers.filter { $0.name != nil }
        guard !named.isEmpty else { return [(mark, m.bytes)] }
        var s = ByteWriter(), text: [UInt8] = []
        s.be(UInt64(named.count), 4)
        for x in named {
            s.be(UInt64(x.id), 4); s.be(UInt64(text.count), 8)
            text += Array(x.name!.utf8) + [0]
        }
        s.append(text)
        return [(strg, s.bytes), (mark, m.bytes)]
    }
}
