/// The HTML report of a run: one self-contained file (its style inline; no script, no link, no
/// image), with the totals, a row per case and each case's round trips. Every text is escaped.
public enum ConformanceHTMLReport {
    public static func render(_ report: ConformanceReport) -> String {
        let e = ConformanceMarkup.escape
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>sdl-gateway check: \(e(report.headUnit))</title>
            <style>
            body { font: 14px/1.4 system-ui, sans-serif; margin: 2em; color: #222; }
            table { border-collapse: collapse; width: 100%; }
            th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #ddd; vertical-align: top; }
            td.time { text-align: right; white-space: nowrap; }
            .warn { color: #7a4a00; }
            .pass { color: #176f2c; } .fail { color: #b3261e; font-weight: bold; } .skip { color: #7a6a00; }
            code { font: 12px ui-monospace, monospace; }
            details summary { cursor: pointer; }
            </style>
            </head>
            <body>
            <h1>sdl-gateway check</h1>
            <p>\(e(ConformanceTextReport.summary(report)))</p>
            <table>
            <thead><tr><th>case</th><th>what it checks</th><th>result</th><th>time</th><th>what differed</th><th>round trips</th></tr></thead>
            <tbody>

            """
        for result in report.results {
            let outcome = result.outcome.rawValue
            let trips = result.roundTrips.map { "\(e($0.function)) \(e(ConformanceTextReport.milliseconds($0.duration)))" }
            let tripCell =
                trips.isEmpty ? "" : "<details><summary>\(trips.count)</summary><code>\(trips.joined(separator: "<br>"))</code></details>"
            html +=
                "<tr id=\"\(e(result.id))\"><td><code>\(e(result.id))</code></td><td>\(e(result.title))</td>"
                + "<td class=\"\(outcome)\">\(e(ConformanceTextReport.label(result.outcome)))"
                + (result.warnings.isEmpty
                    ? "" : " <span class=\"warn\">(\(result.warnings.count) warning\(result.warnings.count == 1 ? "" : "s"))</span>")
                + "</td>"
                + "<td class=\"time\">\(e(ConformanceTextReport.milliseconds(result.duration)))</td>"
                + "<td>\(e(result.message ?? ""))"
                + result.warnings.map { "<div class=\"warn\">warning: \(e($0))</div>" }.joined()
                + "</td><td>\(tripCell)</td></tr>\n"
        }
        html += "</tbody>\n</table>\n</body>\n</html>\n"
        return html
    }
}
