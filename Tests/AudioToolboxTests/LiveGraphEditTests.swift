import AllocationCounter
@testable import AudioToolbox
import Foundation
import Synchronization
import Testing

/// The hosting guide's figures 1-4 and 1-5: while one thread renders a running graph slice after
/// slice (standing in for a device thread), another repeatedly inserts an effect between a render
/// callback and a mixer input and takes it out again, each time with AUGraphUpdate.
///
/// Input 0 of the mixer plays frame n as the value n; input 1 plays a constant 0.5, doubled when the
/// effect (gain 2) is in. Every output frame must therefore be exactly n + 0.5 or n + 1, the same
/// choice for a whole slice (the render thread never sees a half-applied edit), with one change per
/// update, no lost or repeated slice, no render error and no allocation on the render thread.
@Suite struct LiveGraphEditTests {
    final class RenderJob: @unchecked Sendable {
        let head: AudioUnit
        let frames: UInt32 = 64
        let maxSlices = 100_000
        let output: UnsafeMutablePointer<Float32>
        let stop = Atomic<Bool>(false)
        let started = Atomic<Bool>(false)
        private(set) var slices = 0
        private(set) var failures = 0
        private(set) var allocations: UInt64 = 0
        let done = DispatchSemaphore(value: 0)

        init(head: AudioUnit) {
            self.head = head
            output = .allocate(capacity: maxSlices * Int(frames))
        }
        deinit { output.deallocate() }

        func run() {
            let abl = AudioBufferList.allocate(maximumBuffers: 2)
            var right = [Float32](repeating: 0, count: Int(frames))
            var ts = AudioTimeStamp()
            ts.mFlags = .sampleTimeValid
            var flags = AudioUnitRenderActionFlags()
            right.withUnsafeMutableBufferPointer { r in
                func renderOne() {
                    abl[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: frames * 4,
                                         mData: UnsafeMutableRawPointer(output + slices * Int(frames)))
                    abl[1] = AudioBuffer(mNumberChannels: 1, mDataByteSize: frames * 4, mData: UnsafeMutableRawPointer(r.baseAddress!))
                    if AudioUnitRender(head, &flags, &ts, 0, frames, abl.unsafeMutablePointer) != noErr { failures += 1 }
                    ts.mSampleTime += Double(frames)
                    slices += 1
                }
                renderOne()
                started.store(true, ordering: .releasing)
                oca_alloc_counting_start()
                while !stop.load(ordering: .acquiring) && slices < maxSlices { renderOne() }
                allocations = oca_alloc_counting_stop()
            }
            free(abl.unsafeMutablePointer)
            done.signal()
        }
    }

    @Test func insertAndRemoveAnEffectWhileRendering() throws {
        GraphSupport.registerTestUnits()
        var graph: AUGraph?
        NewAUGraph(&graph)
        let g = graph!
        defer { DisposeAUGraph(g) }
        var outDesc = TestSupport.genericOutput, mixDesc = TestSummingUnit.description, fxDesc = TestGainUnit.description
        var output = AUNode(), mixer = AUNode()
        AUGraphAddNode(g, &outDesc, &output)
        AUGraphAddNode(g, &mixDesc, &mixer)
        AUGraphOpen(g)
        TestSupport.setUInt32(GraphSupport.unit(g, mixer)!, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, 2)
        var half: Float32 = 0.5
        try withUnsafeMutablePointer(to: &half) { halfPointer in
            var ramp = AURenderCallbackStruct(inputProc: GraphSupport.ramp, inputProcRefCon: nil)
            var constant = AURenderCallbackStruct(inputProc: GraphSupport.constant, inputProcRefCon: UnsafeMutableRawPointer(halfPointer))
            AUGraphSetNodeInputCallback(g, mixer, 0, &ramp)
            AUGraphSetNodeInputCallback(g, mixer, 1, &constant)
            AUGraphConnectNodeInput(g, mixer, 0, output, 0)
            #expect(AUGraphInitialize(g) == noErr)
            #expect(AUGraphStart(g) == noErr)

            let job = RenderJob(head: GraphSupport.unit(g, output)!)
            let thread = Thread { job.run() }
            thread.start()
            while !job.started.load(ordering: .acquiring) { usleep(100) }

            let cycles = 200
            var updateFailures = 0
            for _ in 0..<cycles {
                // Figure 1-4 -> 1-5: disconnect the callback, add the effect, connect it, feed it.
                AUGraphDisconnectNodeInput(g, mixer, 1)
                var fx = AUNode()
                AUGraphAddNode(g, &fxDesc, &fx)
                GraphSupport.setGain(g, fx, 2)
                AUGraphConnectNodeInput(g, fx, 0, mixer, 1)
                AUGraphSetNodeInputCallback(g, fx, 0, &constant)
                if AUGraphUpdate(g, nil) != noErr { updateFailures += 1 }
                // And back.
                AUGraphRemoveNode(g, fx)
                AUGraphSetNodeInputCallback(g, mixer, 1, &constant)
                if AUGraphUpdate(g, nil) != noErr { updateFailures += 1 }
            }
            job.stop.store(true, ordering: .releasing)
            job.done.wait()
            #expect(updateFailures == 0)
            #expect(job.failures == 0)
            #expect(job.slices < job.maxSlices, "the render thread ran out of room before the edits finished")
            if oca_alloc_counter_is_active() == 1 {
                #expect(job.allocations == 0, "render thread allocations: \(job.allocations)")
            }

            var transitions = 0, torn = 0, wrong = 0
            var previous: Float32 = 0.5
            for s in 0..<job.slices {
                let base = s * Int(job.frames)
                let offset = job.output[base] - Float32(base)
                if offset != 0.5 && offset != 1 { wrong += 1; continue }
                for n in 1..<Int(job.frames) where job.output[base + n] != Float32(base + n) + offset { torn += 1 }
                if offset != previous { transitions += 1; previous = offset }
            }
            #expect(wrong == 0, "slices that are neither state")
            #expect(torn == 0, "slices that change state or lose frames inside")
            #expect(transitions == 2 * cycles, "every update takes effect exactly once")
            var nodes: UInt32 = 0
            AUGraphGetNodeCount(g, &nodes)
            #expect(nodes == 2)
            _ = try #require(Optional(job))
        }
    }
}
