/// A count many tasks can wait on: "all clients are connected", "stop now". A waiter is resumed
/// when the count reaches its target, or when the signal expires (its deadline passed), so no
/// wait outlives the run.
public actor BenchSignal {
    public init() {}

    private var count = 0
    private var expired = false
    private var waiters: [(target: Int, continuation: CheckedContinuation<Bool, Never>)] = []

    public func add(_ amount: Int = 1) {
        count += amount
        resume()
    }

    /// Ends every wait, now and later, with `false`.
    public func expire() {
        expired = true
        resume()
    }

    /// True once the count reached `target`; false if the signal expired first.
    public func wait(for target: Int) async -> Bool {
        if count >= target { return true }
        if expired { return false }
        return await withCheckedContinuation { waiters.append((target, $0)) }
    }

    /// Waits for `target`, at most until `deadline` (then the signal expires).
    public nonisolated func wait(for target: Int, until deadline: ContinuousClock.Instant) async -> Bool {
        await withTaskGroup(of: Bool?.self) { group in
            group.addTask { await self.wait(for: target) }
            group.addTask {
                do {
                    try await Task.sleep(until: deadline)
                    await self.expire()
                } catch {}  // cancelled: the target was reached first
                return nil
            }
            for await result in group {
                if let result {
                    group.cancelAll()
                    return result
                }
            }
            return false
        }
    }

    public var value: Int { count }

    private func resume() {
        var remaining: [(target: Int, continuation: CheckedContinuation<Bool, Never>)] = []
        for waiter in waiters {
            if count >= waiter.target {
                waiter.continuation.resume(returning: true)
            } else if expired {
                waiter.continuation.resume(returning: false)
            } else {
                remaining.append(waiter)
            }
        }
        waiters = remaining
    }
}
