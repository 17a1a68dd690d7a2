import HeadUnitModel
import NIOCore
import SDLProtocol
import SDLSpec

/// The video (0x0B) and audio (0x0A) streaming services, as SDL Core 8.2 runs them
/// (docs/protocol.md §k, "Streaming services"): who may start them, what the StartServiceACK or
/// NAK says, the data kept for the control API, and how the head unit ends them.
extension HeadUnit {
    /// Core's `is_navi() || mobile_projection_enabled()`: only these apps may stream.
    static func mayStream(_ app: AppState) -> Bool {
        !Set(app.appHMITypes).isDisjoint(with: ["NAVIGATION", "PROJECTION"])
    }

    /// Core's `HMIStateAllowsStreaming`: FULL or LIMITED, and STREAMABLE (video) or not
    /// NOT_AUDIBLE (audio).
    static func hmiStateAllowsStreaming(_ app: AppState, _ service: StreamService) -> Bool {
        guard app.hmiLevel == "FULL" || app.hmiLevel == "LIMITED" else { return false }
        switch service {
        case .video: return app.videoStreamingState == "STREAMABLE"
        case .audio: return app.audioStreamingState != "NOT_AUDIBLE"
        }
    }

    mutating func startStreamingService(
        _ start: SDLControlMessage.StartService, header: SDLFrameHeader, on id: ConnectionID, now: NIODeadline
    ) {
        guard sessions[header.sessionID]?.connection == id else {
            nak(header, on: id, reason: "Session \(header.sessionID) is not open", rejected: nil)
            return
        }
        guard let service = StreamService(header.serviceType), let app = apps[header.sessionID] else {
            // Core ignores the request (no app for the session); the simulator refuses it.
            streamNAK(service: header.serviceType, session: header.sessionID, reason: "The app is not registered", rejected: nil)
            return
        }
        let serviceNumber = header.serviceType.rawValue
        guard Self.mayStream(app) else {
            streamNAK(
                service: header.serviceType, session: app.sessionID,
                reason: "Service type: \(serviceNumber) disallowed with current HMI type", rejected: nil)
            return
        }
        guard Self.hmiStateAllowsStreaming(app, service) else {
            streamNAK(
                service: header.serviceType, session: app.sessionID,
                reason: "Service type: \(serviceNumber) disallowed with current HMI level", rejected: nil)
            return
        }
        var format: [String: SDLJSON] = [:]
        if service == .video {
            // Values that are no VideoStreamingCodec / VideoStreamingProtocol: rejected, no reason.
            var rejected: [String] = []
            if let codec = start.videoCodec, catalog.enums["VideoStreamingCodec"]?.contains(codec) != true { rejected.append("videoCodec") }
            if let proto = start.videoProtocol, catalog.enums["VideoStreamingProtocol"]?.contains(proto) != true {
                rejected.append("videoProtocol")
            }
            if !rejected.isEmpty {
                streamNAK(service: header.serviceType, session: app.sessionID, reason: nil, rejected: rejected)
                return
            }
            // The HMI's Navigation.SetVideoConfig: formats the capability does not list are refused.
            let refused = rejectedByVideoConfig(codec: start.videoCodec, protocol: start.videoProtocol)
            if !refused.isEmpty {
                streamNAK(
                    service: header.serviceType, session: app.sessionID, reason: "Received SetVideoConfig failure response",
                    rejected: refused)
                return
            }
            if let codec = start.videoCodec { format["codec"] = .string(codec) }
            if let proto = start.videoProtocol { format["protocol"] = .string(proto) }
            if let width = start.width { format["width"] = .int(Int64(width)) }
            if let height = start.height { format["height"] = .int(Int64(height)) }
        }
        // StartNaviService: another app streaming on this service loses it (docs/protocol.md §k).
        for other in apps.values where other.sessionID != app.sessionID && other.streams[service]?.isStreaming == true {
            apps[other.sessionID]?.streams[service]?.allowed = false
            scheduleEndStream(session: other.sessionID, service, now: now)
        }
        var record = app.streams[service] ?? StreamRecord(capacity: configuration.streamKeptBytes)
        record.isStreaming = true
        record.allowed = true
        record.startPosition = record.tail.total
        record.format = service == .video ? .object(format) : nil
        apps[app.sessionID]?.streams[service] = record
        cancelEndStream(session: app.sessionID, service)
        streamGeneration &+= 1

        guard var session = sessions[header.sessionID] else { return }
        session.streamingServices.insert(header.serviceType)
        var params = SDLControlMessage.StartServiceACK(mtu: session.version >= 5 ? Int64(configuration.maximumPayloadSize) : nil)
        if service == .video {
            // Core copies the request's video parameters into the ACK.
            params.height = start.height
            params.width = start.width
            params.videoProtocol = start.videoProtocol
            params.videoCodec = start.videoCodec
        }
        let frame = SDLControlMessage.startServiceACK(params).makeFrame(
            version: session.version, serviceType: header.serviceType, sessionID: session.id, messageID: session.takeMessageID()
        )
        sessions[header.sessionID] = session
        write(frame, to: id)
    }

