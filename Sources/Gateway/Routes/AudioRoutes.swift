import HTTPAPISupport
import HTTPTypes
import Hummingbird
import NIOCore
import SDLClient
import SDLProtocol

/// Audio pass-thru (MOBILE_API.xml PerformAudioPassThru, OnAudioPassThru): `POST
/// /v1/apps/{id}/audio-pass-thru` records and answers when the recording ended;
/// `GET /v1/apps/{id}/audio-pass-thru/last.wav` is the last recording as a WAV file, whichever way
/// its PerformAudioPassThru was sent, until the next one starts. The chunks themselves are the
/// `audioPassThru` events of the event streams.
struct AudioRoutes: Sendable {
    let executor: RPCExecutor
    let limits: GatewayLimits

    /// How long the answer waits, after the head unit answered, for the event pump to reach the
    /// recording's last chunk and its end (they came before the answer; the pump runs behind).
    static let endWait: Duration = .seconds(2)

    /// What the body leaves out: 16 kHz, 16-bit PCM, for 5 seconds.
    static let defaults: [String: SDLJSON] = ["samplingRate": "16KHZ", "bitsPerSample": "16_BIT", "audioType": "PCM", "maxDuration": 5000]

    func add(to router: some RouterMethods<GatewayRequestContext>) {
        router.post("v1/apps/:id/audio-pass-thru") { request, context -> Response in
            let id = try context.parameters.decoded("id")
            let parameters = try Self.parameters(try await HTTPBody.object(request, limit: limits.bodySize))
            let audio = try executor.apps.audio(id)
            let outcome = try await executor.send(app: id, function: "PerformAudioPassThru", parameters: parameters)
            let recording = await audio.ended(correlationID: outcome.correlationID, within: Self.endWait)
            var members = recording?.json.objectValue
            members?["wav"] = .string("/v1/apps/\(id)/audio-pass-thru/last.wav")
            return HTTPBody.response(["response": outcome.response, "recording": members.map(SDLJSON.object) ?? .null])
        }
        router.get("v1/apps/:id/audio-pass-thru/last.wav") { _, context -> Response in
            let id = try context.parameters.decoded("id")
            let audio = try executor.apps.audio(id)
            guard var recording = audio.last else {
                throw GatewayError(
                    .notFound, "app \(id) has recorded nothing yet: send PerformAudioPassThru or POST /v1/apps/\(id)/audio-pass-thru")
            }
            // The session saw the recording end (its answer, after the last chunk) while the event
            // pump has not yet: the file waits for the pump rather than miss the last chunks.
            let running = try executor.apps.session(id).connection?.audioPassThru?.correlationID
            if !recording.ended, running != recording.correlationID {
                recording = await audio.ended(correlationID: recording.correlationID, within: Self.endWait) ?? recording
            }
            guard let wav = recording.wav else {
                throw GatewayError(
                    .notFound,
                    "the last recording's format (\(recording.format.samplingRate), \(recording.format.bitsPerSample)) has no WAV form")
            }
            var headers = HTTPFields()
            headers[.contentType] = "audio/wav"
            headers[.contentDisposition] = "inline; filename=\"\(id)-audio-pass-thru.wav\""
            headers[.cacheControl] = "no-store"
            headers[.audioRecordingState] = recording.ended ? "ended" : "recording"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: wav))
        }
    }

    /// The PerformAudioPassThru parameters of a body: its members over ``defaults``, with
    /// `seconds` (a number, up to 1,000) standing for `maxDuration` in milliseconds.
    static func parameters(_ body: [String: SDLJSON]) throws(GatewayError) -> SDLJSON {
        var parameters = defaults.merging(body) { _, given in given }
        if let seconds = parameters.removeValue(forKey: "seconds") {
            guard body["maxDuration"] == nil else { throw GatewayError(.invalidBody, "give seconds or maxDuration, not both") }
            guard let value = seconds.doubleValue, value > 0, value <= 1000 else {
                throw GatewayError(.invalidBody, "seconds must be a number above 0 and at most 1000")
            }
            parameters["maxDuration"] = .int(max(1, Int64((value * 1000).rounded())))
        }
        return .object(parameters)
    }
}

extension HTTPField.Name {
    /// `SDL-Recording-State: recording | ended` on `last.wav`: whether more audio may come.
    static let audioRecordingState = HTTPField.Name("SDL-Recording-State")!
}
