import NIOCore
import SDLClient
import SDLProtocol
import Testing

@testable import Gateway

@Suite("Session events as gateway events")
struct AppEventMappingTests {
    @Test("Events the session could not keep reach clients as a gap with their count; notifications keep their types")
    func mapping() {
        let lost = AppEventMapping.map(.lost(count: 96))
        #expect(lost?.type == "gap")
        #expect(lost?.data == ["missed": 96])
        let speed = AppEventMapping.map(.app(.notification(name: "OnVehicleData", parameters: ["speed": 42])))
        #expect(speed?.type == "vehicleData" && speed?.data == ["speed": 42])
        let other = AppEventMapping.map(.app(.notification(name: "OnWayPointChange", parameters: [:])))
        #expect(other?.type == "notification" && other?.data["name"] == "OnWayPointChange")
    }

    @Test("An audio chunk is an audioPassThru event with its bytes as base64 and beside it; its start and end are no events")
    func audioPassThru() {
        let recording = SDLAudioPassThruRecording(
            correlationID: 7, format: SDLAudioFormat(samplingRate: "8KHZ", bitsPerSample: "8_BIT", audioType: "PCM"))
        let chunk = AppEventMapping.map(.app(.audioPassThru(.chunk(recording, index: 3, audio: ByteBuffer(bytes: [0x80, 0x81, 0xFF])))))
        #expect(chunk?.type == "audioPassThru")
        #expect(
            chunk?.data == [
                "chunk": 3, "format": ["samplingRate": "8KHZ", "bitsPerSample": "8_BIT", "audioType": "PCM"], "bytes": 3, "audio": "gIH/",
            ]
        )
        #expect(chunk?.attachment == ByteBuffer(bytes: [0x80, 0x81, 0xFF]))
        let orphan = AppEventMapping.map(.app(.audioPassThru(.chunk(nil, index: 1, audio: ByteBuffer()))))
        #expect(orphan?.data["format"] == .null && orphan?.data["audio"] == "")
        #expect(AppEventMapping.map(.app(.audioPassThru(.started(recording)))) == nil)
        #expect(AppEventMapping.map(.app(.audioPassThru(.ended(recording, resultCode: "SUCCESS")))) == nil)
    }
}
