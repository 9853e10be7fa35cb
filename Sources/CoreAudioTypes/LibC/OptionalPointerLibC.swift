// Darwin imports memset/memcpy/memmove with implicitly unwrapped pointers, so Core Audio client code
// passes `AudioBuffer.mData` (an Optional) straight in: `memset(buffer.mData, 0, size)`. Glibc's
// import takes non-optional pointers and rejects that. These overloads accept the Optional and
// forward. They are disfavoured overloads: with non-optional arguments (typed pointers included,
// `memcpy(dst[channel], src[channel], n)`) the C functions are the ones chosen, not an ambiguity.
#if canImport(Glibc)
import Glibc

/// libc's `memset`, taking the optional pointers Apple's imported signatures pass.
@_disfavoredOverload @discardableResult @inlinable
public func memset(_ s: UnsafeMutableRawPointer?, _ c: Int32, _ n: Int) -> UnsafeMutableRawPointer? {
    guard let s else { return nil }
    return Glibc.memset(s, c, n)
}

/// libc's `memcpy`, taking the optional pointers Apple's imported signatures pass.
@_disfavoredOverload @discardableResult @inlinable
public func memcpy(_ dest: UnsafeMutableRawPointer?, _ src: UnsafeRawPointer?, _ n: Int) -> UnsafeMutableRawPointer? {
    guard let dest, let src else { return nil }
    return Glibc.memcpy(dest, src, n)
}

/// libc's `memmove`, taking the optional pointers Apple's imported signatures pass.
@_disfavoredOverload @discardableResult @inlinable
public func memmove(_ dest: UnsafeMutableRawPointer?, _ src: UnsafeRawPointer?, _ n: Int) -> UnsafeMutableRawPointer? {
    guard let dest, let src else { return nil }
    return Glibc.memmove(dest, src, n)
}
#endif
