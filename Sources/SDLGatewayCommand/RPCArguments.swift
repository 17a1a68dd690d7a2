import SDLProtocol

/// The JSON body of an RPC written on the command line, as HTTPie writes one (`sdl-gateway call`,
/// `sdl-gateway apps create`): the parameters of a request of MOBILE_API.xml (docs/protocol.md §c,
/// "JSON Data") from `key=value` arguments.
///
/// - `key=value`: a number (JSON's grammar: `42`, `-1.5`, `1e3`) or `true`/`false` as that JSON
///   value, anything else as a string (`0123`, `null` and the empty value included).
/// - `a.b.c=value`: nested objects, created as needed.
/// - `key:=JSON`: the raw JSON value (`choiceIDs:='[1,2]'`, `name:='"42"'` for a string of digits).
/// - A base object (`--json '{…}'`) comes first; an argument replaces its member at the same path.
///
/// Two arguments that set one path, or a path and a member inside it (`a=1` and `a.b=2`), are
/// refused: which one was meant is not clear. A pure value: no I/O, so every rule is unit tested.
struct RPCArguments: Sendable, Equatable {
    /// The body: an object.
    private(set) var body: SDLJSON
    /// The paths the arguments set, in order.
    private var assigned: [[String]] = []

    /// Starts from `base` (`--json`), which must be a JSON object.
    init(base: String? = nil) throws(RPCArgumentError) {
        guard let base else {
            body = .emptyObject
            return
        }
        let parsed: SDLJSON
        do throws(SDLProtocolError) {
            parsed = try SDLJSON.parse(base)
        } catch {
            throw RPCArgumentError(.invalidJSON, "--json is not valid JSON\(Self.at(error, in: base)): \(error.detail)")
        }
        guard parsed.objectValue != nil else {
            throw RPCArgumentError(.notAnObject, "--json is a JSON \(parsed.typeName), not an object of parameters")
        }
        body = parsed
    }

    /// The body of `arguments` on top of `base`.
    static func body(_ arguments: [String], base: String? = nil) throws(RPCArgumentError) -> SDLJSON {
        var built = try RPCArguments(base: base)
        for argument in arguments { try built.add(argument) }
        return built.body
    }

    /// Adds one `key=value` or `key:=JSON` argument.
    mutating func add(_ argument: String) throws(RPCArgumentError) {
        guard let equals = argument.firstIndex(of: "=") else {
            throw RPCArgumentError(.missingSeparator, "'\(argument)' is not key=value or key:=JSON")
        }
        let raw = equals > argument.startIndex && argument[argument.index(before: equals)] == ":"
        let key = argument[..<(raw ? argument.index(before: equals) : equals)]
        let text = String(argument[argument.index(after: equals)...])
        guard !key.isEmpty else { throw RPCArgumentError(.emptyKey, "'\(argument)' has no key before '\(raw ? ":=" : "=")'") }
        let path = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !path.contains("") else {
            throw RPCArgumentError(.emptyPathSegment, "'\(key)' has an empty name between dots")
        }
        let value: SDLJSON
        if raw {
            do throws(SDLProtocolError) {
                value = try SDLJSON.parse(text)
            } catch {
                throw RPCArgumentError(.invalidJSON, "'\(key):=' is not valid JSON\(Self.at(error, in: text)): \(error.detail)")
            }
        } else {
            value = Self.scalar(text)
        }
        for earlier in assigned {
            let name = earlier.joined(separator: ".")
            if earlier == path { throw RPCArgumentError(.duplicate, "'\(name)' is given twice") }
            if earlier.starts(with: path) || path.starts(with: earlier) {
                throw RPCArgumentError(
                    .conflict, "'\(name)' and '\(key)' conflict: one sets the whole of what the other sets a member of")
            }
        }
        try Self.set(value, at: path[...], in: &body, base: [])
        assigned.append(path)
    }

    /// `true`, `false` and JSON numbers as themselves; any other text as a string.
    static func scalar(_ text: String) -> SDLJSON {
        switch text {
        case "true": return .bool(true)
        case "false": return .bool(false)
        default:
            guard isJSONNumber(text), let number = try? SDLJSON.parse(text) else { return .string(text) }
            return number
        }
    }

    /// RFC 8259 §6's `number`: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    static func isJSONNumber(_ text: String) -> Bool {
        var bytes = text.utf8[...]
        func digits() -> Int {
            let count = bytes.prefix { (48...57).contains($0) }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        if bytes.first == UInt8(ascii: "0") {
            bytes = bytes.dropFirst()
        } else if digits() == 0 {
            return false
        }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits() > 0 else { return false }
        }
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }

    private static func set(_ value: SDLJSON, at path: ArraySlice<String>, in json: inout SDLJSON, base: [String]) throws(RPCArgumentError)
    {
        guard let first = path.first else {
            json = value
            return
        }
        guard var members = json.objectValue else {
            throw RPCArgumentError(
                .conflict, "'\(base.joined(separator: "."))' is a JSON \(json.typeName) in --json, so it has no member '\(first)'")
        }
        var member = path.count == 1 ? value : members[first] ?? .emptyObject
        if path.count > 1 { try set(value, at: path.dropFirst(), in: &member, base: base + [first]) }
        members[first] = member
        json = .object(members)
    }

    /// ` at line L, column C` of a parse error in `text`, or nothing.
    private static func at(_ error: SDLProtocolError, in text: String) -> String {
        error.position(in: Array(text.utf8)).map { " at \($0)" } ?? ""
    }
}

/// A refused `key=value` argument or `--json`: a stable code and what is wrong.
struct RPCArgumentError: Error, Equatable, CustomStringConvertible {
    enum Code: String, Sendable {
        case missingSeparator = "missing-separator"
        case emptyKey = "empty-key"
        case emptyPathSegment = "empty-path-segment"
        case invalidJSON = "invalid-json"
        case notAnObject = "not-an-object"
        case duplicate
        case conflict
    }

    let code: Code
    let message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    var description: String { message }
}
