import HeadUnitSimulator
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import SDLProtocol
import SimulatorControl
import TestSupport
import Testing

@Suite("Simulator control API", .timeLimit(.minutes(1)))
struct SimulatorControlRoutesTests {
    /// A simulator with one app registered through the protocol (no sockets: bytes straight into
    /// the head unit), and the control routes at /v1/simulator.
    static func makeApplication() throws -> (some ApplicationProtocol, SimulatedHeadUnit) {
        let simulator = SimulatedHeadUnit(configuration: HeadUnitConfiguration(), logger: Logger.test("test"))
        simulator.perform { unit, now in
            let connection = unit.connectionOpened()
            var bytes = ByteBuffer()
            bytes.writeSDLFrame(
                SDLControlMessage.startService(.init(protocolVersion: "5.4.0")).makeFrame(
                    version: 5, serviceType: .rpc, sessionID: 0, messageID: 1))
            var payload = ByteBuffer()
            payload.writeSDLRPCMessage(
                SDLRPCMessage(
                    rpcType: .request, functionID: 1, correlationID: 1,
                    parameters: [
                        "syncMsgVersion": ["majorVersion": 8, "minorVersion": 0], "appName": "Demo", "isMediaApplication": false,
                        "languageDesired": "EN-US", "hmiDisplayLanguageDesired": "EN-US", "appID": "demo",
                    ]))
            bytes.writeSDLFrame(
                SDLFrame(
                    header: .init(version: 5, frameType: .single, serviceType: .rpc, sessionID: 1, dataSize: 0, messageID: 1),
                    payload: payload))
            return ((), unit.receive(bytes, on: connection, now: now))
        }
        let router = Router()
        SimulatorControlRoutes(simulator: simulator).add(to: router.group("v1/simulator"))
        return (Application(router: router), simulator)
    }

    static func json(_ response: TestResponse) throws -> SDLJSON {
        try SDLJSON.parse(response.body)
    }

