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

    @Test("Two objects that differ beside one large member keep that member's text once")
    func largeMemberShared() {
        let interning = SDLJSONInterning(minimumBytes: 64)
        let large: SDLJSON = .object(Dictionary(uniqueKeysWithValues: (0..<10).map { ("field\($0)", SDLJSON.string("value \($0)")) }))
        let first: SDLJSON = ["latencyMs": 1.5, "params": large, "type": "response"]
        let second: SDLJSON = ["latencyMs": 2.25, "params": large, "type": "response"]
        let (a, b) = (SDLCompactJSON(first, interning: interning), SDLCompactJSON(second, interning: interning))
        #expect(a.bytes == first.serializedBytes())
        #expect(a.byteCount == a.bytes.count)
        #expect(b.value == second)
        #expect(a != b)
        // The second found the member's text kept by the first; each whole text is kept too.
        #expect(interning.keeps(large.serializedBytes()))
        #expect(interning.hits == 1)
        #expect(interning.kept.entries == 3)
        // A small object is not interned.
        let small = SDLCompactJSON(["a": 1], interning: interning)
        #expect(small.bytes == Array(#"{"a":1}"#.utf8))
        #expect(interning.kept.entries == 3)
        // An equal text again shares the whole.
        #expect(SDLCompactJSON(first, interning: interning) == a)
        #expect(interning.hits == 2)
    }
}
