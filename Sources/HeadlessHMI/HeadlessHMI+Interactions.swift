import HeadUnitModel
import NIOCore
import SDLProtocol

/// A request of Core that the HMI answers later, as a driver would: an alert shown for its
/// duration, speech spoken, a slider or a choice waiting for the driver, the microphone recording
/// (HMI_API.xml UI.Alert, UI.SubtleAlert, UI.ScrollableMessage, UI.Slider, UI.PerformInteraction,
/// VR.PerformInteraction, TTS.Speak, UI.PerformAudioPassThru).
public struct HMIInteraction: Sendable, Hashable {
    /// The JSON-RPC id of Core's request, what the answer carries.
    public var id: Int64
    /// `UI.Alert`, `VR.PerformInteraction`, …
    public var method: String
    /// Core's HMI app id.
    public var appID: Int64
    public var params: [String: SDLJSON]
    /// When the HMI answers by itself if nobody did before.
    public var deadline: NIODeadline

    /// The control API's view of it.
    public var json: SDLJSON {
        ["id": .int(id), "method": .string(method), "params": .object(params)]
    }
}

/// Interactions: Core's requests that wait for the driver are held until their duration or
/// timeout (the simulator's, ``InteractionDuration/milliseconds(of:parameters:)``, scaled by `timeScale`) runs out,
/// the control API answers them, or Core closes them (`UI.ClosePopUp`, `UI.CancelInteraction`).
/// While a UI one is open the HMI tells Core the app's system context (`UI.OnSystemContext`
/// ALERT or HMI_OBSCURED, MAIN again after it), as a screen covering the app would.
extension HeadlessHMI {
    /// The HMI methods answered later, with the mobile function whose duration they take.
    static let interactionFunctions = [
        "UI.Alert": "Alert", "UI.SubtleAlert": "SubtleAlert", "UI.ScrollableMessage": "ScrollableMessage", "UI.Slider": "Slider",
        "UI.PerformInteraction": "PerformInteraction", "VR.PerformInteraction": "PerformInteraction", "TTS.Speak": "Speak",
        // Core records the app's audio while this is open and stops when the HMI answers it: at
        // `maxDuration`, or when Core sends UI.EndAudioPassThru (the app's EndAudioPassThru).
        "UI.PerformAudioPassThru": "PerformAudioPassThru",
    ]

    /// Core waits `DefaultTimeout` (10 s) for a TTS.Speak unless the HMI resets it; longer
    /// speech is cut short so that Core does not answer the app GENERIC_ERROR first.
    static let longestSpeech: Int64 = 9000

    /// The system context a UI interaction puts its app in (HMI_API.xml `Common.SystemContext`).
    static func systemContext(of method: String) -> String? {
        switch method {
        case "UI.Alert": "ALERT"
        case "UI.ScrollableMessage", "UI.Slider", "UI.PerformInteraction", "UI.PerformAudioPassThru": "HMI_OBSCURED"
        default: nil
        }
    }

    /// How long an alert stays open when Core sent it with `duration` 0: 10 s, SDL's generic_hmi's
    /// `DEFAULT_TIMEOUT_VALUE` (and Core's `DefaultTimeout`). Core 8.2 sends 0 for every Alert and
    /// SubtleAlert with soft buttons (alert_request.cc, subtle_alert_request.cc: the app's
    /// `duration` is dropped and Core stops timing the request), so that such an alert waits for
    /// the driver rather than for the app's duration (HMI_API.xml UI.Alert `duration`).
    static let defaultAlertTimeout: Int64 = 10_000

    /// The HMI methods that show soft buttons the driver can press (HMI_API.xml `softButtons`).
    static let softButtonMethods: Set<String> = ["UI.Alert", "UI.SubtleAlert", "UI.ScrollableMessage"]

    /// How long the HMI holds `method` (before `timeScale`): an alert's `duration`, or
    /// ``defaultAlertTimeout`` when Core sent 0; otherwise the simulator's duration of the mobile
    /// function; speech at most ``longestSpeech``.
    static func waitingTime(of method: String, params: [String: SDLJSON]) -> Int64 {
        if method == "UI.Alert" || method == "UI.SubtleAlert" {
            let duration = params["duration"]?.intValue ?? 0
            return duration > 0 ? duration : defaultAlertTimeout
        }
        let milliseconds = InteractionDuration.milliseconds(of: interactionFunctions[method] ?? method, parameters: .object(params))
        return method == "TTS.Speak" ? min(milliseconds, longestSpeech) : milliseconds
    }

