import HeadUnitSimulator
import Logging
import NIOCore
import SDLClient
import SDLProtocol
import TestSupport
import Testing

/// ``SDLAppRegistry`` against simulated head units over TCP: several apps on one head unit (one
/// device to Core, docs/protocol.md §e), refusals before anything is sent, the same app on two
/// head units, removal and shutdown.
@Suite("Registry of app sessions against the simulator", .timeLimit(.minutes(1)))
struct RegistryTests {
    static func refusal(_ registry: SDLAppRegistry, id: String? = nil, _ configuration: SDLConnection.Configuration) -> SDLClientError? {
        do throws(SDLClientError) {
            _ = try registry.add(id: id, configuration: configuration)
            return nil
        } catch {
            return error
        }
    }

    @Test("Two apps register at once on one head unit; clashing ids and names are refused before anything is sent")
    func twoApps() async throws {
        try await RegistryHarness.run(simulators: 1) { registry, units in
            let (unit, port) = (units[0].unit, units[0].port)
            let radio = try registry.add(
                id: "radio", configuration: .init(port: port, app: RegistryHarness.app("Radio", id: "radio-app", vrSynonyms: ["Tuner"])))
            let music = try registry.add(configuration: .init(port: port, app: RegistryHarness.app("Music", id: "music-app")))
            #expect(await RegistryHarness.registered(radio))
            #expect(await RegistryHarness.registered(music))
            #expect(unit.snapshot.appList.map(\.appID).sorted() == ["music-app", "radio-app"])
            #expect(registry.all.map(\.id) == ["radio", "app-1"])
            #expect(registry.entry(id: "radio")?.headUnit == "127.0.0.1:\(port)")
            #expect(registry.session(id: "app-1") === music)

            let sameID = Self.refusal(registry, .init(port: port, app: RegistryHarness.app("Podcasts", id: "RADIO-APP")))
            let sameName = Self.refusal(registry, .init(port: port, app: RegistryHarness.app("music", id: "other-app")))
            let synonym = Self.refusal(
                registry, .init(port: port, app: RegistryHarness.app("Podcasts", id: "other-app", vrSynonyms: ["tuner"])))
            let sameRegistryID = Self.refusal(
                registry, id: "radio", .init(port: port, app: RegistryHarness.app("Podcasts", id: "other-app")))
            #expect([sameID, sameName, synonym, sameRegistryID].map(\.?.code) == Array(repeating: .duplicateApp, count: 4))
            #expect(registry.all.count == 2)
            #expect(RegistryHarness.registrations(unit) == 2)
            #expect(unit.snapshot.appList.count == 2)
        }
    }

    @Test("The same app id and name are allowed on two different head units")
    func twoHeadUnits() async throws {
        try await RegistryHarness.run(simulators: 2) { registry, units in
            let app = RegistryHarness.app("Radio", id: "radio-app")
            let first = try registry.add(id: "first", configuration: .init(port: units[0].port, app: app))
            let second = try registry.add(id: "second", configuration: .init(port: units[1].port, app: app))
            #expect(await RegistryHarness.registered(first))
            #expect(await RegistryHarness.registered(second))
            for (unit, _) in units {
                #expect(unit.snapshot.appList.map(\.appID) == ["radio-app"])
            }
            #expect(Set(registry.all.map(\.headUnit)).count == 2)
        }
    }

    @Test("Removing one app unregisters only it and frees its id and names; the other stays registered")
    func remove() async throws {
        try await RegistryHarness.run(simulators: 1) { registry, units in
            let (unit, port) = (units[0].unit, units[0].port)
            let radio = try registry.add(id: "radio", configuration: .init(port: port, app: RegistryHarness.app("Radio", id: "radio-app")))
            let music = try registry.add(id: "music", configuration: .init(port: port, app: RegistryHarness.app("Music", id: "music-app")))
            #expect(await RegistryHarness.registered(radio))
            #expect(await RegistryHarness.registered(music))

            let removed = await registry.remove(id: "radio")
            #expect(removed)
            #expect(await RegistryHarness.waitFor(.closed, radio))
            #expect(unit.snapshot.appList.map(\.appID) == ["music-app"])
            #expect(registry.all.map(\.id) == ["music"])
            #expect(registry.session(id: "radio") == nil)
            #expect(music.connectionState == .registered)
            let again = await registry.remove(id: "radio")
            #expect(!again)

            let back = try registry.add(id: "radio", configuration: .init(port: port, app: RegistryHarness.app("Radio", id: "radio-app")))
            #expect(await RegistryHarness.registered(back))
            #expect(unit.snapshot.appList.count == 2)
        }
    }

    @Test("Shutdown unregisters and closes every app, refuses new ones, and run() returns")
    func shutdown() async throws {
        let registry = SDLAppRegistry(logger: Logger.test("test"))
        let simulator = RegistryHarness.simulator()
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await simulator.run(host: "127.0.0.1", port: 0) {
                    continuation.yield($0.port ?? 0); continuation.finish()
                }
                return false
            }
            var iterator = ports.makeAsyncIterator()
            let port = try #require(await iterator.next())
            // Added before run(): they join it when it starts.
            let sessions = try (1...3).map { index in
                try registry.add(configuration: .init(port: port, app: RegistryHarness.app("App \(index)", id: "app-\(index)")))
            }
            group.addTask {
                await registry.run()
                return true
            }
            for session in sessions {
                #expect(await RegistryHarness.registered(session))
            }
            #expect(simulator.snapshot.appList.count == 3)

            await registry.shutdown()
            let first = try await group.next()
            #expect(first == true)
            #expect(sessions.allSatisfy { $0.connectionState == .closed })
            #expect(simulator.snapshot.appList.isEmpty)
            let unregistered = simulator.snapshot.log.entries.filter { $0.direction == .fromApp && $0.function == "UnregisterAppInterface" }
            #expect(unregistered.count == 3)
            #expect(registry.all.isEmpty)
            let late = Self.refusal(registry, .init(port: port, app: RegistryHarness.app("Late", id: "late")))
            #expect(late?.code == .closed)
            group.cancelAll()
        }
    }
}
