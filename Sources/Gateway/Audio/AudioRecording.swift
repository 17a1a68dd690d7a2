import NIOCore
import SDLClient
import SDLProtocol

/// One audio pass-thru as the gateway keeps it for `GET /v1/apps/{id}/audio-pass-thru/last.wav`:
/// its format (from the PerformAudioPassThru that started it), its chunks of PCM in order and how
/// it ended. Pure; at most ``limit`` bytes are kept, the rest only counted.
struct AudioRecording: Sendable {
    enum State: Sendable, Hashable {
        case recording
        /// Answered with `resultCode`, or nil when the link went down first.
        case ended(resultCode: String?)
    }

    let correlationID: UInt32
    let format: SDLAudioFormat
    let limit: Int
    private(set) var state = State.recording
    private(set) var pcm = ByteBuffer()
    /// Chunks received, kept or not.
    private(set) var chunks = 0
    /// Bytes received, kept or not.
    private(set) var bytes = 0

    init(correlationID: UInt32, format: SDLAudioFormat, limit: Int) {
        self.correlationID = correlationID
        self.format = format
        self.limit = limit
    }

    /// Whether bytes arrived beyond ``limit`` (`limits.audioRecordingSize`): the WAV holds the first ones.
    var truncated: Bool { bytes > pcm.readableBytes }

    var ended: Bool { state != .recording }

    mutating func append(_ audio: ByteBuffer) {
        chunks += 1
        bytes += audio.readableBytes
        let room = max(limit - pcm.readableBytes, 0)
        pcm.writeImmutableBuffer(audio.getSlice(at: audio.readerIndex, length: min(room, audio.readableBytes)) ?? ByteBuffer())
    }

    mutating func end(resultCode: String?) {
        if state == .recording { state = .ended(resultCode: resultCode) }
    }

    /// The kept PCM as a WAV file (RIFF `WAVE`, `fmt ` chunk of PCM, format 1, mono, then `data`):
    /// nil for a format whose rate or sample size the spec does not name.
    var wav: ByteBuffer? {
        guard let rate = format.samplesPerSecond, let bits = format.bitsPerSampleCount, format.audioType == "PCM" else { return nil }
        return WAVFile.encode(pcm: pcm, samplesPerSecond: rate, bitsPerSample: bits)
    }

    /// `{"correlationID", "format", "state", "resultCode", "chunks", "bytes", "keptBytes", "truncated", "durationMs"}`.
    var json: SDLJSON {
        var members: [String: SDLJSON] = [
            "correlationID": .int(Int64(correlationID)),
            "format": format.json,
            "chunks": .int(Int64(chunks)),
            "bytes": .int(Int64(bytes)),
            "keptBytes": .int(Int64(pcm.readableBytes)),
            "truncated": .bool(truncated),
        ]
        switch state {
        case .recording:
            members["state"] = "recording"
        case .ended(let resultCode):
            members["state"] = "ended"
            members["resultCode"] = resultCode.map(SDLJSON.string) ?? .null
        }
        if let perSecond = format.bytesPerSecond, perSecond > 0 {
            members["durationMs"] = .int(Int64(bytes * 1000 / perSecond))
        }
        return .object(members)
    }
}
