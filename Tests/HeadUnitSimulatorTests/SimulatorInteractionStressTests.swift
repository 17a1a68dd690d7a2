import Logging
import NIOCore
import SDLProtocol
import SDLTime
import Synchronization
import TestSupport
import Testing

@testable import HeadUnitModel
@testable import HeadUnitSimulator

/// Many apps' interactions at once against the simulator's driver on a manual clock: every
/// request is answered exactly once, whether its timer, a control-API answer or a soft-button
/// press ends it, and whichever of them comes first. Schemathesis once saw a keyboard
/// PerformInteraction go unanswered at `--time-scale 0.01`; this drives that shape of load
/// (interactions of 100 ms, answers racing their timers) with nothing but the clock in between.
@Suite("Simulator: many interactions at once on a manual clock", .timeLimit(.minutes(2)))
struct SimulatorInteractionStressTests {
    static let apps = 12
    static let rounds = 16
    static let choices: SDLJSON = [
        "interactionChoiceSetID": 100,
        "choiceSet": [
            ["choiceID": 1, "menuName": "Red", "vrCommands": ["Red"]], ["choiceID": 2, "menuName": "Blue", "vrCommands": ["Blue"]],
        ],
    ]

    /// The request an app makes in a round, and the result codes that may answer it.
    static func interaction(app: Int, round: Int) -> (String, SDLJSON, Set<String>) {
        switch (app + round) % 5 {
        case 0:
            return (
                "PerformInteraction",
                [
                    "initialText": "Where to?", "interactionMode": "MANUAL_ONLY", "interactionLayout": "KEYBOARD",
                    "interactionChoiceSetIDList": [], "timeout": 10000,
                ], ["SUCCESS", "TIMED_OUT"]
            )
        case 1:
            return (
                "PerformInteraction",
                ["initialText": "Colour", "interactionMode": "BOTH", "interactionChoiceSetIDList": [100], "timeout": 10000],
                ["SUCCESS", "TIMED_OUT"]
            )
        case 2:
            return (
                "Alert",
                [
                    "alertText1": "Hello", "duration": 5000,
                    "softButtons": [["type": "TEXT", "text": "OK", "softButtonID": 7, "systemAction": "DEFAULT_ACTION"]],
                ], ["SUCCESS"]
            )
        case 3:
            return ("Slider", ["numTicks": 5, "position": 2, "sliderHeader": "Volume", "timeout": 10000], ["SUCCESS", "TIMED_OUT"])
        default:
            return ("Speak", ["ttsChunks": [["text": "Turn left in two hundred metres", "type": "TEXT"]]], ["SUCCESS"])
        }
    }

    /// What the control API does to an app's open interaction, by a number drawn per attempt.
    static func answer(_ unit: inout HeadUnit, appID: String, draw: UInt64, now: NIODeadline) -> [HeadUnitAction] {
        guard let open = unit.app(withID: appID)?.openInteraction else { return [] }
        let answer: InteractionAnswer
        switch open.function {
        case "PerformInteraction" where open.parameters["interactionLayout"]?.stringValue == "KEYBOARD":
            answer = InteractionAnswer(manualTextEntry: "Paris")
        case "PerformInteraction":
            answer = InteractionAnswer(choiceID: Int64(draw % 2) + 1)
        case "Slider":
            answer = InteractionAnswer(sliderPosition: Int64(draw % 5) + 1)
        case "Alert" where draw % 2 == 0:
            return (try? unit.pressButton("CUSTOM_BUTTON", mode: "SHORT", appID: appID, softButtonID: 7, now: now).1) ?? []
        default:
            answer = InteractionAnswer()
        }
        return (try? unit.answerInteraction(appID: appID, answer, now: now).1) ?? []
    }

    @Test(
        "12 apps × 16 interactions (keyboard, choices, alerts, sliders, speech) at time scale 0.01: each answered once, with a code it may carry"
    )
    func everyInteractionAnswered() async throws {
        var configuration = HeadUnitConfiguration()
        configuration.timeScale = 0.01
        let clock = SDLManualClock()
        let simulator = SimulatedHeadUnit(configuration: configuration, clock: clock, logger: Logger.test("test"))
        let progress = Progress()
        try await simulator.withListening { port in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for app in 0..<Self.apps {
                    group.addTask {
                        defer { progress.finished.add(1, ordering: .relaxed) }
                        let client = try await RawSDLClient(port: port)
                        try await client.withSession { session in
                            _ = try await session.start()
                            var registration = SimulatorEndToEndTests.registration.objectValue ?? [:]
                            registration["appID"] = .string("stress-\(app)")
                            registration["appName"] = .string("Stress \(app)")
                            #expect(
                                try await session.call("RegisterAppInterface", .object(registration)).parameters["resultCode"] == "SUCCESS")
                            #expect(
                                try await session.call("CreateInteractionChoiceSet", Self.choices).parameters["resultCode"] == "SUCCESS")
                            for round in 0..<Self.rounds {
                                let (function, parameters, allowed) = Self.interaction(app: app, round: round)
                                let response = try await session.call(function, parameters)
                                let code = response.parameters["resultCode"]?.stringValue ?? "none"
                                #expect(
                                    allowed.contains(code), "app \(app) round \(round): \(function) answered \(code) \(response.parameters)"
                                )
                                progress.answered.withLock { $0["stress-\(app)", default: []].append("\(function) \(code)") }
                            }
                        }
                    }
                }
                // The driver: time moves in steps shorter than any interaction, and the control API
                // answers whatever the even apps have open, racing the timers. Bounded: far more virtual time than
                // the rounds need (each ends within 100 ms), and it stops as soon as every app is done.
                var random = SplitMix64(seed: 20261126)
                var steps = 0
                while progress.finished.load(ordering: .relaxed) < Self.apps, steps < 200_000 {
                    steps += 1
                    if random.next() % 3 == 0 {
                        // Only the even apps: the odd ones' interactions end by their timers alone.
                        let appID = "stress-\(random.next() % UInt64(Self.apps / 2) * 2)"
                        let draw = random.next()
                        simulator.perform { unit, now in ((), Self.answer(&unit, appID: appID, draw: draw, now: now)) }
                    } else {
                        clock.advance(by: .milliseconds(Int64(random.next() % 9) + 1))
                    }
                    await Task.yield()
                }
                if progress.finished.load(ordering: .relaxed) < Self.apps {
                    let open = simulator.snapshot.apps.values.compactMap { app in
                        app.openInteraction.map { "\(app.appID): \($0.function) #\($0.correlationID)" }
                    }
                    Issue.record(
                        "after \(steps) steps \(Self.apps - progress.finished.load(ordering: .relaxed)) apps still wait for an answer; open: \(open)"
                    )
                    group.cancelAll()
                }
                try await group.waitForAll()
            }
        }
        let counts = progress.answered.withLock { $0.mapValues(\.count) }
        #expect(counts.count == Self.apps)
        #expect(counts.values.allSatisfy { $0 == Self.rounds }, "\(counts)")
        #expect(simulator.snapshot.apps.values.allSatisfy { $0.openInteraction == nil })
    }

    /// What the apps' tasks report: how many are done, and each app's answers in order.
    final class Progress: Sendable {
        let finished = Atomic<Int>(0)
        let answered = Mutex<[String: [String]]>([:])
    }
}
