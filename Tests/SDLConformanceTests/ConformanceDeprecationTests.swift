import Logging
import SDLConformance
import SDLProtocol
import SDLSpec
import SDLTransport
import Testing

/// What breaks MOBILE_API.xml inside a parameter it marks deprecated is a warning, not a failure;
/// the same in a current parameter fails the case. The responses are checked without a head unit.
@Suite("Conformance: deviations in deprecated parameters")
struct ConformanceDeprecationTests {
    /// A RegisterAppInterface response as SDL Core 8.2.0 sends it in part: `displayCapabilities`
    /// (deprecated since 6.0) without its mandatory `graphicSupported`.
    static func coreResponse(syncMsgVersion: SDLJSON = ["majorVersion": 8, "minorVersion": 0]) -> SDLJSON {
        [
            "success": true, "resultCode": "SUCCESS",
            "syncMsgVersion": syncMsgVersion,
            "displayCapabilities": [
                "displayType": "SDL_GENERIC", "displayName": "GENERIC_DISPLAY",
                "textFields": [["name": "mainField1", "characterSet": "UTF_8", "width": 500, "rows": 1]],
                "mediaClockFormats": ["CLOCK1"], "templatesAvailable": ["MEDIA"], "numCustomPresetsAvailable": 8,
            ],
        ]
    }

    static func run(_ body: @escaping @Sendable (ConformanceContext) async throws -> Void) async throws -> ConformanceResult {
        let runner = ConformanceRunner(
            address: try SDLTransportAddress("tcp://127.0.0.1:1"), driver: nil, logger: Logger(label: "test"))
        let report = await runner.run([ConformanceCase("a.check", "checks a response", run: body)])
        return try #require(report.results.first)
    }

    @Test("A mandatory field absent inside a deprecated struct parameter: the case passes with a warning naming it")
    func deprecatedWarns() async throws {
        let result = try await Self.run { context in
            try context.check(Self.coreResponse(), of: "RegisterAppInterface", messageType: .response)
        }
        #expect(result.outcome == .pass, "\(result)")
        #expect(result.warnings.count == 1, "\(result.warnings)")
        let warning = try #require(result.warnings.first { $0.contains("graphicSupported") }, "\(result.warnings)")
        #expect(warning.contains("$.displayCapabilities.graphicSupported"), "\(warning)")
        #expect(warning.contains("inside $.displayCapabilities, deprecated"), "\(warning)")
        #expect(warning.contains("expected Boolean, got absent"), "\(warning)")
    }

    @Test("A mandatory field absent inside a current struct parameter fails the case as invalidMessage")
    func currentFails() async throws {
        let response = Self.coreResponse(syncMsgVersion: ["majorVersion": 8])
        let result = try await Self.run { context in
            try context.check(response, of: "RegisterAppInterface", messageType: .response)
        }
        #expect(result.outcome == .fail)
        #expect(result.failureCode == "invalidMessage")
        #expect(result.reason == "the RegisterAppInterface response breaks MOBILE_API.xml at $.syncMsgVersion.minorVersion")
        #expect(result.difference?.hasSuffix("got absent") == true, "\(result.difference ?? "")")
        // The deprecated parameter's deviation is still reported beside the failure.
        #expect(result.warnings.count == 1 && result.warnings[0].contains("graphicSupported"), "\(result.warnings)")
    }

    @Test("The reports carry a passing case's warnings: the table's last column, JUnit properties and system-out, the HTML row")
    func reports() {
        let report = ConformanceReport(
            headUnit: "tcp://127.0.0.1:12345", driver: nil,
            results: [
                ConformanceResult(
                    id: "register.app", title: "RegisterAppInterface", outcome: .pass, duration: .milliseconds(5),
                    warnings: ["graphicSupported <absent>"])
            ], duration: .milliseconds(5))
        let table = ConformanceTextReport.render(report)
        #expect(table.contains("pass") && table.contains("warning: graphicSupported <absent>"), "\(table)")
        #expect(table.contains("1 passed, 0 failed, 0 skipped, 1 with warnings in "), "\(table)")
        let junit = ConformanceJUnitReport.render(report)
        #expect(junit.contains(#"<property name="warning" value="graphicSupported &lt;absent&gt;"/>"#), "\(junit)")
        #expect(junit.contains("<system-out>warning: graphicSupported &lt;absent&gt;</system-out>"), "\(junit)")
        #expect(!junit.contains("<failure"))
        let html = ConformanceHTMLReport.render(report)
        #expect(html.contains(#"<div class="warn">warning: graphicSupported &lt;absent&gt;</div>"#), "\(html)")
        #expect(html.contains(#"<td class="pass">pass <span class="warn">(1 warning)</span></td>"#), "\(html)")
    }
}