    /// What the simulated HMI's `Navigation.SetVideoConfig` refuses: a codec, protocol or pair
    /// the profile's `videoStreamingCapability.supportedFormats` does not list, as the StartService
    /// names them (`videoCodec`, `videoProtocol`). Nothing when the profile lists no formats.
    func rejectedByVideoConfig(codec: String?, protocol proto: String?) -> [String] {
        guard
            let formats = configuration.profile.systemCapability("VIDEO_STREAMING")?["videoStreamingCapability"]?["supportedFormats"]?
                .arrayValue, !formats.isEmpty
        else { return [] }
        let pairs = formats.map { ($0["codec"]?.stringValue, $0["protocol"]?.stringValue) }
        let codecKnown = codec.map { codec in pairs.contains { $0.0 == codec } } ?? true
        let protocolKnown = proto.map { proto in pairs.contains { $0.1 == proto } } ?? true
        var rejected: [String] = []
        if !codecKnown { rejected.append("videoCodec") }
        if !protocolKnown { rejected.append("videoProtocol") }
        if rejected.isEmpty, let codec, let proto, !pairs.contains(where: { $0.0 == codec && $0.1 == proto }) {
            rejected = ["videoCodec", "videoProtocol"]
        }
        return rejected
    }

    /// StartServiceNAK for a streaming service, numbered like Core's (the session's message
    /// counter); `reason` only for protocol 5.3.0 and later, `rejectedParams` for v5.
    mutating func streamNAK(service: SDLServiceType, session sessionID: UInt8, reason: String?, rejected: [String]?) {
        guard var session = sessions[sessionID] else { return }
        let showsReason = session.protocolVersion.map { $0 >= SDLVersion(5, 3, 0) } ?? false
        let message = SDLControlMessage.startServiceNAK(
            .init(rejectedParams: session.version >= 5 ? rejected : nil, reason: showsReason ? reason : nil))
        let frame = message.makeFrame(
            version: session.version, serviceType: service, sessionID: sessionID, messageID: session.takeMessageID())
        sessions[sessionID] = session
        write(frame, to: session.connection)
    }

    /// A data message on a streaming service (Core's media manager, `OnMessageReceived`): kept
    /// when the app may stream; ignored while its end-stream timer runs; answered with EndService
    /// once it is no longer allowed.
    mutating func receiveStreamData(_ message: SDLMessage, session sessionID: UInt8, now: NIODeadline) {
        guard let service = StreamService(message.serviceType), let app = apps[sessionID],
            sessions[sessionID]?.streamingServices.contains(message.serviceType) == true,
            let record = app.streams[service], record.isStreaming
        else { return }  // not started: dropped (Core would unregister a navigation app, see §k)
        if record.allowed && Self.hmiStateAllowsStreaming(app, service) {
            apps[sessionID]?.streams[service]?.received(message.payload)
            streamGeneration &+= 1
        } else if app.endStreamTimers[service] == nil {
            sendEndService(session: sessionID, service)
        }
    }

