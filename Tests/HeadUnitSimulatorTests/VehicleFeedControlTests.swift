import NIOCore
import SDLProtocol
import Testing

@testable import HeadUnitSimulator

/// `PUT /feed`: the generated drive paused (no OnVehicleData, no wake-ups), played on where it
/// stopped (the pause does not count), and started again from its beginning.
@Suite("Vehicle data feed: pause, play, restart")
struct VehicleFeedControlTests {
    @Test("Paused, nothing is sent and nothing is due; played, it goes on from where it stopped; restarted, from zero")
    func pausePlayRestart() throws {
        var (harness, connection, session) = FileSuiteSupport.harness()
        #expect(harness.call("SubscribeVehicleData", ["speed": true], session: session, on: connection)?.resultCode == "SUCCESS")
        harness.advance(by: .seconds(2))
        let sent = harness.notifications("OnVehicleData", session: session, on: connection).count
        #expect(sent >= 15)

        let (paused, _) = harness.unit.setFeed(playing: false, restart: false, now: harness.now)
        #expect(paused["playing"] == false)
        let pausedAt = try #require(paused["elapsedSeconds"]?.doubleValue)
        #expect(harness.unit.nextVehicleSample == nil)
        harness.advance(by: .seconds(5))
        #expect(harness.notifications("OnVehicleData", session: session, on: connection).count == sent)
        #expect(harness.unit.feedStatus(now: harness.now)["elapsedSeconds"]?.doubleValue == pausedAt)

        let (playing, actions) = harness.unit.setFeed(playing: true, restart: false, now: harness.now)
        harness.apply(actions)
        #expect(playing["playing"] == true)
        #expect(playing["elapsedSeconds"]?.doubleValue == pausedAt)
        harness.advance(by: .seconds(1))
        #expect(harness.notifications("OnVehicleData", session: session, on: connection).count > sent)
        let later = try #require(harness.unit.feedStatus(now: harness.now)["elapsedSeconds"]?.doubleValue)
        #expect(abs(later - (pausedAt + 1)) < 0.001)

        let (restarted, _) = harness.unit.setFeed(playing: nil, restart: true, now: harness.now)
        #expect(restarted["source"] == "generated")
        #expect(restarted["elapsedSeconds"]?.doubleValue == 0)
    }
}
