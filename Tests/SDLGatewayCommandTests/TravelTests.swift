import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// The executable is the whole server: copied alone into an empty folder it serves the page,
/// `openapi.yaml` and the API, and runs the simulator with its built-in profile. (It died with
/// "could not load resource bundle" without the `sdl-gateway_Gateway.resources` folder.)
@Suite("sdl-gateway travels as one file", .timeLimit(.minutes(1)))
struct TravelTests {
    typealias E = ServeEndToEndTests

    /// `Sources/Gateway/Resources` of this repository.
    static let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Sources/Gateway/Resources")

    /// A new empty folder holding only a copy of the executable.
    static func copyAlone() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("travel-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: E.executable, to: folder.appendingPathComponent("sdl-gateway"))
        return folder
    }

    /// Starts `sdl-gateway ARGUMENTS` from `folder` and reads its standard output until each of
    /// `until` has been printed (or the process ends); the process and what it printed.
    static func start(_ folder: URL, _ arguments: [String], until: String...) async throws -> (Process, String) {
        let process = Process()
        process.executableURL = folder.appendingPathComponent("sdl-gateway")
        process.currentDirectoryURL = folder
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        var text = ""
        while !until.allSatisfy(text.contains) || !text.hasSuffix("\n") {
            let data = try await output.fileHandleForReading.nextData()
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        return (process, text)
    }

    static func get(_ url: String) async throws -> (status: Int, body: Data) {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(10))
        let bytes = try await response.body.collect(upTo: 16 << 20)
        return (Int(response.status.code), Data(bytes.readableBytesView))
    }

    @Test(
        "The executable names no resource bundle (SwiftPM's bundle accessor falls back to the build folder, which hides a missing bundle on the machine that built it)"
    )
    func namesNoBundle() throws {
        try E.requireExecutable()
        let binary = try Data(contentsOf: E.executable)
        #expect(binary.range(of: Data(".resources".utf8)) == nil)
    }

    @Test("Copied alone into an empty folder, serve --simulate serves /, /openapi.yaml and /v1/health")
    func serveAlone() async throws {
        try E.requireExecutable()
        let folder = try Self.copyAlone()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (process, text) = try await Self.start(
            folder, ["serve", "--simulate", "--listen", "127.0.0.1:0", "--log-level", "warning"], until: "sdl-gateway on http://")
        defer { if process.isRunning { process.terminate() } }
        let range = try #require(text.range(of: #"http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression), "\(text)")
        let base = String(text[range])
        let page = try await Self.get("\(base)/")
        #expect(page.status == 200)
        #expect(page.body == (try Data(contentsOf: Self.resources.appendingPathComponent("public/index.html"))))
        let document = try await Self.get("\(base)/openapi.yaml")
        #expect(document.status == 200)
        #expect(document.body == (try Data(contentsOf: Self.resources.appendingPathComponent("openapi.yaml"))))
        let health = try await Self.get("\(base)/v1/health")
        #expect(health.status == 200)
        // The simulator runs on its embedded profile: its head unit answers a registration.
        let apps = try await Self.get("\(base)/v1/simulator/apps")
        #expect(apps.status == 200)
        process.terminate()
        try await process.exited()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["sdl-gateway"])
    }

    @Test("Copied alone, simulate starts with its built-in profile and announces its ports")
    func simulateAlone() async throws {
        try E.requireExecutable()
        let folder = try Self.copyAlone()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (process, text) = try await Self.start(
            folder, ["simulate", "--listen", "127.0.0.1:0", "--control", "127.0.0.1:0", "--log-level", "warning"], until: "control API on",
            "SDL head unit on")
        defer { if process.isRunning { process.terminate() } }
        #expect(text.contains("SDL head unit on 127.0.0.1:"), "\(text)")
        let range = try #require(text.range(of: #"http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression), "\(text)")
        let apps = try await Self.get("\(text[range])/apps")
        #expect(apps.status == 200)
        #expect(String(decoding: apps.body, as: UTF8.self) == "[]")
        process.terminate()
        try await process.exited()
    }
}
