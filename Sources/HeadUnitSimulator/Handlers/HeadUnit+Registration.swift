import HeadUnitModel
import NIOCore
import SDLProtocol
import SDLSpec

/// RegisterAppInterface, UnregisterAppInterface, ChangeRegistration, GetSystemCapability and the
/// HMI status that follows them (docs/protocol.md §e, §f, §k).
extension HeadUnit {
    static let registrationHandlers: [String: RequestHandler] = [
        "RegisterAppInterface": { $0.registerAppInterface($1) },
        "UnregisterAppInterface": { $0.unregisterAppInterface($1) },
        "ChangeRegistration": { $0.changeRegistration($1) },
        "GetSystemCapability": { $0.getSystemCapability($1) },
    ]

    /// Core's `CheckSyntax`: empty or blank text, or a tab or newline (also the literal `\t`, `\n`).
    static func isBadText(_ text: String) -> Bool {
        text.allSatisfy { $0 == " " } || text.contains("\t") || text.contains("\n") || text.contains("\\t") || text.contains("\\n")
    }

    mutating func registerAppInterface(_ request: Request) -> Reply {
        let params = request.parameters
        guard apps[request.sessionID] == nil else {
            return .result("APPLICATION_REGISTERED_ALREADY", info: "The app is already registered on this session")
        }
        let appName = params["appName"]?.stringValue ?? ""
        if Self.isBadText(appName) { return .result("INVALID_DATA", info: "appName is empty or has a tab or newline") }
        if let ngn = params["ngnMediaScreenAppName"]?.stringValue, Self.isBadText(ngn) {
            return .result("INVALID_DATA", info: "ngnMediaScreenAppName is empty or has a tab or newline")
        }
        for chunk in params["ttsName"]?.arrayValue ?? [] {
            if let text = chunk["text"]?.stringValue, !text.isEmpty, Self.isBadText(text) {
                return .result("INVALID_DATA", info: "ttsName text has a tab or newline")
            }
        }
        let appID = (params["fullAppID"]?.stringValue ?? params["appID"]?.stringValue ?? "").lowercased()
        if let other = app(withID: appID) {
            return .result("DISALLOWED", info: "App id \(appID) is already registered (session \(other.sessionID))")
        }
        let vrSynonyms = params["vrSynonyms"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let names = Set(([appName] + vrSynonyms).map { $0.lowercased() })
        if let clash = apps.values.first(where: { !names.isDisjoint(with: ([$0.appName] + $0.vrSynonyms).map { $0.lowercased() }) }) {
            return .result("DUPLICATE_NAME", info: "The name clashes with app \(clash.appName)")
        }
        let profile = configuration.profile
        let language = params["languageDesired"]?.stringValue ?? profile.language
        let displayLanguage = params["hmiDisplayLanguageDesired"]?.stringValue ?? profile.hmiDisplayLanguage
        var app = AppState(
            sessionID: request.sessionID,
            connection: sessions[request.sessionID]!.connection,
            appID: appID,
            appName: appName,
            vrSynonyms: vrSynonyms,
            isMediaApplication: params["isMediaApplication"]?.boolValue ?? false,
            appHMITypes: params["appHMIType"]?.arrayValue?.compactMap(\.stringValue) ?? [],
            language: language,
            hmiDisplayLanguage: displayLanguage,
            registration: .object(params)
        )
        app.rateLimiter = RequestRateLimiter(configuration: configuration.requestLimits)
        // The app's persistent files move back into it (counted once in the file storage).
        app.files = persistentFiles.removeValue(forKey: appID) ?? [:]
        var resultCode = "SUCCESS"
        var info: String?
        var resumed: AppState?
        if let hash = params["hashID"]?.stringValue {
            if let record = resumption.removeValue(forKey: appID), record.hash == hash {
                resumed = record.app
                info = "Data resumption successful"
                app.commands = record.app.commands
                app.subMenus = record.app.subMenus
                app.choiceSets = record.app.choiceSets
                app.buttonSubscriptions = record.app.buttonSubscriptions
                app.vehicleDataSubscriptions = record.app.vehicleDataSubscriptions
                app.screen.globalProperties = record.app.screen.globalProperties
                app.resumptionHash = record.hash
            } else {
                resultCode = "RESUME_FAILED"
                info = "Hash from RAI does not match to saved resume data"
            }
        }
        if resultCode == "SUCCESS" && (language != profile.language || displayLanguage != profile.hmiDisplayLanguage) {
            resultCode = "WRONG_LANGUAGE"
            info = "The head unit's language is \(profile.language), display \(profile.hmiDisplayLanguage)"
        }
        apps[request.sessionID] = app
        let response = profile.registerAppInterfaceResponse(
            resultCode: resultCode, info: info, appSyncMsgVersion: params["syncMsgVersion"],
            iconResumed: resumed != nil && app.iconFile != nil
        )
        respond(
            to: request.sessionID, functionID: request.functionID, correlationID: request.correlationID,
            resultCode: resultCode, info: info, parameters: response.objectValue ?? [:], now: request.now
        )
        afterRegistration(request.sessionID, resumed: resumed, now: request.now)
        return .later
    }

    /// The lock-screen dismissal warning of Core 8.2's preloaded policy table (`consumer_friendly_messages`
    /// LockScreenDismissalWarning), which has it in en-us only.
    static let lockScreenDismissalWarnings = ["EN-US": "Swipe down to dismiss, acknowledging that you are not the driver"]

    /// OnDriverDistraction as Core sends it: the state, and since its policy table enables lock-screen
    /// dismissal (`lock_screen_dismissal_enabled`), `lockScreenDismissalEnabled` with the warning in the
    /// app's display language, or `false` when the table has no warning in that language
    /// (`ApplicationManagerImpl::SendDriverDistractionState`).
    func driverDistractionParameters(for app: AppState) -> [String: SDLJSON] {
        var params: [String: SDLJSON] = ["state": .string(driverDistraction)]
        if let warning = Self.lockScreenDismissalWarnings[app.hmiDisplayLanguage] {
            params["lockScreenDismissalEnabled"] = true
            params["lockScreenDismissalWarning"] = .string(warning)
        } else {
            params["lockScreenDismissalEnabled"] = false
        }
        return params
    }

    /// What Core sends after the RegisterAppInterface response, in the order seen on the wire
    /// (docs/protocol.md §k): OnHMIStatus NONE, OnPermissionsChange, OnSystemRequest
    /// (LOCK_SCREEN_ICON_URL), OnDriverDistraction; then FULL when the HMI activates the app
    /// (`autoActivate`, for apps registering anew) or, for an app resumed in FULL, when Core's
    /// resumption gives it back after ``HeadUnitConfiguration/resumingTimeout``.
    mutating func afterRegistration(_ sessionID: UInt8, resumed: AppState?, now: NIODeadline) {
        guard let app = apps[sessionID] else { return }
        sendHMIStatus(app, now: now)
        notify("OnPermissionsChange", ["permissionItem": configuration.policy.permissionItems(catalog: catalog)], to: sessionID, now: now)
        notify(
            "OnSystemRequest",
            ["requestType": "LOCK_SCREEN_ICON_URL", "url": .string(configuration.lockScreenIconURL)],
            to: sessionID, now: now
        )
        notify("OnDriverDistraction", driverDistractionParameters(for: app), to: sessionID, now: now)
        // A resumed app gets its FULL back from Core's resumption, after ApplicationResumingTimeout;
        // a new one from the HMI when it activates new apps.
        if resumed?.hmiLevel == "FULL" {
            _ = timers.schedule(at: now + configuration.resumingTimeout, .activate(session: sessionID))
        } else if configuration.autoActivate && resumed == nil {
            _ = timers.schedule(at: now + configuration.autoActivateDelay, .activate(session: sessionID))
        }
    }

    mutating func unregisterAppInterface(_ request: Request) -> Reply {
        if let app = apps.removeValue(forKey: request.sessionID) {
            timers.cancelAll { $0.session == request.sessionID }
            resumption[app.appID] = nil
            appRemoved(app, now: request.now)
        }
        return .success()
    }

    mutating func changeRegistration(_ request: Request) -> Reply {
        changeApp(request) { unit, app in
            let params = request.parameters
            if let name = params["appName"]?.stringValue {
                if Self.isBadText(name) { return .refused(.result("INVALID_DATA", info: "appName is empty or has a tab or newline")) }
                if unit.apps.values.contains(where: { $0.sessionID != app.sessionID && $0.appName.lowercased() == name.lowercased() }) {
                    return .refused(.result("DUPLICATE_NAME", info: "Another app is called \(name)"))
                }
                app.appName = name
            }
            if let synonyms = params["vrSynonyms"]?.arrayValue?.compactMap(\.stringValue) { app.vrSynonyms = synonyms }
            let profile = unit.configuration.profile
            let language = params["language"]?.stringValue ?? app.language
            let displayLanguage = params["hmiDisplayLanguage"]?.stringValue ?? app.hmiDisplayLanguage
            guard profile.supportedLanguages.contains(language), profile.supportedLanguages.contains(displayLanguage) else {
                return .refused(.result("REJECTED", info: "The head unit does not support that language"))
            }
            app.language = language
            app.hmiDisplayLanguage = displayLanguage
            return .done(.success())
        }
    }

    mutating func getSystemCapability(_ request: Request) -> Reply {
        let type = request.parameters["systemCapabilityType"]?.stringValue ?? ""
        guard let capability = configuration.profile.systemCapability(type) else {
            return .result("DATA_NOT_AVAILABLE", info: "The head unit has no \(type) capability")
        }
        return .success(["systemCapability": capability])
    }

    // MARK: - HMI status

    /// Sends the app's OnHMIStatus (docs/protocol.md §f).
    mutating func sendHMIStatus(_ app: AppState, now: NIODeadline) {
        notify(
            "OnHMIStatus",
            [
                "hmiLevel": .string(app.hmiLevel),
                "audioStreamingState": .string(app.audioStreamingState),
                "systemContext": .string(app.systemContext),
                "videoStreamingState": .string(app.videoStreamingState),
                "windowID": 0,
            ],
            to: app.sessionID,
            now: now
        )
    }

    /// Changes an app's HMI status and sends OnHMIStatus when something changed. Bringing an app
    /// to FULL sends the app that was in FULL to LIMITED (media) or BACKGROUND, as an HMI does.
    mutating func setHMIStatus(
        session sessionID: UInt8,
        hmiLevel: String? = nil,
        audioStreamingState: String? = nil,
        systemContext: String? = nil,
        videoStreamingState: String? = nil,
        now: NIODeadline
    ) {
        guard var app = apps[sessionID] else { return }
        let before = (app.hmiLevel, app.audioStreamingState, app.systemContext, app.videoStreamingState)
        if let hmiLevel {
            if hmiLevel == "FULL" {
                for other in apps.values where other.sessionID != sessionID && other.hmiLevel == "FULL" {
                    setHMIStatus(
                        session: other.sessionID,
                        hmiLevel: Self.isAudioApp(other) ? "LIMITED" : "BACKGROUND",
                        audioStreamingState: Self.isAudioApp(other) ? "AUDIBLE" : "NOT_AUDIBLE",
                        now: now
                    )
                }
                app.hasBeenActivated = true
            }
            app.hmiLevel = hmiLevel
            if audioStreamingState == nil {
                let audible = Self.isAudioApp(app) && (hmiLevel == "FULL" || hmiLevel == "LIMITED")
                app.audioStreamingState = audible ? "AUDIBLE" : "NOT_AUDIBLE"
            }
            if videoStreamingState == nil {
                let navigation = !Set(app.appHMITypes).isDisjoint(with: ["NAVIGATION", "PROJECTION"])
                app.videoStreamingState = navigation && (hmiLevel == "FULL" || hmiLevel == "LIMITED") ? "STREAMABLE" : "NOT_STREAMABLE"
            }
        }
        if let audioStreamingState { app.audioStreamingState = audioStreamingState }
        if let systemContext { app.systemContext = systemContext }
        if let videoStreamingState { app.videoStreamingState = videoStreamingState }
        apps[sessionID] = app
        if before != (app.hmiLevel, app.audioStreamingState, app.systemContext, app.videoStreamingState) {
            sendHMIStatus(app, now: now)
            streamingStateChanged(session: sessionID, fromLevel: before.0, fromVideo: before.3, now: now)
        }
    }

    /// Core's `IsAudioApplication`: media, COMMUNICATION and NAVIGATION apps are audible in FULL
    /// and LIMITED, and go to LIMITED when another app is activated.
    static func isAudioApp(_ app: AppState) -> Bool {
        app.isMediaApplication || !Set(app.appHMITypes).isDisjoint(with: ["NAVIGATION", "COMMUNICATION"])
    }

    /// The HMI activates the app (`SDL.ActivateApp`): FULL, MAIN.
    mutating func activate(session sessionID: UInt8, now: NIODeadline) {
        setHMIStatus(session: sessionID, hmiLevel: "FULL", systemContext: "MAIN", now: now)
    }

    /// An app went away (unregistered, its session ended, its connection closed).
    mutating func appRemoved(_ app: AppState, now: NIODeadline) {
        // Its streams' live readers learn that it is gone.
        streamGeneration &+= 1
        // Its other files are gone, and their bytes with them (docs/protocol.md §c PutFile).
        let kept = app.files.filter { $0.value.isPersistent }
        fileStorageUsed -= Self.storageSize(of: app.files) - Self.storageSize(of: kept)
        persistentFiles[app.appID] = kept.isEmpty ? nil : kept
        if persistentFiles.count > 1000, let oldest = persistentFiles.keys.first {
            fileStorageUsed -= Self.storageSize(of: persistentFiles.removeValue(forKey: oldest) ?? [:])
        }
        if resumption.count > 1000, let oldest = resumption.keys.first {
            resumption[oldest] = nil
        }
    }

    /// What `files` take of the head unit's file storage.
    static func storageSize(of files: [String: StoredFile]) -> Int {
        files.values.reduce(0) { $0 + $1.storageSize }
    }

    /// Resumable data changed (menus, choice sets, subscriptions, global properties): Core sends
    /// OnHashChange with a new hash after the request's response (``sendPendingHashChanges(now:)``);
    /// apps keep the latest to resume with (docs/protocol.md §k).
    mutating func resumableDataChanged(session sessionID: UInt8, now: NIODeadline) {
        hashChangesPending.insert(sessionID)
    }

    /// The OnHashChange of every session whose resumable data changed, after the response.
    mutating func sendPendingHashChanges(now: NIODeadline) {
        for sessionID in hashChangesPending.sorted() { sendHashChange(session: sessionID, now: now) }
        hashChangesPending = []
    }

    private mutating func sendHashChange(session sessionID: UInt8, now: NIODeadline) {
        guard var app = apps[sessionID] else { return }
        hashCounter &+= 1
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in Array(app.appID.utf8) + withUnsafeBytes(of: hashCounter.littleEndian, Array.init) {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        let text = String(hash, radix: 16)
        let padded = String(repeating: "0", count: 16 - text.count) + text
        app.resumptionHash = padded + String(padded.reversed())
        apps[sessionID] = app
        notify("OnHashChange", ["hashID": .string(app.resumptionHash!)], to: sessionID, now: now)
    }
}
