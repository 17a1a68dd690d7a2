import NIOCore
import SDLProtocol

// The video and audio streaming services of the session (docs/protocol.md §o): the machine's
// ``SDLStreamingServices`` decides, the session frames, and the answers to a pending StartService
// or EndService come back as ``SDLConnectionStateMachine/Action/streamingReply(_:_:)``.

extension SDLConnectionStateMachine {
    /// StartService on `service` (with `format`'s BSON for video). Returns the accepted
    /// parameters at once when the service is already started (nothing is sent); otherwise `nil`
    /// and the StartService frame, and the answer comes later as ``Action/streamingReply(_:_:)``.
    /// Throws ``SDLClientError/Code/notConnected`` before registration,
    /// ``SDLClientError/Code/tooManyPendingRequests`` while the service's StartService or
    /// EndService is pending, ``SDLClientError/Code/invalidParameters`` for a width or height that
    /// is not a positive int32.
    public mutating func startStreaming(
        _ service: SDLStreamingService, format: SDLVideoStreamFormat?, now: NIODeadline
    ) throws(SDLClientError) -> (accepted: SDLStreamingAccepted?, actions: [Action]) {
        guard isRegistered else {
            throw SDLClientError(.notConnected, "the app is not registered\(closeError.map { " (\($0))" } ?? "")")
        }
        if let accepted = try streams.start(service, now: now) { return (accepted, []) }
        do throws(SDLClientError) {
            let frame = try session.startStreamingFrame(service, format: format, now: now)
            return (nil, [.write([frame])])
        } catch {
            streams.abandon(service)
            throw error
        }
    }

    /// `bytes` as data frames on the started `service`: Single Frames of at most its MTU, counted
    /// in its status. Throws ``SDLClientError/Code/streamingNotStarted`` when it is not started.
    public mutating func streamFrames(
        _ service: SDLStreamingService, _ bytes: ByteBuffer, now: NIODeadline
    ) throws(SDLClientError) -> [SDLFrame] {
        let mtu = try streams.mtu(service)
        let frames = try session.streamingDataFrames(bytes, on: service, mtu: mtu, now: now)
        streams.sent(service, frames: frames.count, bytes: bytes.readableBytes)
        return frames
    }

    /// EndService on the started `service`; the answer comes as ``Action/streamingReply(_:_:)``.
    /// Throws ``SDLClientError/Code/streamingNotStarted`` when it is not started.
    public mutating func endStreaming(_ service: SDLStreamingService, now: NIODeadline) throws(SDLClientError) -> [Action] {
        try streams.end(service, now: now)
        let frame = try session.streamingControlFrame(.endService(.init()), on: service, now: now)
        return [.write([frame])]
    }

    /// The started `service`'s parameters and counters.
    public func streamingStatus(_ service: SDLStreamingService) -> SDLStreamingStatus? {
        streams.status(service)
    }

    /// A control message the head unit sent on a streaming service.
    mutating func receiveStreaming(_ message: SDLControlMessage, on service: SDLStreamingService, now: NIODeadline) -> [Action] {
        let sessionMTU = session.parameters?.mtu ?? SDLFrameHeader.defaultMaximumPayloadSize(forVersion: 5)
        guard let outcome = streams.receive(message, on: service, sessionMTU: sessionMTU, now: now) else { return [] }
        return apply(outcome, now: now)
    }

    /// An outcome's answer frame, event and reply, in that order.
    mutating func apply(_ outcome: SDLStreamingServices.Outcome, now: NIODeadline) -> [Action] {
        var actions: [Action] = []
        if let answer = outcome.answer, let frame = try? session.streamingControlFrame(answer, on: outcome.service, now: now) {
            actions.append(.write([frame]))
        }
        if let event = outcome.event {
            actions.append(.publish(.streaming(event)))
        }
        switch outcome.reply {
        case .started(let accepted): actions.append(.streamingReply(outcome.service, .success(accepted)))
        case .ended: actions.append(.streamingReply(outcome.service, .success(nil)))
        case .failed(let error): actions.append(.streamingReply(outcome.service, .failure(error)))
        case nil: break
        }
        return actions
    }
}
