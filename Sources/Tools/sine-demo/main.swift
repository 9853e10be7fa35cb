import AudioToolbox
let f: AudioUnitRenderActionFlags = [.unitRenderAction_PreRender, .offlineUnitRenderAction_Complete]
let t: AudioTimeStampFlags = [.sampleTimeValid, .sampleHostTimeValid]
let cb: AURenderCallback = { refCon, flags, ts, bus, frames, ioData in flags.pointee.insert(.unitRenderAction_OutputIsSilence); return noErr }
let m: AudioComponentMethod? = nil
let u: AudioUnitParameterUnit = .midiNoteNumber
let o: AudioUnitParameterOptions = [.flag_IsReadable, .flag_IsWritable]
let b: AudioChannelBitmap = .bit_Left
let st: SMPTETimeType = .type2997Drop
let e: AUParameterEventType = .parameterEvent_Immediate
var ev = AudioUnitParameterEvent()
ev.eventValues.immediate.bufferOffset = 3
let x: AudioFormatFlags = kAudioFormatFlagsAudioUnitCanonical
let y: OSStatus = kAudioUnitErr_InvalidProperty
let z: UInt32 = kAudioUnitType_Output
let p: AudioUnitPropertyID = kAudioUnitProperty_StreamFormat
var asbd = AudioStreamBasicDescription()
print(f, t, m as Any, u, o, b, st, e, x, y, z, p, type(of: kAudioUnitSubType_GenericOutput), type(of: kAudioFormatLinearPCM), MemoryLayout<AudioComponentPlugInInterface>.size)
print(OCAFormat.describe(OCAFormat.canonical(sampleRate: 44100, channels: 2)))
let cf: CFString = "x" as CFString
