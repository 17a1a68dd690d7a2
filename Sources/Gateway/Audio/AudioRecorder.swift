import NIOCore
import SDLClient
import Synchronization

/// An app's audio pass-thru recordings, fed by its event pump (``SDLAudioPassThruEvent``) in the
/// order the session saw them: the last one, whichever way its PerformAudioPassThru was sent
/// (`POST …/audio-pass-thru`, the raw RPC, a WebSocket RPC), until the next one starts. A
/// request the head unit refuses before any audio never started: the last recording stays.
final class AudioRecorder: Sendable {
    private struct State: Sendable {
        /// Sent, no audio and no answer yet.
        var pending: AudioRecording?
        var last: AudioRecording?
        var nextWaiter: UInt64 = 0
        /// Callers of ``ended(correlationID:within:)`` by the recording they wait for.
        var waiters: [UInt64: (correlationID: UInt32, continuation: CheckedContinuation<AudioRecording?, Never>)] = [:]
    }

    /// The most PCM one recording keeps (`limits.audioRecordingSize`).
    let limit: Int
    private let state = Mutex(State())

    init(limit: Int) {
        self.limit = limit
    }

    /// The last recording that started, ended or still running.
    var last: AudioRecording? { state.withLock { $0.last } }

    func apply(_ event: SDLAudioPassThruEvent) {
        let woken = state.withLock { state -> [(CheckedContinuation<AudioRecording?, Never>, AudioRecording?)] in
            switch event {
            case .started(let recording):
                guard let format = recording.format else { return [] }
                state.pending = AudioRecording(correlationID: recording.correlationID, format: format, limit: limit)
                return []
            case .chunk(let recording, _, let audio):
                guard let id = recording?.correlationID else { return [] }
                if let pending = state.pending, pending.correlationID == id {
                    state.last = pending
                    state.pending = nil
                }
                guard state.last?.correlationID == id, state.last?.ended == false else { return [] }
                state.last?.append(audio)
                return []
            case .ended(let recording, let resultCode):
                let id = recording.correlationID
                if var pending = state.pending, pending.correlationID == id {
                    state.pending = nil
                    // Answered without audio: a refusal leaves the last recording; a success
                    // (ended at once) is the new last, empty.
                    if resultCode == "SUCCESS" {
                        pending.end(resultCode: resultCode)
                        state.last = pending
                    }
                } else if state.last?.correlationID == id {
                    state.last?.end(resultCode: resultCode)
                }
                let ended = state.last?.correlationID == id ? state.last : nil
                let waiting = state.waiters.filter { $0.value.correlationID == id }
                for key in waiting.keys { state.waiters[key] = nil }
                return waiting.values.map { ($0.continuation, ended) }
            }
        }
        for (continuation, recording) in woken { continuation.resume(returning: recording) }
    }

    /// Waits until the recording of the PerformAudioPassThru with `correlationID` ended (its
    /// answer reached the event pump, after its last chunk) and returns it; nil when it was
    /// refused without audio, or after `limit`, or when the caller is cancelled.
    func ended(correlationID: UInt32, within limit: Duration) async -> AudioRecording? {
        await waitWithin(limit) { await self.waitForEnd(correlationID) }
    }

    private func waitForEnd(_ correlationID: UInt32) async -> AudioRecording? {
        let key = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let done = state.withLock { state -> AudioRecording?? in
                    if let last = state.last, last.correlationID == correlationID, last.ended { return .some(last) }
                    if Task.isCancelled { return .some(nil) }
                    state.waiters[key] = (correlationID, continuation)
                    return .none
                }
                if let done { continuation.resume(returning: done) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: key) }
            waiter?.continuation.resume(returning: nil)
        }
    }
}
