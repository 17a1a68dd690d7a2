import NIOCore
import SDLProtocol
import Testing

/// Inputs the libFuzzer target (FuzzTesting/) stopped on, kept so they stay fixed.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    @Test("A BSON double that is a NaN round-trips byte for byte")
    func nanDouble() throws {
        // crash-01c2a44b: document {"\u{07}": NaN with payload 0xffff746f72700100}, then junk.
        var input = ByteBuffer(hex: "10 00 00 00 01 07 00 00 01 70 72 6f 74 ff ff 00 00 00 01 ff ff 34 00 00")
        let original = input.getSlice(at: 0, length: 16)!
        let document = try input.readBSONDocument()
        #expect(input.readableBytes == 8)
        #expect(document["\u{07}"]?.doubleValue?.isNaN == true)
        var encoded = ByteBuffer()
        encoded.writeBSONDocument(document)
        #expect(encoded == original)
    }
}
