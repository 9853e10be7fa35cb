import AudioToolbox
import Foundation
import Testing

/// OCAGraphDOT (our extension): Graphviz itself (the `dot` command, Debian's graphviz package) parses the
/// text and lists every node and edge of the graph, with the labels the graph implies.
@Suite struct OCAGraphDOTTests {
    static let dot = "/usr/bin/dot"

    /// `dot -Tplain` of a DOT text: its standard output, or a failed requirement with dot's message.
    static func plain(_ text: String) throws -> String {
        try #require(FileManager.default.isExecutableFile(atPath: dot), "\(dot) is required (scripts/setup.sh installs graphviz)")
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("oca-graph-\(UUID().uuidString).dot")
        defer { try? FileManager.default.removeItem(at: input) }
        try text.write(to: input, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: dot)
        process.arguments = ["-Tplain", input.path]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0 && errors.isEmpty, "dot rejected the text: \(errors)\n\(text)")
        return String(decoding: data, as: UTF8.self)
    }

    static func description(_ type: OSType, _ subType: OSType) -> AudioComponentDescription {
        AudioComponentDescription(componentType: type, componentSubType: subType, componentManufacturer: kAudioUnitManufacturer_Apple,
                                  componentFlags: 0, componentFlagsMask: 0)
    }

    static let callback: AURenderCallback = { _, _, _, _, _, _ in noErr }

    @Test func everyNodeAndEdgeReachesGraphviz() throws {
        var graph: AUGraph?
        #expect(NewAUGraph(&graph) == noErr)
        let g = try #require(graph)
        defer { DisposeAUGraph(g) }
        var outputDesc = Self.description(kAudioUnitType_Output, kAudioUnitSubType_GenericOutput)
        var mixerDesc = Self.description(kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer)
        var converterDesc = Self.description(kAudioUnitType_FormatConverter, kAudioUnitSubType_AUConverter)
        var output = AUNode(), mixer = AUNode(), converter = AUNode(), sub = AUNode()
        #expect(AUGraphAddNode(g, &outputDesc, &output) == noErr)
        #expect(AUGraphAddNode(g, &mixerDesc, &mixer) == noErr)
        #expect(AUGraphAddNode(g, &converterDesc, &converter) == noErr)
        #expect(AUGraphNewNodeSubGraph(g, &sub) == noErr)
        #expect(AUGraphConnectNodeInput(g, converter, 0, mixer, 2) == noErr)
        #expect(AUGraphConnectNodeInput(g, mixer, 0, output, 0) == noErr)
        var cb = AURenderCallbackStruct(inputProc: Self.callback, inputProcRefCon: nil)
        #expect(AUGraphSetNodeInputCallback(g, mixer, 1, &cb) == noErr)

        let text = OCAGraphDOT(g)
        let plain = try Self.plain(text)
        var nodes: [String: String] = [:]  // name -> the rest of the line (holds the label)
        var edges: [String] = []
        for line in plain.split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 2).map(String.init)
            if fields.first == "node", fields.count == 3 { nodes[fields[1]] = fields[2] }
            if fields.first == "edge", fields.count == 3 { edges.append(fields[1] + " -> " + fields[2].split(separator: " ")[0]) }
        }
        let callbackNode = "callback\(mixer)_1"
        #expect(Set(nodes.keys) == ["n\(output)", "n\(mixer)", "n\(converter)", "n\(sub)", callbackNode], "\(plain)")
        #expect(edges.sorted() == ["n\(converter) -> n\(mixer)", "n\(mixer) -> n\(output)", "\(callbackNode) -> n\(mixer)"].sorted(), "\(plain)")
        #expect(nodes["n\(mixer)"]?.contains("'aumx' 'mcmx' 'appl'\\nApple: AUMultiChannelMixer") == true, "\(nodes)")
        #expect(nodes["n\(output)"]?.contains("'auou' 'genr' 'appl'\\nApple: AUGenericOutput") == true, "\(nodes)")
        #expect(nodes["n\(sub)"]?.contains("subgraph") == true)
        #expect(plain.contains("\"bus 0 -> bus 2\"") && plain.contains("\"bus 0 -> bus 0\"") && plain.contains("\"bus 1\""), "\(plain)")

        // Open and initialized, the same picture (the DOT describes the model, not the units' state).
        #expect(AUGraphOpen(g) == noErr)
        #expect(OCAGraphDOT(g) == text)
    }

    @Test func anEmptyGraphIsAnEmptyDigraph() throws {
        var graph: AUGraph?
        #expect(NewAUGraph(&graph) == noErr)
        let g = try #require(graph)
        defer { DisposeAUGraph(g) }
        let plain = try Self.plain(OCAGraphDOT(g))
        #expect(plain.split(separator: "\n").allSatisfy { !$0.hasPrefix("node") && !$0.hasPrefix("edge") }, "\(plain)")
    }
}
