import AllocationCounter
import COCASupport
import AudioToolbox
import Foundation
import Testing

/// ExtAudioFileWriteAsync from a render loop: no allocation on the calling thread, no error but a full ring
/// (Apple's kExtAudioFileError_AsyncWriteBufferOverflow, after which the slice is offered again), every
/// frame in the file.
@Suite struct ExtAudioFileAsyncTests {
    @Test func writeAsyncFromARenderLoop() throws {
        let url = FileSupport.tempURL("wav")
        defer { try? FileManager.default.removeItem(at: url) }
        var fileFormat = OCAFormat.linearPCM(sampleRate: 48000, channels: 2, bitsPerChannel: 16, isFloat: false, interleaved: true)
        var x: ExtAudioFileRef?
        try #require(ExtAudioFileCreateWithURL(url as CFURL, kAudioFileWAVEType, &fileFormat, nil, AudioFileFlags.eraseFile.rawValue, &x) == noErr)
        var client = OCAFormat.canonical(sampleRate: 48000, channels: 2)
        ExtAudioFileSetProperty(x!, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client)
        #expect(ExtAudioFileWriteAsync(x!, 0, nil) == noErr)  // primes the ring off the render thread
        let slice = 512, slices = 200
        let left = UnsafeMutablePointer<Float32>.allocate(capacity: slice), right = UnsafeMutablePointer<Float32>.allocate(capacity: slice)
        defer { left.deallocate(); right.deallocate() }
        let list = AudioBufferList.allocate(maximumBuffers: 2)
        defer { free(list.unsafeMutablePointer) }
        var failures = 0
        oca_alloc_counting_start()
        for s in 0..<slices {
            for i in 0..<slice {
                let n = s * slice + i
                left[i] = Float32(n % 1000) / 2000
                right[i] = -left[i]
            }
            list[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(slice * 4), mData: left)
            list[1] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(slice * 4), mData: right)
            // Faster than real time; when the ring is full (the writer thread starved by a loaded machine)
            // the call refuses without blocking, as Apple's does, and the loop waits for the writer and
            // offers the slice again: the test waits for its writer, not for time.
            while true {
                oca_realtime_enter()  // RealtimeSanitizer (scripts/rtsan-test.sh) aborts on a lock or system call
                let status = ExtAudioFileWriteAsync(x!, UInt32(slice), list.unsafePointer)
                oca_realtime_exit()
                if status == kExtAudioFileError_AsyncWriteBufferOverflow { usleep(1000); continue }
                if status != noErr { failures += 1 }
                break
            }
            usleep(200)  // a render cadence, faster than real time
        }
        let allocations = oca_alloc_counting_stop()
        #expect(failures == 0)
        if oca_alloc_counter_is_active() == 1 { #expect(allocations == 0) }
        #expect(ExtAudioFileDispose(x!) == noErr)

        var f: AudioFileID?
        #expect(AudioFileOpenURL(url as CFURL, .readPermission, 0, &f) == noErr)
        defer { AudioFileClose(f!) }
        var count: UInt64 = 0
        var size: UInt32 = 8
        AudioFileGetProperty(f!, kAudioFilePropertyAudioDataPacketCount, &size, &count)
        #expect(count == UInt64(slice * slices))
        var samples = [Int16](repeating: 0, count: Int(count) * 2)
        var bytes = UInt32(samples.count * 2), packets = UInt32(count)
        AudioFileReadPacketData(f!, false, &bytes, nil, 0, &packets, &samples)
        var wrong = 0
        for n in 0..<Int(count) {
            let want = Int16((Double(n % 1000) / 2000 * 32768).rounded())
            if samples[2 * n] != want || samples[2 * n + 1] != -want { wrong += 1 }
        }
        #expect(wrong == 0)
    }
}
