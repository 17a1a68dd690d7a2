import NIOCore

extension Optional where Wrapped == NIODeadline {
    /// The earlier of two optional deadlines, `nil` only when both are. The state machines (the
    /// app side's and the simulated head unit's) combine their timers' deadlines with it after
    /// every input, so it allocates nothing (an array of candidates and `min()` did, on every
    /// request; BENCHMARKS.md, issue "Performance").
    public func earliest(_ other: NIODeadline?) -> NIODeadline? {
        switch (self, other) {
        case (let a?, let b?): a < b ? a : b
        case (let a?, nil): a
        case (nil, let b): b
        }
    }
}
