/// Why a control API request could not be carried out. ``code`` is stable; the HTTP layer maps it
/// to a status (not found 404, invalid 422, conflict 409).
public struct SimulatorControlError: Error, Hashable, Sendable, CustomStringConvertible {
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// No registered app has that appID.
        public static let appNotFound = Code(rawValue: "appNotFound")
        /// The app has no menu command with that cmdID.
        public static let commandNotFound = Code(rawValue: "commandNotFound")
        /// The app shows nothing that can be answered.
        public static let noOpenInteraction = Code(rawValue: "noOpenInteraction")
        /// A value is not one the spec allows (an HMI level, a button name, a vehicle data value …).
        public static let invalidValue = Code(rawValue: "invalidValue")
    }

    public var code: Code
    public var detail: String

    public init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    public var description: String { "\(code): \(detail)" }
}
