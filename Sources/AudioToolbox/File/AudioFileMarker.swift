
import CoreAudioTypes

// Apple's AudioFile.h structs whose names are CFStrings. Declared in Swift (not C) so `mName` imports as
// Apple's does, `Unmanaged<CFString>`; field order and types give the C layout (checked by a test):
// 40-byte markers, regions whose markers start at offset 24, lists whose entries start at offset 8.

public struct AudioFileMarker {
    public var mFramePosition: Float64
    public var mName: Unmanaged<CFString>?
    public var mMarkerID: Int32
    public var mSMPTETime: AudioFile_SMPTE_Time
    public var mType: UInt32
    public var mReserved: UInt16
    public var mChannel: UInt16

    /// The zero value, as the imported C type's.
    public init() {
        self.init(mFramePosition: 0, mName: nil, mMarkerID: 0, mSMPTETime: AudioFile_SMPTE_Time(), mType: 0, mReserved: 0, mChannel: 0)
    }

    /// A value with every field given (the memberwise initializer of the C type).
    public init(mFramePosition: Float64, mName: Unmanaged<CFString>?, mMarkerID: Int32, mSMPTETime: AudioFile_SMPTE_Time,
                mType: UInt32, mReserved: UInt16, mChannel: UInt16) {
        self.mFramePosition = mFramePosition
        self.mName = mName
        self.mMarkerID = mMarkerID
        self.mSMPTETime = mSMPTETime
        self.mType = mType
        self.mReserved = mReserved
        self.mChannel = mChannel
    }
}

public struct AudioFileMarkerList {
    public var mSMPTE_TimeType: UInt32
    public var mNumberMarkers: UInt32
    public var mMarkers: (AudioFileMarker)  // variable length

    /// The zero value, as the imported C type's.
    public init() { self.init(mSMPTE_TimeType: 0, mNumberMarkers: 0, mMarkers: AudioFileMarker()) }

    /// A value with every field given (the memberwise initializer of the C type).
    public init(mSMPTE_TimeType: UInt32, mNumberMarkers: UInt32, mMarkers: (AudioFileMarker)) {
        self.mSMPTE_TimeType = mSMPTE_TimeType
        self.mNumberMarkers = mNumberMarkers
        self.mMarkers = mMarkers
    }
}

public struct AudioFileRegion {
    public var mRegionID: UInt32
    public var mName: Unmanaged<CFString>
    public var mFlags: AudioFileRegionFlags
    public var mNumberMarkers: UInt32
    public var mMarkers: (AudioFileMarker)  // variable length

    /// A value with every field given (the memberwise initializer of the C type).
    public init(mRegionID: UInt32, mName: Unmanaged<CFString>, mFlags: AudioFileRegionFlags, mNumberMarkers: UInt32,
                mMarkers: (AudioFileMarker)) {
        self.mRegionID = mRegionID
        self.mName = mName
        self.mFlags = mFlags
        self.mNumberMarkers = mNumberMarkers
        self.mMarkers = mMarkers
    }
}

public struct AudioFileRegionList {
    public var mSMPTE_TimeType: UInt32
    public var mNumberRegions: UInt32
    public var mRegions: (AudioFileRegion)  // variable length

    /// A value with every field given (the memberwise initializer of the C type).
    public init(mSMPTE_TimeType: UInt32, mNumberRegions: UInt32, mRegions: (AudioFileRegion)) {
        self.mSMPTE_TimeType = mSMPTE_TimeType
        self.mNumberRegions = mNumberRegions
        self.mRegions = mRegions
    }
}

/// Apple's NumAudioFileMarkersToNumBytes (a C inline function): the bytes an AudioFileMarkerList of
/// `inNumMarkers` markers takes.
public func NumAudioFileMarkersToNumBytes(_ inNumMarkers: Int) -> Int {
    MemoryLayout<AudioFileMarkerList>.offset(of: \AudioFileMarkerList.mMarkers)! + inNumMarkers * MemoryLayout<AudioFileMarker>.stride
}

/// Apple's NextAudioFileRegion: regions are variable length (their markers follow them), so a region list is
/// walked, not indexed. Does not check mNumberRegions.
public func NextAudioFileRegion(_ inAFRegionPtr: UnsafePointer<AudioFileRegion>!) -> UnsafeMutablePointer<AudioFileRegion>! {
    let raw = UnsafeMutableRawPointer(mutating: inAFRegionPtr)! + MemoryLayout<AudioFileRegion>.offset(of: \AudioFileRegion.mMarkers)!
        + Int(inAFRegionPtr.pointee.mNumberMarkers) * MemoryLayout<AudioFileMarker>.stride
    return raw.assumingMemoryBound(to: AudioFileRegion.self)
}
