import FuzzSupport
import SDLProtocol

let jsonCodes: Set<SDLProtocolError.Code> = [.invalidJSON, .jsonNestingTooDeep]

/// Any bytes: parse, and check that the compact and pretty forms parse back to the same value.
func fuzzJSON(_ input: UnsafeBufferPointer<UInt8>) {
    let value: SDLJSON
    do {
        value = try SDLJSON.parse(input)
    } catch {
        check(jsonCodes.contains(error.code), "JSON parse failed with \(error)")
        check(error.offset.map { $0 >= 0 && $0 <= input.count } ?? true, "error offset outside the input: \(error)")
        return
    }
    checkJSONRoundTrip(value)
}

func checkJSONRoundTrip(_ value: SDLJSON) {
    let compact = value.serializedBytes()
    guard let reparsed = try? SDLJSON.parse(compact) else {
        fatalError("compact JSON does not parse: \(String(decoding: compact, as: UTF8.self))")
    }
    check(reparsed == value, "compact JSON does not round-trip: \(String(decoding: compact, as: UTF8.self))")
    check(reparsed.serializedBytes() == compact, "serializing is not stable")
    let pretty = value.prettySerializedBytes()
    check((try? SDLJSON.parse(pretty)) == value, "pretty JSON does not round-trip: \(String(decoding: pretty, as: UTF8.self))")
    check(SDLCompactJSON(value).value == value, "SDLCompactJSON does not keep the value")
}
