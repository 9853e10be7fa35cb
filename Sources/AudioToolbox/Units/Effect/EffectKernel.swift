import AudioDSP

/// What AUSingleKernelEffect needs of an AudioDSP effect kernel: processing of non-interleaved channels (in place
/// allowed), clearing its state, and landing its gliding values on the parameters it was just given.
protocol EffectKernel: AnyObject {
    /// Processes `frames` frames of `channels` channels; `input` may equal `output`. Render thread.
    func process(input: UnsafePointer<UnsafeMutablePointer<Float>>, output: UnsafePointer<UnsafeMutablePointer<Float>>,
                 channels: Int, frames: Int)
    /// Clears the signal state (AudioUnitReset).
    func reset()
    /// Jumps every glide to its target (the unit's first parameters, before any audio).
    func settle()
}

extension DelayKernel: EffectKernel {}
extension PeakLimiterKernel: EffectKernel {}
extension DynamicsProcessorKernel: EffectKernel {}
extension MultibandCompressorKernel: EffectKernel {}
extension DistortionKernel: EffectKernel {}
extension RogerBeepKernel: EffectKernel {}

// The reverbs' reset also lands their glides.
extension Reverb2Kernel: EffectKernel {
    func settle() { reset() }
}

extension MatrixReverbKernel: EffectKernel {
    func settle() { reset() }
}
