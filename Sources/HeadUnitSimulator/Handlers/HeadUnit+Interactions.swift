import HeadUnitModel
import NIOCore
import SDLProtocol
import SDLSpec

/// Alert, Speak, ScrollableMessage, Slider, SubtleAlert, PerformInteraction and CancelInteraction:
/// the requests the HMI answers later. An app has at most one open at a time; it is shown in
/// `screen.overlay`, may change the app's system context, and ends when its timer fires, when the
/// control API answers it, or when CancelInteraction aborts it.
extension HeadUnit {
    static let interactionHandlers: [String: RequestHandler] = [
        "Alert": { $0.openInteraction($1) },
        "Speak": { $0.openInteraction($1) },
        "ScrollableMessage": { $0.openInteraction($1) },
        "Slider": { $0.openInteraction($1) },
        "SubtleAlert": { $0.openInteraction($1) },
        "PerformInteraction": { $0.openInteraction($1) },
        "CancelInteraction": { $0.cancelInteraction($1) },
    ]

    /// The functions CancelInteraction can end (MOBILE_API.xml CancelInteraction `functionID`).
    static let cancellableFunctions: Set<String> = ["Alert", "PerformInteraction", "ScrollableMessage", "Slider", "SubtleAlert"]

    /// The system context an open interaction puts the app in, if it changes it.
    static func systemContext(of function: String, parameters: SDLJSON) -> String? {
        switch function {
        case "Alert": "ALERT"
        case "ScrollableMessage", "Slider": "HMI_OBSCURED"
        case "PerformInteraction": parameters["interactionMode"]?.stringValue == "MANUAL_ONLY" ? "HMI_OBSCURED" : "VRSESSION"
        default: nil
        }
    }

    /// Checks Core makes before it asks the HMI; a failure answers the request now.
    func interactionRefusal(_ request: Request, app: AppState) -> Reply? {
        let params = request.parameters
        switch request.function {
        case "Alert":
            // Core's AlertRequest::Validate: something to show or say.
            if params["alertText1"] == nil && params["alertText2"] == nil && params["alertText3"] == nil
                && params["ttsChunks"] == nil && (params["softButtons"]?.arrayValue ?? []).isEmpty && params["alertIcon"] == nil
            {
                return .result("INVALID_DATA", info: "Mandatory parameters are missing")
            }
        case "SubtleAlert":
            if params["alertText1"] == nil && params["alertText2"] == nil && params["ttsChunks"] == nil && params["alertIcon"] == nil {
                return .result("INVALID_DATA", info: "Mandatory parameters are missing")
            }
        case "Slider":
            let ticks = params["numTicks"]?.intValue ?? 0
            if (params["position"]?.intValue ?? 0) > ticks {
                return .result("INVALID_DATA", info: "position is greater than numTicks")
            }
            if let footer = params["sliderFooter"]?.arrayValue, footer.count != 1 && footer.count != ticks {
                return .result("INVALID_DATA", info: "sliderFooter must have 1 or numTicks entries")
            }
        case "PerformInteraction":
            let ids = params["interactionChoiceSetIDList"]?.arrayValue?.compactMap(\.intValue) ?? []
            if let unknown = ids.first(where: { app.choiceSets[$0] == nil }) {
                return .result("INVALID_ID", info: "No choice set has interactionChoiceSetID \(unknown)")
            }
            if Set(ids).count != ids.count {
                return .result("INVALID_ID", info: "interactionChoiceSetIDList repeats a choice set")
            }
            let mode = params["interactionMode"]?.stringValue ?? "BOTH"
            if ids.isEmpty && mode != "MANUAL_ONLY" {
                return .result("INVALID_DATA", info: "A VR interaction needs at least one choice set")
            }
            if mode != "MANUAL_ONLY" {
                let choices = ids.flatMap { app.choiceSets[$0]?["choiceSet"]?.arrayValue ?? [] }
                if choices.contains(where: { ($0["vrCommands"]?.arrayValue ?? []).isEmpty }) {
                    return .result("INVALID_DATA", info: "Some choices don't contain VR commands.")
                }
            }
        default:
            break
        }
        return nil
    }

