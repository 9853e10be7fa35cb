/// Calls `body` with `object` borrowed, without the retain and release that binding a class reference read from
/// an array or another object's property costs on the render path (they showed in RenderOverhead's profile).
/// The caller guarantees `object` outlives the call: a unit's elements, tables and buffers live as long as it.
@inline(__always)
func withUnretained<T: AnyObject, R>(_ object: T, _ body: (T) -> R) -> R {
    Unmanaged.passUnretained(object)._withUnsafeGuaranteedRef(body)
}
