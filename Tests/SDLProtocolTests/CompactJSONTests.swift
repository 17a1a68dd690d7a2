import Testing

import SDLProtocol

@Suite("SDLCompactJSON: a value kept as its compact text")
struct CompactJSONTests {
    @Test("It holds the serializer's bytes and parses back to the value")
    func roundTrip() {
        let value: SDLJSON = ["b": [1, 2.5, "x"], "a": ["nested": .null, "flag": true]]
        let compact = SDLCompactJSON(value)
        #expect(compact.bytes == Array(#"{"a":{"flag":true,"nested":null},"b":[1,2.5,"x"]}"#.utf8))
        #expect(compact.value == value)
        #expect(SDLCompactJSON(.object([:])).value == .object([:]))
    }
}
