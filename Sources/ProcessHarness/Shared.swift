import Synchronization

/// A value the tasks of a bench or reliability scenario share (a start time, a stop flag, a
/// peak, what the head unit logged): set by one task, read by another.
public final class Shared<Value: Sendable>: Sendable {
    private let state: Mutex<Value>

    public init(_ value: Value) {
        state = Mutex(value)
    }

    /// The value now.
    public var value: Value { state.withLock { $0 } }

    /// Reads or changes the value under the lock and returns what `body` returns.
    public func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        state.withLock { body(&$0) }
    }
}
