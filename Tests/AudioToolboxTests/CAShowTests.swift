@testable import AudioToolbox
import Testing

/// CAShow's layout for the book's chapter 7 graph (speech synthesizer -> matrix reverb -> default
/// output), with our units standing in: the ramp generator plug-in, the test gain effect, AUGenericOutput.
@Suite struct CAShowTests {
    @Test func bookGraphLayoutLineByLine() throws {
        GraphSupport.registerTestUnits()
        _ = RampGeneratorPlugIn.registered
        var graph: AUGraph?
        NewAUGraph(&graph)
        let g = graph!
        defer { DisposeAUGraph(g) }
        var outDesc = TestSupport.genericOutput, genDesc = RampGeneratorPlugIn.description, fxDesc = TestGainUnit.description
        var output = AUNode(), speech = AUNode(), reverb = AUNode()
        AUGraphAddNode(g, &outDesc, &output)
        AUGraphAddNode(g, &genDesc, &speech)
        AUGraphAddNode(g, &fxDesc, &reverb)
        AUGraphOpen(g)
        TestSupport.setFormat(GraphSupport.unit(g, speech)!, kAudioUnitScope_Output, 0, OCAFormat.canonical(sampleRate: 44100, channels: 2))
        AUGraphConnectNodeInput(g, speech, 0, reverb, 0)
        AUGraphConnectNodeInput(g, reverb, 0, output, 0)
        #expect(AUGraphInitialize(g) == noErr)

        func instance(_ node: AUNode) -> String {
            String(format: "%p", Int(bitPattern: UnsafeMutableRawPointer(GraphSupport.unit(g, node)!)))
        }
        let graphID = String(format: "0x%X", UInt32(truncatingIfNeeded: UInt(bitPattern: UnsafeMutableRawPointer(g))))
        let format = " 2 ch,  44100 Hz, 'lpcm' (0x00000029) 32-bit little-endian float, deinterleaved"
        let expected = [
            "AudioUnitGraph \(graphID):",
            "  Member Nodes:",
            "    node 1: 'auou' 'genr' 'appl', instance \(instance(output)) O I",
            "    node 2: 'augn' 'ramp' 'OCAt', instance \(instance(speech)) O I",
            "    node 3: 'aufx' 'gain' 'OCAt', instance \(instance(reverb)) O I",
            "  Connections:",
            "    node   2 bus   0 => node   3 bus   0  [\(format)]",
            "    node   3 bus   0 => node   1 bus   0  [\(format)]",
            "  CurrentState:",
            "    mLastUpdateError=0, eventsToProcess=F, isInitialized=T, isRunning=F",
        ]
        let lines = caShowText(UnsafeMutableRawPointer(g)).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.dropLast() == expected[...], "\n\(lines.joined(separator: "\n"))")
        #expect(lines.last == "")
    }

    @Test func openOnlyNodesAndInputCallbacks() throws {
        GraphSupport.registerTestUnits()
        var graph: AUGraph?
        NewAUGraph(&graph)
        let g = graph!
        defer { DisposeAUGraph(g) }
        var outDesc = TestSupport.genericOutput, fxDesc = TestGainUnit.description
        var output = AUNode(), fx = AUNode(), idle = AUNode()
        AUGraphAddNode(g, &outDesc, &output)
        AUGraphAddNode(g, &fxDesc, &fx)
        AUGraphAddNode(g, &fxDesc, &idle)
        var cb = AURenderCallbackStruct(inputProc: GraphSupport.ramp, inputProcRefCon: UnsafeMutableRawPointer(bitPattern: 0x1234))
        AUGraphSetNodeInputCallback(g, fx, 0, &cb)
        AUGraphConnectNodeInput(g, fx, 0, output, 0)
        var text = caShowText(UnsafeMutableRawPointer(g))
        #expect(text.contains("    node 2: 'aufx' 'gain' 'OCAt', instance 0x0    \n"))  // not open: no unit
        AUGraphOpen(g)
        AUGraphInitialize(g)
        text = caShowText(UnsafeMutableRawPointer(g))
        let proc = String(format: "0x%lx", Int(bitPattern: unsafeBitCast(GraphSupport.ramp, to: UnsafeRawPointer.self)))
        #expect(text.contains("  Input Callbacks:\n    {\(proc), 0x1234} => node   2 bus   0  [2 ch, 44100 Hz]\n"))
        // The idle node takes part in no interaction: open but not initialized.
        let idleUnit = String(format: "%p", Int(bitPattern: UnsafeMutableRawPointer(GraphSupport.unit(g, idle)!)))
        #expect(text.contains("    node 3: 'aufx' 'gain' 'OCAt', instance \(idleUnit) O  \n"))
    }
}
