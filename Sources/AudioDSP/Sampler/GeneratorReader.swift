/// A voice's generator values as the synthesis reads them: the merged zone value plus the modulators' sum.
struct GeneratorReader {
    let base: UnsafeMutablePointer<Float>
    let modulated: UnsafeMutablePointer<Float>

    subscript(_ n: Int) -> Double { Double(base[n]) + Double(modulated[n]) }
}
