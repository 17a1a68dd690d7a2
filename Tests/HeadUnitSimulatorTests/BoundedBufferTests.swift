import NIOCore
import SDLProtocol
import Testing

@testable import HeadUnitSimulator

/// The simulator's bounded FIFOs (NIO `CircularBuffer`): the traffic log and the fault set keep
/// the newest entries up to their capacity, oldest first.
@Suite("Bounded buffers: traffic log and faults")
struct BoundedBufferTests {
    static func append(_ count: Int, to log: inout TrafficLog) {
        for _ in 0..<count {
            log.append { sequence in
                TrafficLog.Entry(
                    sequence: sequence, time: .uptimeNanoseconds(UInt64(sequence)), direction: .fromApp, sessionID: 1,
                    rpcType: .request, function: "Show", correlationID: UInt32(sequence), parameters: [:], bulkDataSize: 0
                )
            }
        }
    }

    @Test("The traffic log keeps the newest entries up to its capacity, oldest first", arguments: [1, 3, 1000])
    func trafficLogCapacity(capacity: Int) {
        var log = TrafficLog(capacity: capacity)
        Self.append(capacity - 1, to: &log)
        #expect(log.entries.map(\.sequence) == Array(1..<capacity))
        Self.append(1, to: &log)
        #expect(log.count == capacity)
        #expect(log.entries.map(\.sequence) == Array(1...capacity))
        Self.append(2 * capacity + 1, to: &log)
        #expect(log.count == capacity)
        let last = 3 * capacity + 1
        #expect(log.entries.map(\.sequence) == Array((last - capacity + 1)...last))
    }

    @Test("The fault set keeps the newest 100 faults; the newest matching one applies")
    func faultSetCapacity() {
        var faults = FaultSet()
        for index in 0..<(FaultSet.capacity + 5) {
            faults.add(Fault(function: "Show", resultCode: "CODE_\(index)"))
        }
        #expect(faults.faults.count == FaultSet.capacity)
        #expect(faults.faults.first?.resultCode == "CODE_5")
        #expect(faults.match("Show")?.resultCode == "CODE_\(FaultSet.capacity + 4)")
        #expect(faults.match("Speak") == nil)
        faults.add(Fault(resultCode: "ANY"))
        #expect(faults.match("Speak")?.resultCode == "ANY")
        faults.removeAll()
        #expect(faults.faults.isEmpty)
    }
}
