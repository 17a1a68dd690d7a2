import SDLClient
import SDLProtocol
import SDLSpec
import Testing

@Suite("Requests: RegisterAppInterface parameters and result classification")
struct RequestsRegistrationTests {
    let catalog = SDLCatalog.builtIn

    func registerFunction() throws -> SDLFunction {
        try #require(catalog.function(named: "RegisterAppInterface", messageType: .request))
    }

    func expectInvalid(_ configuration: SDLAppConfiguration, naming field: String, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            _ = try SDLRegistrationParameters.make(from: configuration)
            Issue.record("expected invalidParameters for \(field)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == .invalidParameters, sourceLocation: sourceLocation)
            #expect(error.detail.contains(field), "detail: \(error.detail)", sourceLocation: sourceLocation)
        }
    }

    @Test("A minimal configuration gets the spec's defaults and validates with zero issues")
    func defaults() throws {
        let parameters = try SDLRegistrationParameters.make(from: SDLAppConfiguration(appName: "Gateway App", appID: "gw-1"))
        #expect(parameters["appName"] == "Gateway App")
        #expect(parameters["appID"] == "gw-1")
        #expect(parameters["isMediaApplication"] == false)
        #expect(parameters["languageDesired"] == "EN-US")
        #expect(parameters["hmiDisplayLanguageDesired"] == "EN-US")
        #expect(parameters["appHMIType"] == ["DEFAULT"])
        #expect(parameters["syncMsgVersion"] == ["majorVersion": 8, "minorVersion": 0, "patchVersion": 0])
        #expect(parameters["deviceInfo"] == ["hardware": "sdl-gateway", "os": "Linux"])
        #expect(parameters["fullAppID"] == nil)
        #expect(parameters["ttsName"] == nil)
        #expect(parameters["vrSynonyms"] == nil)
        #expect(parameters["hashID"] == nil)
        #expect(catalog.validate(parameters, against: try registerFunction()).isEmpty)
    }

    @Test("A full configuration is written field by field and validates with zero issues")
    func full() throws {
        let scheme: SDLJSON = [
            "primaryColor": ["red": 10, "green": 20, "blue": 30],
            "backgroundColor": ["red": 0, "green": 0, "blue": 0],
        ]
        let configuration = SDLAppConfiguration(
            appName: "Radio",
            appID: "radio1",
            fullAppID: "radio1-full-id",
            isMediaApplication: true,
            appHMIType: ["MEDIA", "REMOTE_CONTROL"],
            languageDesired: "DE-DE",
            hmiDisplayLanguageDesired: "FR-FR",
            ttsName: [.init(text: "Radio"), .init(text: "", type: "SILENCE")],
            vrSynonyms: ["Radio", "My radio"],
            ngnMediaScreenAppName: "Rad",
            dayColorScheme: scheme,
            nightColorScheme: scheme,
            deviceInfo: .init(
                hardware: "sdl-gateway", firmwareRev: "1.0", os: "Linux", osVersion: "6.8", carrier: "none", maxNumberRFCOMMPorts: 1),
            syncMsgVersion: .init(major: 7, minor: 1, patch: 2),
            hashID: "0123456789abcdef0123456789abcdef"
        )
        let parameters = try SDLRegistrationParameters.make(from: configuration)
        #expect(parameters["fullAppID"] == "radio1-full-id")
        #expect(parameters["isMediaApplication"] == true)
        #expect(parameters["appHMIType"] == ["MEDIA", "REMOTE_CONTROL"])
        #expect(parameters["ttsName"] == [["text": "Radio", "type": "TEXT"], ["text": "", "type": "SILENCE"]])
        #expect(parameters["vrSynonyms"] == ["Radio", "My radio"])
        #expect(parameters["ngnMediaScreenAppName"] == "Rad")
        #expect(parameters["dayColorScheme"] == scheme)
        #expect(parameters["nightColorScheme"] == scheme)
        #expect(parameters["deviceInfo"]?["maxNumberRFCOMMPorts"] == 1)
        #expect(parameters["syncMsgVersion"] == ["majorVersion": 7, "minorVersion": 1, "patchVersion": 2])
        #expect(parameters["hashID"] == "0123456789abcdef0123456789abcdef")
        #expect(catalog.validate(parameters, against: try registerFunction()).isEmpty)
    }

