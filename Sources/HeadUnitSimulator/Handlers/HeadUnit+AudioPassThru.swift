import NIOCore
import SDLProtocol

/// PerformAudioPassThru and EndAudioPassThru; DialNumber and SendLocation.
///
/// PerformAudioPassThru answers later: the app's system context turns HMI_OBSCURED, and an
/// OnAudioPassThru with 100 ms of PCM (the request's samplingRate and bitsPerSample; 3200 bytes at
/// 16 kHz 16-bit) follows every 100 ms until `maxDuration` (both scaled by `timeScale`), when the
/// request is answered SUCCESS; EndAudioPassThru ends it early, also with SUCCESS.
extension HeadUnit {
    static let otherHandlers: [String: RequestHandler] = [
        "PerformAudioPassThru": { $0.performAudioPassThru($1) },
        "EndAudioPassThru": { $0.endAudioPassThruRequest($1) },
        "DialNumber": { $0.dialNumber($1) },
        "SendLocation": { _, _ in .success() },
    ]

    static let audioPassThruChunkMilliseconds = 100

    /// How long a chunk of audio takes to record here.
    var audioPassThruChunkInterval: TimeAmount {
        max(configuration.scaled(milliseconds: Int64(Self.audioPassThruChunkMilliseconds)), .nanoseconds(1))
    }

    mutating func performAudioPassThru(_ request: Request) -> Reply {
        changeApp(request) { unit, app in
            if app.audioPassThru != nil {
                return .refused(.result("REJECTED", info: "An audio pass-thru is already running"))
            }
            let params = request.parameters
            guard
                let tone = AudioPassThruTone(
                    samplingRate: params["samplingRate"]?.stringValue ?? "", bitsPerSample: params["bitsPerSample"]?.stringValue ?? ""
                )
            else { return .refused(.result("INVALID_DATA", info: "Unknown samplingRate or bitsPerSample")) }
            let maxDuration = Int(params["maxDuration"]?.intValue ?? 0)
            let chunkTimer = unit.timers.schedule(
                at: request.now + unit.audioPassThruChunkInterval, .audioPassThruChunk(session: request.sessionID))
            let endTimer = unit.timers.schedule(
                at: request.now + unit.configuration.scaled(milliseconds: Int64(maxDuration)), .audioPassThruEnd(session: request.sessionID)
            )
            app.audioPassThru = AudioPassThruState(
                correlationID: request.correlationID, functionID: request.functionID, chunkTimer: chunkTimer, endTimer: endTimer,
                chunksSent: 0,
                tone: tone, maxDuration: maxDuration, start: request.now
            )
            return .done { unit in
                unit.setHMIStatus(session: request.sessionID, systemContext: "HMI_OBSCURED", now: request.now)
                return .later
            }
        }
    }

    /// At most this many chunks (one second of audio) go out at one wake-up when the simulator
    /// fell behind its 100 ms grid (a stalled loop, a loaded machine); the rest follow at the next
    /// wake-ups, right after. Sending a long backlog at once held the head unit's lock for all of
    /// it, and interactions and the control API waited past their deadlines.
    static let audioPassThruCatchUpChunks = 10

    /// Sends the audio recorded by `now` and not yet sent, in 100 ms chunks on the grid from the
    /// start (more than one when the timer ran late, at most ``audioPassThruCatchUpChunks``: a busy
    /// machine delays the audio, it does not lose it), and schedules the next chunk.
    mutating func sendAudioPassThruChunk(session sessionID: UInt8, now: NIODeadline) {
        guard var app = apps[sessionID], var state = app.audioPassThru else { return }
        let due = min(audioPassThruChunksElapsed(state, now: now), state.chunksSent + Self.audioPassThruCatchUpChunks)
        let chunks = audioPassThruChunks(&state, upTo: due)
        let next = state.start + audioPassThruChunkInterval * Int64(state.chunksSent + 1)
        // Still behind the grid: the rest right after this pass of due timers, not within it.
        state.chunkTimer = timers.schedule(at: max(next, now + .nanoseconds(1)), .audioPassThruChunk(session: sessionID))
        app.audioPassThru = state
        apps[sessionID] = app
        for chunk in chunks { notify("OnAudioPassThru", [:], to: sessionID, now: now, bulkData: chunk) }
    }

