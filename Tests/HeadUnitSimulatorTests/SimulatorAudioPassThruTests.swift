import NIOCore
import SDLProtocol
import SDLSpec
import Testing

@testable import HeadUnitSimulator

@Suite("Simulator: audio pass-thru, DialNumber, SendLocation")
struct SimulatorAudioPassThruTests {
    static func params(_ maxDuration: Int64, rate: String = "16KHZ", bits: String = "16_BIT") -> SDLJSON {
        [
            "samplingRate": .string(rate), "bitsPerSample": .string(bits), "audioType": "PCM", "maxDuration": .int(maxDuration),
            "audioPassThruDisplayText1": "Say something",
        ]
    }

    static func chunks(_ harness: HeadUnitHarness, _ session: UInt8, _ connection: ConnectionID) -> [ByteBuffer] {
        harness.notifications("OnAudioPassThru", session: session, on: connection).map { $0.bulkData ?? ByteBuffer() }
    }

    static func contexts(_ harness: HeadUnitHarness, _ session: UInt8, _ connection: ConnectionID) -> [String] {
        harness.notifications("OnHMIStatus", session: session, on: connection).compactMap { $0.parameters["systemContext"]?.stringValue }
    }

    @Test("PerformAudioPassThru: HMI_OBSCURED, 3200-byte PCM chunks every 100 ms, SUCCESS at maxDuration, then MAIN")
    func runsToMaxDuration() throws {
        var (harness, connection, session) = FileSuiteSupport.harness()
        let id = harness.request("PerformAudioPassThru", Self.params(1000), session: session, on: connection)
        #expect(harness.response(id, on: connection) == nil)
        #expect(Self.contexts(harness, session, connection).last == "HMI_OBSCURED")
        harness.advance(by: .milliseconds(99))
        #expect(Self.chunks(harness, session, connection).isEmpty)
        harness.advance(by: .milliseconds(1))
        #expect(Self.chunks(harness, session, connection).map(\.readableBytes) == [3200])
        harness.advance(by: .milliseconds(899))
        #expect(Self.chunks(harness, session, connection).count == 9)
        #expect(harness.response(id, on: connection) == nil)
        harness.advance(by: .milliseconds(1))
        let chunks = Self.chunks(harness, session, connection)
        #expect(chunks.map(\.readableBytes) == Array(repeating: 3200, count: 10))
        let response = try #require(harness.response(id, on: connection))
        #expect(response.resultCode == "SUCCESS")
        #expect(Self.contexts(harness, session, connection).last == "MAIN")
        #expect(harness.unit.apps[session]?.audioPassThru == nil)
        // Quiet and deterministic: 16-bit little-endian samples within ±1000, the same each run.
        var first = chunks[0]
        var samples: [Int16] = []
        while let sample = first.readInteger(endianness: .little, as: Int16.self) { samples.append(sample) }
        #expect(samples.count == 1600)
        #expect(samples.allSatisfy { abs(Int($0)) <= 1000 })
        #expect(Set(samples).count > 2)
        #expect(chunks[0] == AudioPassThruTone(sampleRate: 16000, bytesPerSample: 2).pcm(from: 0, count: 1600))
        harness.advance(by: .seconds(1))
        #expect(Self.chunks(harness, session, connection).count == 10)
        #expect(FileSuiteSupport.specProblems(harness, on: connection).isEmpty)
    }

    @Test("A timer that ran late catches up at most 10 chunks per wake-up, the rest right after, none lost or out of order")
    func lateTimerCatchesUpInSteps() {
        var (harness, connection, session) = FileSuiteSupport.harness()
        _ = harness.request("PerformAudioPassThru", Self.params(10_000), session: session, on: connection)
        // The driver's loop stalled for 3.5 s, then wakes up once.
        harness.now = harness.now + .milliseconds(3500)
        harness.apply(harness.unit.advance(to: harness.now))
        #expect(Self.chunks(harness, session, connection).count == HeadUnit.audioPassThruCatchUpChunks)
        // The rest at the next wake-ups, each right after the one before.
        harness.advance(by: .nanoseconds(3))
        let tone = AudioPassThruTone(sampleRate: 16000, bytesPerSample: 2)
        #expect(Self.chunks(harness, session, connection) == (0..<35).map { tone.pcm(from: $0 * 1600, count: 1600) })
    }

    @Test("A maxDuration off the 100 ms grid ends with a shorter last chunk")
    func partialLastChunk() {
        var (harness, connection, session) = FileSuiteSupport.harness()
        let id = harness.request("PerformAudioPassThru", Self.params(1050), session: session, on: connection)
        harness.advance(by: .milliseconds(1050))
        #expect(Self.chunks(harness, session, connection).map(\.readableBytes) == Array(repeating: 3200, count: 10) + [1600])
        #expect(harness.response(id, on: connection)?.resultCode == "SUCCESS")
    }

