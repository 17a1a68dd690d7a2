import NIOCore
import SDLProtocol
import SDLSpec

/// One request from an app, as handlers see it.
struct Request: Sendable {
    var sessionID: UInt8
    var functionID: UInt32
    var function: String
    var correlationID: UInt32
    var parameters: [String: SDLJSON]
    var bulkData: ByteBuffer?
    var now: NIODeadline
}

/// A handler's answer: respond now, or later (the handler scheduled or stored what answers).
enum Reply: Sendable {
    case result(String, info: String? = nil, parameters: [String: SDLJSON] = [:])
    case later

    static func success(_ parameters: [String: SDLJSON] = [:], info: String? = nil) -> Reply {
        .result("SUCCESS", info: info, parameters: parameters)
    }
}

typealias RequestHandler = @Sendable (inout HeadUnit, Request) -> Reply

/// The request pipeline (docs/protocol.md §c, §e, §k): decode, unknown function ids, registration,
/// faults, rate limits, validation against the spec, policy, then the function's handler.
extension HeadUnit {
    /// Every handler by request function name; functions without one are answered SUCCESS with
    /// their mandatory response parameters.
    static let handlers: [String: RequestHandler] = {
        var all: [String: RequestHandler] = [:]
        for group in [
            registrationHandlers, screenHandlers, interactionHandlers, menuHandlers, fileHandlers, subscriptionHandlers, otherHandlers,
        ] {
            all.merge(group) { first, _ in first }
        }
        return all
    }()

    mutating func handleRPCPayload(_ message: SDLMessage, session sessionID: UInt8, now: NIODeadline) {
        guard message.version >= 2 else { return }  // Core never negotiates v1 with a v5 app
        var payload = message.payload
        let rpc: SDLRPCMessage
        do {
            rpc = try payload.readSDLRPCMessage()
        } catch {
            answerUndecodable(message.payload, session: sessionID, error: error, now: now)
            return
        }
        let name = catalog.functionName(forID: rpc.functionID) ?? "\(rpc.functionID)"
        log.append {
            TrafficLog.Entry(
                sequence: $0, time: now, direction: .fromApp, sessionID: sessionID, rpcType: rpc.rpcType, function: name,
                correlationID: rpc.correlationID, parameters: rpc.parameters, bulkDataSize: rpc.bulkData?.readableBytes ?? 0
            )
        }
        guard rpc.rpcType == .request else { return }
        handleRequest(rpc, session: sessionID, now: now)
    }

    /// A payload whose binary header reads but whose JSON does not: INVALID_DATA, as Core's
    /// formatter reports; anything less is malformed.
    mutating func answerUndecodable(_ payload: ByteBuffer, session sessionID: UInt8, error: SDLProtocolError, now: NIODeadline) {
        guard let word = payload.getInteger(at: payload.readerIndex, endianness: .big, as: UInt32.self),
            let correlationID = payload.getInteger(at: payload.readerIndex + 4, endianness: .big, as: UInt32.self),
            word >> 28 == 0, error.code != .rpcHeaderTruncated, error.code != .rpcJSONSizeMismatch
        else {
            if let connection = sessions[sessionID]?.connection { markMalformed(connection, error.detail, now: now) }
            return
        }
        respond(
            to: sessionID, functionID: word & SDLRPCMessage.maximumFunctionID, correlationID: correlationID, resultCode: "INVALID_DATA",
            info: "Invalid JSON: \(error.detail)", now: now)
    }

