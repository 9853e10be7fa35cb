// The render block types of Apple's AUAudioUnit.h and AUAudioUnitImplementation.h, as Swift imports them.

/// Supplies input to a render block: flags, time stamp, frame count, input bus number and the buffers to fill
/// (whose `mData` the block may instead point at memory it owns until the next render).
public typealias AURenderPullInputBlock = (UnsafeMutablePointer<AudioUnitRenderActionFlags>, UnsafePointer<AudioTimeStamp>,
                                           AUAudioFrameCount, Int, UnsafeMutablePointer<AudioBufferList>) -> AUAudioUnitStatus
/// Renders an audio unit's output bus: flags, time stamp, frame count, output bus number, output buffers (null
/// `mData` asks for the unit's own memory) and the block that pulls input (nil for generators and instruments).
public typealias AURenderBlock = (UnsafeMutablePointer<AudioUnitRenderActionFlags>, UnsafePointer<AudioTimeStamp>,
                                  AUAudioFrameCount, Int, UnsafeMutablePointer<AudioBufferList>, AURenderPullInputBlock?) -> AUAudioUnitStatus
/// What a subclass renders with: the render block's arguments plus the time-ordered list of this cycle's events.
public typealias AUInternalRenderBlock = (UnsafeMutablePointer<AudioUnitRenderActionFlags>, UnsafePointer<AudioTimeStamp>,
                                          AUAudioFrameCount, Int, UnsafeMutablePointer<AudioBufferList>,
                                          UnsafePointer<AURenderEvent>?, AURenderPullInputBlock?) -> AUAudioUnitStatus
/// Called before and after each render (PreRender and PostRender flags): flags, time stamp, frames, bus.
public typealias AURenderObserver = (AudioUnitRenderActionFlags, UnsafePointer<AudioTimeStamp>, AUAudioFrameCount, Int) -> Void
/// Schedules a parameter change: sample time (or AUEventSampleTimeImmediate plus an offset), ramp length in
/// frames (0: at once), address and value.
public typealias AUScheduleParameterBlock = (AUEventSampleTime, AUAudioFrameCount, AUParameterAddress, AUValue) -> Void
/// Schedules MIDI bytes: sample time, virtual cable, byte count and the bytes.
public typealias AUScheduleMIDIEventBlock = (AUEventSampleTime, UInt8, Int, UnsafePointer<UInt8>) -> Void
/// MIDI output from a unit to its host: sample time, cable, byte count, bytes.
public typealias AUMIDIOutputEventBlock = (AUEventSampleTime, UInt8, Int, UnsafePointer<UInt8>) -> OSStatus
/// The host's musical context: tempo, time signature, beat position, samples to the next beat, downbeat.
public typealias AUHostMusicalContextBlock = (UnsafeMutablePointer<Double>?, UnsafeMutablePointer<Double>?, UnsafeMutablePointer<Int>?,
                                              UnsafeMutablePointer<Double>?, UnsafeMutablePointer<Int>?, UnsafeMutablePointer<Double>?) -> Bool
/// The host's transport state: flags, sample position, cycle start and end beats.
public typealias AUHostTransportStateBlock = (UnsafeMutablePointer<AUHostTransportStateFlags>?, UnsafeMutablePointer<Double>?,
                                              UnsafeMutablePointer<Double>?, UnsafeMutablePointer<Double>?) -> Bool
/// Tells the client of an I/O unit that input is ready: flags, the time it was captured, frames and the input bus
/// (the client fetches the audio with the unit's render block on that bus). Called on the device's thread.
public typealias AUInputHandler = (UnsafeMutablePointer<AudioUnitRenderActionFlags>, UnsafePointer<AudioTimeStamp>, AUAudioFrameCount, Int) -> Void
