import AsyncHTTPClient
import Foundation
import NIOHTTP1
import HeadlessHMI
import NIOCore
import SDLProtocol
import SDLTransport
import TestSupport
import Testing

/// `sdl-gateway hmi`, the real executable, against a fake of Core's HMI WebSocket; its control
/// API drives what the fake Core receives.
@Suite("sdl-gateway hmi end to end", .timeLimit(.minutes(1)))
struct HMIEndToEndTests {
    @Test("Registers with Core, activates a new app, and the control API's button press, command and distraction reach Core")
    func controlReachesCore() async throws {
        try ServeEndToEndTests.requireExecutable()
        let fake = try await FakeCoreHMI.bind()
        let (process, control) = try await Self.launch(
            ["hmi", "--core-hmi", "ws://127.0.0.1:\(fake.port)", "--control", "127.0.0.1:0", "--auto-activate", "--log-level", "warning"],
            announcing: "HMI control API on http://"
        )
        defer { if process.isRunning { process.terminate() } }

        try await fake.serveOne { core, components in
            func next() async throws -> HMIMessage { try await core.next() }
            func send(_ message: HMIMessage) async throws { try await core.send(message) }
            #expect(components == HeadlessHMI.components)
            try await core.announce(["appID": 7, "appName": "Radio"])
            guard case .request(let activation, "SDL.ActivateApp", _) = try await next() else { Issue.record("no activation"); return }
            try await send(.response(id: activation, result: ["code": 0, "method": "SDL.ActivateApp", "isSDLAllowed": true]))

            let status = try await Self.send(.GET, "\(control)/status")
            #expect(status.body?["phase"] == "ready")
            let apps = try await Self.send(.GET, "\(control)/apps")
            #expect(apps.body?.arrayValue?.first?["appName"] == "Radio")

            let pressed = try await Self.send(.POST, "\(control)/buttons/OK/press", json: ["appID": 7])
            #expect(pressed.status == 200)
            #expect(
                try await next()
                    == .notification(method: "Buttons.OnButtonEvent", params: ["name": "OK", "mode": "BUTTONDOWN", "appID": 7]))
            #expect(
                try await next() == .notification(method: "Buttons.OnButtonEvent", params: ["name": "OK", "mode": "BUTTONUP", "appID": 7]))
            #expect(
                try await next() == .notification(method: "Buttons.OnButtonPress", params: ["name": "OK", "mode": "SHORT", "appID": 7]))

            let command = try await Self.send(.POST, "\(control)/apps/7/commands/12", json: ["triggerSource": "VR"])
            #expect(command.status == 200)
            #expect(try await next() == .notification(method: "VR.OnCommand", params: ["cmdID": 12, "appID": 7]))

            let distraction = try await Self.send(.PUT, "\(control)/driver-distraction", json: ["state": "DD_ON"])
            #expect(distraction.body?["state"] == "DD_ON")
            #expect(try await next() == .notification(method: "UI.OnDriverDistraction", params: ["state": "DD_ON"]))

            // An alert waits for the driver: its context at once, the answer when the control API dismisses it.
            try await send(.request(id: 500, method: "UI.Alert", params: ["appID": 7, "duration": 10000, "alertStrings": []]))
            #expect(try await next() == .notification(method: "UI.OnSystemContext", params: ["systemContext": "ALERT", "appID": 7]))
            let screen = try await Self.send(.GET, "\(control)/apps/7/screen")
            #expect(screen.body?["interactions"]?.arrayValue?.first?["method"] == "UI.Alert")
            let dismissed = try await Self.send(.POST, "\(control)/apps/7/interaction", json: [:])
            #expect(dismissed.body?["answered"] == ["UI.Alert"])
            #expect(try await next() == .answer(id: 500, method: "UI.Alert"))
            #expect(try await next() == .notification(method: "UI.OnSystemContext", params: ["systemContext": "MAIN", "appID": 7]))
            let nothing = try await Self.send(.POST, "\(control)/apps/7/interaction", json: [:])
            #expect(nothing.status == 409)
            // A slider nobody moves ends TIMED_OUT by itself (100 ms here).
            try await send(.request(id: 501, method: "UI.Slider", params: ["appID": 7, "numTicks": 3, "position": 1, "timeout": 100]))
            #expect(try await next() == .notification(method: "UI.OnSystemContext", params: ["systemContext": "HMI_OBSCURED", "appID": 7]))
            #expect(try await next() == .answer(id: 501, method: "UI.Slider", code: .timedOut))

            let unknown = try await Self.send(.PUT, "\(control)/apps/99/hmi", json: ["hmiLevel": "FULL"])
            #expect(unknown.status == 404)
            let badLevel = try await Self.send(.PUT, "\(control)/apps/7/hmi", json: ["hmiLevel": "HALF"])
            #expect(badLevel.status == 422)

            // Vehicle data set by hand reaches Core once it subscribed (the drive's samples come too).
            try await send(.request(id: 502, method: "VehicleInfo.SubscribeVehicleData", params: ["appID": 7, "speed": true]))
            var answered = false
            for _ in 0..<50 where !answered { answered = try await next().answeredMethod == "VehicleInfo.SubscribeVehicleData" }
            #expect(answered, "the subscription answered (samples of the drive may come first)")
            let badSpeed = try await Self.send(.PUT, "\(control)/vehicle-data", json: ["speed": "fast"])
            #expect(badSpeed.status == 422)
            let set = try await Self.send(.PUT, "\(control)/vehicle-data", json: ["speed": 123.5])
            #expect(set.body?["speed"] == 123.5)
            var seen = false
            for _ in 0..<50 where !seen {
                if case .notification("VehicleInfo.OnVehicleData", let params) = try await next(), params["speed"] == 123.5 { seen = true }
            }
            #expect(seen, "VehicleInfo.OnVehicleData with the speed set")
            #expect(try await Self.send(.GET, "\(control)/vehicle-data").body?["speed"] == 123.5)
        }
        process.terminate()
        try await process.exited()
        #expect(process.terminationStatus == 0)
    }

    @Test("A TCP address for Core's HMI and a control API beyond loopback are refused at start")
    func refusals() async throws {
        let tcp = try await ServeEndToEndTests.runToExit(["hmi", "--core-hmi", "tcp://127.0.0.1:8087"], environment: [:])
        #expect(tcp.status != 0 && tcp.errors.contains("ws://"), "\(tcp.errors)")
        let open = try await ServeEndToEndTests.runToExit(["hmi", "--control", "0.0.0.0:12346"], environment: [:])
        #expect(open.status != 0 && open.errors.contains("--insecure"), "\(open.errors)")
        let scale = try await ServeEndToEndTests.runToExit(["hmi", "--time-scale", "0"], environment: [:])
        #expect(scale.status != 0 && scale.errors.contains("--time-scale"), "\(scale.errors)")
        let misspelt = try await ServeEndToEndTests.runToExit(["hmi"], environment: ["SDL_HMI_COR": "ws://x"])
        #expect(misspelt.status != 0 && misspelt.errors.contains("SDL_HMI_COR"), "\(misspelt.errors)")
    }

    @Test(
        "serve --hmi: the headless HMI runs in-process, its control API at /v1/hmi behind the gateway's tokens (none 401, read 403 to act, control acts)"
    )
    func serveWithHMI() async throws {
        try ServeEndToEndTests.requireExecutable()
        let fake = try await FakeCoreHMI.bind()
        let (process, url) = try await Self.launch(
            [
                "serve", "--listen", "127.0.0.1:0", "--core", "tcp://127.0.0.1:9", "--hmi", "ws://127.0.0.1:\(fake.port)",
                "--token", "control-token-1", "--token", "read-token-01:read", "--log-level", "warning",
            ],
            announcing: "sdl-gateway on http://", expecting: "headless HMI for SDL Core at ws://127.0.0.1:\(fake.port)"
        )
        defer { if process.isRunning { process.terminate() } }
        let base = url + "/v1/hmi"

        try await fake.serveOne { core, _ in
            func next() async throws -> HMIMessage { try await core.next() }
            func send(_ message: HMIMessage) async throws { try await core.send(message) }
            try await core.announce(["appID": 7, "appName": "Radio", "policyAppID": "radio-1"])
            // serve --hmi activates new apps, as serve --simulate does.
            guard case .request(_, "SDL.ActivateApp", _) = try await next() else { Issue.record("no activation"); return }

            #expect(try await Self.send(.GET, "\(base)/status").status == 401)
            #expect(try await Self.send(.GET, "\(base)/status", token: "wrong-token-1").status == 401)
            let status = try await Self.send(.GET, "\(base)/status", token: "read-token-01")
            #expect(status.status == 200 && status.body?["phase"] == "ready")
            #expect(try await Self.send(.GET, "\(base)/apps/7", token: "read-token-01").body?["policyAppID"] == "radio-1")
            let readActs = try await Self.send(.PUT, "\(base)/driver-distraction", json: ["state": "DD_ON"], token: "read-token-01")
            #expect(readActs.status == 403)
            let acts = try await Self.send(.PUT, "\(base)/driver-distraction", json: ["state": "DD_ON"], token: "control-token-1")
            #expect(acts.status == 200)
            var seen = false
            for _ in 0..<50 where !seen {
                seen = try await next() == .notification(method: "UI.OnDriverDistraction", params: ["state": "DD_ON"])
            }
            #expect(seen)
            #expect(try await Self.send(.GET, "\(base)/apps/nobody", token: "control-token-1").status == 404)
            // The app's video WebSocket is on the gateway's WebSocket router, behind the same tokens.
            let port = try #require(Int(url.split(separator: ":").last ?? ""))
            let video = "/v1/hmi/apps/7/video"
            let refused = try await RawConnection.exchange(
                port: port, RawConnection.get(video, RawConnection.webSocketUpgrade), until: "\r\n\r\n")
            #expect(refused.hasPrefix("HTTP/1.1 401"), "\(refused)")
            let page = RawConnection.webSocketUpgrade + ["Sec-WebSocket-Protocol: sdl-gateway.v1, bearer.read-token-01"]
            let upgraded = try await RawConnection.exchange(port: port, RawConnection.get(video, page), until: "\r\n\r\n")
            #expect(
                upgraded.hasPrefix("HTTP/1.1 101") && upgraded.lowercased().contains("sec-websocket-protocol: sdl-gateway.v1"),
                "\(upgraded)")
            let unknown = RawConnection.webSocketUpgrade + ["Authorization: Bearer read-token-01"]
            let missing = try await RawConnection.exchange(
                port: port, RawConnection.get("/v1/hmi/apps/nobody/video", unknown), until: "\r\n\r\n")
            #expect(missing.hasPrefix("HTTP/1.1 404"), "\(missing)")
        }
        process.terminate()
        try await process.exited()
        #expect(process.terminationStatus == 0)
    }

    /// Starts `sdl-gateway ARGUMENTS` and reads its standard output up to the line holding
    /// `announcing`; the first `http://127.0.0.1:PORT` in it. `expecting` must have been printed too.
    static func launch(_ arguments: [String], announcing: String, expecting: String? = nil) async throws -> (Process, String) {
        try ServeEndToEndTests.requireExecutable()
        let process = Process()
        process.executableURL = ServeEndToEndTests.executable
        process.arguments = arguments
        process.environment = [:]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var printed = ""
        while !printed.contains(announcing) || !printed.hasSuffix("\n") {
            let data = try await output.fileHandleForReading.nextData()
            if data.isEmpty { break }
            printed += String(decoding: data, as: UTF8.self)
        }
        guard let range = printed.range(of: #"http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression),
            expecting.map(printed.contains) ?? true
        else {
            process.terminate()
            throw ServeEndToEndTests.ServeError(output: printed)
        }
        return (process, String(printed[range]))
    }

    static func send(
        _ method: HTTPMethod, _ url: String, json: SDLJSON? = nil, token: String? = nil
    ) async throws -> (status: Int, body: SDLJSON?) {
        guard let token else { return try await ServeEndToEndTests.send(method, url, json: json) }
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: json.serializedBytes()))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(20))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        return (Int(response.status.code), try? SDLJSON.parse(bytes))
    }
}
