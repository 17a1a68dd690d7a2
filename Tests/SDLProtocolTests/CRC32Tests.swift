import NIOCore
import SDLProtocol
import Testing

/// ``SDLCRC32``, PutFile's `crc` (docs/protocol.md §c), against the published CRC-32/ISO-HDLC
/// check values (the CRC-32 of zlib, PNG and IEEE 802.3).
@Suite("CRC-32")
struct CRC32Tests {
    @Test(
        "Known vectors",
        arguments: [
            ("123456789", UInt32(0xCBF4_3926)),
            ("", 0),
            ("a", 0xE8B7_BE43),
            ("abc", 0x3524_41C2),
            ("The quick brown fox jumps over the lazy dog", 0x414F_A339),
        ]
    )
    func vectors(text: String, expected: UInt32) {
        #expect(SDLCRC32.checksum(text) == expected)
        #expect(SDLCRC32.checksum(Array(text.utf8)) == expected)
        #expect(SDLCRC32.checksum(ByteBuffer(string: text)) == expected)
    }

    @Test("Binary vectors: 32 zero bytes and 32 0xFF bytes")
    func binaryVectors() {
        #expect(SDLCRC32.checksum([UInt8](repeating: 0, count: 32)) == 0x190A_55AD)
        #expect(SDLCRC32.checksum([UInt8](repeating: 0xFF, count: 32)) == 0xFF6C_AB0B)
    }

    @Test("Fed in pieces equals the one-shot checksum; a buffer's reader index is not moved")
    func incremental() {
        let whole = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        var crc = SDLCRC32()
        var buffer = ByteBuffer(bytes: whole[..<4096])
        buffer.moveReaderIndex(forwardBy: 96)
        crc.update(whole[..<96])
        crc.update(buffer)
        crc.update(whole[4096...])
        #expect(crc.value == SDLCRC32.checksum(whole))
        #expect(buffer.readerIndex == 96)
        #expect(SDLCRC32().value == 0)
    }

    @Test("Only the readable bytes of a buffer count")
    func readableBytesOnly() {
        var buffer = ByteBuffer(string: "xx123456789")
        buffer.moveReaderIndex(forwardBy: 2)
        #expect(SDLCRC32.checksum(buffer) == 0xCBF4_3926)
    }
}
