/// Escaping for the XML and HTML reports: every text a head unit, a case or a path put in a
/// report goes through it.
enum ConformanceMarkup {
    /// `&`, `<`, `>`, `"` and `'` as entities; control characters XML 1.0 cannot hold (all
    /// below U+0020 but tab, newline and carriage return) as U+FFFD.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            case "\t", "\n", "\r": escaped.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value): escaped += "\u{FFFD}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// Seconds with three decimals, as JUnit's `time` attributes hold them.
    static func seconds(_ duration: Duration) -> String {
        let milliseconds = Int(duration.milliseconds.rounded())
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
