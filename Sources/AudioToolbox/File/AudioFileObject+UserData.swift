// User data: finding a chunk (every Get call) and writing (AudioFileSetUserData, AudioFileRemoveUserData).
// Writing is for CAF, WAVE and AIFF files: each may hold chunks after its audio data, so new and changed chunks go
// there and are rewritten after the data at each header update, the way CAF's marker chunks are. Chunks that sit
// before the audio are read-only here (changing them would move the data). RF64 is not written (its reader stops at
// the data chunk, so chunks after it would not be found again).

extension AudioFileObject {
    /// The chunks this implementation writes itself, per file type; user data may not name them.
    private static let cafOwnedChunks: Set<UInt32> = [OCAFormat.fourCharCode("desc"), OCAFormat.fourCharCode("data"), CAFContainer.pakt,
                                                      CAFContainer.kuki, CAFContainer.chan, CAFContainer.info, CAFContainer.free]
    private static let waveOwnedChunks: Set<UInt32> = [WAVEContainer.fmt, WAVEContainer.data, WAVEContainer.ds64,
                                                       OCAFormat.fourCharCode("fact"), OCAFormat.fourCharCode("JUNK")]
    private static let aiffOwnedChunks: Set<UInt32> = [AIFFContainer.comm, AIFFContainer.ssnd, AIFFContainer.fver]

    /// The contents of the `index`th chunk of `id`, or nil if there is no such chunk.
    func userData(_ id: UInt32, _ index: UInt32) -> [UInt8]? {
        var seen: UInt32 = 0
        for (chunkID, bytes) in layout.userData where chunkID == id {
            if seen == index { return bytes }
            seen += 1
        }
        return nil
    }

    /// Where the `index`th chunk of `id` is among the user data and among the chunks after the audio (nil when it
    /// lies before the audio), or nil if there is no such chunk.
    private func userChunk(_ id: UInt32, _ index: UInt32) -> (userData: Int, trailing: Int?)? {
        let matches = layout.userData.indices.filter { layout.userData[$0].0 == id }
        guard Int(index) < matches.count else { return nil }
        // The n-th chunk of `id` in the file is the n-th in user data; it follows the audio if the chunks of `id`
        // after the audio are the last ones.
        let trailing = layout.trailingChunks.indices.filter { layout.trailingChunks[$0].0 == id }
        let firstTrailing = matches.count - trailing.count
        let t = Int(index) >= firstTrailing ? trailing[Int(index) - firstTrailing] : nil
        return (matches[Int(index)], t)
    }

    /// Checks that user data can be written to this file.
    private func userDataWritable(_ id: UInt32) -> OSStatus {
        guard writable else { return kAudioFilePermissionsError }
        let owned: Set<UInt32>
        switch (layout.fileType, layout.headerPatch) {
        case (kAudioFileCAFType, .caf): owned = Self.cafOwnedChunks
        case (kAudioFileWAVEType, .wave(_, _, let ds64Offset)) where ds64Offset < 0: owned = Self.waveOwnedChunks
        case (kAudioFileAIFFType, .aiff), (kAudioFileAIFCType, .aiff): owned = Self.aiffOwnedChunks
        default: return kAudioFileOperationNotSupportedError
        }
        guard !owned.contains(id) else { return kAudioFileInvalidChunkError }
        guard !layout.tailLocked else { return kAudioFileOperationNotSupportedError }
        return noErr
    }

    /// Replaces the `index`th chunk of `id` with `bytes`, or adds one when `index` is the count of such chunks.
    func setUserData(_ id: UInt32, _ index: UInt32, _ bytes: [UInt8]) -> OSStatus {
        let status = userDataWritable(id)
        guard status == noErr else { return status }
        if let (u, t) = userChunk(id, index) {
            guard let t else { return kAudioFileOperationNotSupportedError }  // before the audio
            layout.userData[u].1 = bytes
            layout.trailingChunks[t].1 = bytes
        } else {
            guard Int(index) == layout.userData.count(where: { $0.0 == id }) else { return kAudioFileInvalidChunkError }
            layout.userData.append((id, bytes))
            layout.trailingChunks.append((id, bytes))
        }
        markHeaderDirty()
        return updateHeader()
    }

    /// Removes the `index`th chunk of `id`.
    func removeUserData(_ id: UInt32, _ index: UInt32) -> OSStatus {
        let status = userDataWritable(id)
        guard status == noErr else { return status }
        guard let (u, t) = userChunk(id, index) else { return kAudioFileInvalidChunkError }
        guard let t else { return kAudioFileOperationNotSupportedError }
        layout.userData.remove(at: u)
        layout.trailingChunks.remove(at: t)
        markHeaderDirty()
        let status2 = updateHeader()
        guard status2 == noErr else { return status2 }
        // The header update rewrites the chunks after the audio only when there are some: cut the last one off.
        if layout.trailingChunks.isEmpty && !store.truncate(to: layout.paddedDataEnd) { return store.writeFailure }
        return noErr
    }
}
