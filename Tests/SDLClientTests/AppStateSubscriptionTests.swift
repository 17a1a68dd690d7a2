import SDLProtocol
import Testing

@testable import SDLClient

@Suite("AppState subscription reference counting")
struct AppStateSubscriptionTests {
    @Test("Only the first owner of a name needs an SDL Subscribe")
    func firstOwner() {
        var counter = SDLSubscriptionCounter()
        let first = counter.subscribe(["speed", "rpm"], owner: "a")
        #expect(first == ["speed", "rpm"])
        let second = counter.subscribe(["rpm", "gps"], owner: "b")
        #expect(second == ["gps"])
        #expect(counter.count(of: "rpm") == 2)
        #expect(counter.all == ["gps", "rpm", "speed"])
    }

    @Test("The same owner subscribing twice counts once, and duplicate names in one call are sent once")
    func idempotent() {
        var counter = SDLSubscriptionCounter()
        let first = counter.subscribe(["speed", "speed"], owner: "a")
        #expect(first == ["speed"])
        let again = counter.subscribe(["speed"], owner: "a")
        #expect(again.isEmpty)
        #expect(counter.owners(of: "speed") == ["a"])
        let gone = counter.unsubscribe(["speed"], owner: "a")
        #expect(gone == ["speed"])
    }

    @Test("Only the last owner leaving needs an SDL Unsubscribe")
    func lastOwner() {
        var counter = SDLSubscriptionCounter()
        _ = counter.subscribe(["OK", "SEEKLEFT"], owner: "a")
        _ = counter.subscribe(["OK"], owner: "b")
        let afterA = counter.unsubscribe(["OK", "SEEKLEFT"], owner: "a")
        #expect(afterA == ["SEEKLEFT"])
        let afterB = counter.unsubscribe(["OK"], owner: "b")
        #expect(afterB == ["OK"])
        #expect(counter.all.isEmpty)
    }

    @Test("Unsubscribing a name the owner does not hold changes nothing")
    func notHeld() {
        var counter = SDLSubscriptionCounter()
        _ = counter.subscribe(["speed"], owner: "a")
        let stranger = counter.unsubscribe(["speed", "rpm"], owner: "b")
        #expect(stranger.isEmpty)
        #expect(counter.all == ["speed"])
    }

    @Test("A departing owner releases all its names; all lists what to subscribe again after a reconnect")
    func unsubscribeAll() {
        var counter = SDLSubscriptionCounter()
        _ = counter.subscribe(["speed", "rpm"], owner: "a")
        _ = counter.subscribe(["rpm"], owner: "b")
        let gone = counter.unsubscribeAll(owner: "a")
        #expect(gone == ["speed"])
        #expect(counter.all == ["rpm"])
    }

    @Test("The snapshot lists button and vehicle data subscriptions, kept across a lost link")
    func snapshot() {
        var tracker = AppStateFixture.tracker(in: .active)
        _ = tracker.buttonSubscriptions.subscribe(["OK"], owner: "a")
        _ = tracker.vehicleDataSubscriptions.subscribe(["speed", "gps"], owner: "a")
        _ = tracker.linkDown(now: AppStateFixture.t0)
        #expect(tracker.snapshot["subscriptions"] == ["buttons": ["OK"], "vehicleData": ["gps", "speed"]])
    }
}
