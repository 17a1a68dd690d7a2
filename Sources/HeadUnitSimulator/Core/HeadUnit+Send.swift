import NIOCore
import SDLProtocol
import SDLSpec

/// RPCs out: responses and notifications, fragmented by the session's MTU (docs/protocol.md §a, §c).
extension HeadUnit {
    /// Result codes with which Core's responses say `success: true`.
    static let successfulResultCodes: Set<String> = [
        "SUCCESS", "WARNINGS", "WRONG_LANGUAGE", "RESUME_FAILED", "TRUNCATED_DATA", "SAVED", "UNSUPPORTED_RESOURCE",
    ]

    /// Sends an RPC to the app on `sessionID`: on the hybrid service when it carries bulk data,
    /// cut into frames of the session's MTU.
    mutating func send(_ rpc: SDLRPCMessage, to sessionID: UInt8, now: NIODeadline) {
        guard var session = sessions[sessionID] else { return }
        var payload = ByteBuffer()
        payload.writeSDLRPCMessage(rpc, prettyJSON: configuration.prettyJSON)
        let message = SDLMessage(
            version: session.version,
            serviceType: rpc.bulkData == nil ? .rpc : .bulkData,
            sessionID: sessionID,
            messageID: session.takeMessageID(),
            payload: payload
        )
        sessions[sessionID] = session
        var bytes = ByteBuffer()
        for frame in SDLMessageFragmenter(message: message, maximumPayloadSize: session.mtu) {
            bytes.writeSDLFrame(frame)
        }
        outbox.append(.write(session.connection, bytes))
        let name = catalog.functionName(forID: rpc.functionID) ?? "\(rpc.functionID)"
        log.append {
            TrafficLog.Entry(
                sequence: $0, time: now, direction: .toApp, sessionID: sessionID, rpcType: rpc.rpcType, function: name,
                correlationID: rpc.correlationID, parameters: rpc.parameters, bulkDataSize: rpc.bulkData?.readableBytes ?? 0
            )
        }
    }

    /// Sends a response: `success` from the result code, `info` when given, and, for a successful
    /// response, every mandatory response parameter the handler did not set (from the spec's
    /// fill-in template), so that every answer is valid against MOBILE_API.xml. A `delayMs` fault
    /// for the function holds it back, however the handler answered (at once or later).
    mutating func respond(
        to sessionID: UInt8,
        functionID: UInt32,
        correlationID: UInt32,
        resultCode: String,
        info: String? = nil,
        parameters: [String: SDLJSON] = [:],
        bulkData: ByteBuffer? = nil,
        now: NIODeadline,
        applyingFaults: Bool = true
    ) {
        if applyingFaults, let name = catalog.functionName(forID: functionID), let delay = faults.match(name)?.delay {
            var held = parameters
            held["resultCode"] = .string(resultCode)
            held["info"] = info.map { .string($0) }
            let response = DelayedResponse(functionID: functionID, correlationID: correlationID, parameters: .object(held))
            _ = timers.schedule(at: now + delay, .delayedResponse(session: sessionID, response: response))
            return
        }
        let success = Self.successfulResultCodes.contains(resultCode)
        var params = parameters
        if success, let function = catalog.function(id: functionID, messageType: .response) {
            if case .object(let template) = catalog.template(for: function) {
                for (key, value) in template where params[key] == nil { params[key] = value }
            }
        }
        params["success"] = .bool(success)
        params["resultCode"] = .string(resultCode)
        if let info { params["info"] = .string(info) }
        send(
            SDLRPCMessage(
                rpcType: .response, functionID: functionID, correlationID: correlationID, parameters: .object(params), bulkData: bulkData),
            to: sessionID, now: now)
    }

    /// Sends a notification by name with Core's correlation id 0xFFFFFFFF (docs/protocol.md §k),
    /// if the app's policy allows it at its HMI level.
    mutating func notify(
        _ name: String, _ parameters: [String: SDLJSON], to sessionID: UInt8, now: NIODeadline, bulkData: ByteBuffer? = nil
    ) {
        guard let functionID = catalog.functionID(named: name) else { return }
        if let app = apps[sessionID], !configuration.policy.isAllowed(name, messageType: .notification, hmiLevel: app.hmiLevel) {
            return
        }
        send(
            SDLRPCMessage(
                rpcType: .notification, functionID: functionID, correlationID: SDLRPCMessage.notificationCorrelationID,
                parameters: .object(parameters), bulkData: bulkData
            ),
            to: sessionID,
            now: now
        )
    }
}
