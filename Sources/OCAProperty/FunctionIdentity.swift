/// C function pointers are not Equatable in Swift; compare their addresses (a listener or callback registered
/// twice is removed by the same proc).
@inline(__always)
package func sameFunction<F>(_ a: F, _ b: F) -> Bool {
    unsafeBitCast(a, to: UnsafeRawPointer.self) == unsafeBitCast(b, to: UnsafeRawPointer.self)
}
