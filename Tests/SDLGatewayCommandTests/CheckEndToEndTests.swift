import Foundation
import HeadlessHMI
import NIOHTTP1
import SDLProtocol
import TestSupport
import Testing

/// `sdl-gateway check`, the real executable, against the real executable `simulate` on port 0:
/// every case passes with the simulator's control API as the driver; a fault injected through
/// that API fails the Show cases and the run; without a driver the driver's cases are skipped;
/// with `--hmi` the driver's cases go through the in-process headless HMI to a fake of Core's HMI
/// WebSocket.
@Suite("sdl-gateway check end to end", .timeLimit(.minutes(3)))
struct CheckEndToEndTests {
    /// A running `sdl-gateway simulate`, its SDL and control addresses read from what it prints.
    struct Simulator {
        let process: Process
        let core: String
        let control: String

        static func start(_ arguments: [String] = []) async throws -> Simulator {
            try ServeEndToEndTests.requireExecutable()
            let process = Process()
            process.executableURL = ServeEndToEndTests.executable
            process.arguments = ["simulate", "--listen", "127.0.0.1:0", "--control", "127.0.0.1:0", "--log-level", "warning"] + arguments
            process.environment = [:]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            var printed = ""
            func find(_ pattern: String) -> String? {
                printed.range(of: pattern, options: .regularExpression).map { String(printed[$0]) }
            }
            while find(#"SDL head unit on 127\.0\.0\.1:[0-9]+\n"#) == nil || find(#"control API on http://127\.0\.0\.1:[0-9]+\n"#) == nil {
                let data = try await output.fileHandleForReading.nextData()
                if data.isEmpty { break }
                printed += String(decoding: data, as: UTF8.self)
            }
            guard let sdl = find(#"(?<=SDL head unit on )127\.0\.0\.1:[0-9]+"#), let control = find(#"http://127\.0\.0\.1:[0-9]+"#) else {
                process.terminate()
                throw ServeEndToEndTests.ServeError(output: printed)
            }
            return Simulator(process: process, core: "tcp://\(sdl)", control: control)
        }

        /// SIGTERM; the process exits by itself (nothing waits for it here: `stop` runs in
        /// `defer`, which cannot suspend, and a blocking wait would hold a thread of the pool).
        func stop() {
            if process.isRunning { process.terminate() }
        }
    }

    static func temporaryFile(_ suffix: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("sdl-check-\(UUID().uuidString)\(suffix)")
    }

