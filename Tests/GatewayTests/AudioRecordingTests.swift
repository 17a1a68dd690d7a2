import NIOCore
import SDLClient
import SDLProtocol
import Testing

@testable import Gateway

@Suite("Audio recordings: the WAV file and what the recorder keeps", .timeLimit(.minutes(1)))
struct AudioRecordingTests {
    static let format = SDLAudioFormat(samplingRate: "8KHZ", bitsPerSample: "8_BIT", audioType: "PCM")

    @Test("WAV of three 8-bit samples at 8 kHz: the golden bytes")
    func goldenWAV() {
        let wav = WAVFile.encode(pcm: ByteBuffer(bytes: [0x80, 0xFF, 0x00]), samplesPerSecond: 8000, bitsPerSample: 8)
        let expected: [UInt8] = [
            0x52, 0x49, 0x46, 0x46, 0x27, 0x00, 0x00, 0x00, 0x57, 0x41, 0x56, 0x45,  // "RIFF", 39, "WAVE"
            0x66, 0x6D, 0x74, 0x20, 0x10, 0x00, 0x00, 0x00,  // "fmt ", 16
            0x01, 0x00, 0x01, 0x00, 0x40, 0x1F, 0x00, 0x00,  // PCM, mono, 8000 Hz
            0x40, 0x1F, 0x00, 0x00, 0x01, 0x00, 0x08, 0x00,  // 8000 bytes/s, align 1, 8 bits
            0x64, 0x61, 0x74, 0x61, 0x03, 0x00, 0x00, 0x00,  // "data", 3
            0x80, 0xFF, 0x00,
        ]
        #expect(Array(wav.readableBytesView) == expected)
    }

    @Test("A recording keeps at most its limit and says it was truncated; its duration counts every byte received")
    func limit() {
        var recording = AudioRecording(correlationID: 1, format: Self.format, limit: 5)
        recording.append(ByteBuffer(bytes: [1, 2, 3]))
        recording.append(ByteBuffer(bytes: [4, 5, 6, 7]))
        #expect(recording.chunks == 2 && recording.bytes == 7 && recording.truncated)
        #expect(Array(recording.wav?.readableBytesView.suffix(5) ?? []) == [1, 2, 3, 4, 5])
        #expect(recording.json["keptBytes"] == 5 && recording.json["state"] == "recording" && recording.json["durationMs"] == 0)
        recording.end(resultCode: "SUCCESS")
        recording.end(resultCode: "ABORTED")
        #expect(recording.json["resultCode"] == "SUCCESS", "the first end stands")
    }

    @Test(
        "The recorder: a refused request leaves the last recording; audio of another request is not mixed in; a waiter gets the ended one")
    func recorder() async {
        let recorder = AudioRecorder(limit: 1 << 20)
        let first = SDLAudioPassThruRecording(correlationID: 1, format: Self.format)
        recorder.apply(.started(first))
        #expect(recorder.last == nil, "nothing recorded until audio comes")
        recorder.apply(.chunk(first, index: 1, audio: ByteBuffer(bytes: [9, 9])))
        recorder.apply(.chunk(nil, index: 2, audio: ByteBuffer(bytes: [0])))
        recorder.apply(.chunk(SDLAudioPassThruRecording(correlationID: 8, format: Self.format), index: 1, audio: ByteBuffer(bytes: [0])))
        async let waited = recorder.ended(correlationID: 1, within: .seconds(30))
        recorder.apply(.ended(first, resultCode: "SUCCESS"))
        #expect(await waited?.bytes == 2)
        let refused = SDLAudioPassThruRecording(correlationID: 2, format: Self.format)
        recorder.apply(.started(refused))
        recorder.apply(.ended(refused, resultCode: "DISALLOWED"))
        #expect(recorder.last?.correlationID == 1 && recorder.last?.bytes == 2)
        let empty = SDLAudioPassThruRecording(correlationID: 3, format: Self.format)
        recorder.apply(.started(empty))
        recorder.apply(.ended(empty, resultCode: "SUCCESS"))
        #expect(recorder.last?.correlationID == 3 && recorder.last?.bytes == 0, "ended at once with success: the new last, empty")
        #expect(await recorder.ended(correlationID: 3, within: .seconds(30))?.correlationID == 3, "already ended: answered at once")
        #expect(await recorder.ended(correlationID: 99, within: .milliseconds(10)) == nil, "never ends: the limit answers")
    }

    @Test("The body of POST …/audio-pass-thru: defaults, seconds for maxDuration")
    func parameters() throws {
        let parameters = try AudioRoutes.parameters(["seconds": 1.5, "muteAudio": true])
        #expect(
            parameters == ["samplingRate": "16KHZ", "bitsPerSample": "16_BIT", "audioType": "PCM", "maxDuration": 1500, "muteAudio": true])
        #expect(try AudioRoutes.parameters([:])["maxDuration"] == 5000)
        #expect(throws: GatewayError.self) { try AudioRoutes.parameters(["seconds": "two"]) }
        #expect(throws: GatewayError.self) { try AudioRoutes.parameters(["seconds": 1001]) }
    }
}