    @Test("8 kHz 8-bit gives 800-byte chunks; timeScale shortens the recording, not the audio")
    func formatsAndTimeScale() {
        var (harness, connection, session) = FileSuiteSupport.harness(timeScale: 0.1)
        let id = harness.request("PerformAudioPassThru", Self.params(5000, rate: "8KHZ", bits: "8_BIT"), session: session, on: connection)
        harness.advance(by: .milliseconds(499))
        #expect(harness.response(id, on: connection) == nil)
        harness.advance(by: .milliseconds(1))
        #expect(harness.response(id, on: connection)?.resultCode == "SUCCESS")
        let chunks = Self.chunks(harness, session, connection)
        #expect(chunks.map(\.readableBytes) == Array(repeating: 800, count: 50))
        #expect(chunks[0].readableBytesView.allSatisfy { $0 >= 120 && $0 <= 136 })
    }

    @Test("EndAudioPassThru ends it early: PerformAudioPassThru SUCCESS, then EndAudioPassThru SUCCESS; no more chunks")
    func endEarly() throws {
        var (harness, connection, session) = FileSuiteSupport.harness()
        let perform = harness.request("PerformAudioPassThru", Self.params(10_000), session: session, on: connection)
        harness.advance(by: .milliseconds(350))
        #expect(Self.chunks(harness, session, connection).count == 3)
        let end = harness.request("EndAudioPassThru", session: session, on: connection)
        #expect(harness.response(perform, on: connection)?.resultCode == "SUCCESS")
        #expect(harness.response(end, on: connection)?.resultCode == "SUCCESS")
        let responses = (harness.received[connection] ?? []).compactMap { item -> UInt32? in
            guard case .rpc(_, let rpc) = item, rpc.rpcType == .response else { return nil }
            return rpc.correlationID
        }
        #expect(Array(responses.suffix(2)) == [perform, end])
        #expect(Self.contexts(harness, session, connection).last == "MAIN")
        harness.advance(by: .seconds(20))
        #expect(Self.chunks(harness, session, connection).count == 3)
        #expect(FileSuiteSupport.specProblems(harness, on: connection).isEmpty)
    }

    @Test("EndAudioPassThru with nothing running, and a second PerformAudioPassThru while one runs, are REJECTED")
    func rejections() {
        var (harness, connection, session) = FileSuiteSupport.harness()
        #expect(harness.call("EndAudioPassThru", session: session, on: connection)?.resultCode == "REJECTED")
        let first = harness.request("PerformAudioPassThru", Self.params(1000), session: session, on: connection)
        let second = harness.call("PerformAudioPassThru", Self.params(1000), session: session, on: connection)
        #expect(second?.resultCode == "REJECTED")
        #expect(second?.success == false)
        harness.advance(by: .seconds(1))
        #expect(harness.response(first, on: connection)?.resultCode == "SUCCESS")
        #expect(FileSuiteSupport.specProblems(harness, on: connection).isEmpty)
    }

    @Test("An app that disconnects mid pass-thru leaves no timers behind")
    func disconnect() {
        var (harness, connection, session) = FileSuiteSupport.harness()
        _ = harness.request("PerformAudioPassThru", Self.params(5000), session: session, on: connection)
        harness.advance(by: .milliseconds(200))
        harness.closeConnection(connection)
        #expect(harness.unit.timers.count == 0)
        harness.advance(by: .seconds(6))
    }

    @Test("DialNumber: Core strips all but 0-9*#,;+ and refuses what is left empty, blank or with a tab; SendLocation SUCCESS")
    func dialNumberAndSendLocation() {
        var (harness, connection, session) = FileSuiteSupport.harness()
        for (number, code) in [
            ("+1 (555) 123-4567", "SUCCESS"), ("*67#", "SUCCESS"), ("12,34;5", "SUCCESS"), ("call me", "INVALID_DATA"),
            ("   ", "INVALID_DATA"), ("555\t1234", "INVALID_DATA"), ("555\\n1", "INVALID_DATA"),
        ] {
            #expect(
                harness.call("DialNumber", ["number": .string(number)], session: session, on: connection)?.resultCode == code, "\(number)")
        }
        let location = harness.call(
            "SendLocation", ["latitudeDegrees": 42.3, "longitudeDegrees": -83.1, "locationName": "Home"], session: session, on: connection)
        #expect(location?.resultCode == "SUCCESS")
        #expect(FileSuiteSupport.specProblems(harness, on: connection).isEmpty)
    }
}

extension SimulatorAudioPassThruTests {
    @Test("With timeScale 0 the pass-thru ends at once with one chunk, not the whole recording")
    func zeroTimeScale() {
        var (harness, connection, session) = FileSuiteSupport.harness(timeScale: 0)
        let id = harness.request("PerformAudioPassThru", Self.params(1_000_000, rate: "44KHZ"), session: session, on: connection)
        harness.advance(by: .milliseconds(1))
        #expect(harness.response(id, on: connection)?.resultCode == "SUCCESS")
        #expect(Self.chunks(harness, session, connection).map(\.readableBytes) == [8820])
    }
}
