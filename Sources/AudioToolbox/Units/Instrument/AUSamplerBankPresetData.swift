/// Apple's deprecated `AUSamplerBankPresetData`, the value of kAUSamplerProperty_LoadPresetFromBank: a DLS or
/// SoundFont bank file, bank MSB/LSB and preset (superseded by AUSamplerInstrumentData). Declared in Swift because
/// its URL is a CFURL here; the layout is the C struct's (a pointer, four bytes).
public struct AUSamplerBankPresetData {
    public var bankURL: Unmanaged<CFURL>
    public var bankMSB: UInt8
    public var bankLSB: UInt8
    public var presetID: UInt8
    public var reserved: UInt8

    /// The memberwise initializer Swift gives the imported C struct.
    public init(bankURL: Unmanaged<CFURL>, bankMSB: UInt8, bankLSB: UInt8, presetID: UInt8, reserved: UInt8) {
        self.bankURL = bankURL
        self.bankMSB = bankMSB
        self.bankLSB = bankLSB
        self.presetID = presetID
        self.reserved = reserved
    }
}