    /// Whether the interaction shows soft buttons.
    static func hasSoftButtons(_ interaction: HMIInteraction) -> Bool {
        softButtonMethods.contains(interaction.method) && !(interaction.params["softButtons"]?.arrayValue ?? []).isEmpty
    }

    private func scaled(_ milliseconds: Int64) -> Int64 {
        Int64((Double(milliseconds) * timeScale).rounded())
    }

    /// Holds one of Core's interaction requests; what to send now (the system context).
    mutating func openInteraction(id: Int64, method: String, params: [String: SDLJSON], now: NIODeadline) -> [HMIMessage] {
        let wait = scaled(Self.waitingTime(of: method, params: params))
        let appID = params["appID"]?.intValue ?? 0
        interactions[id] = HMIInteraction(id: id, method: method, appID: appID, params: params, deadline: now + .milliseconds(wait))
        guard let context = Self.systemContext(of: method) else { return [] }
        return [notify("UI.OnSystemContext", ["systemContext": .string(context), "appID": .int(appID)])]
    }

    /// The earliest deadline of the open interactions, if any.
    public var nextInteractionDeadline: NIODeadline? { interactions.values.map(\.deadline).min() }

    /// Answers the interactions whose time ran out, as the HMI does when the driver did nothing:
    /// alerts, messages and speech SUCCESS, sliders and choices TIMED_OUT, and an Alert or
    /// SubtleAlert with soft buttons ABORTED (no button was pressed; generic_hmi's `onAlertTimeout`).
    public mutating func expireInteractions(now: NIODeadline) -> [HMIMessage] {
        let due = interactions.values.filter { $0.deadline <= now }.sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
        return due.flatMap { interaction -> [HMIMessage] in
            let code: HMIResult
            if ["UI.Slider", "UI.PerformInteraction", "VR.PerformInteraction"].contains(interaction.method) {
                code = .timedOut
            } else if interaction.method != "UI.ScrollableMessage", Self.hasSoftButtons(interaction) {
                code = .aborted
            } else {
                code = .success
            }
            return close(interaction.id, code: code)
        }
    }

    /// The driver pressed soft button `customButtonID` of the app (its `Buttons.OnButtonEvent` and
    /// `OnButtonPress` are sent first: Core passes the press to the app, which must see it before
    /// the alert's response). When the app's open Alert, SubtleAlert or ScrollableMessage shows
    /// that button, the HMI does what the button's `systemAction` (MOBILE_API.xml `SystemAction`)
    /// asks: DEFAULT_ACTION closes it SUCCESS (an alert's speech ends with it), STEAL_FOCUS also
    /// activates the app, KEEP_CONTEXT leaves it open for its time again and tells Core so
    /// (`BasicCommunication.OnResetTimeout`, with Core's own bound: `DefaultTimeout` plus that time).
    mutating func softButtonPressed(appID: Int64, customButtonID: Int64, now: NIODeadline) -> [HMIMessage] {
        guard let shown = interactions(ofApp: appID).first(where: { Self.softButtonMethods.contains($0.method) }),
            let button = shown.params["softButtons"]?.arrayValue?.first(where: { $0["softButtonID"]?.intValue == customButtonID })
        else { return [] }
        let action = button["systemAction"]?.stringValue ?? "DEFAULT_ACTION"
        if action == "KEEP_CONTEXT" {
            let wait = scaled(Self.waitingTime(of: shown.method, params: shown.params))
            interactions[shown.id]?.deadline = now + .milliseconds(wait)
            return [
                notify(
                    "BasicCommunication.OnResetTimeout",
                    [
                        "requestID": .int(shown.id), "methodName": .string(shown.method),
                        "resetPeriod": .int(Self.defaultAlertTimeout + wait),
                    ])
            ]
        }
        var out = close(shown.id, code: .success)
        if shown.method == "UI.Alert" {
            out += interactions(ofApp: appID).filter { $0.method == "TTS.Speak" }.flatMap { close($0.id, code: .success) }
        }
        if action == "STEAL_FOCUS", apps[appID]?.hmiLevel != "FULL" {
            out += (try? activate(appID: appID)) ?? []
        }
        return out
    }

