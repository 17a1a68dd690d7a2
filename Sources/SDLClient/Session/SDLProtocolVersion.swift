/// A protocol version "Major.Minor.Patch", as carried by the BSON `protocolVersion` of
/// StartService and StartServiceACK (docs/protocol.md §b; protocol spec §3.1.3).
/// Missing parts read as 0, so "5" and "5.0" are "5.0.0".
struct SDLProtocolVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    var major: Int
    var minor: Int
    var patch: Int

    init(_ major: Int, _ minor: Int = 0, _ patch: Int = 0) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// Parses "5.4.0"; `nil` unless it is one to three dot-separated non-negative integers.
    init?(_ string: String) {
        let parts = string.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var numbers: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.utf8.count <= 9, part.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                let number = Int(part)
            else { return nil }
            numbers.append(number)
        }
        while numbers.count < 3 { numbers.append(0) }
        self.init(numbers[0], numbers[1], numbers[2])
    }

    var description: String { "\(major).\(minor).\(patch)" }

    static func < (lhs: SDLProtocolVersion, rhs: SDLProtocolVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
    }
}