    mutating func handleRequest(_ rpc: SDLRPCMessage, session sessionID: UInt8, now: NIODeadline) {
        guard let function = catalog.function(id: rpc.functionID, messageType: .request) else {
            respond(
                to: sessionID, functionID: rpc.functionID, correlationID: rpc.correlationID, resultCode: "UNSUPPORTED_REQUEST",
                info: "Module does not recognize this function id", now: now)
            return
        }
        let request = Request(
            sessionID: sessionID, functionID: rpc.functionID, function: function.name, correlationID: rpc.correlationID,
            parameters: rpc.parameters.objectValue ?? [:], bulkData: rpc.bulkData, now: now
        )
        func answer(_ code: String, _ info: String?) {
            respond(to: sessionID, functionID: rpc.functionID, correlationID: rpc.correlationID, resultCode: code, info: info, now: now)
        }
        if function.name != "RegisterAppInterface" && apps[sessionID] == nil {
            answer("APPLICATION_NOT_REGISTERED", "The app is not registered")
            return
        }
        let fault = faults.match(function.name)
        if let fault {
            if fault.hang { return }
            if fault.dropConnection, let connection = sessions[sessionID]?.connection {
                outbox.append(.close(connection))
                return
            }
            if fault.malformedFrame, let connection = sessions[sessionID]?.connection {
                // A header with version 0xF: every SDL parser must reject it.
                outbox.append(.write(connection, ByteBuffer(bytes: [0xF1, 0x07, 0x00, sessionID, 0, 0, 0, 0, 0, 0, 0, 1])))
                return
            }
        }
        if var app = apps[sessionID] {
            let outcome = app.rateLimiter.check(function.name, hmiLevel: app.hmiLevel, now: now)
            apps[sessionID] = app
            switch outcome {
            case .allow: break
            case .reject:
                answer("REJECTED", "Too many \(function.name) requests")
                return
            case .unregister(let reason):
                notify("OnAppInterfaceUnregistered", ["reason": .string(reason)], to: sessionID, now: now)
                endSession(sessionID, keepingResumptionData: false, now: now)
                return
            }
        }
        let issues = catalog.validate(.object(request.parameters), against: function)
        if let issue = issues.first {
            answer("INVALID_DATA", issue.message)
            return
        }
        if let app = apps[sessionID], !configuration.policy.isAllowed(function.name, messageType: .request, hmiLevel: app.hmiLevel) {
            let levels = configuration.policy.allowedLevels(function.name)
            let allowed = levels.isEmpty ? "no HMI level" : levels.joined(separator: ", ")
            answer("DISALLOWED", "\(function.name) is not allowed in HMI level \(app.hmiLevel) by the policy (allowed: \(allowed))")
            return
        }
        let reply: Reply
        if let code = fault?.resultCode {
            reply = .result(code, info: "Injected fault")
        } else if let handler = Self.handlers[function.name] {
            reply = handler(&self, request)
        } else {
            reply = .success()
        }
        if case .result(let code, let info, let parameters) = reply {
            respond(
                to: sessionID, functionID: rpc.functionID, correlationID: rpc.correlationID, resultCode: code, info: info,
                parameters: parameters, now: now)
        }
        sendPendingHashChanges(now: now)
    }

    /// Runs a timer's event.
    mutating func fire(_ event: TimerEvent, now: NIODeadline) {
        switch event {
        case .activate(let session):
            activate(session: session, now: now)
        case .finishInteraction(let session, let correlationID):
            finishInteraction(session: session, correlationID: correlationID, now: now)
        case .audioPassThruChunk(let session):
            sendAudioPassThruChunk(session: session, now: now)
        case .audioPassThruEnd(let session):
            endAudioPassThru(session: session, resultCode: "SUCCESS", now: now)
        case .notification(let session, let name, let parameters):
            notify(name, parameters.objectValue ?? [:], to: session, now: now)
        case .endStream(let session, let service):
            disallowStreaming(session: session, service)
        case .delayedResponse(let session, let response):
            var parameters = response.parameters.objectValue ?? [:]
            let code = parameters.removeValue(forKey: "resultCode")?.stringValue ?? "SUCCESS"
            let info = parameters.removeValue(forKey: "info")?.stringValue
            respond(
                to: session, functionID: response.functionID, correlationID: response.correlationID, resultCode: code, info: info,
                parameters: parameters, now: now, applyingFaults: false
            )
        }
    }
}
