import NIOCore

extension SDLJSON {
    /// The default nesting limit for ``parse(_:maximumDepth:)``: deep enough for every struct of
    /// MOBILE_API.xml, shallow enough that hostile input cannot exhaust the stack.
    public static let defaultMaximumDepth = 64

    /// Parses RFC 8259 JSON text. Whitespace (including the tabs and newlines of SDL Core's
    /// pretty-printed responses, docs/protocol.md §k) is allowed around values; anything else that
    /// is not JSON, invalid UTF-8, or nesting deeper than `maximumDepth` is an error whose
    /// `offset` is the byte where parsing stopped.
    public static func parse(_ bytes: some Collection<UInt8>, maximumDepth: Int = defaultMaximumDepth) throws(SDLProtocolError) -> SDLJSON {
        let result: Result<SDLJSON, SDLProtocolError>? = bytes.withContiguousStorageIfAvailable { pointer in
            Result { () throws(SDLProtocolError) in try parse(UnsafeRawBufferPointer(pointer), maximumDepth: maximumDepth) }
        }
        if let result { return try result.get() }
        let copy = Array(bytes)
        let copied = copy.withUnsafeBytes { pointer in
            Result { () throws(SDLProtocolError) in try parse(pointer, maximumDepth: maximumDepth) }
        }
        return try copied.get()
    }

    /// Parses the readable bytes of `buffer` as JSON without moving its reader index.
    public static func parse(_ buffer: ByteBuffer, maximumDepth: Int = defaultMaximumDepth) throws(SDLProtocolError) -> SDLJSON {
        let result = buffer.withUnsafeReadableBytes { pointer in
            Result { () throws(SDLProtocolError) in try parse(pointer, maximumDepth: maximumDepth) }
        }
        return try result.get()
    }

    /// Parses JSON text given as a string.
    public static func parse(_ text: String, maximumDepth: Int = defaultMaximumDepth) throws(SDLProtocolError) -> SDLJSON {
        try parse(Array(text.utf8), maximumDepth: maximumDepth)
    }

    static func parse(_ pointer: UnsafeRawBufferPointer, maximumDepth: Int) throws(SDLProtocolError) -> SDLJSON {
        var parser = JSONParser(bytes: pointer, maximumDepth: maximumDepth)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.index == pointer.count else {
            throw parser.error("unexpected data after the JSON value")
        }
        return value
    }
}

/// A recursive-descent RFC 8259 parser over a borrowed byte buffer.
private struct JSONParser {
    let bytes: UnsafeRawBufferPointer
    let maximumDepth: Int
    var index = 0

