/// Percent-encoding of UTF-8 text (RFC 3986 §2.1): every byte outside a kept set becomes `%XX`.
public enum PercentEncoding {
    /// RFC 3986 §2.3 `unreserved`: what a path segment (a `Location` to a named file) keeps.
    public static let unreserved = Set("-._~".utf8)
    /// RFC 8187 §3.2.1 `attr-char` beyond letters and digits: what a `filename*` keeps.
    public static let attributeCharacters = Set("!#$&+-.^_`|~".utf8)

    /// `text` with ASCII letters, digits and the bytes of `kept` as they are, every other byte of
    /// its UTF-8 as `%XX` (upper-case hex), so the result is ASCII and fits a header.
    public static func encode(_ text: String, keeping kept: Set<UInt8> = unreserved) -> String {
        var encoded = ""
        for byte in text.utf8 {
            let isAlphanumeric = (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
            if isAlphanumeric || kept.contains(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return encoded
    }
}
