import Foundation

/// Runs `body` on a thread of its own and suspends until it returns.
///
/// `Process.waitUntilExit()` and `FileHandle`'s reads block their thread. Called straight from
/// a test they hold one of the cooperative pool's threads (as many as the machine has cores,
/// two on CI) for as long as a child process runs, and every other test of the run waits: a CI
/// run stalled about 30 s that way, long enough for a gateway's 10 s request-head deadline to
/// close a connection a test had opened but could not yet write to.
func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

extension Process {
    /// Suspends until the process has exited (``offThePool(_:)``).
    func exited() async throws {
        try await offThePool { self.waitUntilExit() }
    }
}

extension FileHandle {
    /// What is left to read up to end of file (``offThePool(_:)``).
    func remainingText() async throws -> String {
        try await offThePool { String(decoding: self.readDataToEndOfFile(), as: UTF8.self) }
    }

    /// The bytes available now, or the next ones to arrive; empty at end of file (``offThePool(_:)``).
    func nextData() async throws -> Data {
        try await offThePool { self.availableData }
    }
}
