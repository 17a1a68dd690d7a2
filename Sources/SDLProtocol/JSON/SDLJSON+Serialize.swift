import NIOCore

extension SDLJSON {
    /// Compact RFC 8259 text with object keys sorted. Non-finite doubles (which JSON cannot
    /// represent) are written as `null`.
    public func serialized() -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64)
        Self.write(self, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the compact JSON text of this value to `buffer`; returns the number of bytes written.
    @discardableResult
    public func write(to buffer: inout ByteBuffer) -> Int {
        var bytes: [UInt8] = []
        Self.write(self, into: &bytes)
        return buffer.writeBytes(bytes)
    }

    /// The compact JSON text as UTF-8 bytes.
    public func serializedBytes() -> [UInt8] {
        var bytes: [UInt8] = []
        Self.write(self, into: &bytes)
        return bytes
    }

    /// ``serializedBytes()`` in pieces, for ``SDLCompactJSON``: the text of each member of an
    /// object that is `minimumBytes` or longer is a piece of its own, between pieces holding the
    /// rest; joined, the pieces are the whole text. Any other value is one piece.
    func serializedPieces(minimumBytes: Int) -> [[UInt8]] {
        guard case .object(let members) = self else { return [serializedBytes()] }
        var pieces: [[UInt8]] = []
        var current: [UInt8] = [UInt8(ascii: "{")]
        for (index, key) in members.keys.sorted().enumerated() {
            if index > 0 { current.append(UInt8(ascii: ",")) }
            Self.writeString(key, into: &current)
            current.append(UInt8(ascii: ":"))
            var member: [UInt8] = []
            Self.write(members[key]!, into: &member)
            if member.count >= minimumBytes {
                pieces.append(current)
                pieces.append(member)
                current = []
            } else {
                current.append(contentsOf: member)
            }
        }
        current.append(UInt8(ascii: "}"))
        pieces.append(current)
        return pieces
    }

    /// Pretty-printed JSON as SDL Core sends it (jsoncpp's styled writer, docs/protocol.md §k): every
    /// object and non-empty array on its own lines, members indented with tabs, `"key" : value`, keys
    /// sorted. Parsers meet the same values as in ``serializedBytes()``, only with whitespace.
    public func prettySerializedBytes() -> [UInt8] {
        var bytes: [UInt8] = []
        Self.writePretty(self, depth: 0, into: &bytes)
        bytes.append(0x0A)
        return bytes
    }

    private static func writePretty(_ value: SDLJSON, depth: Int, into out: inout [UInt8]) {
        func newline(_ depth: Int) {
            out.append(0x0A)
            out.append(contentsOf: repeatElement(0x09, count: depth))
        }
        switch value {
        case .array(let elements) where !elements.isEmpty:
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                newline(depth + 1)
                writePretty(element, depth: depth + 1, into: &out)
            }
            newline(depth)
            out.append(UInt8(ascii: "]"))
        case .object(let members) where !members.isEmpty:
            out.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                newline(depth + 1)
                writeString(key, into: &out)
                out.append(contentsOf: " : ".utf8)
                writePretty(members[key]!, depth: depth + 1, into: &out)
            }
            newline(depth)
            out.append(UInt8(ascii: "}"))
        default:
            write(value, into: &out)
        }
    }

    private static func write(_ value: SDLJSON, into out: inout [UInt8]) {
        switch value {
        case .null:
            out.append(contentsOf: "null".utf8)
        case .bool(let flag):
            out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .int(let number):
            out.append(contentsOf: String(number).utf8)
        case .double(let number):
            if !number.isFinite {
                out.append(contentsOf: "null".utf8)
            } else if number.rounded(.towardZero) == number, abs(number) < 1e15 {
                // Integral doubles print without an exponent and keep a fraction to stay doubles.
                out.append(contentsOf: String(Int64(number)).utf8)
                out.append(contentsOf: ".0".utf8)
            } else {
                out.append(contentsOf: "\(number)".utf8)
            }
        case .string(let text):
            writeString(text, into: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(element, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                write(members[key]!, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func writeString(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x00..<0x20:
                out.append(contentsOf: Array("\\u00".utf8))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            default:
                out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
