import NIOCore
import Testing

import SDLProtocol

/// ``SDLJSONInterning``: large values equal byte for byte are kept once; the table is bounded.
@Suite("SDLJSONInterning: one copy of the large values every app receives")
struct JSONInterningTests {
    /// A JSON object of about `size` bytes whose text depends on `tag`.
    static func text(_ tag: Int, size: Int = 4096) -> [UInt8] {
        let filler = String(repeating: "x", count: max(0, size - 40))
        return Array(#"{"tag":\#(tag),"filler":"\#(filler)"}"#.utf8)
    }

    @Test("Equal large texts parse once and give the same value; small ones are not kept")
    func parsedOnce() throws {
        let interning = SDLJSONInterning(minimumBytes: 1024)
        let first = try interning.parsed(ByteBuffer(bytes: Self.text(1)))
        let second = try interning.parsed(ByteBuffer(bytes: Self.text(1)))
        #expect(first == second)
        #expect(first["tag"] == 1)
        #expect(interning.hits == 1)
        let other = try interning.parsed(ByteBuffer(bytes: Self.text(2)))
        #expect(other["tag"] == 2)
        #expect(interning.hits == 1)
        _ = try interning.parsed(ByteBuffer(bytes: Array(#"{"small":true}"#.utf8)))
        _ = try interning.parsed(ByteBuffer(bytes: Array(#"{"small":true}"#.utf8)))
        #expect(interning.hits == 1)
        #expect(interning.kept.entries == 2)
    }

    @Test("A text that does not parse fails as the parser fails, and is not kept")
    func invalidText() {
        let interning = SDLJSONInterning(minimumBytes: 16)
        let broken = ByteBuffer(bytes: Array(#"{"a": [1, 2, 3, 4, 5, 6, 7"#.utf8))
        #expect(throws: SDLProtocolError.self) { try interning.parsed(broken) }
        #expect(interning.kept.entries == 0)
    }

    @Test("Equal large byte arrays share one storage")
    func sharedStorage() {
        let interning = SDLJSONInterning(minimumBytes: 1024)
        let first = interning.interned(Self.text(7))
        let second = interning.interned(Self.text(7))
        #expect(first == second)
        let same = first.withUnsafeBufferPointer { a in second.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
        #expect(same)
        let small = Array("{}".utf8)
        #expect(interning.interned(small) == small)
        #expect(interning.kept.entries == 1)
    }

    @Test("Bounded: the least recently used go first, by count and by bytes; a value larger than the bound is not kept")
    func bounded() throws {
        let interning = SDLJSONInterning(minimumBytes: 1024, maximumEntries: 3, maximumBytes: 4 * 4096)
        for tag in 0..<3 { _ = interning.interned(Self.text(tag)) }
        _ = interning.interned(Self.text(0))  // 0 used again: 1 is now the oldest
        _ = interning.interned(Self.text(3))
        #expect(interning.kept.entries == 3)
        let hitsBefore = interning.hits
        _ = interning.interned(Self.text(0))
        #expect(interning.hits == hitsBefore + 1)
        _ = interning.interned(Self.text(1))  // let go: not a hit
        #expect(interning.hits == hitsBefore + 1)
        _ = interning.interned(Self.text(9, size: 5 * 4096))
        #expect(interning.kept.entries == 3)
        #expect(interning.kept.bytes <= 4 * 4096)
        for tag in 10..<100 { _ = try interning.parsed(ByteBuffer(bytes: Self.text(tag, size: 3000))) }
        #expect(interning.kept.entries == 3)
        #expect(interning.kept.bytes <= 4 * 4096)
    }

    @Test("RPC messages decode large parameters through the shared table")
    func rpcDecoding() throws {
        // Text no other test sends, so that only this decoding can have kept it.
        let parameters: SDLJSON = ["capabilities": .string("\(UInt64.random(in: 0 ... .max))" + String(repeating: "c", count: 8192))]
        var buffer = ByteBuffer()
        buffer.writeSDLRPCMessage(SDLRPCMessage(rpcType: .response, functionID: 1, correlationID: 1, parameters: parameters))
        let text = parameters.serializedBytes()
        #expect(!SDLJSONInterning.shared.keeps(text))
        let hitsBefore = SDLJSONInterning.shared.hits
        var first = buffer
        var second = buffer
        #expect(try first.readSDLRPCMessage().parameters == parameters)
        #expect(SDLJSONInterning.shared.keeps(text))
        #expect(try second.readSDLRPCMessage().parameters == parameters)
        #expect(SDLJSONInterning.shared.hits > hitsBefore)
    }
}