    /// Opens an Alert, Speak, ScrollableMessage, Slider, SubtleAlert or PerformInteraction: the
    /// HMI answers when its duration or timeout (scaled by `timeScale`) runs out, or earlier
    /// through ``answerInteraction(appID:_:now:)`` or CancelInteraction.
    mutating func openInteraction(_ request: Request) -> Reply {
        changeApp(request) { unit, app in
            if let refusal = unit.interactionRefusal(request, app: app) { return .refused(refusal) }
            if let open = app.openInteraction {
                return .refused(.result("REJECTED", info: "The HMI is busy with a \(open.function) of this app"))
            }
            let parameters = SDLJSON.object(request.parameters)
            let delay = unit.configuration.scaled(
                milliseconds: InteractionDuration.milliseconds(of: request.function, parameters: parameters))
            let timer = unit.timers.schedule(
                at: request.now + delay, .finishInteraction(session: request.sessionID, correlationID: request.correlationID))
            app.openInteraction = OpenInteraction(
                function: request.function, functionID: request.functionID, correlationID: request.correlationID,
                parameters: parameters, timer: timer
            )
            // How long it shows, and when it ends, so a viewer can run the time it has left.
            let ends = request.now + delay
            app.screen.overlay = [
                "function": .string(request.function), "parameters": parameters,
                "durationMs": .int(delay.nanoseconds / 1_000_000), "endsAtUptimeMs": .int(Int64(ends.uptimeNanoseconds / 1_000_000)),
            ]
            return .done { unit in
                if let context = Self.systemContext(of: request.function, parameters: parameters) {
                    unit.setHMIStatus(session: request.sessionID, systemContext: context, now: request.now)
                }
                return .later
            }
        }
    }

    /// Ends the app's open interaction: answers it, clears the overlay, and brings the system
    /// context back to MAIN.
    mutating func closeInteraction(
        session sessionID: UInt8, resultCode: String, info: String? = nil, parameters: [String: SDLJSON], now: NIODeadline
    ) {
        guard var app = apps[sessionID], let open = app.openInteraction else { return }
        timers.cancel(open.timer)
        app.openInteraction = nil
        app.screen.overlay = nil
        apps[sessionID] = app
        if Self.systemContext(of: open.function, parameters: open.parameters) != nil {
            setHMIStatus(session: sessionID, systemContext: "MAIN", now: now)
        }
        respond(
            to: sessionID, functionID: open.functionID, correlationID: open.correlationID, resultCode: resultCode, info: info,
            parameters: parameters, now: now)
    }

    /// A soft button of the app's open Alert, SubtleAlert or ScrollableMessage was pressed: the
    /// HMI closes it (SUCCESS) unless the button's `systemAction` is KEEP_CONTEXT, and activates
    /// the app for STEAL_FOCUS.
    mutating func closeInteraction(session sessionID: UInt8, pressed softButtonID: Int64, now: NIODeadline) {
        guard let open = apps[sessionID]?.openInteraction, ["Alert", "SubtleAlert", "ScrollableMessage"].contains(open.function),
            let button = open.parameters["softButtons"]?.arrayValue?.first(where: { $0["softButtonID"]?.intValue == softButtonID })
        else { return }
        let action = button["systemAction"]?.stringValue ?? "DEFAULT_ACTION"
        guard action != "KEEP_CONTEXT" else { return }
        closeInteraction(session: sessionID, resultCode: "SUCCESS", parameters: [:], now: now)
        if action == "STEAL_FOCUS", apps[sessionID]?.hmiLevel != "FULL" { activate(session: sessionID, now: now) }
    }

    /// Answers the app's open interaction when its timer fires: what the HMI says when the user
    /// did nothing (SUCCESS for Alert, Speak, SubtleAlert and ScrollableMessage; TIMED_OUT for
    /// Slider, with its position, and PerformInteraction).
    mutating func finishInteraction(session sessionID: UInt8, correlationID: UInt32, now: NIODeadline) {
        guard let open = apps[sessionID]?.openInteraction, open.correlationID == correlationID else { return }
        switch open.function {
        case "Slider":
            let position = open.parameters["position"]?.intValue ?? 1
            closeInteraction(session: sessionID, resultCode: "TIMED_OUT", parameters: ["sliderPosition": .int(position)], now: now)
        case "PerformInteraction":
            closeInteraction(session: sessionID, resultCode: "TIMED_OUT", parameters: [:], now: now)
        default:
            closeInteraction(session: sessionID, resultCode: "SUCCESS", parameters: [:], now: now)
        }
    }

    mutating func cancelInteraction(_ request: Request) -> Reply {
        guard let app = apps[request.sessionID] else { return .result("APPLICATION_NOT_REGISTERED") }
        let functionID = UInt32(clamping: request.parameters["functionID"]?.intValue ?? -1)
        guard let name = catalog.functionName(forID: functionID), Self.cancellableFunctions.contains(name) else {
            // Core answers INVALID_ID here, which CancelInteraction's response may not carry
            // (MOBILE_API.xml); INVALID_DATA keeps the answer valid.
            return .result("INVALID_DATA", info: "Function id \(functionID) is not an interaction that can be cancelled")
        }
        guard let open = app.openInteraction, open.functionID == functionID else {
            return .result("IGNORED", info: "No \(name) is open")
        }
        if let cancelID = request.parameters["cancelID"]?.intValue, open.parameters["cancelID"]?.intValue != cancelID {
            return .result("IGNORED", info: "The open \(name) has another cancelID")
        }
        closeInteraction(
            session: request.sessionID, resultCode: "ABORTED", info: "Cancelled by CancelInteraction", parameters: [:], now: request.now)
        return .success()
    }

