import NIOCore
import SDLProtocol
import SDLSpec
import Testing

@testable import SDLClient

/// ``SDLAppStateTracker`` and audio pass-thru: the request sent starts a recording, each
/// OnAudioPassThru is its next chunk with its bulk data, the response ends it.
@Suite("App state: audio pass-thru recordings")
struct AppStateAudioPassThruTests {
    static let t0 = AppStateFixture.t0
    static let catalog = SDLCatalog.builtIn

    static func message(
        _ type: SDLRPCType, _ function: String, _ correlationID: UInt32 = 0, _ parameters: SDLJSON = [:], bulk: [UInt8]? = nil
    ) -> SDLRPCMessage {
        let id = catalog.functionID(named: function) ?? 0
        return SDLRPCMessage(
            rpcType: type, functionID: id, correlationID: correlationID, parameters: parameters,
            bulkData: bulk.map { ByteBuffer(bytes: $0) })
    }

    static let request: SDLJSON = ["samplingRate": "16KHZ", "bitsPerSample": "16_BIT", "audioType": "PCM", "maxDuration": 2000]
    static let format = SDLAudioFormat(samplingRate: "16KHZ", bitsPerSample: "16_BIT", audioType: "PCM")

    @Test("Sent, two chunks with their bytes numbered from 1, answered: started, chunk 1, chunk 2, ended with the result code")
    func lifecycle() {
        var tracker = SDLAppStateTracker()
        let recording = SDLAudioPassThruRecording(correlationID: 5, format: Self.format)
        #expect(
            tracker.sent(Self.message(.request, "PerformAudioPassThru", 5, Self.request), now: Self.t0) == [
                .audioPassThru(.started(recording))
            ])
        #expect(tracker.audioPassThru == recording)
        let first = tracker.apply(Self.message(.notification, "OnAudioPassThru", bulk: [1, 2, 3, 4]), now: Self.t0)
        #expect(first == [.audioPassThru(.chunk(recording, index: 1, audio: ByteBuffer(bytes: [1, 2, 3, 4])))])
        let second = tracker.apply(Self.message(.notification, "OnAudioPassThru", bulk: [5, 6]), now: Self.t0)
        #expect(second == [.audioPassThru(.chunk(recording, index: 2, audio: ByteBuffer(bytes: [5, 6])))])
        #expect(
            tracker.apply(response: Self.message(.response, "Show", 5, ["success": true, "resultCode": "SUCCESS"]), now: Self.t0) == [])
        let ended = tracker.apply(
            response: Self.message(.response, "PerformAudioPassThru", 5, ["success": true, "resultCode": "SUCCESS"]), now: Self.t0)
        #expect(ended == [.audioPassThru(.ended(recording, resultCode: "SUCCESS"))])
        #expect(tracker.audioPassThru == nil)
        // Audio after the end belongs to no recording.
        #expect(
            tracker.apply(Self.message(.notification, "OnAudioPassThru", bulk: [7]), now: Self.t0) == [
                .audioPassThru(.chunk(nil, index: 3, audio: ByteBuffer(bytes: [7])))
            ])
    }

    @Test(
        "A second request while one runs (Core answers it REJECTED) leaves the running one; once its answer is overdue, a new one replaces it"
    )
    func secondRequest() {
        var tracker = SDLAppStateTracker()
        _ = tracker.sent(Self.message(.request, "PerformAudioPassThru", 5, Self.request), now: Self.t0)
        #expect(tracker.sent(Self.message(.request, "PerformAudioPassThru", 6, Self.request), now: Self.t0 + .seconds(1)) == [])
        #expect(
            tracker.apply(
                response: Self.message(.response, "PerformAudioPassThru", 6, ["success": false, "resultCode": "REJECTED"]), now: Self.t0)
                == [])
        #expect(tracker.audioPassThru?.correlationID == 5)
        // 2 s of maxDuration and 12 s of margin later, the answer to 5 is not coming.
        let late = tracker.sent(Self.message(.request, "PerformAudioPassThru", 7, Self.request), now: Self.t0 + .seconds(14))
        #expect(late == [.audioPassThru(.started(SDLAudioPassThruRecording(correlationID: 7, format: Self.format)))])
        #expect(tracker.audioPassThruChunks == 0)
    }

    @Test("The link going down ends a running recording without a result code; other requests start nothing")
    func linkDown() {
        var tracker = SDLAppStateTracker()
        #expect(tracker.sent(Self.message(.request, "Show", 1, ["mainField1": "x"]), now: Self.t0) == [])
        _ = tracker.sent(Self.message(.request, "PerformAudioPassThru", 2, ["maxDuration": 1000]), now: Self.t0)
        #expect(tracker.audioPassThru?.format == nil, "no format named: the head unit will refuse it")
        let events = tracker.linkDown(now: Self.t0)
        #expect(events.contains(.audioPassThru(.ended(SDLAudioPassThruRecording(correlationID: 2, format: nil), resultCode: nil))))
        #expect(tracker.audioPassThru == nil)
    }

    @Test("The format's numbers: samples per second, bits, bytes per second; unknown names have none")
    func formatNumbers() {
        #expect(Self.format.samplesPerSecond == 16000 && Self.format.bitsPerSampleCount == 16 && Self.format.bytesPerSecond == 32000)
        #expect(SDLAudioFormat(samplingRate: "22KHZ", bitsPerSample: "8_BIT", audioType: "PCM").bytesPerSecond == 22050)
        #expect(SDLAudioFormat(samplingRate: "96KHZ", bitsPerSample: "8_BIT", audioType: "PCM").bytesPerSecond == nil)
    }
}
