import HeadUnitModel
import NIOCore
import SDLProtocol
import SDLSpec

/// What the control API (and tests) can make the HMI, the user and the vehicle do.
extension HeadUnit {
    /// Every registered app, by session.
    public var appList: [AppState] { apps.values.sorted { $0.sessionID < $1.sessionID } }

    public func requireApp(_ appID: String) throws(SimulatorControlError) -> AppState {
        guard let app = app(withID: appID) else {
            throw SimulatorControlError(.appNotFound, "No registered app has appID \(appID)")
        }
        return app
    }

    func requireEnum(_ value: String?, _ enumName: String, field: String) throws(SimulatorControlError) {
        guard let value else { return }
        guard catalog.enums[enumName]?.contains(value) == true else {
            let allowed = catalog.enums[enumName]?.elementNames.joined(separator: ", ") ?? "?"
            throw SimulatorControlError(.invalidValue, "\(field) \(value) is not a \(enumName) (\(allowed))")
        }
    }

    /// `PUT /apps/{appID}/hmi`: the HMI changes the app's level, audio state or system context.
    public mutating func setHMI(
        appID: String,
        hmiLevel: String?,
        audioStreamingState: String?,
        systemContext: String?,
        now: NIODeadline
    ) throws(SimulatorControlError) -> [HeadUnitAction] {
        let app = try requireApp(appID)
        try requireEnum(hmiLevel, "HMILevel", field: "hmiLevel")
        try requireEnum(audioStreamingState, "AudioStreamingState", field: "audioStreamingState")
        try requireEnum(systemContext, "SystemContext", field: "systemContext")
        setHMIStatus(
            session: app.sessionID, hmiLevel: hmiLevel, audioStreamingState: audioStreamingState, systemContext: systemContext, now: now)
        return takeActions()
    }

    /// `POST /buttons/{name}/press`: BUTTONDOWN, BUTTONUP and OnButtonPress to the subscribed apps
    /// in FULL or LIMITED (or to `appID` only); a soft button (CUSTOM_BUTTON with `softButtonID`)
    /// goes to the app that shows it, and a button of the app's open Alert, SubtleAlert or
    /// ScrollableMessage closes it after the notifications, as the HMI does (SUCCESS), unless its
    /// `systemAction` is KEEP_CONTEXT; STEAL_FOCUS also brings the app to FULL. Returns the appIDs notified.
    public mutating func pressButton(
        _ name: String,
        mode: String,
        appID: String?,
        softButtonID: Int64?,
        now: NIODeadline
    ) throws(SimulatorControlError) -> ([String], [HeadUnitAction]) {
        try requireEnum(name, "ButtonName", field: "button")
        try requireEnum(mode, "ButtonPressMode", field: "mode")
        var targets: [AppState]
        if let appID {
            targets = [try requireApp(appID)]
        } else {
            targets = appList.filter { $0.hmiLevel == "FULL" || $0.hmiLevel == "LIMITED" }
        }
        if softButtonID == nil {
            targets = targets.filter { $0.buttonSubscriptions.contains(name) }
        }
        for app in targets {
            var params: [String: SDLJSON] = ["buttonName": .string(name)]
            if let softButtonID { params["customButtonID"] = .int(softButtonID) }
            notify("OnButtonEvent", params.merging(["buttonEventMode": "BUTTONDOWN"]) { $1 }, to: app.sessionID, now: now)
            notify("OnButtonEvent", params.merging(["buttonEventMode": "BUTTONUP"]) { $1 }, to: app.sessionID, now: now)
            notify("OnButtonPress", params.merging(["buttonPressMode": .string(mode)]) { $1 }, to: app.sessionID, now: now)
            if let softButtonID { closeInteraction(session: app.sessionID, pressed: softButtonID, now: now) }
        }
        return (targets.map(\.appID), takeActions())
    }

