import NIOCore

/// A small deterministic generator (SplitMix64) so property tests are reproducible.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension ByteBuffer {
    /// A buffer from a hex string; spaces, `|` and newlines are ignored.
    init(hex: String) {
        let digits = hex.filter { $0.isHexDigit }
        precondition(digits.count % 2 == 0, "odd number of hex digits")
        var bytes: [UInt8] = []
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            bytes.append(UInt8(digits[index..<next], radix: 16)!)
            index = next
        }
        self.init(bytes: bytes)
    }

    var hexString: String {
        readableBytesView.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
            .joined(separator: " ")
    }
}

extension Array where Element == UInt8 {
    init(hex: String) {
        self = Array(ByteBuffer(hex: hex).readableBytesView)
    }
}
