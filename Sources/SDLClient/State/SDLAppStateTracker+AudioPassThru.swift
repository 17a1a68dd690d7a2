import NIOCore
import SDLProtocol
import SDLSpec

/// Audio pass-thru (MOBILE_API.xml PerformAudioPassThru, OnAudioPassThru, EndAudioPassThru): the
/// request sent starts a recording in the format it asks for, each OnAudioPassThru's bulk data
/// is its next chunk of PCM, and the request's response ends it (EndAudioPassThru makes the head
/// unit answer it early). Core answers a second PerformAudioPassThru while one runs `REJECTED`,
/// so a request sent meanwhile leaves the running recording alone, unless that one's answer is
/// overdue.
extension SDLAppStateTracker {
    /// How long after `maxDuration` a recording's answer may come: Core's default timeout
    /// (10 s) plus the request margin of ``SDLRequestDeadlines``.
    static let audioPassThruAnswerMargin = TimeAmount.seconds(12)

    /// Notes a request the app sent: a PerformAudioPassThru starts a recording.
    public mutating func sent(_ request: SDLRPCMessage, now: NIODeadline) -> [SDLAppEvent] {
        guard catalog.functionName(forID: request.functionID) == "PerformAudioPassThru" else { return [] }
        if audioPassThru != nil, let deadline = audioPassThruDeadline, now < deadline { return [] }
        let recording = SDLAudioPassThruRecording(correlationID: request.correlationID, format: SDLAudioFormat(request: request.parameters))
        let duration = TimeAmount.milliseconds(max(request.parameters["maxDuration"]?.intValue ?? 0, 0))
        audioPassThru = recording
        audioPassThruDeadline = now + duration + Self.audioPassThruAnswerMargin
        audioPassThruChunks = 0
        return [.audioPassThru(.started(recording))]
    }

    /// An OnAudioPassThru: the next chunk of the running recording, or a chunk of none.
    mutating func audioChunk(_ audio: ByteBuffer) -> SDLAppEvent {
        audioPassThruChunks += 1
        return .audioPassThru(.chunk(audioPassThru, index: audioPassThruChunks, audio: audio))
    }

    /// The running recording's response ends it.
    mutating func audioPassThruAnswered(_ response: SDLRPCMessage, name: String) -> [SDLAppEvent] {
        guard name == "PerformAudioPassThru", let recording = audioPassThru, recording.correlationID == response.correlationID else {
            return []
        }
        audioPassThru = nil
        audioPassThruDeadline = nil
        return [.audioPassThru(.ended(recording, resultCode: response.parameters["resultCode"]?.stringValue ?? "GENERIC_ERROR"))]
    }

    /// The link went down: the running recording ends without an answer.
    mutating func audioPassThruLinkDown() -> [SDLAppEvent] {
        guard let recording = audioPassThru else { return [] }
        audioPassThru = nil
        audioPassThruDeadline = nil
        return [.audioPassThru(.ended(recording, resultCode: nil))]
    }
}
