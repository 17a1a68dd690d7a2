@testable import Gateway
import SDLTransport
import Testing

/// ``GatewayAppRegistry`` on its own: apps, incarnations, waiters and the actions they give, with
/// strings for waiters and objects (no sessions, no network, no clock).
@Suite("GatewayAppRegistry: the apps' bookkeeping as a pure state machine")
struct GatewayAppRegistryTests {
    typealias Machine = GatewayAppRegistry<String, String>

    static let core = SDLTransportAddress.tcp(host: "127.0.0.1", port: 12345)

    /// The waiters resumed by `actions`, with why, in a stable order.
    static func resumed(_ actions: [Machine.Action]) -> [String: AppWaitOutcome] {
        var resumed: [String: AppWaitOutcome] = [:]
        for case .resume(let waiter, let outcome) in actions { resumed[waiter] = outcome }
        return resumed
    }

    @Test("Adding an app keeps its head unit, incarnation and objects, and runs its pump until it ends")
    func add() {
        var machine = Machine(maximumApps: 4)
        machine.add(id: "a", core: Self.core, incarnation: 7, objects: "objects of a")
        #expect(machine.incarnation(of: "a") == 7)
        #expect(machine.apps["a"]?.core == Self.core)
        #expect(machine.objects(of: "a", incarnation: 7) == "objects of a")
        #expect(machine.objects(of: "a", incarnation: 6) == nil)
        #expect(machine.pumpCount == 1)
        #expect(Self.resumed(machine.pumpEnded(7)).isEmpty)
        #expect(machine.pumpCount == 0)
    }

    @Test("A waiter is resumed when its app registers; later waiters at once, and not twice")
    func resumedOnRegistration() {
        var machine = Machine(maximumApps: 4)
        machine.add(id: "a", core: Self.core, incarnation: 1, objects: "")
        #expect(machine.wait(id: "a", token: machine.makeToken(), waiter: "w1", expired: false).isEmpty)
        #expect(machine.wait(id: "a", token: machine.makeToken(), waiter: "w2", expired: false).isEmpty)
        #expect(Self.resumed(machine.settle(id: "a", incarnation: 1)) == ["w1": .settled, "w2": .settled])
        #expect(Self.resumed(machine.settle(id: "a", incarnation: 1)).isEmpty)
        #expect(Self.resumed(machine.wait(id: "a", token: machine.makeToken(), waiter: "w3", expired: false)) == ["w3": .settled])
    }

    @Test("A second incarnation: the first's pump settles none of its waiters and finds none of its objects")
    func secondIncarnation() {
        var machine = Machine(maximumApps: 4)
        machine.add(id: "a", core: Self.core, incarnation: 1, objects: "first")
        #expect(machine.remove(id: "a", incarnation: 1).removed)
        machine.add(id: "a", core: Self.core, incarnation: 2, objects: "second")
        #expect(machine.wait(id: "a", token: machine.makeToken(), waiter: "w", expired: false).isEmpty)
        #expect(machine.settle(id: "a", incarnation: 1).isEmpty)
        #expect(machine.objects(of: "a", incarnation: 1) == nil)
        // Removing the first incarnation again leaves the second.
        #expect(!machine.remove(id: "a", incarnation: 1).removed)
        #expect(machine.incarnation(of: "a") == 2)
        #expect(machine.pumpCount == 2)
        #expect(Self.resumed(machine.settle(id: "a", incarnation: 2)) == ["w": .settled])
    }

    @Test("Removal while waiting resumes the waiters as removed; a wait for an app not there ends at once")
    func removedWhileWaiting() {
        var machine = Machine(maximumApps: 4)
        machine.add(id: "a", core: Self.core, incarnation: 1, objects: "")
        #expect(machine.wait(id: "a", token: machine.makeToken(), waiter: "w", expired: false).isEmpty)
        let removal = machine.remove(id: "a", incarnation: 1)
        #expect(removal.removed)
        #expect(Self.resumed(removal.actions) == ["w": .removed])
        #expect(machine.apps.isEmpty)
        #expect(Self.resumed(machine.wait(id: "a", token: machine.makeToken(), waiter: "late", expired: false)) == ["late": .removed])
    }

    @Test("A deadline expires only its own waiter, once; a wait whose deadline passed before it began ends at once")
    func deadline() {
        var machine = Machine(maximumApps: 4)
        machine.add(id: "a", core: Self.core, incarnation: 1, objects: "")
        let first = machine.makeToken()
        let second = machine.makeToken()
        #expect(first != second)
        #expect(machine.wait(id: "a", token: first, waiter: "w1", expired: false).isEmpty)
        #expect(machine.wait(id: "a", token: second, waiter: "w2", expired: false).isEmpty)
        #expect(Self.resumed(machine.expire(id: "a", token: first)) == ["w1": .expired])
        #expect(machine.expire(id: "a", token: first).isEmpty)
        #expect(Self.resumed(machine.wait(id: "a", token: machine.makeToken(), waiter: "w3", expired: true)) == ["w3": .expired])
        #expect(Self.resumed(machine.settle(id: "a", incarnation: 1)) == ["w2": .settled])
    }

    @Test("Deletes wait for the pump to end, or go on at once when it has")
    func pumpWaiters() {
        var machine = Machine(maximumApps: 4)
        machine.add(id: "a", core: Self.core, incarnation: 1, objects: "")
        #expect(machine.waitForPump(1, waiter: "d1").isEmpty)
        #expect(machine.waitForPump(1, waiter: "d2").isEmpty)
        #expect(Self.resumed(machine.pumpEnded(1)) == ["d1": .pumpEnded, "d2": .pumpEnded])
        #expect(Self.resumed(machine.waitForPump(1, waiter: "d3")) == ["d3": .pumpEnded])
    }

    @Test("The limit refuses one more app, but not an id in use (that is a duplicate, refused elsewhere)")
    func maximumApps() throws {
        var machine = Machine(maximumApps: 1)
        try machine.admit(id: nil)
        machine.add(id: "a", core: Self.core, incarnation: 1, objects: "")
        let refused = #expect(throws: GatewayError.self) { try machine.admit(id: "b") }
        #expect(refused?.code == .tooManyApps)
        #expect(throws: GatewayError.self) { try machine.admit(id: nil) }
        try machine.admit(id: "a")
    }

    @Test("Files: ListFiles replaces, PutFile adds, DeleteFile removes, space is kept; none for an app not there")
    func files() {
        var machine = Machine(maximumApps: 4)
        machine.add(id: "a", core: Self.core, incarnation: 1, objects: "")
        machine.noteFiles("a", all: ["x", "y"], spaceAvailable: 100)
        machine.noteFiles("a", added: "z", spaceAvailable: nil)
        machine.noteFiles("a", removed: "x", spaceAvailable: 90)
        #expect(machine.apps["a"]?.files == AppFiles(names: ["y", "z"], spaceAvailable: 90))
        machine.noteFiles("a", all: [], spaceAvailable: nil)
        #expect(machine.apps["a"]?.files.names == [])
        machine.noteFiles("b", added: "z", spaceAvailable: 1)
        #expect(machine.apps["b"] == nil)
    }
}