    /// `maxDuration` passed (the end timer): the rest of the recording, then the response. The rest
    /// is what the grid has reached, at least one chunk: with a timeScale near 0 the whole
    /// recording would otherwise go out at once.
    mutating func endAudioPassThru(session sessionID: UInt8, resultCode: String, now: NIODeadline) {
        if resultCode == "SUCCESS", var state = apps[sessionID]?.audioPassThru {
            let due = max(audioPassThruChunksElapsed(state, now: now), state.chunksSent + 1)
            let chunks = audioPassThruChunks(&state, upTo: due)
            apps[sessionID]?.audioPassThru = state
            for chunk in chunks { notify("OnAudioPassThru", [:], to: sessionID, now: now, bulkData: chunk) }
        }
        finishAudioPassThru(session: sessionID, resultCode: resultCode, now: now)
    }

    /// How many chunk intervals have passed since the recording started.
    func audioPassThruChunksElapsed(_ state: AudioPassThruState, now: NIODeadline) -> Int {
        let interval = audioPassThruChunkInterval.nanoseconds
        return Int(max((now - state.start).nanoseconds, 0) / max(interval, 1))
    }

    /// The chunks after those sent, up to chunk `due`, none beyond `maxDuration` (whose last chunk
    /// may be shorter than 100 ms); counts them as sent.
    func audioPassThruChunks(_ state: inout AudioPassThruState, upTo due: Int) -> [ByteBuffer] {
        let perChunk = state.tone.samples(milliseconds: Self.audioPassThruChunkMilliseconds)
        let total = state.tone.samples(milliseconds: state.maxDuration)
        var chunks: [ByteBuffer] = []
        while state.chunksSent < due, state.chunksSent * perChunk < total {
            let start = state.chunksSent * perChunk
            chunks.append(state.tone.pcm(from: start, count: min(perChunk, total - start)))
            state.chunksSent += 1
        }
        return chunks
    }

    /// Stops the recording, answers PerformAudioPassThru and gives the app its MAIN context back.
    mutating func finishAudioPassThru(session sessionID: UInt8, resultCode: String, now: NIODeadline) {
        guard var app = apps[sessionID], let state = app.audioPassThru else { return }
        timers.cancel(state.chunkTimer)
        timers.cancel(state.endTimer)
        app.audioPassThru = nil
        apps[sessionID] = app
        respond(to: sessionID, functionID: state.functionID, correlationID: state.correlationID, resultCode: resultCode, now: now)
        setHMIStatus(session: sessionID, systemContext: "MAIN", now: now)
    }

    mutating func endAudioPassThruRequest(_ request: Request) -> Reply {
        guard apps[request.sessionID]?.audioPassThru != nil else {
            return .result("REJECTED", info: "No audio pass-thru is running")
        }
        finishAudioPassThru(session: request.sessionID, resultCode: "SUCCESS", now: request.now)
        return .success()
    }

    /// Core strips every character but `0-9*#,;+` and answers INVALID_DATA when nothing is left,
    /// or when the number is blank or has a tab or newline (`CheckSyntax`).
    mutating func dialNumber(_ request: Request) -> Reply {
        let number = request.parameters["number"]?.stringValue ?? ""
        if Self.isBadText(number) {
            return .result("INVALID_DATA", info: "The number is blank or has a tab or newline")
        }
        let allowed = Set("0123456789*#,;+")
        guard number.contains(where: { allowed.contains($0) }) else {
            return .result("INVALID_DATA", info: "The number has no valid characters")
        }
        return .success()
    }
}
