/// The JUnit XML of a run, as CI systems read it (the Ant/Surefire schema's common part): one
/// `<testsuite name="sdl-gateway check">` with a `<testcase>` per case, `classname` its area
/// (`show` of `show.template`), `<failure type="CODE" message="…">` with the difference, or
/// `<skipped message="…"/>`. Each case's round trips are in its `<system-out>`; its warnings
/// (a passing case may have some) are `<property name="warning" value="…"/>` in its
/// `<properties>` and `warning: …` lines first in its `<system-out>`.
public enum ConformanceJUnitReport {
    public static func render(_ report: ConformanceReport) -> String {
        let e = ConformanceMarkup.escape
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml +=
            "<testsuites name=\"sdl-gateway check\" tests=\"\(report.results.count)\" failures=\"\(report.count(.fail))\" "
            + "skipped=\"\(report.count(.skip))\" time=\"\(ConformanceMarkup.seconds(report.duration))\">\n"
        xml +=
            "  <testsuite name=\"sdl-gateway check\" tests=\"\(report.results.count)\" failures=\"\(report.count(.fail))\" errors=\"0\" "
            + "skipped=\"\(report.count(.skip))\" time=\"\(ConformanceMarkup.seconds(report.duration))\">\n"
        xml += "    <properties>\n"
        xml += "      <property name=\"headUnit\" value=\"\(e(report.headUnit))\"/>\n"
        xml += "      <property name=\"driver\" value=\"\(e(report.driver ?? "none"))\"/>\n"
        xml += "    </properties>\n"
        for result in report.results {
            let area = result.id.split(separator: ".").first.map(String.init) ?? result.id
            xml +=
                "    <testcase name=\"\(e(result.id))\" classname=\"check.\(e(area))\" time=\"\(ConformanceMarkup.seconds(result.duration))\">\n"
            if !result.warnings.isEmpty {
                xml += "      <properties>\n"
                for warning in result.warnings {
                    xml += "        <property name=\"warning\" value=\"\(e(warning))\"/>\n"
                }
                xml += "      </properties>\n"
            }
            switch result.outcome {
            case .pass:
                break
            case .fail:
                xml +=
                    "      <failure type=\"\(e(result.failureCode ?? "error"))\" message=\"\(e(result.message ?? ""))\">\(e(result.title))</failure>\n"
            case .skip:
                xml += "      <skipped message=\"\(e(result.reason ?? ""))\"/>\n"
            }
            if !result.roundTrips.isEmpty || !result.warnings.isEmpty {
                let lines =
                    result.warnings.map { "warning: \($0)" }
                    + result.roundTrips.map { "\($0.function) \(ConformanceTextReport.milliseconds($0.duration))" }
                xml += "      <system-out>\(e(lines.joined(separator: "\n")))</system-out>\n"
            }
            xml += "    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }
}
