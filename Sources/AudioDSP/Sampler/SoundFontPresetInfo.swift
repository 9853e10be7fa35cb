/// One preset of a SoundFont as its 'phdr' record names it.
public struct SoundFontPresetInfo: Equatable, Sendable {
    /// The preset's name (up to 20 characters, ASCII).
    public var name: String
    /// The MIDI bank (0...127 melodic, 128 percussion in General MIDI banks).
    public var bank: Int
    /// The MIDI program number, 0...127.
    public var program: Int

    /// A preset description.
    public init(name: String, bank: Int, program: Int) {
        self.name = name
        self.bank = bank
        self.program = program
    }
}
