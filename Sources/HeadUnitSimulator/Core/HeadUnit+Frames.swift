import HeadUnitModel
import NIOCore
import SDLProtocol

/// Frames in: decoding, Core's malformed-frame filter, control frames (docs/protocol.md §a, §b, §d).
extension HeadUnit {
    /// Core's `default_protocol_version`: the highest `protocolVersion` it acknowledges.
    static let maximumProtocolVersion = SDLVersion(5, 4, 0)

    mutating func processBytes(_ bytes: ByteBuffer, on id: ConnectionID, now: NIODeadline) {
        guard var connection = connections[id], !connection.closed else { return }
        var bytes = bytes
        connection.buffer.writeBuffer(&bytes)
        var frames: [SDLFrame] = []
        while true {
            do {
                guard let frame = try connection.decoder.decode(buffer: &connection.buffer) else { break }
                if let problem = Self.coreValidation(frame) {
                    if registerMalformed(&connection, problem, now: now) { break }
                    continue
                }
                frames.append(frame)
            } catch {
                // Core slides forward one byte and tries again (incoming_data_handler.cc).
                connection.buffer.moveReaderIndex(forwardBy: 1)
                if registerMalformed(&connection, error.detail, now: now) { break }
            }
        }
        connection.buffer.discardReadBytes()
        connections[id] = connection
        if connection.closed {
            outbox.append(.close(id))
            return
        }
        for frame in frames {
            guard connections[id]?.closed == false else { break }
            handleFrame(frame, on: id, now: now)
        }
    }

    /// SDL Core's checks beyond the frame decoder's (protocol_packet.cc `ProtocolPacket::ValidateHeader`).
    static func coreValidation(_ frame: SDLFrame) -> String? {
        let header = frame.header
        if (header.frameType == .single || header.frameType == .consecutive) && header.dataSize == 0 {
            return "\(header.frameType) frame with data size 0"
        }
        if header.frameType != .control && header.version >= 2 && header.messageID == 0 {
            return "message id 0 on a \(header.frameType) frame"
        }
        return nil
    }

    /// Counts a malformed event; returns true when the connection must close
    /// (more than `MalformedFrequencyCount` within `MalformedFrequencyTime`).
    mutating func registerMalformed(_ connection: inout ConnectionState, _ reason: String, now: NIODeadline) -> Bool {
        let window = configuration.malformedFrequencyTime
        // The driver's clock is monotonic: the expired events are the oldest ones.
        while let oldest = connection.malformedEvents.first, oldest + window <= now {
            connection.malformedEvents.removeFirst()
        }
        connection.malformedEvents.append(now)
        if connection.malformedEvents.count > configuration.malformedFrequencyCount {
            connection.closed = true
            return true
        }
        return false
    }

    mutating func handleFrame(_ frame: SDLFrame, on id: ConnectionID, now: NIODeadline) {
        let header = frame.header
        if var session = sessions[header.sessionID], session.connection == id {
            session.lastReceived = now
            session.heartbeatSentAt = nil
            if header.version >= 2 && header.version < 5 && session.protocolVersion == nil {
                // A v2–v4 app speaks the lower of its version and the ACK's 4 (protocol spec §4.2).
                session.version = header.version
                session.mtu = SDLFrameHeader.defaultMaximumPayloadSize(forVersion: header.version)
            }
            sessions[header.sessionID] = session
        }
        if header.frameType == .control {
            handleControlFrame(frame, on: id, now: now)
            return
        }
        guard let session = sessions[header.sessionID], session.connection == id else {
            markMalformed(id, "frame for session \(header.sessionID), which is not open on this connection", now: now)
            return
        }
        let message: SDLMessage?
        do {
            message = try connections[id]!.assembler.process(frame, now: now)
        } catch {
            markMalformed(id, error.detail, now: now)
            return
        }
        guard let message else { return }
        switch message.serviceType {
        case .rpc, .bulkData:
            handleRPCPayload(message, session: session.id, now: now)
        case .audio, .video:
            receiveStreamData(message, session: session.id, now: now)
        case .control:
            break
        }
    }

    mutating func markMalformed(_ id: ConnectionID, _ reason: String, now: NIODeadline) {
        guard var connection = connections[id] else { return }
        if registerMalformed(&connection, reason, now: now) {
            outbox.append(.close(id))
        }
        connections[id] = connection
    }

