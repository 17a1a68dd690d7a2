import NIOCore
import SDLProtocol

// The frames of the video and audio services (docs/protocol.md §o): the session numbers them
// with its message ids, as Core numbers everything it sends per session; which services are
// started is ``SDLStreamingServices``'s business.

extension SDLSessionStateMachine {
    /// StartService on a streaming service: on v5 sessions with the video parameters as BSON
    /// (`videoProtocol`, `videoCodec`, `width`, `height`; none for audio); below v5 with no
    /// payload, as v2–v4 define none (§b).
    mutating func startStreamingFrame(
        _ service: SDLStreamingService, format: SDLVideoStreamFormat?, now: NIODeadline
    ) throws(SDLClientError) -> SDLFrame {
        var parameters = SDLControlMessage.StartService()
        if let format, service == .video, try establishedSession().parameters.majorVersion >= 5 {
            parameters.videoProtocol = format.protocol
            parameters.videoCodec = format.codec
            parameters.height = try Self.int32(format.height, "height")
            parameters.width = try Self.int32(format.width, "width")
        }
        return try streamingControlFrame(.startService(parameters), on: service, now: now)
    }

    /// A control frame on a streaming service (StartService, EndService, EndServiceACK) with the
    /// session's next message id.
    mutating func streamingControlFrame(
        _ message: SDLControlMessage, on service: SDLStreamingService, now: NIODeadline
    ) throws(SDLClientError) -> SDLFrame {
        var session = try establishedSession()
        let frame = message.makeFrame(
            version: session.parameters.majorVersion, serviceType: service.serviceType,
            sessionID: session.parameters.sessionID, messageID: session.takeMessageID())
        session.lastSent = now
        update(session)
        return frame
    }

    /// `bytes` as data frames on a started streaming service: Single Frames (never First and
    /// Consecutive: each frame is a piece of the stream of its own) of at most `mtu` payload
    /// bytes, uncompressed and unprotected, each with the session's next message id (Core
    /// rejects id 0 and empty Single Frames, §o). Empty `bytes` make no frame.
    mutating func streamingDataFrames(
        _ bytes: ByteBuffer, on service: SDLStreamingService, mtu: Int, now: NIODeadline
    ) throws(SDLClientError) -> [SDLFrame] {
        precondition(mtu > 0, "a streaming service's MTU is positive")
        var session = try establishedSession()
        var bytes = bytes
        var frames: [SDLFrame] = []
        frames.reserveCapacity((bytes.readableBytes + mtu - 1) / mtu)
        while bytes.readableBytes > 0, let payload = bytes.readSlice(length: min(mtu, bytes.readableBytes)) {
            let header = SDLFrameHeader(
                version: session.parameters.majorVersion, frameType: .single, serviceType: service.serviceType,
                sessionID: session.parameters.sessionID, dataSize: 0, messageID: session.takeMessageID())
            frames.append(SDLFrame(header: header, payload: payload))
        }
        // Data frames do not postpone the next Heartbeat: nothing answers them, so a session that
        // only streams would hear nothing back and lose the link to its idle timer (§d).
        update(session)
        return frames
    }

    /// The established session, or the error of sending on a session that is not (as ``send(_:now:)``).
    private func establishedSession() throws(SDLClientError) -> Established {
        switch state {
        case .established(let session): return session
        case .closed(let error?): throw error
        case .closing, .closed: throw SDLClientError(.closed, "the session is closing")
        case .idle, .starting, .modifying: throw SDLClientError(.notConnected, "the RPC service is not started")
        }
    }

    private static func int32(_ value: Int?, _ name: String) throws(SDLClientError) -> Int32? {
        guard let value else { return nil }
        guard let int = Int32(exactly: value), int > 0 else {
            throw SDLClientError(.invalidParameters, "video \(name) \(value) is not a positive 32-bit integer")
        }
        return int
    }
}
