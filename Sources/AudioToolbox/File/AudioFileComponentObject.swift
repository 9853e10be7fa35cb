import Foundation

/// An 'afil' component instance (AudioComponentInstanceNew on one of the built-in file types' components): the
/// type it stands for, and the AudioFile it is associated with once AudioFileComponentCreateURL, OpenURL or the
/// callback calls have made one. The AudioFileComponent* calls are thin wrappers on that file's AudioFile calls.
final class AudioFileComponentObject: @unchecked Sendable {
    /// Live instances, kept apart from units and codecs so a handle is only read back as the kind it was made as.
    static let instances = LiveHandleTable()

    let component: AudioComponentEntry
    private let lock = NSLock()
    private var _file: AudioFileID?

    init(component: AudioComponentEntry) { self.component = component }

    /// The file type: the component's subtype.
    var fileType: AudioFileTypeID { component.description.componentSubType }

    /// The associated file, if any.
    var file: AudioFileID? {
        get { lock.withLock { _file } }
        set { lock.withLock { _file = newValue } }
    }

    /// The instance behind a live handle, or nil.
    static func live(_ handle: AudioComponentInstance?) -> AudioFileComponentObject? {
        guard let handle else { return nil }
        return instances.object(UnsafeMutableRawPointer(handle), as: AudioFileComponentObject.self)
    }

    /// Closes the associated file (AudioFileComponentCloseFile, and disposal).
    func closeFile() -> OSStatus {
        let f: AudioFileID? = lock.withLock { defer { _file = nil }; return _file }
        guard let f else { return kAudioFileNotOpenError }
        return AudioFileClose(f)
    }

    /// Whether the first bytes of a file are this type's, by its signature (the magic numbers the containers check
    /// first). MP3 and ADTS have no signature beyond a frame sync: MP3 takes an ID3v2 tag or an MPEG layer I-III
    /// sync, ADTS a sync with layer 0.
    func recognizes(_ b: UnsafeRawBufferPointer) -> Bool {
        func at(_ offset: Int, _ text: String) -> Bool {
            let t = Array(text.utf8)
            return b.count >= offset + t.count && b[offset..<(offset + t.count)].elementsEqual(t)
        }
        let sync = b.count >= 2 && b[0] == 0xFF && b[1] & 0xF0 == 0xF0
        switch fileType {
        case kAudioFileWAVEType: return at(0, "RIFF") && at(8, "WAVE")
        case kAudioFileRF64Type: return (at(0, "RF64") || at(0, "BW64")) && at(8, "WAVE")
        case kAudioFileAIFFType: return at(0, "FORM") && at(8, "AIFF")
        case kAudioFileAIFCType: return at(0, "FORM") && at(8, "AIFC")
        case kAudioFileCAFType: return at(0, "caff")
        case kAudioFileFLACType: return at(0, "fLaC")
        case kAudioFileAMRType: return at(0, "#!AMR")
        case kOCAAudioFileOggType: return at(0, "OggS")
        case kAudioFileM4AType: return at(4, "ftyp") && at(8, "M4A ")
        case kAudioFileM4BType: return at(4, "ftyp") && at(8, "M4B ")
        case kAudioFile3GPType: return at(4, "ftyp") && at(8, "3gp")
        case kAudioFile3GP2Type: return at(4, "ftyp") && at(8, "3g2")
        case kAudioFileMPEG4Type: return at(4, "ftyp")
        case kAudioFileAAC_ADTSType: return sync && b[1] & 0x06 == 0
        case kAudioFileMP3Type: return at(0, "ID3") || (sync && b[1] & 0x06 != 0)
        default: return false
        }
    }
}
