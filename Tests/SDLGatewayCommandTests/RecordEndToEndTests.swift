import AsyncHTTPClient
import Foundation
import Gateway
import NIOCore
import NIOHTTP1
import SDLProtocol
import SDLSpec
import Testing

@testable import SDLGatewayCommand

/// `sdl-gateway serve --simulate --record DIR` run for real: an app registered, a Show, the app
/// deleted; the capture file it left is decoded the way `inspect` decodes it, and by `inspect`
/// itself.
@Suite("serve --record and inspect end to end", .timeLimit(.minutes(2)))
struct RecordEndToEndTests {
    static func scratchDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sdl-record-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// The lines `inspect` makes of `bytes`, fed in chunks of `chunk` bytes.
    static func inspect(_ bytes: ByteBuffer, chunk: Int = 4096) throws -> [SDLJSON] {
        var inspector = CaptureInspector(catalog: .builtIn)
        var lines: [SDLJSON] = []
        var index = bytes.readerIndex
        while index < bytes.writerIndex {
            let length = min(chunk, bytes.writerIndex - index)
            try inspector.feed(bytes.getSlice(at: index, length: length)!) { lines.append($0) }
            index += length
        }
        try inspector.finish { lines.append($0) }
        #expect(inspector.sdlErrors == 0)
        return lines
    }

