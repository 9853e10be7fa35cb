/// An effect that is one AudioDSP kernel: the kernel is built at initialize for the rate, channel count and
/// MaximumFramesPerSlice, given the parameters and settled; each render hands it the parameters again only when one
/// has changed since the last render (the kernels glide to new values themselves), runs it, and lets the subclass
/// store meters. A subclass supplies its parameters, how to build its kernel and how to pass the values on.
class AUSingleKernelEffect<Kernel: EffectKernel>: AUKernelEffect, @unchecked Sendable {
    private(set) var kernel: Kernel?
    /// Set when the kernel is made or reset: the first render lands the glides on the parameters it pushes, so values
    /// set between initialize (or AudioUnitReset) and the first render apply at once, with no history to glide from.
    private var settleAtNextRender = false

    override init(component: AudioComponentEntry) {
        super.init(component: component)
    }

    /// Builds the kernel (subclasses).
    func newKernel(sampleRate: Double, maximumFrames: Int, channels: Int) -> Kernel {
        fatalError("AUSingleKernelEffect subclasses build their kernel")
    }

    /// Passes the current parameter values to the kernel (subclasses). Render thread: no allocation.
    func pushParameters(to kernel: Kernel) {}

    /// After each render: the subclass's read-only meters.
    func kernelDidProcess(_ kernel: Kernel) {}

    override func makeKernel(sampleRate: Double, maximumFrames: Int, channels: Int) -> Bool {
        let k = newKernel(sampleRate: sampleRate, maximumFrames: maximumFrames, channels: channels)
        kernel = k
        _ = parametersChanged()  // the snapshot the next renders compare with
        pushParameters(to: k)
        k.settle()
        settleAtNextRender = true
        return true
    }

    override func releaseKernel() { kernel = nil }

    override func resetUnit(_ scope: AudioUnitScope, _ element: AudioUnitElement) {
        kernel?.reset()
        settleAtNextRender = true
    }

    override func process(input: UnsafePointer<UnsafeMutablePointer<Float>>, output: UnsafePointer<UnsafeMutablePointer<Float>>,
                          channels: Int, frames: Int) {
        guard let kernel else { return }
        if parametersChanged() { pushParameters(to: kernel) }
        if settleAtNextRender {
            settleAtNextRender = false
            kernel.settle()
        }
        kernel.process(input: input, output: output, channels: channels, frames: frames)
        kernelDidProcess(kernel)
    }
}