    /// `POST /apps/{appID}/commands/{cmdID}`: the user picks a menu item or says its VR command.
    public mutating func triggerCommand(
        appID: String, commandID: Int64, triggerSource: String, now: NIODeadline
    ) throws(SimulatorControlError) -> [HeadUnitAction] {
        let app = try requireApp(appID)
        try requireEnum(triggerSource, "TriggerSource", field: "triggerSource")
        guard app.commands[commandID] != nil else {
            throw SimulatorControlError(.commandNotFound, "App \(appID) has no command \(commandID)")
        }
        notify("OnCommand", ["cmdID": .int(commandID), "triggerSource": .string(triggerSource)], to: app.sessionID, now: now)
        return takeActions()
    }

    /// `PUT /driver-distraction`: OnDriverDistraction to every app.
    public mutating func setDriverDistraction(_ state: String, now: NIODeadline) throws(SimulatorControlError) -> [HeadUnitAction] {
        try requireEnum(state, "DriverDistractionState", field: "state")
        guard state != driverDistraction else { return takeActions() }
        driverDistraction = state
        for app in appList {
            notify("OnDriverDistraction", driverDistractionParameters(for: app), to: app.sessionID, now: now)
        }
        return takeActions()
    }

    /// `POST /restart`: the head unit restarts (an ignition cycle). Every connection is closed
    /// without unregistering its apps; their non-persistent files are gone when they come back.
    /// Like SDL Core, which saves resumption data across ignition cycles, it keeps what the apps
    /// had for hashID resumption unless `keepingResumptionData` is false (a fresh install: the
    /// apps' next registrations answer RESUME_FAILED). Returns the app ids that were connected.
    public mutating func restart(keepingResumptionData: Bool, now: NIODeadline) -> ([String], [HeadUnitAction]) {
        let connected = appList.map(\.appID)
        for (connection, state) in connections.sorted(by: { $0.key < $1.key }) {
            for session in state.sessions.sorted() {
                endSession(session, keepingResumptionData: keepingResumptionData, now: now)
            }
            connections[connection] = nil
            outbox.append(.close(connection))
        }
        if !keepingResumptionData { resumption.removeAll() }
        return (connected, takeActions())
    }

    /// `POST /faults`, `DELETE /faults`.
    public mutating func addFault(_ fault: Fault) throws(SimulatorControlError) {
        if let function = fault.function, catalog.function(named: function, messageType: .request) == nil {
            throw SimulatorControlError(.invalidValue, "\(function) is not a request function of the spec")
        }
        if let code = fault.resultCode {
            try requireEnum(code, "Result", field: "resultCode")
        }
        faults.add(fault)
    }

    public mutating func clearFaults() {
        faults.removeAll()
    }

    /// `POST /faults` with `burst`: `count` copies of a notification to every app (or one), all at
    /// once or paced at `ratePerSecond`, to test how a client copes with a flood.
    public mutating func burst(
        _ notification: String,
        parameters: [String: SDLJSON],
        count: Int,
        ratePerSecond: Double?,
        appID: String?,
        now: NIODeadline
    ) throws(SimulatorControlError) -> [HeadUnitAction] {
        guard let function = catalog.function(named: notification, messageType: .notification) else {
            throw SimulatorControlError(.invalidValue, "\(notification) is not a notification of the spec")
        }
        guard (1...10_000).contains(count) else {
            throw SimulatorControlError(.invalidValue, "count must be 1…10000")
        }
        if let ratePerSecond, !(ratePerSecond > 0 && ratePerSecond <= 100_000) {
            throw SimulatorControlError(.invalidValue, "ratePerSecond must be above 0 and at most 100000")
        }
        let targets = try appID.map { id throws(SimulatorControlError) in [try requireApp(id)] } ?? appList
        if ratePerSecond != nil, timers.count + count * targets.count > TimerQueue.capacity {
            throw SimulatorControlError(.invalidValue, "More than \(TimerQueue.capacity) paced notifications would be pending")
        }
        for app in targets {
            for index in 0..<count {
                if let ratePerSecond {
                    let offset = TimeAmount.nanoseconds(Int64(Double(index) / ratePerSecond * 1e9))
                    _ = timers.schedule(
                        at: now + offset, .notification(session: app.sessionID, name: function.name, parameters: .object(parameters)))
                } else {
                    notify(function.name, parameters, to: app.sessionID, now: now)
                }
            }
        }
        return takeActions()
    }
}
