import SDLProtocol

/// Plans alerts: one Alert or SubtleAlert with its images ensured first, soft button ids of its
/// own and a `cancelID`; and reads how it ended.
///
/// An alert's soft buttons get `softButtonID`s from 32768…65535, counting up and wrapping round,
/// so they never meet the screen's (``SDLSoftButtonIDTable``, 1…32767) and a late press of an
/// old alert's button is not taken for a new one's. Which button closed the alert is not in the
/// Alert response: the head unit sends OnButtonPress (CUSTOM_BUTTON, `customButtonID`) before
/// it, so ``SDLPendingAlert/answer(response:notifications:)`` reads the notifications received
/// between the request and the response.
public struct SDLAlertManager: Sendable {
    public static let softButtonIDs = 32768...65535

    public private(set) var nextSoftButtonID = SDLAlertManager.softButtonIDs.lowerBound
    public private(set) var cancelIDs = SDLIDCounter(range: 1...Int(Int32.max))

    public init() {}

    public struct Update: Sendable, Hashable {
        public var plan: SDLManagerPlan
        public var pending: SDLPendingAlert
    }

    public mutating func plan(_ alert: SDLAlert, rpcSpecMajorVersion: Int) throws(SDLManagerError) -> Update {
        try alert.validate(rpcSpecMajorVersion: rpcSpecMajorVersion)
        var plan = SDLManagerPlan()
        alert.dynamicFiles.forEach { plan.ensureFile($0.file) }
        var parameters: [String: SDLJSON] = [:]
        for (index, line) in alert.text.enumerated() where !line.isEmpty {
            parameters["alertText\(index + 1)"] = .string(line)
        }
        if let speak = alert.speak, !speak.isEmpty { parameters["ttsChunks"] = [["text": .string(speak), "type": "TEXT"]] }
        if let icon = alert.icon, !icon.isEmpty { parameters["alertIcon"] = SDLImageName.image(icon) }
        if let duration = alert.duration { parameters["duration"] = .int(Int64(duration * 1000)) }
        if let playTone = alert.playTone { parameters["playTone"] = .bool(playTone) }
        if let progress = alert.progressIndicator { parameters["progressIndicator"] = .bool(progress) }
        var buttons: [Int: String] = [:]
        var softButtons: [SDLJSON] = []
        for button in alert.softButtons {
            let id = allocateSoftButtonID()
            buttons[id] = button.id
            var json = SDLScreenRenderer.softButton(
                id: id, state: SDLSoftButton.State(name: button.id, text: button.text, image: button.image), includeImage: true)
            if let action = button.action, case .object(var members) = json {
                members["systemAction"] = .string(action)
                json = .object(members)
            }
            softButtons.append(json)
        }
        if !softButtons.isEmpty { parameters["softButtons"] = .array(softButtons) }
        let cancelID = try cancelIDs.allocate(path: "$")
        parameters["cancelID"] = .int(Int64(cancelID))
        plan.append(SDLPlannedRequest(alert.functionName, .object(parameters)))
        return Update(plan: plan, pending: SDLPendingAlert(functionName: alert.functionName, cancelID: cancelID, buttons: buttons))
    }

    private mutating func allocateSoftButtonID() -> Int {
        let id = nextSoftButtonID
        nextSoftButtonID = id == Self.softButtonIDs.upperBound ? Self.softButtonIDs.lowerBound : id + 1
        return id
    }
}

/// An Alert or SubtleAlert the driver sent: its `cancelID` and which user id each
/// `softButtonID` stands for.
public struct SDLPendingAlert: Sendable, Hashable {
    public var functionName: String
    public var cancelID: Int
    public var buttons: [Int: String]

    /// The result codes that end an alert without it being an error.
    public static let answeredResults: Set<String> = ["SUCCESS", "WARNINGS", "ABORTED"]

    public init(functionName: String, cancelID: Int, buttons: [Int: String]) {
        self.functionName = functionName
        self.cancelID = cancelID
        self.buttons = buttons
    }

    /// How the alert ended: the first OnButtonPress among `notifications` (received between the
    /// request and its response, in order) naming one of its buttons, and the result code.
    /// ABORTED (cancelled, or closed by the head unit) is an answer; any other failure
    /// (REJECTED while another alert shows, DISALLOWED in HMI NONE …) is `nil`: the caller reports
    /// the head unit's refusal.
    public func answer(response: SDLJSON, notifications: [(name: String, parameters: SDLJSON)]) -> SDLAlertAnswer? {
        let result = response["resultCode"]?.stringValue ?? "GENERIC_ERROR"
        guard Self.answeredResults.contains(result) else { return nil }
        let pressed = notifications.lazy.compactMap { notification -> String? in
            guard notification.name == "OnButtonPress", notification.parameters["buttonName"]?.stringValue == "CUSTOM_BUTTON",
                let id = notification.parameters["customButtonID"]?.intValue
            else { return nil }
            return buttons[Int(id)]
        }.first
        return SDLAlertAnswer(button: pressed, result: result)
    }

    /// The CancelInteraction request that closes this alert (`functionID` 12 is Alert, 64
    /// SubtleAlert; docs/protocol.md §g).
    public var cancelRequest: SDLPlannedRequest {
        SDLPlannedRequest("CancelInteraction", ["functionID": functionName == "SubtleAlert" ? 64 : 12, "cancelID": .int(Int64(cancelID))])
    }
}

/// How an alert ended, by the user's ids: `{"button": id | null, "result"}`.
public struct SDLAlertAnswer: Sendable, Hashable {
    public var button: String?
    public var result: String

    public init(button: String?, result: String) {
        self.button = button
        self.result = result
    }

    public var json: SDLJSON { ["button": button.map { .string($0) } ?? .null, "result": .string(result)] }
}