    init(bytes: UnsafeRawBufferPointer, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    func error(_ detail: String, code: SDLProtocolError.Code = .invalidJSON) -> SDLProtocolError {
        SDLProtocolError(code, detail, offset: index)
    }

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// The byte at the error, for its message: `'x'`, or `the end of the JSON`.
    var got: String { current.map { "'\(Self.printable($0))'" } ?? "the end of the JSON" }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func expect(_ literal: StaticString, value: SDLJSON) throws(SDLProtocolError) -> SDLJSON {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw error("expected \(literal), got the end of the JSON") }
        let matches = literal.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[index + $0] == expected[$0] }
        }
        guard matches else { throw error("expected \(literal)") }
        index += count
        return value
    }

    mutating func parseValue(depth: Int) throws(SDLProtocolError) -> SDLJSON {
        guard let byte = current else { throw error("expected a value, got the end of the JSON") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try expect("true", value: .bool(true))
        case UInt8(ascii: "f"): return try expect("false", value: .bool(false))
        case UInt8(ascii: "n"): return try expect("null", value: .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("expected a value (an object, array, string, number, true, false or null), got '\(Self.printable(byte))'")
        }
    }

    static func printable(_ byte: UInt8) -> String {
        (0x20..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : "0x" + String(byte, radix: 16)
    }

    mutating func parseObject(depth: Int) throws(SDLProtocolError) -> SDLJSON {
        guard depth <= maximumDepth else { throw error("nesting deeper than \(maximumDepth)", code: .jsonNestingTooDeep) }
        index += 1
        var members: [String: SDLJSON] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error("expected a string key in \"…\", got \(got)") }
            let key = try parseString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':' after the key, got \(got)") }
            index += 1
            skipWhitespace()
            members[key] = try parseValue(depth: depth)
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return .object(members)
            default: throw error("expected ',' or '}' after a member of an object, got \(got)")
            }
        }
    }

    mutating func parseArray(depth: Int) throws(SDLProtocolError) -> SDLJSON {
        guard depth <= maximumDepth else { throw error("nesting deeper than \(maximumDepth)", code: .jsonNestingTooDeep) }
        index += 1
        var elements: [SDLJSON] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return .array(elements)
            default: throw error("expected ',' or ']' after an element of an array, got \(got)")
            }
        }
    }

    mutating func parseString() throws(SDLProtocolError) -> String {
        index += 1  // opening quote
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = try decodeUTF8(bytes[start..<index], at: start)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("control character in string") }
            index += 1
        }
        var scratch = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                let text = try decodeUTF8(scratch[...], at: start)
                index += 1
                return text
            case UInt8(ascii: "\\"):
                index += 1
                guard let escape = current else { throw error("unterminated escape") }
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(escape)
                case UInt8(ascii: "b"): scratch.append(0x08)
                case UInt8(ascii: "f"): scratch.append(0x0C)
                case UInt8(ascii: "n"): scratch.append(0x0A)
                case UInt8(ascii: "r"): scratch.append(0x0D)
                case UInt8(ascii: "t"): scratch.append(0x09)
                case UInt8(ascii: "u"):
                    let scalar = try parseUnicodeEscape()
                    scratch.append(contentsOf: String(Character(scalar)).utf8)
                default:
                    index -= 1
                    throw error("invalid escape '\\\(Self.printable(escape))'")
                }
            default:
                if byte < 0x20 { throw error("control character in string") }
                scratch.append(byte)
                index += 1
            }
        }
        throw error("unterminated string")
    }

    mutating func parseHex4() throws(SDLProtocolError) -> UInt32 {
        guard bytes.count - index >= 4 else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    mutating func parseUnicodeEscape() throws(SDLProtocolError) -> Unicode.Scalar {
        let first = try parseHex4()
        if (0xD800..<0xDC00).contains(first) {
            guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw error("unpaired high surrogate")
            }
            index += 2
            let second = try parseHex4()
            guard (0xDC00..<0xE000).contains(second) else { throw error("invalid low surrogate") }
            let combined = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            guard let scalar = Unicode.Scalar(combined) else { throw error("invalid surrogate pair") }
            return scalar
        }
        guard let scalar = Unicode.Scalar(first) else { throw error("unpaired low surrogate") }
        return scalar
    }

    func decodeUTF8(_ slice: some Collection<UInt8>, at offset: Int) throws(SDLProtocolError) -> String {
        guard let text = String(validating: slice, as: UTF8.self) else {
            throw SDLProtocolError(.invalidJSON, "string is not valid UTF-8", offset: offset)
        }
        return text
    }

    mutating func parseNumber() throws(SDLProtocolError) -> SDLJSON {
        let start = index
        var isInteger = true
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            throw error("expected a digit")
        }
        if first == UInt8(ascii: "0") {
            index += 1
            if let next = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next) {
                throw error("leading zero in number")
            }
        } else {
            skipDigits()
        }
        if current == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard skipDigits() > 0 else { throw error("expected a digit after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard skipDigits() > 0 else { throw error("expected a digit in exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let value = Int64(text) {
            return .int(value)
        }
        guard let value = Double(text), value.isFinite else {
            index = start
            throw error("number out of range")
        }
        return .double(value)
    }

    @discardableResult
    mutating func skipDigits() -> Int {
        let start = index
        while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        return index - start
    }
}
