import NIOCore
import SDLClient
import SDLProtocol
import Testing

@Suite("Requests: deadlines per RPC")
struct RequestsDeadlinesTests {
    let rules = SDLRequestDeadlines.default

    func ms(_ value: Int64) -> TimeAmount { .milliseconds(value) }

    @Test("A plain request waits Core's 10000 ms + 1000 ms compensation + a 1000 ms margin")
    func base() {
        #expect(rules.baseTimeout == ms(12_000))
        #expect(rules.timeout(for: "Show", parameters: ["mainField1": "Hi"]) == ms(12_000))
        #expect(rules.timeout(for: "AddCommand", parameters: .emptyObject) == ms(12_000))
        let now = NIODeadline.uptimeNanoseconds(5_000_000_000)
        #expect(rules.deadline(for: "Show", parameters: .emptyObject, now: now) == now + ms(12_000))
    }

    @Test("Alert adds its duration (default 5000 ms), and soft buttons add the user allowance")
    func alert() {
        #expect(rules.timeout(for: "Alert", parameters: ["alertText1": "Hi"]) == ms(17_000))
        #expect(rules.timeout(for: "Alert", parameters: ["duration": 8_000]) == ms(20_000))
        let buttons: SDLJSON = [
            "duration": 3_000,
            "softButtons": [["type": "TEXT", "text": "OK", "softButtonID": 1, "isHighlighted": false, "systemAction": "DEFAULT_ACTION"]],
        ]
        #expect(rules.timeout(for: "Alert", parameters: buttons) == ms(12_000 + 3_000 + 30_000))
        let noButtons: SDLJSON = ["duration": 3_000, "softButtons": []]
        #expect(rules.timeout(for: "Alert", parameters: noButtons) == ms(15_000))
        #expect(rules.timeout(for: "SubtleAlert", parameters: .emptyObject) == ms(17_000))
    }

    @Test("An Alert that speaks longer than it shows waits for the speech")
    func alertSpeech() {
        let text = String(repeating: "a", count: 80)  // 8 s at 100 ms a character
        let parameters: SDLJSON = ["duration": 3_000, "ttsChunks": [["text": .string(text), "type": "TEXT"]]]
        #expect(rules.timeout(for: "Alert", parameters: parameters) == ms(20_000))
    }

    @Test("PerformInteraction adds its timeout (default 10000 ms), twice for BOTH")
    func performInteraction() {
        #expect(rules.timeout(for: "PerformInteraction", parameters: ["interactionMode": "MANUAL_ONLY"]) == ms(22_000))
        #expect(rules.timeout(for: "PerformInteraction", parameters: ["interactionMode": "VR_ONLY", "timeout": 5_000]) == ms(17_000))
        #expect(rules.timeout(for: "PerformInteraction", parameters: ["interactionMode": "BOTH", "timeout": 20_000]) == ms(52_000))
    }

    @Test("Slider adds its timeout (default 10000 ms), ScrollableMessage its timeout (default 30000 ms)")
    func sliderAndScrollable() {
        #expect(rules.timeout(for: "Slider", parameters: ["numTicks": 5, "position": 1, "sliderHeader": "h"]) == ms(22_000))
        #expect(rules.timeout(for: "Slider", parameters: ["timeout": 60_000]) == ms(72_000))
        #expect(rules.timeout(for: "ScrollableMessage", parameters: ["scrollableMessageBody": "x"]) == ms(42_000))
        #expect(rules.timeout(for: "ScrollableMessage", parameters: ["timeout": 1_000]) == ms(13_000))
    }

    @Test("PerformAudioPassThru adds maxDuration")
    func audioPassThru() {
        let parameters: SDLJSON = ["samplingRate": "16KHZ", "maxDuration": 25_000, "bitsPerSample": "16_BIT", "audioType": "PCM"]
        #expect(rules.timeout(for: "PerformAudioPassThru", parameters: parameters) == ms(37_000))
    }

    @Test("Speak adds an estimate from the length of its text")
    func speak() {
        let parameters: SDLJSON = ["ttsChunks": [["text": "Hello", "type": "TEXT"], ["text": "world!", "type": "TEXT"]]]
        #expect(rules.timeout(for: "Speak", parameters: parameters) == ms(12_000 + 11 * 100))
        let slower = SDLRequestDeadlines(speechPerCharacter: .milliseconds(200))
        #expect(slower.timeout(for: "Speak", parameters: parameters) == ms(12_000 + 11 * 200))
    }

    @Test("Durations out of range are clamped and wrong types fall back to the default")
    func clamped() {
        #expect(rules.timeout(for: "Slider", parameters: ["timeout": -5]) == ms(12_000))
        #expect(rules.timeout(for: "PerformAudioPassThru", parameters: ["maxDuration": 9_000_000_000]) == ms(1_012_000))
        #expect(rules.timeout(for: "Alert", parameters: ["duration": "long"]) == ms(17_000))
    }

    @Test("An explicit override wins over every rule")
    func override() {
        #expect(rules.timeout(for: "Alert", parameters: ["duration": 10_000], override: .seconds(2)) == .seconds(2))
        #expect(rules.timeout(for: "Show", parameters: .emptyObject, override: .seconds(60)) == .seconds(60))
        let now = NIODeadline.uptimeNanoseconds(0)
        #expect(rules.deadline(for: "Speak", parameters: .emptyObject, now: now, override: .seconds(3)) == now + .seconds(3))
    }

    @Test("The base is configurable")
    func configurable() {
        let tight = SDLRequestDeadlines(coreTimeout: .seconds(5), coreCompensation: .seconds(1), margin: .milliseconds(500))
        #expect(tight.baseTimeout == ms(6_500))
        #expect(tight.timeout(for: "Slider", parameters: .emptyObject) == ms(16_500))
    }
}
