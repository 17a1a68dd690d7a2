/// The terminal's table of a run: one row per case (id, result, time, its slowest request's round
/// trip, the reason and difference), then the totals.
///
/// ```
/// case           result  time    slowest round trip          what differed
/// register.app   pass    50 ms   RegisterAppInterface 36 ms
/// show.template  FAIL    3.1 ms  Show 2.8 ms                 Show answered REJECTED: expected resultCode SUCCESS, got REJECTED
/// ```
///
/// A case's warnings follow in its last column (`warning: …`); it passes with them.
public enum ConformanceTextReport {
    public static func render(_ report: ConformanceReport) -> String {
        let header = ["case", "result", "time", "slowest round trip", "what differed"]
        var rows = [header]
        for result in report.results {
            rows.append([
                result.id, label(result.outcome), milliseconds(result.duration), roundTrips(result.roundTrips), detail(result),
            ])
        }
        let widths = (0..<header.count - 1).map { column in rows.map { $0[column].count }.max() ?? 0 }
        var lines = rows.map { row in
            var line = ""
            for (column, cell) in row.enumerated() {
                if column < widths.count {
                    line += cell.padding(to: widths[column]) + "  "
                } else {
                    line += cell
                }
            }
            return String(line.reversed().drop(while: { $0 == " " }).reversed())
        }
        lines.append("")
        lines.append(summary(report))
        return lines.joined(separator: "\n") + "\n"
    }

    /// `24 passed, 1 failed, 2 skipped in 8.3 s against tcp://… (driver: …)`, with `, 1 with
    /// warnings` after the skipped when a case warned.
    public static func summary(_ report: ConformanceReport) -> String {
        "\(report.count(.pass)) passed, \(report.count(.fail)) failed, \(report.count(.skip)) skipped"
            + (report.warned > 0 ? ", \(report.warned) with warnings" : "") + " in \(seconds(report.duration)) s"
            + " against \(report.headUnit)" + (report.driver.map { " (driver: \($0))" } ?? " (no driver)")
    }

    static func label(_ outcome: ConformanceResult.Outcome) -> String {
        switch outcome {
        case .pass: "pass"
        case .fail: "FAIL"
        case .skip: "skip"
        }
    }

    /// The reason, with the difference when there is one, then each warning (`warning: …`).
    static func detail(_ result: ConformanceResult) -> String {
        var parts = result.message.map { [$0] } ?? []
        parts += result.warnings.map { "warning: \($0)" }
        // One line per case: the table stays a table.
        return parts.joined(separator: "; ").split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// The slowest round trip and how many there were (`Alert 1204 ms of 3`), or empty.
    static func roundTrips(_ trips: [ConformanceRoundTrip]) -> String {
        guard let slowest = trips.max(by: { $0.duration < $1.duration }) else { return "" }
        return "\(slowest.function) \(milliseconds(slowest.duration))" + (trips.count > 1 ? " of \(trips.count)" : "")
    }

    static func milliseconds(_ duration: Duration) -> String {
        let value = duration.milliseconds
        return value < 10 ? "\((value * 10).rounded() / 10) ms" : "\(Int(value.rounded())) ms"
    }

    /// `1.5`, `12`: seconds with at most one decimal.
    static func seconds(_ duration: Duration) -> String {
        let tenths = (duration.milliseconds / 100).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? "\(Int(tenths / 10))" : "\(tenths / 10)"
    }
}

extension String {
    fileprivate func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
