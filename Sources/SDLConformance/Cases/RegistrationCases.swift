import NIOCore
import SDLClient
import SDLProtocol
import SDLSpec

/// Registration, HMI level, ChangeRegistration, a request the spec refuses, heartbeat,
/// resumption and UnregisterAppInterface (MOBILE_API.xml 8.0.0; docs/protocol.md §a, §d, §f, §k).
enum RegistrationCases {
    /// The capabilities a head unit's RegisterAppInterface response must carry for an app to lay
    /// out its screen, buttons and speech; Smoke's registration test reads the same.
    static let capabilities = [
        "syncMsgVersion", "language", "hmiDisplayLanguage", "displayCapabilities", "buttonCapabilities", "softButtonCapabilities",
        "hmiCapabilities", "speechCapabilities", "vrCapabilities", "audioPassThruCapabilities",
    ]

    /// Whether RegisterAppInterface's response parameter `name` is deprecated in the spec.
    static func isDeprecated(_ name: String, in context: ConformanceContext) -> Bool {
        let function = context.catalog.function(named: "RegisterAppInterface", messageType: .response)
        return function?.parameters.first { $0.name == name }?.isDeprecated ?? false
    }

    /// RegisterAppInterface with every parameter (name, TTS name, VR synonyms, media screen name,
    /// HMI types, colour schemes, device info): SUCCESS, a response the spec accepts with the
    /// capabilities, then OnHMIStatus NONE and OnPermissionsChange.
    static let register = ConformanceCase("register.app", "RegisterAppInterface with full parameters; the capabilities") { context in
        // A registration of its own, to read its response: an app registered before goes first.
        try await context.closeLink()
        let link = try await context.register(context.app)
        let response = link.registration
        let code = response["resultCode"]?.stringValue
        try context.expect("RegisterAppInterface answered \(code ?? "no resultCode")", code, equals: "SUCCESS")
        // Display, button and soft-button capabilities are deprecated since 6.0 (replaced by
        // GetSystemCapability DISPLAYS, which capability.displays checks): lacking them is a warning.
        // (An empty buttonCapabilities breaks its minsize: the spec check above warns of it.)
        let deprecated = Set(capabilities.filter { isDeprecated($0, in: context) })
        let missing = capabilities.filter { response[$0] == nil }
        for name in missing where deprecated.contains(name) {
            context.warn("the RegisterAppInterface response lacks \(name) (deprecated)")
        }
        let missingCurrent = missing.filter { !deprecated.contains($0) }
        try context.expect(
            missingCurrent.isEmpty, "the RegisterAppInterface response lacks capabilities",
            expected: capabilities.filter { !deprecated.contains($0) }.joined(separator: ", "),
            got: "no \(missingCurrent.joined(separator: ", "))")
        try await context.notification("OnHMIStatus", after: 0, describing: "OnHMIStatus NONE after registering") {
            $0["hmiLevel"]?.stringValue == "NONE"
        }
        try await context.notification("OnPermissionsChange", after: 0)
    }

    /// The driver activates the app: OnHMIStatus FULL with an audible media app's streaming state.
    static let hmiFull = ConformanceCase("hmi.full", "the driver activates the app: OnHMIStatus FULL", needsDriver: true) { context in
        let driver = try context.requireDriver()
        let link = try await context.link()
        if link.connection.tracker.hmiLevel == .full {
            // Another case activated it: back to BACKGROUND first, so that FULL is a change.
            let mark = link.inbox.mark()
            try await context.actWhenReady { try await driver.setHMILevel("BACKGROUND", appID: context.app.appID) }
            try await context.notification("OnHMIStatus", after: mark, describing: "OnHMIStatus BACKGROUND") {
                $0["hmiLevel"]?.stringValue == "BACKGROUND"
            }
        }
        let mark = link.inbox.mark()
        // Until the HMI knows the app (see ConformanceContext.activate()), it refuses.
        try await context.actWhenReady { try await driver.setHMILevel("FULL", appID: context.app.appID) }
        let status = try await context.notification("OnHMIStatus", after: mark, describing: "OnHMIStatus FULL") {
            $0["hmiLevel"]?.stringValue == "FULL"
        }
        try context.expect("audioStreamingState of a media app in FULL", status["audioStreamingState"]?.stringValue, equals: "AUDIBLE")
        try context.expect("systemContext", status["systemContext"]?.stringValue, equals: "MAIN")
    }

