import Foundation
import NIOCore
import SDLProtocol

/// The audio a PerformAudioPassThru asks for (MOBILE_API.xml `AudioPassThruCapabilities`:
/// `SamplingRate`, `BitsPerSample`, `AudioType`): the head unit streams raw PCM in it as the bulk
/// data of OnAudioPassThru, mono (SDL-PROTOCOL.md §c, bulk data).
public struct SDLAudioFormat: Sendable, Hashable {
    /// `8KHZ`, `16KHZ`, `22KHZ` or `44KHZ`.
    public var samplingRate: String
    /// `8_BIT` or `16_BIT`.
    public var bitsPerSample: String
    /// `PCM`.
    public var audioType: String

    public init(samplingRate: String, bitsPerSample: String, audioType: String) {
        self.samplingRate = samplingRate
        self.bitsPerSample = bitsPerSample
        self.audioType = audioType
    }

    /// From a PerformAudioPassThru's parameters; nil when one of the three is missing.
    public init?(request parameters: SDLJSON) {
        guard let rate = parameters["samplingRate"]?.stringValue, let bits = parameters["bitsPerSample"]?.stringValue,
            let type = parameters["audioType"]?.stringValue
        else { return nil }
        self.init(samplingRate: rate, bitsPerSample: bits, audioType: type)
    }

    /// Samples per second: 8000, 16000, 22050 or 44100 (the spec's `22KHZ` is CD audio's half);
    /// nil for a name the spec does not have.
    public var samplesPerSecond: Int? {
        ["8KHZ": 8000, "16KHZ": 16000, "22KHZ": 22050, "44KHZ": 44100][samplingRate]
    }

    /// 8 or 16; nil for a name the spec does not have.
    public var bitsPerSampleCount: Int? {
        ["8_BIT": 8, "16_BIT": 16][bitsPerSample]
    }

    /// Bytes of PCM per second of audio, when the rate and size are known.
    public var bytesPerSecond: Int? {
        guard let rate = samplesPerSecond, let bits = bitsPerSampleCount else { return nil }
        return rate * bits / 8
    }

    public var json: SDLJSON {
        ["samplingRate": .string(samplingRate), "bitsPerSample": .string(bitsPerSample), "audioType": .string(audioType)]
    }
}

/// One PerformAudioPassThru: the request's correlation id and the format it asked for.
public struct SDLAudioPassThruRecording: Sendable, Hashable {
    public var correlationID: UInt32
    /// nil when the request named no complete format (the head unit then refuses it).
    public var format: SDLAudioFormat?

    public init(correlationID: UInt32, format: SDLAudioFormat?) {
        self.correlationID = correlationID
        self.format = format
    }
}

/// What ``SDLAppStateTracker`` tells of an audio pass-thru: the request went out, a chunk of
/// audio arrived (OnAudioPassThru with its bulk data), the response ended it.
public enum SDLAudioPassThruEvent: Sendable, Hashable {
    case started(SDLAudioPassThruRecording)
    /// Chunk `index` (from 1) of `recording`; `recording` is nil for audio that arrived with no
    /// PerformAudioPassThru of this session running (sent before a reconnection, say).
    case chunk(SDLAudioPassThruRecording?, index: Int, audio: ByteBuffer)
    /// The PerformAudioPassThru was answered (`resultCode`), or the link went down
    /// (`resultCode` nil).
    case ended(SDLAudioPassThruRecording, resultCode: String?)

    /// `chunk`: `{"chunk", "format", "bytes", "audio"}` with the audio as base64;
    /// `started`: `{"state": "started", "format"}`; `ended`: `{"state": "ended", "resultCode"}`.
    public var json: SDLJSON {
        switch self {
        case .started(let recording):
            return ["state": "started", "correlationID": .int(Int64(recording.correlationID)), "format": recording.format?.json ?? .null]
        case .chunk(let recording, let index, let audio):
            return [
                "chunk": .int(Int64(index)),
                "format": recording?.format?.json ?? .null,
                "bytes": .int(Int64(audio.readableBytes)),
                "audio": .string(Data(audio.readableBytesView).base64EncodedString()),
            ]
        case .ended(let recording, let resultCode):
            return ["state": "ended", "correlationID": .int(Int64(recording.correlationID)), "resultCode": resultCode.map(SDLJSON.string) ?? .null]
        }
    }
}
