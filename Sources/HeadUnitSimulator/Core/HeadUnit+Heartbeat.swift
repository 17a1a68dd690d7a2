import NIOCore
import SDLProtocol

/// SDL Core's heartbeat monitor (docs/protocol.md §d; heartbeat_monitor.cc): it watches a session
/// only once the app sent a Heartbeat on it; after `HeartBeatTimeout` without a frame from the
/// app it sends a Heartbeat, and when another `HeartBeatTimeout` passes without one it ends the
/// session with EndService(RPC). A timeout of 0 disables it.
extension HeadUnit {
    /// Sends the Heartbeats and EndServices that are due.
    mutating func checkHeartbeats(now: NIODeadline) {
        let timeout = configuration.heartbeatTimeout
        for id in sessions.keys.sorted() {
            guard var session = sessions[id], let due = session.heartbeatDeadline(timeout: timeout), due <= now else { continue }
            if session.heartbeatSentAt != nil {
                let end = SDLControlMessage.endService(.init(hashID: session.hashID)).makeFrame(
                    version: session.version, serviceType: .rpc, sessionID: id, messageID: session.takeMessageID()
                )
                write(end, to: session.connection)
                endSession(id, keepingResumptionData: true, now: now)
            } else {
                session.heartbeatSentAt = now
                let beat = SDLControlMessage.heartbeat.makeFrame(
                    version: session.version, serviceType: .control, sessionID: id, messageID: session.takeMessageID()
                )
                sessions[id] = session
                write(beat, to: session.connection)
            }
        }
    }

    /// The earliest time the heartbeat monitor acts on any session.
    var nextHeartbeatDeadline: NIODeadline? {
        let timeout = configuration.heartbeatTimeout
        return sessions.values.lazy.compactMap { $0.heartbeatDeadline(timeout: timeout) }.min()
    }
}

extension SessionState {
    /// When the heartbeat monitor next acts on this session: a Heartbeat `timeout` after the last
    /// frame from the app, EndService `timeout` after that Heartbeat; `nil` while the app has not
    /// heartbeated or when `timeout` is 0.
    func heartbeatDeadline(timeout: TimeAmount) -> NIODeadline? {
        guard heartbeatMonitored, timeout > .zero else { return nil }
        return (heartbeatSentAt ?? lastReceived) + timeout
    }
}