    @Test("A recording of a registration and a Show, decoded by inspect: both directions, results, increasing times")
    func registrationAndShow() async throws {
        try ServeEndToEndTests.requireExecutable()
        let scratch = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        // A directory that does not exist yet: serve creates it.
        let captures = scratch.appendingPathComponent("captures/nested")
        let server = try await ServeEndToEndTests.Server.start(["--record", captures.path])
        defer { if server.process.isRunning { server.process.terminate() } }
        let base = server.baseURL
        let created = try await ServeEndToEndTests.send(
            .POST, "\(base)/v1/apps", json: ["id": "demo.1", "appName": "Demo", "appID": "demo-app"])
        #expect(created.status == 201)
        let shown = try await ServeEndToEndTests.send(.POST, "\(base)/v1/apps/demo.1/rpc/Show", json: ["mainField1": "Recorded"])
        #expect(shown.status == 200)
        let deleted = try await ServeEndToEndTests.send(.DELETE, "\(base)/v1/apps/demo.1")
        #expect(deleted.status == 204)

        // The delete answered: the file is complete and closed. Its name is safe for the id.
        let files = try FileManager.default.contentsOfDirectory(atPath: captures.path)
        #expect(files.count == 1)
        let name = try #require(files.first)
        #expect(name.hasPrefix("demo%2E1-") && name.hasSuffix("Z.sdlcap"), "\(name)")
        let bytes = ByteBuffer(bytes: try Data(contentsOf: captures.appendingPathComponent(name)))

        for chunk in [7, 4096] {
            let lines = try Self.inspect(bytes, chunk: chunk)
            let header = try #require(lines.first)
            #expect(header["record"] == "header")
            #expect(header["app"] == "demo.1")
            #expect(header["appID"] == "demo-app")
            #expect(header["headUnit"]?.stringValue?.hasPrefix("tcp://127.0.0.1:") == true)

            func find(_ function: String, _ rpcType: String, _ direction: String) -> SDLJSON? {
                lines.first {
                    $0["function"]?.stringValue == function && $0["rpcType"]?.stringValue == rpcType
                        && $0["direction"]?.stringValue == direction
                }
            }
            let register = try #require(find("RegisterAppInterface", "request", "appToHeadUnit"))
            #expect(register["json"]?["appID"] == "demo-app")
            let registered = try #require(find("RegisterAppInterface", "response", "headUnitToApp"))
            #expect(registered["json"]?["resultCode"] == "SUCCESS")
            let show = try #require(find("Show", "request", "appToHeadUnit"))
            #expect(show["json"]?["mainField1"] == "Recorded")
            let showResponse = try #require(find("Show", "response", "headUnitToApp"))
            #expect(showResponse["json"]?["resultCode"] == "SUCCESS")
            // Nothing was seen in the wrong direction.
            #expect(find("Show", "request", "headUnitToApp") == nil)
            #expect(find("Show", "response", "appToHeadUnit") == nil)

            let offsets = [register, registered, show, showResponse].compactMap { $0["offset"]?.doubleValue }
            #expect(offsets.count == 4)
            #expect(offsets == offsets.sorted() && Set(offsets).count == 4, "\(offsets)")
            let times = [register, registered, show, showResponse].compactMap { $0["time"]?.stringValue }
            #expect(times == times.sorted())
            #expect(
                times.allSatisfy { $0.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$"#, options: .regularExpression) != nil },
                "\(times)")
            // The connection opened first and closed cleanly at the end (the delete).
            let records = lines.compactMap { $0["record"]?.stringValue }.filter { $0 != "frame" }
            #expect(records == ["header", "opened", "closed"])
        }

        // The command itself: exit 0 and the same lines.
        let run = try await ServeEndToEndTests.runToExit(["inspect", captures.appendingPathComponent(name).path])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains(#""direction":"appToHeadUnit""#) && run.output.contains(#""function":"Show""#))

        server.process.interrupt()
        try await server.process.exited()
        #expect(server.process.terminationStatus == 0)
    }

    @Test("Shutdown (SIGINT) flushes and closes the capture of an app still registered; a re-created id gets its own file")
    func shutdownFlushes() async throws {
        try ServeEndToEndTests.requireExecutable()
        let scratch = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let server = try await ServeEndToEndTests.Server.start(["--record", scratch.path])
        defer { if server.process.isRunning { server.process.terminate() } }
        let base = server.baseURL
        for _ in 1...2 {
            _ = try await ServeEndToEndTests.send(.DELETE, "\(base)/v1/apps/radio")
            let created = try await ServeEndToEndTests.send(
                .POST, "\(base)/v1/apps", json: ["id": "radio", "appName": "Radio", "appID": "radio-1"])
            #expect(created.status == 201)
        }
        server.process.interrupt()
        try await server.process.exited()
        #expect(server.process.terminationStatus == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0.hasSuffix(".sdlcap") }.sorted()
        #expect(files.count == 2, "\(files)")
        for name in files {
            let lines = try Self.inspect(ByteBuffer(bytes: try Data(contentsOf: scratch.appendingPathComponent(name))))
            let records = lines.compactMap { $0["record"]?.stringValue }.filter { $0 != "frame" }
            #expect(records == ["header", "opened", "closed"], "\(name)")
            #expect(lines.contains { $0["function"] == "UnregisterAppInterface" && $0["direction"] == "appToHeadUnit" })
        }
    }

    @Test("A reconnection goes to the same file, and malformed bytes from the head unit are captured as they came")
    func reconnectionAndMalformedBytes() async throws {
        try ServeEndToEndTests.requireExecutable()
        let scratch = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let server = try await ServeEndToEndTests.Server.start(["--record", scratch.path])
        defer { if server.process.isRunning { server.process.terminate() } }
        let base = server.baseURL
        let created = try await ServeEndToEndTests.send(
            .POST, "\(base)/v1/apps", json: ["id": "demo", "appName": "Demo", "appID": "demo-app"])
        #expect(created.status == 201)
        let fault = try await ServeEndToEndTests.send(
            .POST, "\(base)/v1/simulator/faults", json: ["function": "Show", "malformedFrame": true])
        #expect(fault.status < 300)
        let shown = try await ServeEndToEndTests.send(.POST, "\(base)/v1/apps/demo/rpc/Show", json: ["mainField1": "Broken"])
        #expect(shown.status >= 500)
        _ = try await ServeEndToEndTests.send(.DELETE, "\(base)/v1/simulator/faults")
        // The session's connection events from the start: wait for the second registration.
        var request = HTTPClientRequest(url: "\(base)/v1/apps/demo/events?types=connection&since=0")
        request.headers.add(name: "Accept", value: "text/event-stream")
        let stream = try await HTTPClient.shared.execute(request, timeout: .seconds(20))
        var text = ""
        for try await chunk in stream.body {
            text += String(buffer: chunk)
            if text.components(separatedBy: #""registered""#).count > 2 { break }
        }
        let deleted = try await ServeEndToEndTests.send(.DELETE, "\(base)/v1/apps/demo")
        #expect(deleted.status == 204)

        let files = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0.hasSuffix(".sdlcap") }
        #expect(files.count == 1, "one file per app session, reconnections included: \(files)")
        let name = try #require(files.first)
        var inspector = CaptureInspector(catalog: .builtIn)
        var lines: [SDLJSON] = []
        try inspector.feed(ByteBuffer(bytes: try Data(contentsOf: scratch.appendingPathComponent(name)))) { lines.append($0) }
        try inspector.finish { lines.append($0) }
        let records = lines.compactMap { $0["record"]?.stringValue }.filter { $0 != "frame" }
        #expect(records == ["header", "opened", "error", "lost", "opened", "closed"], "\(records)")
        #expect(lines.first { $0["record"] == "error" }?["direction"] == "headUnitToApp")
        #expect(inspector.sdlErrors == 1)
        #expect(lines.filter { $0["function"] == "RegisterAppInterface" && $0["rpcType"] == "response" }.count == 2)
        // inspect says so with its exit status, after printing every line.
        let run = try await ServeEndToEndTests.runToExit(["inspect", scratch.appendingPathComponent(name).path])
        #expect(run.status == 2)
        #expect(run.output.contains(#""record":"closed""#))
    }

    @Test("App ids become safe, distinct file names")
    func safeNames() {
        #expect(GatewayRecording.safeName("demo-1_A") == "demo-1_A")
        #expect(GatewayRecording.safeName("..") == "%2E%2E")
        #expect(GatewayRecording.safeName("a/b c%") == "a%2Fb%20c%25")
        #expect(GatewayRecording.safeName("ü") == "%C3%BC")
        #expect(GatewayRecording.safeName("") == "_")
        #expect(GatewayRecording.safeName(String(repeating: "x", count: 300)).count == 120)
        #expect(GatewayRecording.safeName("a.b") != GatewayRecording.safeName("a_b"))
    }

    @Test("inspect refuses a truncated or corrupt capture file with exit status 2 and a message; raw dumps still inspect")
    func malformedFiles() async throws {
        let scratch = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        var file = ByteBuffer()
        file.writeSDLCaptureHeader(SDLCaptureHeader(app: "demo", sdlAppID: "demo-app", headUnit: "tcp://h:1", startMicroseconds: 0))
        var frame = ByteBuffer()
        frame.writeSDLFrame(SDLControlMessage.heartbeat.makeFrame(version: 5, serviceType: .control, sessionID: 1, messageID: 1))
        file.writeSDLCaptureRecord(SDLCaptureRecord(kind: .appToHeadUnit, offsetMicroseconds: 10, payload: frame))
        func write(_ name: String, _ bytes: ByteBuffer) throws -> String {
            let path = scratch.appendingPathComponent(name).path
            try Data(bytes.readableBytesView).write(to: URL(fileURLWithPath: path))
            return path
        }
        let whole = try await ServeEndToEndTests.runToExit(["inspect", try write("whole.sdlcap", file)])
        #expect(whole.status == 0)
        #expect(whole.output.contains(#""controlFrame":"Heartbeat""#))

        let truncated = try await ServeEndToEndTests.runToExit([
            "inspect", try write("cut.sdlcap", file.getSlice(at: 0, length: file.readableBytes - 3)!),
        ])
        #expect(truncated.status == 2)
        #expect(truncated.errors.contains("malformed capture file") && truncated.errors.contains("captureTruncated"), "\(truncated.errors)")
        #expect(truncated.output.contains(#""record":"header""#), "the lines before the cut are printed")

        let badKind = file.getSlice(at: 0, length: file.readableBytes)!
        var badKindBytes = badKind
        badKindBytes.setInteger(UInt8(9), at: badKind.readableBytes - frame.readableBytes - 16)
        let unknownKind = try await ServeEndToEndTests.runToExit(["inspect", try write("kind.sdlcap", badKindBytes)])
        #expect(unknownKind.status == 2)
        #expect(unknownKind.errors.contains("captureInvalidRecord"), "\(unknownKind.errors)")

        // Well-formed capture, malformed SDL bytes inside: an error line, exit 2.
        var garbage = ByteBuffer()
        garbage.writeSDLCaptureHeader(SDLCaptureHeader(app: "demo", sdlAppID: "demo-app", headUnit: "tcp://h:1", startMicroseconds: 0))
        garbage.writeSDLCaptureRecord(
            SDLCaptureRecord(kind: .headUnitToApp, offsetMicroseconds: 1, payload: ByteBuffer(bytes: [0xF7, 0, 0, 0, 0, 0, 0, 0])))
        let bad = try await ServeEndToEndTests.runToExit(["inspect", try write("garbage.sdlcap", garbage)])
        #expect(bad.status == 2)
        #expect(bad.output.contains(#""record":"error""#) && bad.output.contains(#""direction":"headUnitToApp""#), "\(bad.output)")

        // A raw dump (no magic) is inspected as before.
        let raw = try await ServeEndToEndTests.runToExit(["inspect", try write("raw.bin", frame)])
        #expect(raw.status == 0)
        #expect(raw.output.contains(#""controlFrame":"Heartbeat""#) && !raw.output.contains("direction"))
    }

    @Test("--record naming a file, not a directory, stops start-up with a clear message")
    func unusableDirectory() async throws {
        let scratch = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let file = scratch.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: file)
        let notDirectory = try await ServeEndToEndTests.runToExit(["serve", "--listen", "127.0.0.1:0", "--record", file.path])
        #expect(notDirectory.status != 0)
        #expect(notDirectory.errors.contains("is not a directory"), "\(notDirectory.errors)")
        let inside = try await ServeEndToEndTests.runToExit([
            "serve", "--listen", "127.0.0.1:0", "--record", file.appendingPathComponent("sub").path,
        ])
        #expect(inside.status != 0)
        #expect(inside.errors.contains("cannot create the directory"), "\(inside.errors)")
    }
}