    // MARK: - Control frames

    mutating func handleControlFrame(_ frame: SDLFrame, on id: ConnectionID, now: NIODeadline) {
        let control: SDLControlMessage
        do {
            control = try SDLControlMessage(frame: frame)
        } catch {
            markMalformed(id, error.detail, now: now)
            return
        }
        let header = frame.header
        switch control {
        case .startService(let start):
            handleStartService(start, header: header, on: id, now: now)
        case .endService(let end):
            handleEndService(end, header: header, on: id, now: now)
        case .heartbeat:
            guard var session = sessions[header.sessionID], session.connection == id else { return }
            // Core answers only for v3–v5 and starts monitoring with the first Heartbeat.
            guard header.version >= 3 else { return }
            session.heartbeatMonitored = true
            sessions[header.sessionID] = session
            let ack = SDLControlMessage.heartbeatACK.makeFrame(
                version: header.version, serviceType: .control, sessionID: header.sessionID, messageID: header.messageID
            )
            write(ack, to: id)
        case .heartbeatACK, .endServiceACK, .registerSecondaryTransport, .registerSecondaryTransportACK,
            .registerSecondaryTransportNAK, .serviceDataACK, .startServiceACK, .startServiceNAK,
            .endServiceNAK, .transportEventUpdate:
            break
        }
    }

    mutating func handleStartService(_ start: SDLControlMessage.StartService, header: SDLFrameHeader, on id: ConnectionID, now: NIODeadline)
    {
        switch header.serviceType {
        case .rpc:
            guard header.sessionID == 0 else {
                nak(header, on: id, reason: "Session \(header.sessionID) already has an RPC service", rejected: nil)
                return
            }
            startRPCService(start, header: header, on: id, now: now)
        case .audio, .video:
            startStreamingService(start, header: header, on: id, now: now)
        case .control, .bulkData:
            nak(header, on: id, reason: "Service \(header.serviceType.rawValue) cannot be started", rejected: nil)
        }
    }

    mutating func startRPCService(_ start: SDLControlMessage.StartService, header: SDLFrameHeader, on id: ConnectionID, now: NIODeadline) {
        guard let sessionID = (1...255).lazy.map({ UInt8($0) }).first(where: { sessions[$0] == nil }) else {
            nak(header, on: id, reason: "No free session id", rejected: nil)
            return
        }
        let requested = start.protocolVersion.flatMap(SDLVersion.init)
        let isV5 = header.version >= 5 || (requested.map { $0.major >= 5 } ?? false)
        let hashID = Int32(truncatingIfNeeded: Int(sessionID) << 16 | (id.rawValue & 0xFFFF))
        var session = SessionState(
            id: sessionID,
            connection: id,
            version: isV5 ? 5 : 4,
            protocolVersion: nil,
            hashID: hashID,
            mtu: isV5 ? configuration.maximumPayloadSize : SDLFrameHeader.defaultMaximumPayloadSize(forVersion: 4),
            lastReceived: now
        )
        let ack: SDLControlMessage
        if isV5 {
            let negotiated = min(requested ?? Self.maximumProtocolVersion, Self.maximumProtocolVersion)
            session.protocolVersion = negotiated
            var params = SDLControlMessage.StartServiceACK(
                protocolVersion: negotiated.description,
                hashID: hashID,
                mtu: Int64(configuration.maximumPayloadSize)
            )
            if negotiated >= SDLVersion(5, 1, 0) {
                params.secondaryTransports = []
                params.audioServiceTransports = [1]
                params.videoServiceTransports = [1]
            }
            if negotiated >= SDLVersion(5, 4, 0) {
                let vehicle = configuration.profile.startServiceVehicleInfo
                params.make = vehicle.make
                params.model = vehicle.model
                params.modelYear = vehicle.modelYear
                params.trim = vehicle.trim
                params.systemSoftwareVersion = vehicle.systemSoftwareVersion
            }
            ack = .startServiceACK(params)
        } else {
            ack = .startServiceACK(.init(hashID: hashID))
        }
        sessions[sessionID] = session
        connections[id]?.sessions.insert(sessionID)
        // Core's StartServiceACK carries message id 0 (docs/protocol.md §k).
        write(ack.makeFrame(version: session.version, serviceType: .rpc, sessionID: sessionID, messageID: 0), to: id)
    }

