/// The units built into OpenCoreAudio, registered in this order (the order AudioComponentFindNext
/// returns them in).
enum BuiltInUnits {
    static func entries() -> [AudioComponentEntry] {
        [
            AudioComponentEntry(description: GenericOutput.description, name: "Apple: AUGenericOutput",
                                version: 0x0001_0000, maker: .builtIn { GenericOutput(component: $0) }),
            AudioComponentEntry(description: AUHALOutput.description(kAudioUnitSubType_HALOutput), name: "Apple: AudioDeviceOutput",
                                version: 0x0001_0000, maker: .builtIn { AUHALOutput(component: $0, kind: .hal) }),
            AudioComponentEntry(description: AUHALOutput.description(kAudioUnitSubType_DefaultOutput), name: "Apple: DefaultOutputUnit",
                                version: 0x0001_0000, maker: .builtIn { AUHALOutput(component: $0, kind: .defaultOutput) }),
            AudioComponentEntry(description: AUHALOutput.description(kAudioUnitSubType_SystemOutput), name: "Apple: SystemOutputUnit",
                                version: 0x0001_0000, maker: .builtIn { AUHALOutput(component: $0, kind: .systemOutput) }),
            AudioComponentEntry(description: AUHALOutput.description(kAudioUnitSubType_RemoteIO), name: "Apple: AURemoteIO",
                                version: 0x0001_0000, maker: .builtIn { AUHALOutput(component: $0, kind: .remoteIO) }),
            AudioComponentEntry(description: AUConverter.description, name: "Apple: AUConverter",
                                version: 0x0001_0000, maker: .builtIn { AUConverter(component: $0) }),
            AudioComponentEntry(description: SampleDelay.description, name: "Apple: AUSampleDelay",
                                version: 0x0001_0000, maker: .builtIn { SampleDelay(component: $0) }),
            AudioComponentEntry(description: AUiPodEQ.description, name: "Apple: AUiPodEQ",
                                version: 0x0001_0000, maker: .builtIn { AUiPodEQ(component: $0) }),
            AudioComponentEntry(description: AUSplitter.description, name: "Apple: AUSplitter",
                                version: 0x0001_0000, maker: .builtIn { AUSplitter(component: $0, multi: false) }),
            AudioComponentEntry(description: AUSplitter.multiDescription, name: "Apple: AUMultiSplitter",
                                version: 0x0001_0000, maker: .builtIn { AUSplitter(component: $0, multi: true) }),
            AudioComponentEntry(description: MultiChannelMixer.description, name: "Apple: AUMultiChannelMixer",
                                version: 0x0001_0000, maker: .builtIn { MultiChannelMixer(component: $0) }),
            AudioComponentEntry(description: AUMerger.description, name: "Apple: AUMerger",
                                version: 0x0001_0000, maker: .builtIn { AUMerger(component: $0) }),
            AudioComponentEntry(description: SpatialMixer.description, name: "Apple: AUSpatialMixer",
                                version: 0x0001_0000, maker: .builtIn { SpatialMixer(component: $0) }),
            AudioComponentEntry(description: SpatialMixer.macDescription, name: "Apple: AU3DMixer",
                                version: 0x0001_0000, maker: .builtIn { SpatialMixer(component: $0) }),
            AudioComponentEntry(description: AUiPodTime.description, name: "Apple: AUiPodTime",
                                version: 0x0001_0000, maker: .builtIn { AUiPodTime(component: $0) }),
            AudioComponentEntry(description: AUiPodTime.otherDescription, name: "Apple: AUiPodTimeOther",
                                version: 0x0001_0000, maker: .builtIn { AUiPodTime(component: $0) }),
            AudioComponentEntry(description: NewTimePitch.description, name: "Apple: AUNewTimePitch",
                                version: 0x0001_0000, maker: .builtIn { NewTimePitch(component: $0) }),
            AudioComponentEntry(description: Varispeed.description, name: "Apple: AUVarispeed",
                                version: 0x0001_0000, maker: .builtIn { Varispeed(component: $0) }),
        ]
    }
}
