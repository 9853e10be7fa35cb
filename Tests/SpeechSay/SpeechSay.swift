// speech-say: speaks text into a WAV file through SpeechEngine, like macOS `say -o`.
//
//   speech-say [-v voice] [-r wordsPerMinute] [-p pitchHz] [-a volume0to1] -o out.wav text…
//   speech-say --voices
//
// Also the tests' way to run the engine in a fresh process: espeak-ng carries
// synthesis state across utterances, so only a process's first utterance can be
// compared sample for sample with the espeak-ng CLI's.
import Foundation
import OCASpeech

/// The `speech-say` command.
@main
struct SpeechSay {
    /// Parses the arguments, synthesises, writes the WAV (or lists voices).
    static func main() {
        var voice: String?
        var rate: Double?
        var pitch: Double?
        var volume: Double?
        var output: String?
        var listVoices = false
        var words: [String] = []

        var arguments = CommandLine.arguments.dropFirst()
        func value(for option: String) -> String {
            guard let next = arguments.popFirst() else { fail("\(option) needs a value") }
            return next
        }
        func number(for option: String) -> Double {
            guard let parsed = Double(value(for: option)) else { fail("\(option) needs a number") }
            return parsed
        }
        while let argument = arguments.popFirst() {
            switch argument {
            case "-v": voice = value(for: argument)
            case "-r": rate = number(for: argument)
            case "-p": pitch = number(for: argument)
            case "-a": volume = number(for: argument)
            case "-o": output = value(for: argument)
            case "--voices": listVoices = true
            case "--": words.append(contentsOf: arguments); arguments = []
            default: words.append(argument)
            }
        }

        do {
            let engine = try SpeechEngine()
            if listVoices {
                for entry in engine.voices() {
                    print("\(entry.identifier)\t\(entry.language)\t\(entry.gender)\t\(entry.name)")
                }
                return
            }
            guard let output else {
                fail("usage: speech-say [-v voice] [-r wpm] [-p hz] [-a volume] -o out.wav text")
            }
            let samples = try engine.synthesize(words.joined(separator: " "), voice: voice, rate: rate,
                                                pitch: pitch, volume: volume)
            let file = PCM16WaveFile.data(for: samples, sampleRate: Int(SpeechEngine.sampleRate))
            if output == "-" {
                FileHandle.standardOutput.write(file)
            } else {
                try file.write(to: URL(fileURLWithPath: output))
            }
        } catch {
            fail("\(error)")
        }
    }

    /// Prints `message` to standard error and exits with status 2.
    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("speech-say: \(message)\n".utf8))
        exit(2)
    }
}