    mutating func handleEndService(_ end: SDLControlMessage.EndService, header: SDLFrameHeader, on id: ConnectionID, now: NIODeadline) {
        guard var session = sessions[header.sessionID], session.connection == id else {
            endNAK(header, on: id, reason: "Session \(header.sessionID) is not open", rejected: nil)
            return
        }
        switch header.serviceType {
        case .rpc:
            guard end.hashID == session.hashID else {
                endNAK(header, on: id, reason: "Wrong hash_id for session \(session.id)", rejected: ["hashId"])
                return
            }
            let ack = SDLControlMessage.endServiceACK.makeFrame(
                version: session.version, serviceType: .rpc, sessionID: session.id, messageID: session.takeMessageID()
            )
            write(ack, to: id)
            endSession(session.id, keepingResumptionData: false, now: now)
        case .audio, .video:
            session.streamingServices.remove(header.serviceType)
            streamEnded(session: session.id, header.serviceType)
            let ack = SDLControlMessage.endServiceACK.makeFrame(
                version: session.version, serviceType: header.serviceType, sessionID: session.id, messageID: session.takeMessageID()
            )
            sessions[session.id] = session
            write(ack, to: id)
        case .control, .bulkData:
            endNAK(header, on: id, reason: "Service \(header.serviceType.rawValue) cannot be ended", rejected: nil)
        }
    }

    /// StartServiceNAK; `reason` only for apps of protocol 5.3.0 and later, as in Core.
    mutating func nak(_ header: SDLFrameHeader, on id: ConnectionID, reason: String, rejected: [String]?) {
        let showsReason = header.version >= 5
        let message = SDLControlMessage.startServiceNAK(.init(rejectedParams: rejected, reason: showsReason ? reason : nil))
        write(
            message.makeFrame(
                version: header.version, serviceType: header.serviceType, sessionID: header.sessionID, messageID: header.messageID), to: id)
    }

    mutating func endNAK(_ header: SDLFrameHeader, on id: ConnectionID, reason: String, rejected: [String]?) {
        let negotiated = sessions[header.sessionID]?.protocolVersion
        let showsReason = negotiated.map { $0 >= SDLVersion(5, 3, 0) } ?? false
        let message = SDLControlMessage.endServiceNAK(
            .init(rejectedParams: header.version >= 5 ? rejected : nil, reason: showsReason ? reason : nil))
        var messageID = header.messageID
        if var session = sessions[header.sessionID] {
            messageID = session.takeMessageID()
            sessions[header.sessionID] = session
        }
        write(
            message.makeFrame(version: header.version, serviceType: header.serviceType, sessionID: header.sessionID, messageID: messageID),
            to: id)
    }

    /// Ends an SDL session: the app (if any) is gone, its session id returns to the pool.
    mutating func endSession(_ sessionID: UInt8, keepingResumptionData: Bool, now: NIODeadline) {
        guard let session = sessions.removeValue(forKey: sessionID) else { return }
        connections[session.connection]?.sessions.remove(sessionID)
        connections[session.connection]?.assembler.removeAll(sessionID: sessionID)
        timers.cancelAll { $0.session == sessionID }
        if let app = apps.removeValue(forKey: sessionID) {
            if keepingResumptionData, let hash = app.resumptionHash {
                // Files do not resume (persistent ones come back from `persistentFiles`): the
                // record keeps none of their bytes.
                var resumable = app
                resumable.files = [:]
                resumable.streams = [:]
                resumption[app.appID] = ResumptionRecord(hash: hash, app: resumable)
            }
            appRemoved(app, now: now)
        }
    }

    mutating func write(_ frame: SDLFrame, to id: ConnectionID) {
        var buffer = ByteBuffer()
        buffer.writeSDLFrame(frame)
        outbox.append(.write(id, buffer))
    }
}

extension TimerEvent {
    /// The session a timer belongs to.
    var session: UInt8 {
        switch self {
        case .activate(let session), .finishInteraction(let session, _), .audioPassThruChunk(let session),
            .audioPassThruEnd(let session), .delayedResponse(let session, _), .notification(let session, _, _),
            .endStream(let session, _):
            return session
        }
    }
}