    @Test("Against the simulator with its control API every case passes; the table, JUnit and HTML say so")
    func allPass() async throws {
        let simulator = try await Simulator.start()
        defer { simulator.stop() }
        let junit = Self.temporaryFile(".xml")
        let html = Self.temporaryFile(".html")
        defer {
            try? FileManager.default.removeItem(at: junit)
            try? FileManager.default.removeItem(at: html)
        }
        let run = try await ServeEndToEndTests.runToExit([
            "check", "--core", simulator.core, "--control", simulator.control, "--junit", junit.path, "--html", html.path,
        ])
        #expect(run.status == 0, "\(run.output)\n\(run.errors)")
        #expect(run.output.contains(" passed, 0 failed, 0 skipped in "), "\(run.output)")
        let rows = run.output.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().prefix { !$0.isEmpty }
        // A row per case the executable lists, however many cases there are.
        let cases = try await ServeEndToEndTests.runToExit(["check", "--list"]).output.split(separator: "\n").count
        #expect(cases >= 20)
        #expect(rows.count == cases)
        #expect(rows.allSatisfy { $0.contains(" pass ") }, "\(run.output)")
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains(#"failures="0""#) && xml.contains(#"<testcase name="show.template""#))
        let page = try String(contentsOf: html, encoding: .utf8)
        #expect(page.contains(#"<tr id="alert.softbutton">"#))
    }

    @Test("Show answered REJECTED through the control API's faults: check exits 1 and its report names the Show cases")
    func showRejected() async throws {
        let simulator = try await Simulator.start()
        defer { simulator.stop() }
        let fault = try await ServeEndToEndTests.send(
            .POST, "\(simulator.control)/faults", json: ["function": "Show", "resultCode": "REJECTED"])
        #expect(fault.status == 200 || fault.status == 201, "\(fault)")
        let junit = Self.temporaryFile(".xml")
        defer { try? FileManager.default.removeItem(at: junit) }
        let run = try await ServeEndToEndTests.runToExit([
            "check", "--core", simulator.core, "--control", simulator.control, "--only", "register.app,show,menu.addcommand", "--junit",
            junit.path,
        ])
        #expect(run.status == 1, "\(run.output)\n\(run.errors)")
        let rows = run.output.split(separator: "\n").map(String.init)
        let show = try #require(rows.first { $0.hasPrefix("show.text ") }, "\(run.output)")
        #expect(show.contains("FAIL") && show.contains("expected resultCode SUCCESS, got REJECTED"), "\(show)")
        #expect(rows.contains { $0.hasPrefix("show.template ") && $0.contains("FAIL") }, "\(run.output)")
        #expect(rows.contains { $0.hasPrefix("register.app ") && $0.contains("pass") }, "\(run.output)")
        #expect(rows.contains { $0.hasPrefix("menu.addcommand ") && $0.contains("pass") }, "\(run.output)")
        #expect(run.output.contains("2 passed, 2 failed, 0 skipped"), "\(run.output)")
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains(#"<testcase name="show.text" classname="check.show""#) && xml.contains(#"<failure type="unexpected""#))
    }

    @Test("Without a driver the driver's cases are skipped with that reason, and the run passes")
    func noDriver() async throws {
        let simulator = try await Simulator.start(["--auto-activate"])
        defer { simulator.stop() }
        let run = try await ServeEndToEndTests.runToExit([
            "check", "--core", simulator.core, "--only", "register.app,hmi.full,show.text,choice.perform,unregister",
        ])
        #expect(run.status == 0, "\(run.output)\n\(run.errors)")
        let rows = run.output.split(separator: "\n").map(String.init)
        for id in ["hmi.full", "choice.perform"] {
            #expect(rows.contains { $0.hasPrefix(id + " ") && $0.contains("skip") && $0.contains("give --control") }, "\(run.output)")
        }
        #expect(rows.contains { $0.hasPrefix("show.text ") && $0.contains("pass") }, "\(run.output)")
        #expect(run.output.contains("3 passed, 0 failed, 2 skipped"), "\(run.output)")
    }

    @Test("--list prints every case; an unknown --only is refused with the list")
    func listAndRefusal() async throws {
        let list = try await ServeEndToEndTests.runToExit(["check", "--list"])
        #expect(list.status == 0)
        #expect(list.output.split(separator: "\n").count >= 20)
        #expect(list.output.contains("choice.perform") && list.output.contains("(driver)"))
        let refused = try await ServeEndToEndTests.runToExit(["check", "--core", "tcp://127.0.0.1:1", "--only", "nothing"])
        #expect(refused.status == 64, "\(refused.errors)")
        #expect(refused.errors.contains("no case nothing; the cases are register.app"), "\(refused.errors)")
    }

    @Test("--hmi: the driver's cases run through the headless HMI inside check, attached to a fake Core HMI")
    func throughHeadlessHMI() async throws {
        // The fake plays Core's HMI side and carries what the HMI tells Core on to the simulator,
        // where the app under test is registered, as Core would carry it to the app.
        let simulator = try await Simulator.start()
        defer { simulator.stop() }
        let fake = try await FakeCoreHMI.bind()
        try ServeEndToEndTests.requireExecutable()
        let process = Process()
        process.executableURL = ServeEndToEndTests.executable
        process.arguments = [
            "check", "--core", simulator.core, "--hmi", "ws://127.0.0.1:\(fake.port)", "--only",
            "register.app,hmi.full,menu.oncommand,button.press,unregister",
        ]
        process.environment = [:]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var received: [String] = []
        // The HMI may go at any point (check ended, or gave up): what it got so far is judged below.
        var ended: (any Error)?
        do {
            try await fake.serveOne { core, _ in
                try await core.send(
                    .notification(
                        method: "BasicCommunication.OnAppRegistered",
                        params: ["application": ["appID": 7, "appName": "SDL Check", "policyAppID": "sdl-check"]]))
                let app = "\(simulator.control)/apps/sdl-check"
                // Until check ends and its HMI disconnects.
                while let message = try? await core.next() {
                    switch message {
                    case .request(let id, "SDL.ActivateApp", let params):
                        received.append("SDL.ActivateApp \(params["appID"]?.intValue ?? 0)")
                        try await core.send(.response(id: id, result: ["code": 0, "method": "SDL.ActivateApp", "isSDLAllowed": true]))
                        _ = try await ServeEndToEndTests.send(.PUT, "\(app)/hmi", json: ["hmiLevel": "FULL"])
                    case .notification("BasicCommunication.OnAppDeactivated", _):
                        received.append("BasicCommunication.OnAppDeactivated")
                        _ = try await ServeEndToEndTests.send(.PUT, "\(app)/hmi", json: ["hmiLevel": "BACKGROUND"])
                    case .notification("UI.OnCommand", let params):
                        let command = params["cmdID"]?.intValue ?? 0
                        received.append("UI.OnCommand \(command)")
                        _ = try await ServeEndToEndTests.send(.POST, "\(app)/commands/\(command)", json: ["triggerSource": "MENU"])
                    case .notification("Buttons.OnButtonPress", let params):
                        let name = params["name"]?.stringValue ?? ""
                        received.append("Buttons.OnButtonPress \(name)")
                        _ = try await ServeEndToEndTests.send(
                            .POST, "\(simulator.control)/buttons/\(name)/press", json: ["mode": params["mode"] ?? "SHORT"])
                    default:
                        break
                    }
                }
            }
        } catch {
            ended = error
        }
        let printed = try await output.fileHandleForReading.remainingText()
        try await process.exited()
        #expect(process.terminationStatus == 0, "\(printed) (the fake Core HMI: \(ended.map { "\($0)" } ?? "ended cleanly"))")
        #expect(printed.contains("5 passed, 0 failed, 0 skipped"), "\(printed)")
        #expect(printed.contains("(driver: control API http://127.0.0.1:"), "\(printed)")
        #expect(received.contains("SDL.ActivateApp 7"), "\(received)")
        #expect(received.contains("UI.OnCommand 1005"), "\(received)")
        #expect(received.contains("Buttons.OnButtonPress SEEKRIGHT"), "\(received)")
    }
}