    @Test("GET /apps lists the registered app; GET /apps/{id} and /screen find it; unknown ids are 404 problems")
    func apps() async throws {
        let (app, _) = try Self.makeApplication()
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/simulator/apps", method: .get) { response throws in
                #expect(response.status == .ok)
                let apps = try Self.json(response)
                #expect(apps.arrayValue?.count == 1)
                #expect(apps.arrayValue?.first?["appID"] == "demo")
                #expect(apps.arrayValue?.first?["hmiLevel"] == "NONE")
            }
            try await client.execute(uri: "/v1/simulator/apps/DEMO/screen", method: .get) { response throws in
                #expect(response.status == .ok)
                #expect(try Self.json(response)["template"] == "DEFAULT")
            }
            try await client.execute(uri: "/v1/simulator/apps/nobody", method: .get) { response throws in
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType] == "application/problem+json")
                #expect(try Self.json(response)["type"] == "urn:sdl-gateway:problem:app-not-found")
            }
        }
    }

    @Test("PUT /apps/{id}/hmi changes the level; a bad level is 422, a bad body 400")
    func hmi() async throws {
        let (app, simulator) = try Self.makeApplication()
        try await app.test(.router) { client in
            try await client.execute(
                uri: "/v1/simulator/apps/demo/hmi", method: .put, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"hmiLevel":"FULL"}"#)
            ) { response throws in
                #expect(response.status == .ok)
                #expect(try Self.json(response)["hmiLevel"] == "FULL")
            }
            #expect(simulator.snapshot.app(withID: "demo")?.hmiLevel == "FULL")
            try await client.execute(
                uri: "/v1/simulator/apps/demo/hmi", method: .put, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"hmiLevel":"HALF"}"#)
            ) { response throws in
                #expect(response.status == .unprocessableContent)
            }
            try await client.execute(
                uri: "/v1/simulator/apps/demo/hmi", method: .put, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"hmiLevel":"#)
            ) { response throws in
                #expect(response.status == .badRequest)
            }
            try await client.execute(
                uri: "/v1/simulator/apps/demo/hmi", method: .put, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"hmiLevel":1}"#)
            ) { response throws in
                #expect(response.status == .badRequest)
            }
        }
    }

    @Test("Buttons, driver distraction, vehicle data, commands")
    func controls() async throws {
        let (app, _) = try Self.makeApplication()
        try await app.test(.router) { client in
            try await client.execute(
                uri: "/v1/simulator/buttons/OK/press", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"mode":"LONG"}"#)
            ) { response throws in
                #expect(response.status == .ok)
                #expect(try Self.json(response)["notified"] == [])
            }
            try await client.execute(uri: "/v1/simulator/buttons/NOPE/press", method: .post) { response throws in
                #expect(response.status == .unprocessableContent)
            }
            // A softButtonID is 0...65535 whatever the button (schemathesis found 65536 accepted for AC).
            for id in ["65536", "-1", #""70000""#] {
                let body = ByteBuffer(string: #"{"softButtonID":\#(id)}"#)
                try await client.execute(
                    uri: "/v1/simulator/buttons/AC/press", method: .post, headers: [.contentType: "application/json"], body: body
                ) { response throws in
                    #expect(response.status == .unprocessableContent, "softButtonID \(id)")
                    #expect(try Self.json(response)["detail"]?.stringValue?.contains("outside 0...65535") == true)
                }
            }
            // A sliderPosition is 1...26 whatever is open (schemathesis found 0 accepted with a keyboard's text).
            for position in [0, 27] {
                let body = ByteBuffer(string: #"{"text":"x","sliderPosition":\#(position)}"#)
                try await client.execute(
                    uri: "/v1/simulator/apps/demo/interaction", method: .post, headers: [.contentType: "application/json"], body: body
                ) { response throws in
                    #expect(response.status == .unprocessableContent, "sliderPosition \(position)")
                    #expect(try Self.json(response)["detail"]?.stringValue?.contains("outside 1...26") == true)
                }
            }
            try await client.execute(
                uri: "/v1/simulator/driver-distraction", method: .put, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"state":"DD_ON"}"#)
            ) { response throws in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/v1/simulator/driver-distraction", method: .get) { response throws in
                #expect(try Self.json(response) == ["state": "DD_ON"])
            }
            try await client.execute(
                uri: "/v1/simulator/vehicle-data", method: .put, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"speed":42.5,"rpm":1800}"#)
            ) { response throws in
                #expect(response.status == .ok)
                let data = try Self.json(response)
                #expect(data["speed"] == 42.5)
                #expect(data["rpm"] == 1800)
            }
            try await client.execute(
                uri: "/v1/simulator/vehicle-data", method: .put, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"speed":"fast"}"#)
            ) { response throws in
                #expect(response.status == .unprocessableContent)
            }
            try await client.execute(uri: "/v1/simulator/apps/demo/commands/7", method: .post) { response throws in
                #expect(response.status == .notFound)
                #expect(try Self.json(response)["type"] == "urn:sdl-gateway:problem:command-not-found")
            }
        }
    }

    @Test("Faults: add, list, clear; a fault for an unknown function is 422; an empty fault 400")
    func faults() async throws {
        let (app, simulator) = try Self.makeApplication()
        try await app.test(.router) { client in
            try await client.execute(
                uri: "/v1/simulator/faults", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"function":"Show","delayMs":250}"#)
            ) { response throws in
                #expect(response.status == .created)
            }
            try await client.execute(uri: "/v1/simulator/faults", method: .get) { response throws in
                #expect(try Self.json(response).arrayValue?.first?["delayMs"] == 250)
            }
            #expect(simulator.snapshot.faults.faults.count == 1)
            try await client.execute(
                uri: "/v1/simulator/faults", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"function":"Nope","hang":true}"#)
            ) { response throws in
                #expect(response.status == .unprocessableContent)
            }
            try await client.execute(
                uri: "/v1/simulator/faults", method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(string: #"{}"#)
            ) { response throws in
                #expect(response.status == .badRequest)
            }
            try await client.execute(uri: "/v1/simulator/faults", method: .delete) { response throws in
                #expect(response.status == .noContent)
            }
            #expect(simulator.snapshot.faults.faults.isEmpty)
            try await client.execute(uri: "/v1/simulator/log?limit=3", method: .get) { response throws in
                let log = try Self.json(response)
                #expect(log.arrayValue?.count == 3)
                #expect(log.arrayValue?.last?["function"] == "OnDriverDistraction")
            }
        }
    }

    @Test(
        "The standalone control API (simulate --control) answers an unknown path with a 404 problem, a wrong method with a 405 problem and Allow, HEAD as GET without the body"
    )
    func standaloneRefusals() async throws {
        let simulator = SimulatedHeadUnit(configuration: HeadUnitConfiguration(), logger: Logger.test("test"))
        let app = Application(router: SimulatorControlRoutes(simulator: simulator).makeRouter())
        try await app.test(.router) { client in
            try await client.execute(uri: "/nowhere", method: .get) { response throws in
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType] == "application/problem+json")
                #expect(try Self.json(response)["type"] == "urn:sdl-gateway:problem:not-found")
                #expect(try Self.json(response)["detail"]?.stringValue?.contains("/nowhere") == true)
            }
            try await client.execute(uri: "/faults", method: .put) { response throws in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "DELETE, GET, HEAD, POST")
                #expect(try Self.json(response)["type"] == "urn:sdl-gateway:problem:method-not-allowed")
            }
            let length = try await client.execute(uri: "/apps", method: .get) { response throws in
                #expect(response.status == .ok)
                return response.headers[.contentLength]
            }
            // HEAD answers as GET without the body (it was 405).
            try await client.execute(uri: "/apps", method: .head) { response in
                #expect(response.status == .ok)
                #expect(response.body.readableBytes == 0)
                #expect(length != nil && response.headers[.contentLength] == length)
            }
        }
    }

    @Test("Routes that take an appID take the id another name resolves to (the gateway's app id under serve --simulate)")
    func gatewayAppIDs() async throws {
        let (_, simulator) = try Self.makeApplication()
        let router = Router()
        let aliases = ["radio": "demo", "demo2": "nobody"]
        SimulatorControlRoutes(simulator: simulator, names: GatewayNames(sdlAppID: { aliases[$0] })).add(to: router.group("v1/simulator"))
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/v1/simulator/apps/radio", method: .get) { response throws in
                #expect(response.status == .ok)
                #expect(try Self.json(response)["appID"] == "demo")
            }
            try await client.execute(
                uri: "/v1/simulator/apps/radio/hmi", method: .put, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"hmiLevel":"FULL"}"#)
            ) { response throws in
                #expect(response.status == .ok)
                #expect(try Self.json(response)["hmiLevel"] == "FULL")
            }
            try await client.execute(uri: "/v1/simulator/apps/demo/screen", method: .get) { response throws in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/v1/simulator/apps/demo2", method: .get) { response throws in
                #expect(response.status == .notFound)
            }
            // A burst for an app named by its gateway id (resolving it inside the head unit's lock trapped).
            let burst =
                #"{"burst":{"notification":"OnHMIStatus","count":1,"appID":"radio","params":{"hmiLevel":"FULL","audioStreamingState":"NOT_AUDIBLE","systemContext":"MAIN"}}}"#
            try await client.execute(
                uri: "/v1/simulator/faults", method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(string: burst)
            ) { response throws in
                #expect(response.status == .created)
            }
            let empty =
                #"{"burst":{"notification":"OnHMIStatus","count":1,"appID":"","params":{"hmiLevel":"FULL","audioStreamingState":"NOT_AUDIBLE","systemContext":"MAIN"}}}"#
            try await client.execute(
                uri: "/v1/simulator/faults", method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(string: empty)
            ) { response throws in
                #expect(response.status == .notFound)
            }
        }
    }
}
