import CoreAudio
import Foundation
import OCAProperty
import Testing

/// The shared property model (OCAProperty) on a toy object: the size rules every object kind inherits, the
/// truncation rules (the HAL's arrays, an Audio Queue's meters), the set rules and the listener list.
struct ObjectPropertyTableTests {
    final class Toy {
        var level: UInt32 = 7
        var locked = false
        var samples: [UInt16] = [10, 20, 30]
        var meters: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
    }

    static let unsupported: OSStatus = -1, badSize: OSStatus = -2, notWritable: OSStatus = -3

    static let table = ObjectPropertyTable<Toy>([
        .value(1, UInt32.self, writable: .when { !$0.locked }, get: { $0.level }, set: { toy, v in toy.level = v; return noErr }),
        ObjectProperty.array(2, UInt16.self, get: { $0.samples }).truncating(stride: 2, allowsEmpty: true),
        ObjectProperty.array(3, UInt8.self, get: { $0.meters }).truncating(),
        .translation(4, Int32.self) { _, v in v = -v; return noErr },
    ], statuses: .init(unsupported: unsupported, badSize: badSize, notWritable: { _ in notWritable }))

    @Test func sizesAndFixedValues() {
        let toy = Toy()
        #expect(Self.table.info(toy, 1)! == (4, true))
        #expect(Self.table.info(toy, 2)! == (6, false))
        #expect(Self.table.info(toy, 9) == nil)
        var value: UInt64 = .max
        var size: UInt32 = 8
        #expect(Self.table.get(toy, 1, &size, &value) == noErr && size == 4 && value & 0xFFFF_FFFF == 7 && value >> 32 == 0xFFFF_FFFF)
        size = 3
        #expect(Self.table.get(toy, 1, &size, &value) == Self.badSize && size == 3)
        #expect(Self.table.get(toy, 9, &size, &value) == Self.unsupported)
        var n: Int32 = 5
        size = 4
        #expect(Self.table.get(toy, 4, &size, &n) == noErr && n == -5)
    }

    /// The HAL's rule: whole elements as far as they fit, the bytes written reported, an empty answer allowed.
    @Test func elementTruncation() {
        let toy = Toy()
        var out: [UInt16] = [0xFFFF, 0xFFFF, 0xFFFF]
        var size: UInt32 = 5
        #expect(Self.table.get(toy, 2, &size, &out) == noErr && size == 4 && out == [10, 20, 0xFFFF])
        size = 1
        #expect(Self.table.get(toy, 2, &size, &out) == noErr && size == 0)
        size = 64
        #expect(Self.table.get(toy, 2, &size, &out) == noErr && size == 6 && out == [10, 20, 30])
    }

    /// The Audio Queue's rule: a smaller, non-empty buffer takes the first bytes; an empty one is too small.
    @Test func byteTruncation() {
        let toy = Toy()
        var out = [UInt8](repeating: 0, count: 8)
        var size: UInt32 = 3
        #expect(Self.table.get(toy, 3, &size, &out) == noErr && size == 3 && out == [1, 2, 3, 0, 0, 0, 0, 0])
        size = 0
        #expect(Self.table.get(toy, 3, &size, &out) == Self.badSize)
    }

    @Test func setRules() {
        let toy = Toy()
        var v: UInt32 = 9
        #expect(Self.table.set(toy, 1, 4, &v) == noErr && toy.level == 9)
        #expect(Self.table.set(toy, 1, 8, &v) == Self.badSize)
        toy.locked = true
        #expect(Self.table.set(toy, 1, 4, &v) == Self.notWritable && Self.table.info(toy, 1)! == (4, false))
        #expect(Self.table.set(toy, 2, 2, &v) == Self.notWritable)
        #expect(Self.table.set(toy, 9, 4, &v) == Self.unsupported)
    }

    final class Calls: @unchecked Sendable {
        var log: [Int] = []
    }

    /// Registration order, the three removal rules, serials, and a listener that removes itself while it is called.
    @Test func listenerList() {
        let list = PropertyListenerList<UInt32, Int>()
        list.add(1, 10, nil)
        list.add(1, 11, nil)
        list.add(1, 10, nil)
        list.add(2, 12, nil)
        let calls = Calls()
        list.fire(1) { l in
            calls.log.append(l.proc)
            list.remove(.all) { $0.serial == l.serial }
        }
        #expect(calls.log == [10, 11, 10])
        #expect(list.listeners { _ in true }.map(\.proc) == [12])
        list.add(3, 1, nil)
        list.add(3, 2, nil)
        list.add(3, 1, nil)
        let serials = list.listeners { $0.key == 3 }.map(\.serial)
        #expect(serials == serials.sorted() && Set(serials).count == 3)
        #expect(list.remove(.last) { $0.proc == 1 } == 1)
        #expect(list.listeners { $0.key == 3 }.map(\.proc) == [1, 2])
        #expect(!list.isRegistered(serials[2]) && list.isRegistered(serials[0]))
        #expect(list.remove(.first) { $0.key == 3 } == 1 && list.listeners { $0.key == 3 }.map(\.proc) == [2])
        #expect(list.remove(.all) { $0.key == 7 } == 0)
    }
}
