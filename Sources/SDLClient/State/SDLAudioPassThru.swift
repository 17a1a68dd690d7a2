import Foundation
import NIOCore
import SDLProtocol

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
            return [
                "state": "ended", "correlationID": .int(Int64(recording.correlationID)),
                "resultCode": resultCode.map(SDLJSON.string) ?? .null,
            ]
        }
    }
}
