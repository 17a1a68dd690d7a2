import NIOCore
import Synchronization

/// Wakes the driver's timer loop when an input may have brought the head unit's next deadline
/// forward. Rings are counted: the loop notes the count when it computes its deadline and waits
/// "since" that count, so a ring between the two is not lost.
final class WakeUpSignal: Sendable {
    private struct State {
        var rings: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let state = Mutex(State())
    /// Every deadline the timer loop goes to sleep with (`nil`: until the next ring), newest kept:
    /// how tests see that the loop is idle, or what it waits for.
    let parkings: AsyncStream<NIODeadline?>
    private let parkingsContinuation: AsyncStream<NIODeadline?>.Continuation

    init() {
        (parkings, parkingsContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// How many times it rang so far.
    var rings: UInt64 { state.withLock { $0.rings } }

    func ring() {
        let waiters = state.withLock { state in
            state.rings += 1
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Records that the timer loop sleeps until `deadline`.
    func parked(until deadline: NIODeadline?) {
        parkingsContinuation.yield(deadline)
    }

    /// Returns when it rang after `rings` rings (at once if it has), or when the task is cancelled.
    func wait(since rings: UInt64) async {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state in
                    if state.rings != rings || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}
