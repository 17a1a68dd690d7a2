/// Hands out the numbers of one id space counting up (cmdID and menuID, choiceID, cancelID):
/// a number is never handed out twice, so a late response or notification for an old item can
/// never be mistaken for a new one.
public struct SDLIDCounter: Sendable, Hashable {
    public let range: ClosedRange<Int>
    public private(set) var next: Int

    public init(range: ClosedRange<Int>) {
        self.range = range
        self.next = range.lowerBound
    }

    /// The next number; `idsExhausted` (naming `path`) once the range is used up.
    public mutating func allocate(path: String) throws(SDLManagerError) -> Int {
        guard next <= range.upperBound else {
            throw SDLManagerError(.idsExhausted, path: path, "all ids \(range) have been used")
        }
        next += 1
        return next - 1
    }
}
