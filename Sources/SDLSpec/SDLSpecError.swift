/// An error raised while loading an RPC spec (MOBILE_API.xml) or looking up a function in it.
///
/// Callers switch on ``code``, which is stable across releases; ``detail`` is for humans and logs.
/// Where the error is tied to a place in the XML, ``line`` is its 1-based line number.
public struct SDLSpecError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable, machine-readable error code. New codes may be added; existing ones never change.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The file could not be read.
        public static let unreadableFile = Code(rawValue: "unreadableFile")
        /// The document is not well-formed XML.
        public static let malformedXML = Code(rawValue: "malformedXML")
        /// The root element is not `<interface>`.
        public static let missingInterface = Code(rawValue: "missingInterface")
        /// A required attribute (`name`, `type`, `functionID`, `messagetype`) is absent.
        public static let missingAttribute = Code(rawValue: "missingAttribute")
        /// An attribute value that is not a number or boolean where one is required.
        public static let invalidAttribute = Code(rawValue: "invalidAttribute")
        /// A `<function>` whose `messagetype` is not request, response or notification.
        public static let unknownMessageType = Code(rawValue: "unknownMessageType")
        /// A `<function>` whose `functionID` names no element of enum FunctionID, or whose
        /// element has no numeric value.
        public static let unknownFunctionID = Code(rawValue: "unknownFunctionID")
        /// A `<param>` whose `type` is not Integer, Float, Boolean, String or a defined enum/struct.
        public static let unknownType = Code(rawValue: "unknownType")
        /// An `<element>` under an enum `<param>` that is not an element of its enum.
        public static let unknownElement = Code(rawValue: "unknownElement")
        /// Two top-level enums or structs with one name, or two functions with one name and
        /// message type.
        public static let duplicateDefinition = Code(rawValue: "duplicateDefinition")
        /// No function with the requested name (or id) and message type is in the catalog.
        public static let unknownFunction = Code(rawValue: "unknownFunction")
        /// A catalog in its JSON form (e.g. the built-in one) could not be decoded.
        public static let invalidCatalog = Code(rawValue: "invalidCatalog")
    }

    /// What went wrong, as a stable code.
    public var code: Code
    /// A human-readable explanation.
    public var detail: String
    /// The 1-based line of the XML where the problem was found, when known.
    public var line: Int?

    public init(_ code: Code, _ detail: String, line: Int? = nil) {
        self.code = code
        self.detail = detail
        self.line = line
    }

    public var description: String {
        if let line {
            return "\(code) at line \(line): \(detail)"
        }
        return "\(code): \(detail)"
    }
}
