@testable import AudioToolbox
import Foundation
import Testing

/// Apple's graph can be edited from its render notification: the edit applies within that render.
/// When another thread holds the graph's lock the call answers kAUGraphErr_CannotDoInCurrentContext.
@Suite struct RenderThreadGraphEditTests {
    final class Context {
        var graph: AUGraph?
        var output = AUNode()
        var renders = 0
        var statuses: [OSStatus] = []
        var callback = AURenderCallbackStruct(inputProc: nil, inputProcRefCon: nil)
    }

    static let notify: AURenderCallback = { refCon, flags, _, _, _, _ in
        let c = Unmanaged<Context>.fromOpaque(refCon).takeUnretainedValue()
        guard flags.pointee.contains(.unitRenderAction_PreRender) else { return noErr }
        c.renders += 1
        if c.renders == 3 {
            c.statuses.append(AUGraphSetNodeInputCallback(c.graph!, c.output, 0, &c.callback))
            c.statuses.append(AUGraphUpdate(c.graph!, nil))
        }
        return noErr
    }

    func makeGraph(_ context: Context) throws -> AUGraph {
        var graph: AUGraph?
        NewAUGraph(&graph)
        let g = try #require(graph)
        context.graph = g
        var outDesc = TestSupport.genericOutput
        AUGraphAddNode(g, &outDesc, &context.output)
        AUGraphOpen(g)
        var ramp = AURenderCallbackStruct(inputProc: GraphSupport.ramp, inputProcRefCon: nil)
        AUGraphSetNodeInputCallback(g, context.output, 0, &ramp)
        AUGraphAddRenderNotify(g, Self.notify, Unmanaged.passUnretained(context).toOpaque())
        #expect(AUGraphInitialize(g) == noErr)
        #expect(AUGraphStart(g) == noErr)
        return g
    }

    @Test func editFromThePreRenderNotificationAppliesInThatSlice() throws {
        let context = Context()
        var seven: Float32 = 7
        try withUnsafeMutablePointer(to: &seven) { p in
            context.callback = AURenderCallbackStruct(inputProc: GraphSupport.constant, inputProcRefCon: UnsafeMutableRawPointer(p))
            let g = try makeGraph(context)
            defer { DisposeAUGraph(g) }
            let out = try TestSupport.render(GraphSupport.unit(g, context.output)!, format: OCAFormat.canonical(sampleRate: 44100, channels: 2),
                                             totalFrames: 40, slices: [10])
            #expect(context.statuses == [noErr, noErr])
            #expect(out.channels[0] == (0..<20).map(Double.init) + Array(repeating: 7, count: 20))
        }
    }

    @Test func busyGraphAnswersCannotDoInCurrentContext() throws {
        let context = Context()
        context.callback = AURenderCallbackStruct(inputProc: GraphSupport.ramp, inputProcRefCon: nil)
        let g = try makeGraph(context)
        defer { DisposeAUGraph(g) }
        let object = try #require(AUGraphObject.handles.object(UnsafeMutableRawPointer(g), as: AUGraphObject.self))
        let head = try #require(GraphSupport.unit(g, context.output))
        // Another thread holds the graph's lock while the render notification tries to edit.
        let locked = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), finished = DispatchSemaphore(value: 0)
        let holder = Thread {
            object.lock.lock()
            locked.signal()
            release.wait()
            object.lock.unlock()
            finished.signal()
        }
        holder.start()
        locked.wait()
        _ = try TestSupport.render(head, format: OCAFormat.canonical(sampleRate: 44100, channels: 2), totalFrames: 40, slices: [10])
        release.signal()
        finished.wait()
        #expect(context.statuses == [kAUGraphErr_CannotDoInCurrentContext, kAUGraphErr_CannotDoInCurrentContext])
    }
}
