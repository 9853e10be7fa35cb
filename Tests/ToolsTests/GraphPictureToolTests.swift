import Foundation
import Testing

/// qa1717-demo --dot (our extension): the DOT file Graphviz reads, and the PNG Graphviz draws from it, which
/// PIL opens. Requires Graphviz's `dot` (package graphviz) and PIL (python3-pil).
@Suite struct GraphPictureToolTests {
    static let dot = "/usr/bin/dot"

    @Test func qa1717DemoWritesItsGraphAsDOTAndPNG() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.dot), "\(Self.dot) is required (scripts/setup.sh installs graphviz)")
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("oca-graph-\(UUID().uuidString)")
        let dotFile = base.appendingPathExtension("dot"), png = base.appendingPathExtension("png"), wav = base.appendingPathExtension("wav")
        defer { for u in [dotFile, png, wav] { try? FileManager.default.removeItem(at: u) } }
        let demo = try Tools.path("qa1717-demo")

        let text = try Tools.run(executable: demo, ["--dot", dotFile.path, "1.5", "0.25", wav.path])
        #expect(text.status == 0, "\(text.stderr)")
        let plain = try Tools.run(executable: Self.dot, ["-Tplain", dotFile.path])
        #expect(plain.status == 0 && plain.stderr.isEmpty, "\(plain.stderr)")
        let lines = plain.stdout.split(separator: "\n")
        let nodes = Set(lines.filter { $0.hasPrefix("node ") }.map { $0.split(separator: " ")[1] })
        let edges = Set(lines.filter { $0.hasPrefix("edge ") }.map { l -> String in
            let f = l.split(separator: " ")
            return "\(f[1])->\(f[2])"
        })
        // QA1717's chain: a callback feeds the converter (node 4), then the mixer (3), AUiPodTime (2), GenericOutput (1).
        #expect(nodes == ["n1", "n2", "n3", "n4", "callback4_0"], "\(plain.stdout)")
        #expect(edges == ["n4->n3", "n3->n2", "n2->n1", "callback4_0->n4"], "\(plain.stdout)")
        for name in ["AUGenericOutput", "AUiPodTime", "AUMultiChannelMixer", "AUConverter"] {
            #expect(plain.stdout.contains("Apple: \(name)"), "\(name) in \(plain.stdout)")
        }

        let picture = try Tools.run(executable: demo, ["--dot", png.path, "1.5", "0.25", wav.path])
        #expect(picture.status == 0, "\(picture.stderr)")
        let image = try PictureReader.read(png)
        #expect(image.width > 400 && image.height > 40, "\(image.width)x\(image.height)")
        let dark = stride(from: 0, to: image.rgb.count, by: 3).filter { Int(image.rgb[$0]) + Int(image.rgb[$0 + 1]) + Int(image.rgb[$0 + 2]) < 200 }.count
        #expect(dark > 500, "\(dark) dark pixels: the boxes and labels are drawn")
    }
}
