/// Apple's `AUSamplerInstrumentData`, the value of kAUSamplerProperty_LoadInstrument: a bank or instrument
/// file and, for DLS and SoundFont banks, the bank (MSB/LSB as MIDI controllers 0 and 32 would select it;
/// kAUSampler_DefaultMelodicBankMSB or kAUSampler_DefaultPercussionBankMSB for General MIDI banks) and preset.
/// Declared in Swift because its URL is a CFURL here; the layout is the C struct's (a pointer, four bytes).
public struct AUSamplerInstrumentData {
    public var fileURL: Unmanaged<CFURL>
    public var instrumentType: UInt8
    public var bankMSB: UInt8
    public var bankLSB: UInt8
    public var presetID: UInt8

    /// The memberwise initializer Swift gives the imported C struct.
    public init(fileURL: Unmanaged<CFURL>, instrumentType: UInt8, bankMSB: UInt8, bankLSB: UInt8, presetID: UInt8) {
        self.fileURL = fileURL
        self.instrumentType = instrumentType
        self.bankMSB = bankMSB
        self.bankLSB = bankLSB
        self.presetID = presetID
    }
}
