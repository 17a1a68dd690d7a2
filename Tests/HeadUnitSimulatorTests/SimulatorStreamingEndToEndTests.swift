import HeadUnitModel
import NIOCore
import SDLProtocol
import Testing

@testable import HeadUnitSimulator

/// Projection over a real TCP connection: a navigation app starts the video service, streams,
/// and gets the driver's touches back.
@Suite("Simulator streaming: end to end over TCP", .timeLimit(.minutes(1)))
struct SimulatorStreamingEndToEndTests {
    @Test("A NAVIGATION app in FULL starts video, its bytes arrive intact and in order, a touch comes back as OnTouchEvent")
    func streamAndTouch() async throws {
        try await SimulatorEndToEndTests.withSimulator { simulator, port in
            let client = try await RawSDLClient(port: port)
            try await client.withSession { session in
                _ = try await session.start()
                var registration = SimulatorEndToEndTests.registration.objectValue ?? [:]
                registration["appHMIType"] = ["NAVIGATION"]
                #expect(try await session.call("RegisterAppInterface", .object(registration)).parameters["resultCode"] == "SUCCESS")
                _ = try await session.waitFor("OnHMIStatus") { $0.parameters["videoStreamingState"] == "STREAMABLE" }

                let start = SDLControlMessage.startService(.init(height: 300, width: 800, videoProtocol: "RAW", videoCodec: "H264"))
                try await session.write([start.makeFrame(version: 5, serviceType: .video, sessionID: session.sessionID, messageID: 900)])
                var ack: SDLControlMessage.StartServiceACK?
                while ack == nil {
                    if case .control(let header, .startServiceACK(let answer)) = try await session.next(), header.serviceType == .video {
                        ack = answer
                    }
                }
                #expect(ack?.videoCodec == "H264" && ack?.width == 800)

                var sent = ByteBuffer()
                var frames: [SDLFrame] = []
                for index in 0..<64 {
                    let payload = ByteBuffer(bytes: (0..<(1000 + index)).map { UInt8(truncatingIfNeeded: $0 &+ index) })
                    sent.writeImmutableBuffer(payload)
                    frames.append(
                        SDLFrame(
                            header: .init(
                                version: 5, frameType: .single, serviceType: .video, sessionID: session.sessionID, dataSize: 0,
                                messageID: UInt32(1000 + index)),
                            payload: payload))
                }
                try await session.write(frames)
                // Frames of one connection are handled in order: once ListFiles is answered, the data is in.
                _ = try await session.call("ListFiles")
                let record = try #require(simulator.snapshot.app(withID: "e2e-app")?.streams[.video])
                #expect(record.frames == 64)
                #expect(record.bytes == sent.readableBytes)
                #expect(record.tail.bytes() == sent)

                let touched = try simulator.perform { unit, now in
                    try unit.touch(appID: "e2e-app", [TouchInput(type: "BEGIN", x: 400, y: 240, id: 2)], now: now)
                }
                #expect(touched == 1)
                let touch = try await session.waitFor("OnTouchEvent")
                #expect(touch.parameters["type"] == "BEGIN")
                #expect(touch.parameters["event"]?.arrayValue?.first?["c"] == [["x": 400, "y": 240]])
                #expect(touch.parameters["event"]?.arrayValue?.first?["id"] == 2)
            }
        }
    }
}