    @Test("Blank names and names with tabs or newlines are rejected, naming the field")
    func badNames() {
        expectInvalid(SDLAppConfiguration(appName: "", appID: "a"), naming: "appName")
        expectInvalid(SDLAppConfiguration(appName: "   ", appID: "a"), naming: "appName")
        expectInvalid(SDLAppConfiguration(appName: "Two\tParts", appID: "a"), naming: "appName")
        expectInvalid(SDLAppConfiguration(appName: "Two\nLines", appID: "a"), naming: "appName")
        expectInvalid(SDLAppConfiguration(appName: #"Literal \n"#, appID: "a"), naming: "appName")
        expectInvalid(SDLAppConfiguration(appName: "App", appID: " "), naming: "appID")
        expectInvalid(SDLAppConfiguration(appName: "App", appID: "a", ttsName: [.init(text: "  ")]), naming: "ttsName[0].text")
        expectInvalid(SDLAppConfiguration(appName: "App", appID: "a", ngnMediaScreenAppName: "A\tB"), naming: "ngnMediaScreenAppName")
        expectInvalid(SDLAppConfiguration(appName: "App", appID: "a", vrSynonyms: ["ok", ""]), naming: "vrSynonyms[1]")
    }

    @Test("The spec's limits are enforced before sending")
    func limits() {
        let long = String(repeating: "x", count: 101)
        expectInvalid(SDLAppConfiguration(appName: long, appID: "a"), naming: "$.appName")
        expectInvalid(SDLAppConfiguration(appName: "App", appID: long), naming: "$.appID")
        expectInvalid(SDLAppConfiguration(appName: "App", appID: "a", fullAppID: long), naming: "$.fullAppID")
        expectInvalid(
            SDLAppConfiguration(appName: "App", appID: "a", vrSynonyms: [String(repeating: "v", count: 41)]), naming: "$.vrSynonyms[0]")
        expectInvalid(SDLAppConfiguration(appName: "App", appID: "a", appHMIType: ["CAR"]), naming: "$.appHMIType[0]")
        expectInvalid(SDLAppConfiguration(appName: "App", appID: "a", languageDesired: "en-us"), naming: "$.languageDesired")
        expectInvalid(
            SDLAppConfiguration(appName: "App", appID: "a", hmiDisplayLanguageDesired: "XX-XX"), naming: "$.hmiDisplayLanguageDesired")
        expectInvalid(
            SDLAppConfiguration(appName: "App", appID: "a", syncMsgVersion: .init(major: 11, minor: 0)),
            naming: "$.syncMsgVersion.majorVersion")
        expectInvalid(
            SDLAppConfiguration(appName: "App", appID: "a", dayColorScheme: ["primaryColor": ["red": 256, "green": 0, "blue": 0]]),
            naming: "$.dayColorScheme.primaryColor.red"
        )
        expectInvalid(SDLAppConfiguration(appName: "App", appID: "a", hashID: long), naming: "$.hashID")
        expectInvalid(
            SDLAppConfiguration(appName: "App", appID: "a", ttsName: Array(repeating: .init(text: "t"), count: 101)),
            naming: "$.ttsName"
        )
    }

    @Test("RegisterAppInterface result codes: SUCCESS, WARNINGS, WRONG_LANGUAGE and RESUME_FAILED register; the rest are fatal")
    func classification() throws {
        for code in ["SUCCESS", "WARNINGS", "WRONG_LANGUAGE", "RESUME_FAILED"] {
            #expect(SDLRegistrationParameters.classify(resultCode: code) == .registered, "\(code)")
        }
        let fatal = [
            "DISALLOWED", "DUPLICATE_NAME", "APPLICATION_REGISTERED_ALREADY", "INVALID_DATA", "GENERIC_ERROR", "TOO_MANY_APPLICATIONS",
            "UNSUPPORTED_VERSION", "REJECTED", "something new",
        ]
        for code in fatal {
            #expect(SDLRegistrationParameters.classify(resultCode: code) == .fatal, "\(code)")
        }
        // Every registering code is a resultCode the spec allows on the RegisterAppInterface response.
        let response = try #require(catalog.function(named: "RegisterAppInterface", messageType: .response))
        let allowed = try #require(response.parameters.first { $0.name == "resultCode" }?.allowedElements)
        #expect(SDLRegistrationParameters.registeredResultCodes.isSubset(of: Set(allowed)))
        // The spec's other codes for this response (INVALID_DATA, OUT_OF_MEMORY, …) are all fatal.
        let others = allowed.filter { !SDLRegistrationParameters.registeredResultCodes.contains($0) }
        #expect(others.count == allowed.count - 4)
        #expect(others.allSatisfy { SDLRegistrationParameters.classify(resultCode: $0) == .fatal })
    }

    @Test("An app icon is checked before registering: image type, a file name, 1 byte to 1 MiB; it is not a RegisterAppInterface parameter")
    func appIcon() throws {
        var configuration = SDLAppConfiguration(appName: "Icon App", appID: "icon-1")
        configuration.appIcon = .init(name: "icon.png", data: [1, 2, 3])
        let parameters = try SDLRegistrationParameters.make(from: configuration)
        #expect(parameters["appIcon"] == nil)
        configuration.appIcon = .init(name: "icon.json", fileType: "JSON", data: [1])
        expectInvalid(configuration, naming: "appIcon.fileType")
        configuration.appIcon = .init(name: "icon.png", data: [])
        expectInvalid(configuration, naming: "appIcon.data")
        configuration.appIcon = .init(name: "icon.png", data: [UInt8](repeating: 0, count: SDLAppConfiguration.AppIcon.maximumSize + 1))
        expectInvalid(configuration, naming: "appIcon.data")
        configuration.appIcon = .init(name: " ", data: [1])
        expectInvalid(configuration, naming: "appIcon.name")
        configuration.appIcon = .init(name: "dir/icon.png", data: [1])
        expectInvalid(configuration, naming: "appIcon.name")
    }
}
