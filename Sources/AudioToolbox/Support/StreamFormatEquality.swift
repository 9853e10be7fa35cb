extension AudioStreamBasicDescription {
    /// Whether two descriptions are the same bytes (every field, the reserved one too): the test Apple's
    /// units use to decide whether a format "changed".
    func isBitwiseEqual(to other: AudioStreamBasicDescription) -> Bool {
        withUnsafeBytes(of: self) { a in withUnsafeBytes(of: other) { b in a.elementsEqual(b) } }
    }
}
