/// The `softButtonID`s (MOBILE_API.xml `SoftButton.softButtonID`, 0…65535) the manager gave the
/// user's soft buttons on the screen: 1…32767 (alerts have 32768…65535, ``SDLAlertManager``). A user id keeps its number for the whole
/// session, so an unchanged button
/// is sent with the same id and events keep mapping; numbers count up from 1 and are never
/// given to another button.
public struct SDLSoftButtonIDTable: Sendable, Hashable {
    public private(set) var ids: [String: Int] = [:]
    private var next = 1

    /// The largest `softButtonID` of a screen's button.
    public static let maximumID = 32767

    public init() {}

    /// The number of `userID`, allocating one on first use.
    public mutating func id(for userID: String) throws(SDLManagerError) -> Int {
        if let id = ids[userID] { return id }
        guard next <= Self.maximumID else {
            throw SDLManagerError(.idsExhausted, path: "$.softButtons", "no softButtonID left for \(userID)")
        }
        ids[userID] = next
        next += 1
        return next - 1
    }

    /// The user id that has `softButtonID`.
    public func userID(for softButtonID: Int) -> String? {
        ids.first { $0.value == softButtonID }?.key
    }
}