    /// Ends an open interaction with `code`: the answer to Core, then MAIN for a UI one.
    mutating func close(_ id: Int64, code: HMIResult, params: [String: SDLJSON] = [:]) -> [HMIMessage] {
        guard let interaction = interactions.removeValue(forKey: id) else { return [] }
        var out: [HMIMessage] = [.answer(id: id, method: interaction.method, code: code, params: params)]
        if Self.systemContext(of: interaction.method) != nil,
            !interactions.values.contains(where: { $0.appID == interaction.appID && Self.systemContext(of: $0.method) != nil })
        {
            out.append(notify("UI.OnSystemContext", ["systemContext": "MAIN", "appID": .int(interaction.appID)]))
        }
        return out
    }

    /// `UI.ClosePopUp` (Core closes what the app shows, e.g. after a VR choice) and
    /// `UI.CancelInteraction` (the app's CancelInteraction): ends the app's matching UI interaction
    /// ABORTED. Returns the answers to send before Core's request is answered, and whether one was open.
    mutating func abortInteraction(appID: Int64?, method: String?, cancelID: Int64?) -> (messages: [HMIMessage], found: Bool) {
        let matching = interactions.values.filter { interaction in
            interaction.method.hasPrefix("UI.") && (appID == nil || interaction.appID == appID)
                && (method == nil || interaction.method == method)
                && (cancelID == nil || interaction.params["cancelID"]?.intValue == cancelID)
        }.sorted { $0.id < $1.id }
        return (matching.flatMap { close($0.id, code: .aborted) }, !matching.isEmpty)
    }

    /// `UI.EndAudioPassThru`: ends the open UI.PerformAudioPassThru (any app's: Core records for
    /// one at a time) SUCCESS. Returns the answers to send first, and whether one was open.
    mutating func closeAudioPassThru() -> (messages: [HMIMessage], found: Bool) {
        let open = interactions.values.filter { $0.method == "UI.PerformAudioPassThru" }.sorted { $0.id < $1.id }
        return (open.flatMap { close($0.id, code: .success) }, !open.isEmpty)
    }

    /// The app's open interactions, oldest first.
    public func interactions(ofApp appID: Int64) -> [HMIInteraction] {
        interactions.values.filter { $0.appID == appID }.sorted { $0.id < $1.id }
    }

    /// The driver answers the app's open interaction (the control API): picks a choice (by touch,
    /// MENU, or by voice, VR), types text, moves a slider, dismisses an alert, or ends it with a
    /// result. A PerformInteraction has two parts: the one not picked from is ended ABORTED first,
    /// as Core expects (it then takes the choice of the other).
    public mutating func answerInteraction(appID: Int64, _ answer: InteractionAnswer) throws(HMIError) -> [HMIMessage] {
        guard apps[appID] != nil else { throw HMIError(.unknownApp, "Core has registered no app with HMI id \(appID)") }
        let open = interactions(ofApp: appID)
        guard !open.isEmpty else { throw HMIError(.noOpenInteraction, "App \(appID) shows no interaction") }
        let code: HMIResult
        if let name = answer.resultCode {
            guard let named = HMIResult.allCases.first(where: { $0.description == name }) else {
                throw HMIError(.invalidValue, "result is a Common.Result name such as SUCCESS, ABORTED or TIMED_OUT, not \(name)")
            }
            code = named
        } else {
            code = .success
        }
        if let source = answer.triggerSource, !["MENU", "VR", "KEYBOARD"].contains(source) {
            throw HMIError(.invalidValue, "triggerSource is MENU, VR or KEYBOARD, not \(source)")
        }
        if let choice = open.first(where: { $0.method.hasSuffix(".PerformInteraction") }) {
            return try answerPerformInteraction(
                open.filter { $0.method.hasSuffix(".PerformInteraction") }, answer, code: code, choiceSet: choice)
        }
        // The one the driver sees: a UI interaction before speech.
        let shown = open.first { $0.method.hasPrefix("UI.") } ?? open[0]
        var params: [String: SDLJSON] = [:]
        if shown.method == "UI.Slider" {
            let ticks = shown.params["numTicks"]?.intValue ?? 26
            let position = answer.sliderPosition ?? shown.params["position"]?.intValue ?? 1
            guard (1...max(1, ticks)).contains(position) else { throw HMIError(.invalidValue, "sliderPosition must be 1…\(ticks)") }
            params["sliderPosition"] = .int(position)
        } else if answer.sliderPosition != nil || answer.choiceID != nil || answer.manualTextEntry != nil {
            throw HMIError(.invalidValue, "The open \(shown.method) takes no choiceID, sliderPosition or text")
        }
        // An alert's speech ends with it.
        let spoken = open.filter { $0.method == "TTS.Speak" && $0.id != shown.id }.flatMap {
            close($0.id, code: code == .success ? .success : .aborted)
        }
        return close(shown.id, code: code, params: params) + spoken
    }

