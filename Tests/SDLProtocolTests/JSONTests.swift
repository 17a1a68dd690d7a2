import NIOCore
import SDLProtocol
import Testing

@Suite("JSON")
struct JSONTests {
    @Test("Parses every kind of value, including Core's pretty-printed layout")
    func parsesValues() throws {
        let text =
            "{\n\t\"success\" : true,\n\t\"resultCode\" : \"SUCCESS\",\n\t\"n\" : -12,\n\t\"f\" : 1.5e2,\n\t\"a\" : [ null, false, \"\\u00e9\\n\\ud83d\\ude97\" ],\n\t\"o\" : {}\n}\n"
        let value = try SDLJSON.parse(text)
        #expect(value == ["success": true, "resultCode": "SUCCESS", "n": -12, "f": 150.0, "a": [nil, false, "é\n🚗"], "o": [:]])
    }

    @Test("Integers stay exact; others become doubles")
    func numbers() throws {
        #expect(try SDLJSON.parse("9223372036854775807") == .int(Int64.max))
        #expect(try SDLJSON.parse("9223372036854775808") == .double(9223372036854775808))
        #expect(try SDLJSON.parse("0.5") == .double(0.5))
        #expect(try SDLJSON.parse("-0") == .int(0))
    }

    @Test(
        "Rejects what is not JSON, with the offset",
        arguments: [
            ("", 0), ("{", 1), ("[1,]", 3), ("{\"a\" 1}", 5), ("01", 1), ("1.", 2), ("\"abc", 4), ("tru", 0),
            ("\"\\x\"", 2), ("\"\u{01}\"", 1), ("{} x", 3), ("1e999", 0), ("\"\\ud800\"", 7), ("-", 1),
        ]
    )
    func rejects(text: String, offset: Int) {
        #expect {
            try SDLJSON.parse(text)
        } throws: { error in
            let error = error as! SDLProtocolError
            return error.code == .invalidJSON && error.offset == offset
        }
    }

    @Test("A parse error says what was expected and what came, at a line and column (it said invalidJSON at byte 14)")
    func errorMessages() {
        func detail(_ text: String) -> String {
            do {
                _ = try SDLJSON.parse(text)
                return "parsed"
            } catch {
                return error.jsonBodyDetail(in: Array(text.utf8))
            }
        }
        #expect(detail(#"{"mainField1" "x"}"#) == #"the body is not valid JSON at line 1, column 15: expected ':' after the key, got '"'"#)
        #expect(
            detail("{\n  \"a\": 1\n  \"b\": 2\n}")
                == #"the body is not valid JSON at line 3, column 3: expected ',' or '}' after a member of an object, got '"'"#)
        #expect(
            detail("[1, 2")
                == "the body is not valid JSON at line 1, column 6: expected ',' or ']' after an element of an array, got the end of the JSON"
        )
        #expect(detail("{'a': 1}") == #"the body is not valid JSON at line 1, column 2: expected a string key in "…", got '''"#)
        #expect(detail("nul") == "the body is not valid JSON at line 1, column 1: expected null, got the end of the JSON")
        #expect(detail("{\"a\": yes}").hasSuffix("expected a value (an object, array, string, number, true, false or null), got 'y'"))
    }

    @Test("Rejects invalid UTF-8 in strings")
    func rejectsInvalidUTF8() {
        #expect(throws: SDLProtocolError.self) { try SDLJSON.parse([0x22, 0xC3, 0x28, 0x22]) }
    }

    @Test("Bounds nesting")
    func boundsNesting() throws {
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect {
            try SDLJSON.parse(deep)
        } throws: { ($0 as! SDLProtocolError).code == .jsonNestingTooDeep }
        let fine = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        _ = try SDLJSON.parse(fine)
    }

    @Test("Serializes compactly with sorted keys and escapes")
    func serializes() {
        let value: SDLJSON = ["b": [1, 2.5, nil], "a": "q\"\\\n\u{01}", "c": true, "d": 3.0]
        #expect(value.serialized() == #"{"a":"q\"\\\n\u0001","b":[1,2.5,null],"c":true,"d":3.0}"#)
    }

    @Test("Round-trips generated values")
    func roundTrips() throws {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<500 {
            let value = Self.generate(depth: 0, using: &rng)
            let bytes = value.serializedBytes()
            #expect(try SDLJSON.parse(bytes) == value)
        }
    }

    static func generate(depth: Int, using rng: inout SplitMix64) -> SDLJSON {
        let pick = depth > 3 ? Int.random(in: 0..<5, using: &rng) : Int.random(in: 0..<7, using: &rng)
        switch pick {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2: return .int(Int64.random(in: .min ... .max, using: &rng))
        case 3: return .double(Double.random(in: -1e6...1e6, using: &rng))
        case 4:
            let scalars = (0..<Int.random(in: 0..<8, using: &rng)).map { _ in
                Character(Unicode.Scalar([0x41, 0x0A, 0x22, 0x5C, 0xE9, 0x1F697, 0x01][Int.random(in: 0..<7, using: &rng)])!)
            }
            return .string(String(scalars))
        case 5: return .array((0..<Int.random(in: 0..<4, using: &rng)).map { _ in generate(depth: depth + 1, using: &rng) })
        default:
            var members: [String: SDLJSON] = [:]
            for index in 0..<Int.random(in: 0..<4, using: &rng) { members["k\(index)é"] = generate(depth: depth + 1, using: &rng) }
            return .object(members)
        }
    }
}
