import NIOCore

/// CRC-32 (IEEE 802.3: reflected polynomial 0xEDB88320, initial value and final XOR 0xFFFFFFFF,
/// the CRC-32 of zlib and PNG), table-driven: the `crc` parameter of PutFile (since RPC 5.0,
/// docs/protocol.md §c "PutFile with bulk data"). An app sends the CRC of the bulk data it uploads;
/// SDL Core checks it and answers `CORRUPTED_DATA` on a mismatch.
///
/// A value fed in pieces, so an upload's chunks can be checked as they stream:
/// `SDLCRC32.checksum("123456789")` is 0xCBF43926, the standard check value.
public struct SDLCRC32: Sendable, Hashable {
    /// The 256 remainders of the reflected polynomial, one per byte value.
    static let table: [UInt32] = (0..<256).map { byte in
        var crc = UInt32(byte)
        for _ in 0..<8 {
            crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1
        }
        return crc
    }

    private var register: UInt32 = 0xFFFF_FFFF

    public init() {}

    /// The checksum of everything fed so far (0 for nothing).
    public var value: UInt32 { register ^ 0xFFFF_FFFF }

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var crc = register
        Self.table.withUnsafeBufferPointer { table in
            for byte in bytes {
                crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
            }
        }
        register = crc
    }

    /// Feeds the readable bytes of `buffer` (its reader index is not moved).
    public mutating func update(_ buffer: ByteBuffer) {
        buffer.withUnsafeReadableBytes { update($0) }
    }

    public mutating func update(_ bytes: some Sequence<UInt8>) {
        let array = Array(bytes)
        array.withUnsafeBytes { update($0) }
    }

    /// The checksum of the readable bytes of `buffer`.
    public static func checksum(_ buffer: ByteBuffer) -> UInt32 {
        var crc = SDLCRC32()
        crc.update(buffer)
        return crc.value
    }

    public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc = SDLCRC32()
        crc.update(bytes)
        return crc.value
    }

    /// The checksum of the UTF-8 bytes of `text`.
    public static func checksum(_ text: String) -> UInt32 {
        checksum(Array(text.utf8))
    }
}