    /// The app ended a streaming service (EndService from the app).
    mutating func streamEnded(session sessionID: UInt8, _ serviceType: SDLServiceType) {
        guard let service = StreamService(serviceType), apps[sessionID]?.streams[service] != nil else { return }
        apps[sessionID]?.streams[service]?.isStreaming = false
        cancelEndStream(session: sessionID, service)
        streamGeneration &+= 1
    }

    /// The head unit ends a streaming service: EndService to the app (Core's `EndService`).
    mutating func sendEndService(session sessionID: UInt8, _ service: StreamService) {
        guard var session = sessions[sessionID], session.streamingServices.contains(service.serviceType) else { return }
        session.streamingServices.remove(service.serviceType)
        let frame = SDLControlMessage.endService(.init()).makeFrame(
            version: session.version, serviceType: service.serviceType, sessionID: sessionID, messageID: session.takeMessageID())
        sessions[sessionID] = session
        write(frame, to: session.connection)
        streamEnded(session: sessionID, service.serviceType)
    }

    /// Core's `ProcessApp` after an HMI status change of a navigation or projection app.
    mutating func streamingStateChanged(session sessionID: UInt8, fromLevel: String, fromVideo: String, now: NIODeadline) {
        guard let app = apps[sessionID], Self.mayStream(app) else { return }
        let toLevel = app.hmiLevel
        let toVideo = app.videoStreamingState
        guard fromLevel != toLevel || fromVideo != toVideo else { return }
        let fullOrLimited: (String) -> Bool = { $0 == "FULL" || $0 == "LIMITED" }
        if (fromVideo == "NOT_STREAMABLE" && toVideo == "STREAMABLE")
            || (fromLevel == "BACKGROUND" && fullOrLimited(toLevel) && toVideo == "STREAMABLE")
        {
            // AllowStreaming. (Core leaves a running end-stream timer to fire and end the
            // stream anyway; the simulator cancels it.)
            for service in StreamService.allCases where app.streams[service]?.isStreaming == true {
                apps[sessionID]?.streams[service]?.allowed = true
                cancelEndStream(session: sessionID, service)
            }
        } else if (fromVideo == "STREAMABLE" && toVideo == "NOT_STREAMABLE" && fullOrLimited(toLevel))
            || (fullOrLimited(fromLevel) && toLevel == "BACKGROUND")
        {
            for service in [StreamService.audio, .video] { scheduleEndStream(session: sessionID, service, now: now) }
        } else if fullOrLimited(fromLevel) && toLevel == "NONE" {
            // EndNaviServices: at once.
            for service in [StreamService.audio, .video] { sendEndService(session: sessionID, service) }
        }
    }

    /// Core's `StartEndStreamTimer`: after `StopStreamingTimeout` the service is disallowed.
    mutating func scheduleEndStream(session sessionID: UInt8, _ service: StreamService, now: NIODeadline) {
        guard apps[sessionID] != nil else { return }
        cancelEndStream(session: sessionID, service)
        let timer = timers.schedule(at: now + configuration.stopStreamingTimeout, .endStream(session: sessionID, service: service))
        apps[sessionID]?.endStreamTimers[service] = timer
    }

    mutating func cancelEndStream(session sessionID: UInt8, _ service: StreamService) {
        guard let timer = apps[sessionID]?.endStreamTimers.removeValue(forKey: service) else { return }
        timers.cancel(timer)
    }

    /// The end-stream timer fired (Core's `EndStreaming` → `DisallowStreaming`).
    mutating func disallowStreaming(session sessionID: UInt8, _ service: StreamService) {
        apps[sessionID]?.endStreamTimers[service] = nil
        guard apps[sessionID]?.streams[service]?.isStreaming == true else { return }
        apps[sessionID]?.streams[service]?.allowed = false
    }
}
