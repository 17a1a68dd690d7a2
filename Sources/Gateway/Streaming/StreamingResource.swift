import Foundation
import NIOCore
import SDLClient
import SDLProtocol

/// The JSON of `/v1/apps/{id}/video` and `/audio-stream`, and the start body's rules.
enum StreamingResource {
    /// MOBILE_API.xml VideoStreamingCodec and VideoStreamingProtocol.
    static let codecs: Set<String> = ["H264", "H265", "Theora", "VP8", "VP9"]
    static let protocols: Set<String> = ["RAW", "RTP", "RTSP", "RTMP", "WEBM"]
    /// The largest width or height a body may ask for.
    static let maximumDimension = 10_000

    /// What a start body asks for: video takes `codec`, `protocol`, `width`, `height`, each
    /// optional; the audio service takes nothing (PCM as the head unit's pcmStreamCapabilities say).
    static func format(_ service: SDLStreamingService, body: [String: SDLJSON]) throws(GatewayError) -> SDLVideoStreamFormat {
        let allowed: Set<String> = service == .video ? ["codec", "protocol", "width", "height"] : []
        let unknown = Set(body.keys).subtracting(allowed).sorted()
        guard unknown.isEmpty else {
            let takes = allowed.isEmpty ? "takes no members" : "takes \(allowed.sorted().joined(separator: ", "))"
            throw GatewayError(
                .invalidParameters, "the \(service.noun) service \(takes)", issues: unknown.map { "$.\($0): not a member of the body" })
        }
        var format = SDLVideoStreamFormat()
        var issues: [String] = []
        func text(_ key: String, in values: Set<String>) -> String? {
            guard let value = body[key] else { return nil }
            guard let string = value.stringValue, values.contains(string) else {
                issues.append("$.\(key): one of \(values.sorted().joined(separator: ", "))")
                return nil
            }
            return string
        }
        func dimension(_ key: String) -> Int? {
            guard let value = body[key] else { return nil }
            guard let number = value.intValue, (1...Int64(maximumDimension)).contains(number) else {
                issues.append("$.\(key): an integer from 1 to \(maximumDimension)")
                return nil
            }
            return Int(number)
        }
        format.codec = text("codec", in: codecs)
        format.protocol = text("protocol", in: protocols)
        format.width = dimension("width")
        format.height = dimension("height")
        guard issues.isEmpty else { throw GatewayError(.invalidParameters, issues.joined(separator: "; "), issues: issues) }
        return format
    }

    /// The body's format over the head unit's capability (MOBILE_API.xml VideoStreamingCapability):
    /// the preferred resolution, and the first supported format (H264 over RAW when offered).
    static func videoFormat(_ requested: SDLVideoStreamFormat, capability: SDLJSON?) -> SDLVideoStreamFormat {
        var format = requested
        let formats = (capability?["supportedFormats"]?.arrayValue ?? []).compactMap { entry -> (codec: String, protocol: String)? in
            guard let codec = entry["codec"]?.stringValue, let proto = entry["protocol"]?.stringValue else { return nil }
            return (codec, proto)
        }
        let preferred =
            formats.first { $0.codec == (requested.codec ?? "H264") && $0.protocol == (requested.protocol ?? "RAW") }
            ?? formats.first { $0.codec == (requested.codec ?? "H264") } ?? formats.first
        format.codec = format.codec ?? preferred?.codec ?? "H264"
        format.protocol = format.protocol ?? preferred?.protocol ?? "RAW"
        let resolution = capability?["preferredResolution"]
        format.width = format.width ?? resolution?["resolutionWidth"]?.intValue.map { Int($0) }
        format.height = format.height ?? resolution?["resolutionHeight"]?.intValue.map { Int($0) }
        return format
    }

    /// `{service, state, accepted, frames, bytes, bitsPerSecond, seconds, sender}`; `state` is
    /// `streaming`, or `stopped` with the rest zero or null; `sender` is who sends now
    /// (`webSocket`, `streamedBody`) or null.
    static func json(
        _ service: SDLStreamingService, status: SDLStreamingStatus?, sender: StreamSenders.Kind?, now: NIODeadline = .now()
    ) -> SDLJSON {
        let sender = sender.map { SDLJSON.string($0.rawValue) } ?? .null
        guard let status else {
            return [
                "service": .string(service.noun), "state": "stopped", "accepted": .null, "frames": 0, "bytes": 0, "bitsPerSecond": 0,
                "seconds": 0, "sender": sender,
            ]
        }
        let seconds = max(Double((now - status.startedAt).nanoseconds) / 1e9, 0)
        var accepted: [String: SDLJSON] = ["mtu": .int(Int64(status.accepted.mtu))]
        if let format = status.accepted.format {
            accepted["codec"] = format.codec.map(SDLJSON.string) ?? .null
            accepted["protocol"] = format.protocol.map(SDLJSON.string) ?? .null
            accepted["width"] = format.width.map { .int(Int64($0)) } ?? .null
            accepted["height"] = format.height.map { .int(Int64($0)) } ?? .null
        }
        return [
            "service": .string(service.noun), "state": "streaming", "accepted": .object(accepted),
            "frames": .int(Int64(status.frames)), "bytes": .int(Int64(status.bytes)),
            "bitsPerSecond": .int(seconds > 0 ? Int64((Double(status.bytes) * 8 / seconds).rounded()) : 0),
            "seconds": .double((seconds * 1000).rounded() / 1000), "sender": sender,
        ]
    }
}
