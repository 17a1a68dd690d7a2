import Synchronization
import Testing

@testable import SDLClient

/// ``SDLWriteGate`` for senders that do not suspend (``SDLConnection/forwardStream(_:_:whenReady:)``):
/// when they may hand over more, and that each one held back is called back once.
@Suite("The link's write gate: senders that hold back")
struct WriteGateTests {
    /// Counts its calls.
    final class Calls: Sendable {
        let count = Mutex(0)
        var value: Int { count.withLock { $0 } }
        func call() { count.withLock { $0 += 1 } }
    }

    @Test("Ready while writable and within the limit; over it, held back until the loop took enough, then called back once")
    func handedOverBytes() {
        let gate = SDLWriteGate()
        let calls = Calls()
        #expect(gate.ready(within: 100) { calls.call() })
        gate.handOver(100)
        #expect(gate.ready(within: 100) { calls.call() }, "at the limit is within it")
        gate.handOver(1)
        #expect(!gate.ready(within: 100) { calls.call() })
        #expect(gate.suspensions == 1)
        gate.taken(1)
        #expect(calls.value == 1)
        gate.taken(100)
        #expect(calls.value == 1, "a callback is called once")
    }

    @Test("Not writable: held back whatever is in flight, called back when writable again")
    func writability() {
        let gate = SDLWriteGate()
        let calls = Calls()
        gate.set(writable: false)
        #expect(!gate.ready(within: 100) { calls.call() })
        #expect(!gate.ready(within: 100) { calls.call() })
        gate.set(writable: false)
        #expect(calls.value == 0)
        gate.set(writable: true)
        #expect(calls.value == 2)
    }

    @Test("Writable again but too much in flight: still held back until the loop takes it")
    func bothConditions() {
        let gate = SDLWriteGate()
        let calls = Calls()
        gate.handOver(200)
        gate.set(writable: false)
        #expect(!gate.ready(within: 100) { calls.call() })
        gate.set(writable: true)
        #expect(calls.value == 0)
        gate.taken(200)
        #expect(calls.value == 1)
    }

    @Test("The link goes: senders held back are called back (their next write throws), and are ready from then on")
    func closed() {
        let gate = SDLWriteGate()
        let calls = Calls()
        gate.set(writable: false)
        #expect(!gate.ready(within: 100) { calls.call() })
        gate.close(SDLClientError(.linkLost, "test"))
        #expect(calls.value == 1)
        #expect(gate.ready(within: 100) { calls.call() })
    }
}
