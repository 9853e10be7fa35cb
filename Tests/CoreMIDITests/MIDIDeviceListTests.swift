@testable import CoreMIDI
import Foundation
import Testing

/// Device lists: what a driver's FindDevices fills. Clients get one only from MIDIGetDriverDeviceList (a driver
/// API not provided), so the list is made with the module's own constructor here.
@Suite struct MIDIDeviceListTests {
    @Test func listHoldsDevicesInOrderAndDisposingItLeavesThem() throws {
        let list = makeDeviceList()
        #expect(MIDIDeviceListGetNumberOfDevices(list) == 0)
        var a = MIDIDeviceRef(), b = MIDIDeviceRef()
        try #require(MIDIExternalDeviceCreate("A" as CFString, "M" as CFString, "1" as CFString, &a) == noErr)
        try #require(MIDIExternalDeviceCreate("B" as CFString, "M" as CFString, "2" as CFString, &b) == noErr)
        #expect(MIDIDeviceListAddDevice(list, b) == noErr)
        #expect(MIDIDeviceListAddDevice(list, a) == noErr)
        #expect(MIDIDeviceListAddDevice(list, 0) == kMIDIObjectNotFound)
        #expect(MIDIDeviceListGetNumberOfDevices(list) == 2)
        #expect(MIDIDeviceListGetDevice(list, 0) == b && MIDIDeviceListGetDevice(list, 1) == a)
        #expect(MIDIDeviceListGetDevice(list, 2) == 0)
        #expect(MIDIDeviceListDispose(list) == noErr)
        #expect(MIDIDeviceListGetNumberOfDevices(list) == 0)
        #expect(MIDIDeviceListDispose(list) == kMIDIObjectNotFound)
        // The devices outlive the list; never added to the setup, they may be disposed, once.
        #expect(MIDIDeviceDispose(a) == noErr && MIDIDeviceDispose(b) == noErr)
        #expect(MIDIDeviceDispose(a) == kMIDIObjectNotFound)
    }

    @Test func aDeviceInTheSetupIsNotDisposedDirectly() throws {
        var d = MIDIDeviceRef()
        try #require(MIDIExternalDeviceCreate("C" as CFString, "M" as CFString, "3" as CFString, &d) == noErr)
        try #require(MIDISetupAddExternalDevice(d) == noErr)
        #expect(MIDIDeviceDispose(d) == kMIDINotPermitted)
        #expect(MIDISetupRemoveExternalDevice(d) == noErr)
    }
}
