import NIOCore
import SDLProtocol
import SDLSpec
import Testing

@testable import SDLGatewayCommand

/// `inspect` on capture files: each direction is its own byte stream, a frame may span reads and
/// interleave with the other direction's, a new connection starts both afresh.
@Suite("inspect of capture files")
struct CaptureInspectorTests {
    static func rpc(_ type: SDLRPCType, _ functionID: UInt32, correlationID: UInt32, messageID: UInt32, _ parameters: SDLJSON) -> ByteBuffer
    {
        var payload = ByteBuffer()
        payload.writeSDLRPCMessage(
            SDLRPCMessage(rpcType: type, functionID: functionID, correlationID: correlationID, parameters: parameters))
        var frame = ByteBuffer()
        frame.writeSDLFrame(
            SDLFrame(
                header: .init(version: 5, frameType: .single, serviceType: .rpc, sessionID: 1, dataSize: 0, messageID: messageID),
                payload: payload))
        return frame
    }

    static func lines(_ records: [SDLCaptureRecord], start: Int64 = 1_795_475_792_494_428) throws -> (lines: [SDLJSON], errors: Int) {
        var file = ByteBuffer()
        file.writeSDLCaptureHeader(SDLCaptureHeader(app: "demo", sdlAppID: "demo-app", headUnit: "tcp://h:1", startMicroseconds: start))
        for record in records { file.writeSDLCaptureRecord(record) }
        var inspector = CaptureInspector(catalog: .builtIn)
        var lines: [SDLJSON] = []
        try inspector.feed(file) { lines.append($0) }
        try inspector.finish { lines.append($0) }
        return (lines, inspector.sdlErrors)
    }

    @Test("Frames split across reads and interleaved with the other direction are reassembled per direction")
    func splitAndInterleaved() throws {
        let show = Self.rpc(.request, 13, correlationID: 2, messageID: 2, ["mainField1": "Hi"])
        let response = Self.rpc(.response, 13, correlationID: 2, messageID: 6, ["resultCode": "SUCCESS", "success": true])
        let (lines, errors) = try Self.lines([
            SDLCaptureRecord(kind: .opened, offsetMicroseconds: 0, text: "tcp://h:1"),
            SDLCaptureRecord(kind: .appToHeadUnit, offsetMicroseconds: 1000, payload: show.getSlice(at: 0, length: 5)!),
            SDLCaptureRecord(kind: .headUnitToApp, offsetMicroseconds: 1500, payload: response.getSlice(at: 0, length: 13)!),
            SDLCaptureRecord(
                kind: .appToHeadUnit, offsetMicroseconds: 2000, payload: show.getSlice(at: 5, length: show.readableBytes - 5)!),
            SDLCaptureRecord(
                kind: .headUnitToApp, offsetMicroseconds: 2_506_000,
                payload: response.getSlice(at: 13, length: response.readableBytes - 13)!),
            SDLCaptureRecord(kind: .closed, offsetMicroseconds: 3_000_000, text: "the session ended"),
        ])
        #expect(errors == 0)
        #expect(lines.map { $0["record"]?.stringValue } == ["header", "opened", "frame", "frame", "closed"])
        #expect(lines[2]["direction"] == "appToHeadUnit")
        #expect(lines[2]["function"] == "Show")
        #expect(lines[2]["json"]?["mainField1"] == "Hi")
        #expect(lines[2]["offset"]?.doubleValue == 0.002)
        #expect(lines[2]["time"]?.stringValue?.hasSuffix(":32.496Z") == true, "\(lines[2])")
        #expect(lines[3]["direction"] == "headUnitToApp")
        #expect(lines[3]["json"]?["resultCode"] == "SUCCESS")
        #expect(lines[3]["time"]?.stringValue?.hasSuffix(":35.000Z") == true, "\(lines[3])")  // .494428 + 2.506 s
        #expect(lines[0]["start"]?.stringValue?.hasSuffix(".494Z") == true)
    }

    @Test("A connection lost mid-frame is an error line; the reconnection's streams start afresh")
    func reconnection() throws {
        let show = Self.rpc(.request, 13, correlationID: 2, messageID: 2, ["mainField1": "Hi"])
        let (lines, errors) = try Self.lines([
            SDLCaptureRecord(kind: .opened, offsetMicroseconds: 0, text: "tcp://h:1"),
            SDLCaptureRecord(kind: .appToHeadUnit, offsetMicroseconds: 10, payload: show.getSlice(at: 0, length: 20)!),
            SDLCaptureRecord(kind: .lost, offsetMicroseconds: 20, text: "linkLost"),
            SDLCaptureRecord(kind: .opened, offsetMicroseconds: 30, text: "tcp://h:1"),
            SDLCaptureRecord(kind: .appToHeadUnit, offsetMicroseconds: 40, payload: show),
            SDLCaptureRecord(
                kind: .dropped, offsetMicroseconds: 50,
                payload: {
                    var b = ByteBuffer(); b.writeInteger(UInt32(4)); return b
                }()),
            SDLCaptureRecord(kind: .appToHeadUnit, offsetMicroseconds: 60, payload: show.getSlice(at: 3, length: 10)!),
        ])
        #expect(lines.map { $0["record"]?.stringValue } == ["header", "opened", "error", "lost", "opened", "frame", "dropped"])
        #expect(errors == 1)
        #expect(lines[2]["direction"] == "appToHeadUnit")
        #expect(lines[3]["detail"] == "linkLost")
        #expect(lines[5]["function"] == "Show")
        #expect(lines[6]["count"] == 4)
    }
}
