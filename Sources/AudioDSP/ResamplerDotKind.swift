import CDSPKernels
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The dot product a `SampleRateConverter` runs for every output frame, chosen once at init.
///
/// High and below accumulate in Float32: in portable SIMD8 (SSE2 on baseline x86-64) or, where the CPU has
/// them, AVX2 with fused multiply-adds (C kernels in CDSPKernels, compiled for that target only and selected
/// here at run time). Max accumulates in Float64, since its filter rejects below what a Float32 sum of 256
/// products resolves (about -140 dB); its baseline and AVX2 kernels agree bit for bit.
enum ResamplerDotKind: Sendable {
    case float32, float32AVX2, float64, float64AVX2

    /// Whether the AVX2 + FMA kernels run: the CPU has them and OCA_DSP_NO_AVX2 is not set in the environment
    /// (benchmarks time both paths that way). Asked once, on first use, which is a converter's init.
    static let cpuHasAVX2FMA = oca_dsp_has_avx2_fma() != 0 && getenv("OCA_DSP_NO_AVX2") == nil

    /// The kernel for `quality` on this CPU, or without the AVX2 kernels when `portable` (tests compare both).
    static func forQuality(_ quality: SampleRateConverterQuality, portable: Bool = false) -> ResamplerDotKind {
        let wide = !portable && cpuHasAVX2FMA
        if quality == .max { return wide ? .float64AVX2 : .float64 }
        return wide ? .float32AVX2 : .float32
    }
}
