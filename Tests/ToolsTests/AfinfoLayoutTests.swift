import AudioToolbox
import Foundation
import Testing

/// afinfo -x and -i. The XML is read by Python's own parser (not ours) and its numbers compared with ffprobe's; a
/// file name with XML's special characters must come back intact.
@Suite struct AfinfoLayoutTests {
    @Test func xmlParsesAndAgreesWithFFprobe() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oca-afinfo-x-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("a & <b> \"c\".wav"), caf = dir.appendingPathComponent("loud.caf"), m4a = dir.appendingPathComponent("x.m4a")
        try SoundCheckTests.require("/usr/bin/sox", ["-n", "-r", "48000", "-c", "6", "-b", "24", wav.path, "synth", "1.5", "sine", "300", "vol", "0.2"])
        #expect(try Tools.run("afconvert", ["--soundcheck-generate", "-f", "caff", "-d", "LEI16", wav.path, caf.path]).status == 0)
        #expect(try Tools.run("afconvert", ["-f", "m4af", "-d", "aac", "-c", "2", wav.path, m4a.path]).status == 0)
        let files = [wav, caf, m4a]
        let r = try Tools.run("afinfo", ["-x"] + files.map(\.path))
        #expect(r.status == 0, "\(r.stderr)")
        let xml = Fixture.tempURL("xml")
        defer { try? FileManager.default.removeItem(at: xml) }
        try r.stdout.write(to: xml, atomically: true, encoding: .utf8)
        // file name | type | channels | rate | duration | loudness entry
        let script = """
            import sys, xml.etree.ElementTree as E
            for f in E.parse(sys.argv[1]).getroot().findall('audio_file'):
                d = f.find('data_format')
                loud = [e.text for e in f.iter('entry') if e.get('key') == 'loudness']
                print('|'.join([f.get('file_name'), f.get('file_type'), d.get('num_channels'), d.get('sample_rate'),
                                f.findtext('estimated_duration'), loud[0] if loud else '']))
            """
        let parsed = try SoundCheckTests.python(["-c", script, xml.path]).split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
        try #require(parsed.count == 3, "\(r.stdout)")
        #expect(parsed.map { $0[0] } == files.map(\.path))
        #expect(parsed.map { $0[1] } == ["WAVE", "caff", "m4af"])
        for (row, file) in zip(parsed, files) {
            let probe = try SoundCheckTests.require("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=channels,sample_rate", "-of", "csv=p=0", file.path])
            let fields = probe.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").map(String.init)
            #expect(row[2] == fields[1] && row[3] == fields[0], "\(file.lastPathComponent): afinfo \(row), ffprobe \(fields)")
            #expect(abs((Double(row[4]) ?? 0) - 1.5) < 0.001, "\(row)")
        }
        #expect(parsed[1][5].hasSuffix("LUFS") && parsed[0][5].isEmpty)
        let info = try Tools.run("afinfo", ["-i", caf.path, wav.path])
        #expect(info.status == 0)
        #expect(info.stdout.contains("info dictionary:\n    loudness  ") && info.stdout.contains("no info dictionary.") && !info.stdout.contains("Data format"),
                "\(info.stdout)")
    }
}
