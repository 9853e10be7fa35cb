import AllocationCounter
import Foundation
import OpenAL
import Testing

extension OpenALTests {
    /// The render path allocates nothing, and AL calls on another thread do not make it drop slices.
    @Suite struct RenderThreadTests {
        @Test func renderingAllocatesNothing() throws {
            #expect(oca_alloc_counter_is_active() == 1)
            let lb = try Loopback()
            let ids = (0..<3).map { _ in lb.buffer(frames: 700) }
            var streaming: ALuint = 0
            alGenSources(1, &streaming)
            var queue = ids
            alSourceQueueBuffers(streaming, 3, &queue)
            let looping = lb.buffer(frames: 500)
            let s = lb.source(buffer: looping, looping: true)
            alSource3f(s, AL_POSITION, 2, 0, 1)
            var play = [streaming, s]
            alSourcePlayv(2, &play)
            let out = UnsafeMutablePointer<Float>.allocate(capacity: 2 * 1024)
            defer { out.deallocate() }
            alcRenderSamplesSOFT(lb.device, out, 1024)          // first slice: anything lazy happens here
            oca_alloc_counting_start()
            for _ in 0..<8 { alcRenderSamplesSOFT(lb.device, out, 512) }   // crosses buffer ends, wraps, stops
            let allocations = oca_alloc_counting_stop()
            #expect(allocations == 0, "\(allocations) allocations while rendering")
            #expect(lb.state(streaming) == AL_STOPPED)
            lb.close(sources: [streaming, s], buffers: ids + [looping])
        }

        /// 64 sources playing and moving (every slice, between renders), panned and with HRTF: the renders allocate nothing.
        @Test(arguments: [false, true])
        func sixtyFourMovingSourcesAllocateNothing(hrtf: Bool) throws {
            #expect(oca_alloc_counter_is_active() == 1)
            if hrtf { try #require(FileManager.default.fileExists(atPath: "/usr/share/libmysofa/default.sofa"), "libmysofa1 is required") }
            let lb = try Loopback(extra: [ALC_HRTF_SOFT, hrtf ? ALC_TRUE : ALC_FALSE])
            let b = lb.buffer(frames: 4410) { Float(sin(Double($0) * 0.0628)) * 0.01 }
            let sources = (0..<64).map { _ in lb.source(buffer: b) }
            alSourcePlayv(64, sources)
            #expect(sources.allSatisfy { lb.state($0) == AL_PLAYING })
            let out = UnsafeMutablePointer<Float>.allocate(capacity: 2 * 512)
            defer { out.deallocate() }
            alcRenderSamplesSOFT(lb.device, out, 512)
            var allocations: UInt64 = 0
            for k in 0..<12 {  // each slice moves every source to a new HRTF grid point (debug builds convolve slowly)
                for (i, s) in sources.enumerated() {
                    let a = Float(i) * 0.098 + Float(k) * 0.2
                    alSource3f(s, AL_POSITION, 2 * sin(a), Float(i % 3) - 1, -2 * cos(a))
                }
                oca_alloc_counting_start()
                alcRenderSamplesSOFT(lb.device, out, 512)
                allocations += oca_alloc_counting_stop()
            }
            #expect(allocations == 0, "\(allocations) allocations in 12 renders")
            lb.close(sources: sources, buffers: [b])
        }

        /// A client polling AL_SOURCE_STATE and AL_BUFFERS_PROCESSED in a tight loop silences no render slice: queries
        /// read the play cursor's published snapshot and never take the render lock. (When they took it, 234 of 400
        /// slices were silent without the render's bounded wait, and a preempted poller could still cost one.)
        @Test func stateQueriesOnAnotherThreadDropNoSlice() throws {
            let quiet = try Self.quietSlices { s, _ in
                var state: ALint = 0, processed: ALint = 0
                alGetSourcei(s, AL_SOURCE_STATE, &state)
                alGetSourcei(s, AL_BUFFERS_PROCESSED, &processed)
            }
            print("render thread: \(quiet) of 400 slices dropped while another thread polled the source's state")
            #expect(quiet == 0)
        }

        @Test func positionUpdatesOnAnotherThreadDropNoSlice() throws {
            let quiet = try Self.quietSlices { s, k in
                let angle = Float(k % 360) * .pi / 180
                alSource3f(s, AL_POSITION, sin(angle), 0, -cos(angle))
                alListenerf(AL_GAIN, 1)
            }
            print("render thread: \(quiet) of 400 slices dropped while another thread moved the source")
            #expect(quiet == 0)
        }

        /// Renders 400 slices of 128 frames of a playing unit-level source while another thread calls `work` on it in a
        /// tight loop (with the call's count); the number of slices with a silent stretch.
        static func quietSlices(_ work: @escaping @Sendable (ALuint, Int) -> Void) throws -> Int {
            let lb = try Loopback()
            let b = lb.buffer(frames: 44100)
            let s = lb.source(buffer: b)
            alDistanceModel(AL_NONE)
            alSourcePlay(s)
            _ = lb.render(2048)
            let stop = ManagedAtomicFlag()
            let worker = Thread {
                var k = 0
                while !stop.isSet { work(s, k); k += 1 }
            }
            worker.start()
            var quiet = 0
            for _ in 0..<400 {
                let (l, r) = lb.render(128)
                if zip(l, r).contains(where: { $0 + $1 < 0.3 }) { quiet += 1 }
            }
            stop.set()
            Thread.sleep(forTimeInterval: 0.05)
            lb.close(sources: [s], buffers: [b])
            return quiet
        }
    }

    /// A flag one thread sets and another reads.
    final class ManagedAtomicFlag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        func set() { lock.withLock { value = true } }
        var isSet: Bool { lock.withLock { value } }
    }
}
