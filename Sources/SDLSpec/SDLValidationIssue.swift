/// One problem found by ``SDLCatalog/validate(_:against:maximumDepth:)``: where (a JSON path
/// such as `$.softButtons[2].text`), what the spec expects there and what the JSON holds.
public struct SDLValidationIssue: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The kind of problem. Raw values are stable.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// A mandatory param is absent (`got` is `absent`).
        case missingMandatory
        /// A key that the function or struct does not define.
        case unknownParameter
        /// The JSON kind does not match the param type (including array vs scalar).
        case wrongType
        /// A string that is not an element name of the param's enum.
        case notAnEnumElement
        /// An array with fewer than `minsize` elements.
        case arrayTooShort
        /// An array with more than `maxsize` elements.
        case arrayTooLong
        /// A number below `minvalue`.
        case valueTooSmall
        /// A number above `maxvalue`.
        case valueTooLarge
        /// A string shorter than `minlength`.
        case stringTooShort
        /// A string longer than `maxlength`.
        case stringTooLong
        /// Structs nested deeper than the validation's `maximumDepth`; not looked into.
        case nestingTooDeep
    }

    public var kind: Kind
    /// A JSONPath-like location: `$`, then `.key` (or `["key"]` for unusual keys) and `[index]`.
    public var path: String
    /// What the spec allows at `path`, e.g. `String`, `String of at most 500 characters`,
    /// `Integer in 1...10`, `one of enum Language`, `struct Image (object)`, `at most 100 elements`.
    public var expected: String
    /// What the JSON holds there, e.g. `Integer 123`, `String "abc"`, `array of 3 elements`,
    /// `object`, `null` or `absent`.
    public var got: String

    public init(kind: Kind, path: String, expected: String, got: String) {
        self.kind = kind
        self.path = path
        self.expected = expected
        self.got = got
    }

    /// `<path>: expected <expected>, got <got>`.
    public var message: String { "\(path): expected \(expected), got \(got)" }

    public var description: String { message }
}
