import Foundation
import SDLConformance
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The three report writers over one run with a pass, a failure whose texts hold markup, and a skip.
@Suite("Conformance reports")
struct ConformanceReportTests {
    static let hostile = #"<script>alert("x")</script> & 'quotes'"#

    static let report = ConformanceReport(
        headUnit: "tcp://127.0.0.1:12345",
        driver: "control API http://127.0.0.1:12346",
        results: [
            ConformanceResult(
                id: "register.app", title: "RegisterAppInterface", outcome: .pass, duration: .milliseconds(41),
                roundTrips: [ConformanceRoundTrip(function: "RegisterAppInterface", duration: .milliseconds(40))]),
            ConformanceResult(
                id: "show.text", title: "Show: text \(hostile)", outcome: .fail, reason: "Show answered REJECTED \(hostile)",
                failureCode: "unexpected", difference: "expected resultCode SUCCESS, got REJECTED (\"\(hostile)\")",
                duration: .milliseconds(1234),
                roundTrips: [ConformanceRoundTrip(function: "Show", duration: .milliseconds(3))]),
            ConformanceResult(
                id: "choice.perform", title: "PerformInteraction", outcome: .skip, reason: "needs the driver's side \u{1}",
                duration: .zero),
        ],
        duration: .milliseconds(1300)
    )

    /// The elements and attributes of an XML document, as a parser reads them back.
    final class Collector: NSObject, XMLParserDelegate {
        var elements: [(name: String, attributes: [String: String])] = []
        var text: [String: String] = [:]
        private var current: String?

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            elements.append((elementName, attributes))
            current = elementName
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if let current { text[current, default: ""] += string }
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            current = nil
        }
    }

    static func parse(_ xml: String) throws -> Collector {
        let parser = XMLParser(data: Data(xml.utf8))
        let collector = Collector()
        parser.delegate = collector
        try #require(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "") in \(xml)")
        return collector
    }

    @Test("JUnit XML parses back: counts, one testcase per case, the failure's code and difference, the skip's reason")
    func junit() throws {
        let xml = ConformanceJUnitReport.render(Self.report)
        let document = try Self.parse(xml)
        let suite = try #require(document.elements.first { $0.name == "testsuite" })
        #expect(suite.attributes["tests"] == "3")
        #expect(suite.attributes["failures"] == "1")
        #expect(suite.attributes["skipped"] == "1")
        #expect(suite.attributes["time"] == "1.300")
        let cases = document.elements.filter { $0.name == "testcase" }
        #expect(cases.map { $0.attributes["name"] } == ["register.app", "show.text", "choice.perform"])
        #expect(cases.map { $0.attributes["classname"] } == ["check.register", "check.show", "check.choice"])
        #expect(cases[1].attributes["time"] == "1.234")
        let failure = try #require(document.elements.first { $0.name == "failure" })
        #expect(failure.attributes["type"] == "unexpected")
        #expect(
            failure.attributes["message"]
                == "Show answered REJECTED \(Self.hostile): expected resultCode SUCCESS, got REJECTED (\"\(Self.hostile)\")")
        #expect(document.text["failure"] == "Show: text \(Self.hostile)")
        let skipped = try #require(document.elements.first { $0.name == "skipped" })
        // A control character XML cannot hold is replaced, so the file stays well-formed.
        #expect(skipped.attributes["message"] == "needs the driver's side \u{FFFD}")
        #expect(!xml.contains("<script>"))
    }

    @Test("The HTML report is one file with no script, link or image, and escapes every text")
    func html() {
        let html = ConformanceHTMLReport.render(Self.report)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(!html.contains("<script"))
        #expect(!html.contains("<link"))
        #expect(!html.contains("<img"))
        #expect(!html.contains("src="))
        #expect(html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;"))
        #expect(html.contains(#"<tr id="show.text">"#))
        #expect(html.contains(#"<td class="fail">FAIL</td>"#))
        #expect(html.contains("1 passed, 1 failed, 1 skipped"))
    }

    @Test("The table: a row per case with its result, time, slowest round trips and difference; totals last")
    func table() {
        let text = ConformanceTextReport.render(Self.report)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("case "))
        #expect(lines[1].hasPrefix("register.app "))
        #expect(lines[1].contains("pass") && lines[1].contains("41 ms") && lines[1].contains("RegisterAppInterface 40 ms"))
        #expect(lines[2].contains("FAIL") && lines[2].contains("1234 ms") && lines[2].contains("expected resultCode SUCCESS, got REJECTED"))
        #expect(lines[3].contains("skip") && lines[3].contains("needs the driver's side"))
        #expect(
            lines.last
                == "1 passed, 1 failed, 1 skipped in 1.3 s against tcp://127.0.0.1:12345 (driver: control API http://127.0.0.1:12346)")
        #expect(!Self.report.passed)
    }
}
