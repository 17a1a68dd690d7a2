import Foundation
import HeadUnitModel
import SDLProtocol
import Testing

@Suite struct VehicleOpenXCTraceTests {
    @Test func parsesSortsAndMakesOffsetsRelative() throws {
        let trace = try VehicleFixture.trace(
            #"{"name":"engine_speed","value":800,"timestamp":1000.5}"#,
            "",
            "   ",
            #"{"name":"vehicle_speed","value":0,"timestamp":1000.25}"#,
            #"{"name":"button_event","value":"up","event":"pressed","timestamp":1002.0}"#,
            #"{"name":"odometer","value":12.5,"timestamp":1000.5}"#
        )
        #expect(trace.records.map(\.name) == ["vehicle_speed", "engine_speed", "odometer", "button_event"])
        #expect(trace.records.map(\.offset) == [.zero, .milliseconds(250), .milliseconds(250), .milliseconds(1750)])
        #expect(trace.records.map(\.line) == [4, 1, 6, 5])
        #expect(trace.records[3].event == "pressed")
        #expect(trace.duration == .milliseconds(1750))
    }

    @Test func acceptsCRLFAndNoFinalNewline() throws {
        let trace = try OpenXCTrace(text: "{\"name\":\"a\",\"value\":1,\"timestamp\":1}\r\n{\"name\":\"b\",\"value\":true,\"timestamp\":2}")
        #expect(trace.records.map(\.name) == ["a", "b"])
    }

    @Test func untimedRecordsTakeThePreviousTimestamp() throws {
        let trace = try VehicleFixture.trace(
            #"{"name": "button_event", "value": "up", "event": "pressed"}"#,
            #"{"name":"vehicle_speed","value":3,"timestamp":10}"#,
            #"{"name": "button_event", "value": "up", "event": "released"}"#,
            #"{"name":"vehicle_speed","value":4,"timestamp":11}"#
        )
        #expect(trace.records.map(\.offset) == [.zero, .zero, .zero, .seconds(1)])
        #expect(trace.records.map(\.line) == [1, 2, 3, 4])
    }

    @Test(arguments: [
        ("{\"name\":\"a\",\"value\":1,\"timestamp\":1}\nnot json\n", 2),
        ("\n\n[1,2]\n", 3),
        ("{\"value\":1,\"timestamp\":1}", 1),
        ("{\"name\":\"a\",\"value\":1,\"timestamp\":1}\n{\"name\":\"a\",\"timestamp\":1}", 2),
        ("{\"name\":\"a\",\"value\":1,\"timestamp\":\"soon\"}", 1),
        ("{\"name\":\"a\",\"value\":1,\"timestamp\":1} trailing", 1),
        ("{\"name\":7,\"value\":1}", 1),
    ])
    func malformedLinesNameTheirLine(text: String, line: Int) {
        do {
            _ = try OpenXCTrace(text: text)
            Issue.record("parsed \(text)")
        } catch {
            #expect(error.kind == .malformedLine)
            #expect(error.line == line)
            #expect(error.description.hasPrefix("line \(line): "))
        }
    }

    @Test func boundsLineLengthAndRecordCount() {
        let long = "{\"name\":\"a\",\"value\":\"" + String(repeating: "x", count: 5000) + "\"}"
        #expect(throws: OpenXCTraceError(kind: .lineTooLong, line: 2, message: "longer than 4096 bytes")) {
            try OpenXCTrace(text: "{\"name\":\"a\",\"value\":1}\n" + long + "\n")
        }
        let three = "{\"name\":\"a\",\"value\":1}\n{\"name\":\"a\",\"value\":2}\n\n{\"name\":\"a\",\"value\":3}\n"
        #expect(throws: OpenXCTraceError(kind: .tooManyRecords, line: 4, message: "more than 2 records")) {
            try OpenXCTrace(text: three, maximumRecords: 2)
        }
        #expect((try? OpenXCTrace(text: three, maximumRecords: 3))?.records.count == 3)
    }

    @Test func missingFileIsUnreadable() {
        do {
            _ = try OpenXCTrace(contentsOfFile: VehicleFixture.packageRoot.appendingPathComponent("Traces/no-such-trace.json").path)
            Issue.record("read a missing file")
        } catch {
            #expect(error.kind == .unreadable)
            #expect(error.line == 0)
        }
    }

    @Test func emptyTraceHasNoRecords() throws {
        let trace = try OpenXCTrace(text: "\n\n")
        #expect(trace.records.isEmpty)
        #expect(trace.duration == .zero)
        var replayer = TraceReplayer(trace: trace, loops: true)
        #expect(replayer.advance(to: .seconds(10)).isEmpty)
    }
}