    private mutating func answerPerformInteraction(
        _ parts: [HMIInteraction], _ answer: InteractionAnswer, code: HMIResult, choiceSet: HMIInteraction
    ) throws(HMIError) -> [HMIMessage] {
        let ui = parts.first { $0.method == "UI.PerformInteraction" }
        let vr = parts.first { $0.method == "VR.PerformInteraction" }
        if answer.sliderPosition != nil { throw HMIError(.invalidValue, "A PerformInteraction takes no sliderPosition") }
        var params: [String: SDLJSON] = [:]
        var picked = answer.triggerSource == "VR" ? vr : (ui ?? vr)
        if let text = answer.manualTextEntry {
            guard let ui, ui.params["interactionLayout"]?.stringValue == "KEYBOARD" else {
                throw HMIError(.invalidValue, "text answers a PerformInteraction with the KEYBOARD layout")
            }
            guard code.isSuccessful, answer.choiceID == nil else {
                throw HMIError(.invalidValue, "Typed text is answered alone, with a successful result")
            }
            params["manualTextEntry"] = .string(text)
            picked = ui
        } else if let choiceID = answer.choiceID {
            guard code.isSuccessful else { throw HMIError(.invalidValue, "A choice can only be answered with a successful result") }
            // Choices said by voice live in Core's VR grammar, not in VR.PerformInteraction: with
            // no UI choice set there is nothing to check against (Core checks it).
            let offered = Self.choiceIDs(in: parts)
            guard offered.isEmpty || offered.contains(choiceID) else {
                throw HMIError(
                    .invalidValue,
                    "choiceID \(choiceID) is not among the choices shown (\(offered.sorted().map(String.init).joined(separator: ", ")))")
            }
            params["choiceID"] = .int(choiceID)
        } else if code == .success {
            throw HMIError(.invalidValue, "A successful PerformInteraction answer needs a choiceID or text")
        }
        guard let picked else {
            throw HMIError(.invalidValue, "The open PerformInteraction has no \(answer.triggerSource == "VR" ? "VR" : "UI") part")
        }
        // The other part first, ABORTED: Core then waits for (and takes) the picked one.
        let others = parts.filter { $0.id != picked.id }.flatMap { close($0.id, code: .aborted) }
        return others + close(picked.id, code: code, params: params)
    }

    /// The HMI method of CancelInteraction's `functionID` (MOBILE_API.xml FunctionID).
    static let cancellableMethods: [Int64: String] = [
        10: "UI.PerformInteraction", 12: "UI.Alert", 25: "UI.ScrollableMessage", 26: "UI.Slider", 64: "UI.SubtleAlert",
    ]

    /// The choice ids Core sent with a PerformInteraction (UI `choiceSet`, VR grammar choices).
    static func choiceIDs(in parts: [HMIInteraction]) -> Set<Int64> {
        Set(parts.flatMap { part in (part.params["choiceSet"]?.arrayValue ?? []).compactMap { $0["choiceID"]?.intValue } })
    }
}