    /// `POST /apps/{appID}/interaction`: the user answers the app's open interaction now (its
    /// timer is cancelled). Returns the response parameters sent to the app.
    public mutating func answerInteraction(
        appID: String, _ answer: InteractionAnswer, now: NIODeadline
    ) throws(SimulatorControlError) -> (SDLJSON, [HeadUnitAction]) {
        let app = try requireApp(appID)
        guard let open = app.openInteraction else {
            throw SimulatorControlError(.noOpenInteraction, "App \(appID) shows no interaction")
        }
        try requireEnum(answer.resultCode, "Result", field: "resultCode")
        try requireEnum(answer.triggerSource, "TriggerSource", field: "triggerSource")
        let resultCode = answer.resultCode ?? "SUCCESS"
        if let allowed = catalog.function(id: open.functionID, messageType: .response)?.parameter(named: "resultCode")?.allowedElements,
            !allowed.isEmpty, !allowed.contains(resultCode)
        {
            throw SimulatorControlError(.invalidValue, "\(open.function) cannot answer \(resultCode) (\(allowed.joined(separator: ", ")))")
        }
        let success = Self.successfulResultCodes.contains(resultCode)
        var parameters: [String: SDLJSON] = [:]
        switch open.function {
        case "PerformInteraction" where answer.manualTextEntry != nil:
            // The HMI's keyboard: OnKeyboardInput ENTRY_SUBMITTED (when the policy lets the app
            // have it; Base-4 does not), then the response with the text.
            guard open.parameters["interactionLayout"]?.stringValue == "KEYBOARD" else {
                throw SimulatorControlError(.invalidValue, "manualTextEntry answers a PerformInteraction with the KEYBOARD layout")
            }
            guard success, answer.choiceID == nil else {
                throw SimulatorControlError(.invalidValue, "Typed text is answered alone, with a successful result code")
            }
            let text = answer.manualTextEntry ?? ""
            notify("OnKeyboardInput", ["event": "ENTRY_SUBMITTED", "data": .string(text)], to: app.sessionID, now: now)
            parameters["manualTextEntry"] = .string(text)
            parameters["triggerSource"] = .string(answer.triggerSource ?? "KEYBOARD")
        case "PerformInteraction":
            if let choiceID = answer.choiceID {
                let ids = open.parameters["interactionChoiceSetIDList"]?.arrayValue?.compactMap(\.intValue) ?? []
                let choices = ids.flatMap { app.choiceSets[$0]?["choiceSet"]?.arrayValue?.compactMap { $0["choiceID"]?.intValue } ?? [] }
                guard choices.contains(choiceID) else {
                    throw SimulatorControlError(
                        .invalidValue,
                        "choiceID \(choiceID) is not in the choice sets shown (\(choices.map(String.init).joined(separator: ", ")))")
                }
                guard success else {
                    throw SimulatorControlError(.invalidValue, "A choice can only be answered with a successful result code")
                }
                let defaultSource = open.parameters["interactionMode"]?.stringValue == "VR_ONLY" ? "VR" : "MENU"
                parameters["choiceID"] = .int(choiceID)
                parameters["triggerSource"] = .string(answer.triggerSource ?? defaultSource)
            } else if success {
                throw SimulatorControlError(.invalidValue, "A successful PerformInteraction answer needs a choiceID")
            }
        case "Slider":
            let ticks = open.parameters["numTicks"]?.intValue ?? 26
            let position = answer.sliderPosition ?? open.parameters["position"]?.intValue ?? 1
            guard (1...ticks).contains(position) else {
                throw SimulatorControlError(.invalidValue, "sliderPosition must be 1…\(ticks)")
            }
            parameters["sliderPosition"] = .int(position)
        default:
            if answer.choiceID != nil || answer.sliderPosition != nil {
                throw SimulatorControlError(.invalidValue, "The open \(open.function) takes no choiceID or sliderPosition")
            }
        }
        closeInteraction(session: app.sessionID, resultCode: resultCode, parameters: parameters, now: now)
        parameters["success"] = .bool(success)
        parameters["resultCode"] = .string(resultCode)
        return (.object(parameters), takeActions())
    }
}
