import COCASupport

/// Copies sample data between lists of the same layout (render thread safe).
@inline(__always)
@_noLocks @_noAllocation
func copyBufferContents(from source: UnsafeMutablePointer<AudioBufferList>, to destination: UnsafeMutablePointer<AudioBufferList>) {
    let src = UnsafeMutableAudioBufferListPointer(source)
    let dst = UnsafeMutableAudioBufferListPointer(destination)
    for i in 0..<min(src.count, dst.count) {
        guard let s = src[i].mData, let d = dst[i].mData, s != d else { continue }
        oca_memmove(d, s, UInt(min(src[i].mDataByteSize, dst[i].mDataByteSize)))
    }
}

/// `copyBufferContents`, kept out of the caller's frame: for render paths that rarely copy (see AUBase+Render).
@inline(never)
func copyBufferContentsOutOfLine(from source: UnsafeMutablePointer<AudioBufferList>, to destination: UnsafeMutablePointer<AudioBufferList>) {
    copyBufferContents(from: source, to: destination)
}