    /// ChangeRegistration to the languages it registered with and a new name: SUCCESS.
    static let changeRegistration = ConformanceCase("register.change", "ChangeRegistration: languages and app name") { context in
        _ = try await context.link()
        try await context.request(
            "ChangeRegistration",
            [
                "language": .string(context.app.languageDesired), "hmiDisplayLanguage": .string(context.app.hmiDisplayLanguageDesired),
                "appName": .string(context.app.appName), "ngnMediaScreenAppName": "Checked",
            ])
    }

    /// A Show whose `mainField1` is a number, not a String: INVALID_DATA (sent unchecked by the
    /// client). Not an unknown enum value: SDL Core 8.2 drops one in an optional parameter and
    /// answers WARNINGS (its `filterInvalidEnums`), so that newer apps work with older head units.
    static let invalidData = ConformanceCase("request.invalid", "a request the spec refuses: INVALID_DATA") { context in
        try await context.activate()
        try await context.request(
            "Show", ["mainField1": 42], expect: ["INVALID_DATA"], validate: false)
    }

    /// A second app whose session sends a Heartbeat every 250 ms on any protocol version and
    /// gives up after 750 ms without a frame (docs/protocol.md §d): still registered and answered
    /// after eight intervals.
    static let heartbeat = ConformanceCase("heartbeat", "Heartbeat answered: the session stays up") { context in
        var app = context.app
        app.appName = "SDL Check Heartbeat"
        app.appID = "sdl-check-heartbeat"
        app.ttsName = []
        app.vrSynonyms = []
        app.ngnMediaScreenAppName = nil
        app.isMediaApplication = false
        app.appHMIType = ["DEFAULT"]
        let interval = context.scaled(.milliseconds(250))
        let session = SDLSessionStateMachine.Configuration(
            heartbeatInterval: TimeAmount(interval), heartbeatVersions: 1...5, idleTimeout: .after(TimeAmount(interval * 3)))
        let link = try await context.openExtraLink(app, session: session)
        do {
            try await Task.sleep(for: interval * 8)
            try context.expect(
                link.connection.tracker.isRegistered, "the session ended while heartbeating", expected: "registered",
                got: "disconnected")
            try await context.request(on: link, "ListFiles")
        } catch {
            await link.close()
            throw error
        }
        try await link.end(timeout: context.scaled(.seconds(5)))
    }

    /// A command added, the OnHashChange it causes, the link cut without unregistering, then
    /// RegisterAppInterface with that hashID: SUCCESS (not RESUME_FAILED) and, the app in FULL
    /// again, the command back (adding it again is INVALID_ID). docs/protocol.md §k "Resumption".
    static let resumption = ConformanceCase(
        "resumption", "a cut link and RegisterAppInterface with the hashID: data resumed", deadline: .seconds(30)
    ) { context in
        let link = try await context.link()
        let commandID = 5001
        let mark = link.inbox.mark()
        try await context.request("AddCommand", ["cmdID": .int(Int64(commandID)), "menuParams": ["menuName": "Resumed"]])
        let hash = try await context.notification("OnHashChange", after: mark)
        guard let hashID = hash["hashID"]?.stringValue else {
            throw ConformanceFailure(.invalidMessage, "OnHashChange has no hashID", expected: "a hashID", got: "\(hash)")
        }
        await link.cut()
        context.forgetLink()
        var app = context.app
        app.hashID = hashID
        // The head unit learns of the cut on its own schedule: until then the app is still
        // registered to it (APPLICATION_REGISTERED_ALREADY, tried again for a while).
        let resumed = try await context.register(app, afterCut: true)
        try context.expect(
            "RegisterAppInterface with the latest hashID", resumed.registration["resultCode"]?.stringValue, equals: "SUCCESS")
        // A registered app starts in NONE, where AddCommand is not allowed (SDL Core's policy
        // table: Base-4 allows it in FULL, LIMITED, BACKGROUND) and a head unit restores the level
        // on its own schedule (Core: ApplicationResumingTimeout): the driver activates it first.
        try await context.activate()
        try await context.request(
            "AddCommand", ["cmdID": .int(Int64(commandID)), "menuParams": ["menuName": "Resumed"]], expect: ["INVALID_ID"])
        try await context.request("DeleteCommand", ["cmdID": .int(Int64(commandID))])
    }

    /// UnregisterAppInterface: SUCCESS; the run's last case.
    static let unregister = ConformanceCase("unregister", "UnregisterAppInterface") { context in
        let link = try await context.link()
        try await context.request(on: link, "UnregisterAppInterface")
        await link.close()
        context.forgetLink()
    }
}
