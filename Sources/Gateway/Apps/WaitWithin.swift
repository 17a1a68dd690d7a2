/// Runs `operation` until it answers or `limit` passes, whichever comes first; nil after
/// `limit`. `operation` is then cancelled and must end (its waiter resumes on cancellation).
func waitWithin<Value: Sendable>(_ limit: Duration, _ operation: @escaping @Sendable () async -> Value?) async -> Value? {
    await withTaskGroup(of: Value?.self) { group in
        group.addTask { await operation() }
        group.addTask {
            try? await Task.sleep(for: limit)
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}
