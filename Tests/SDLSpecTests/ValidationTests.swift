import SDLProtocol
import SDLSpec
import Testing

@Suite("Validation of JSON parameters")
struct ValidationTests {
    let catalog = SDLCatalog.builtIn

    func issues(_ function: String, _ json: SDLJSON, _ type: SDLMessageType = .request) throws -> [SDLValidationIssue] {
        try catalog.validate(json, function: function, messageType: type)
    }

    static let goodRegistration: SDLJSON = [
        "syncMsgVersion": ["majorVersion": 8, "minorVersion": 0],
        "appName": "Gateway", "isMediaApplication": false,
        "languageDesired": "EN-US", "hmiDisplayLanguageDesired": "EN-US", "appID": "1234567",
        "vrSynonyms": ["Gateway"], "appHMIType": ["DEFAULT"],
        "ttsName": [["text": "Gateway", "type": "TEXT"]],
    ]

    @Test("Good parameters pass")
    func goodParameters() throws {
        #expect(try issues("RegisterAppInterface", Self.goodRegistration).isEmpty)
        #expect(try issues("Show", ["mainField1": "Hello", "softButtons": [["type": "TEXT", "softButtonID": 1, "text": "OK"]]]).isEmpty)
        #expect(
            try issues("OnHMIStatus", ["hmiLevel": "FULL", "audioStreamingState": "AUDIBLE", "systemContext": "MAIN"], .notification)
                .isEmpty)
        #expect(try issues("UnregisterAppInterface", [:]).isEmpty)
        // A number without a fraction is accepted as an Integer, even when written as 1.0.
        #expect(
            try issues("SetMediaClockTimer", ["updateMode": "COUNTUP", "startTime": ["hours": 1.0, "minutes": 2, "seconds": 3]]).isEmpty)
    }

    @Test("Wrong scalar type: Show {mainField1: 123}")
    func wrongType() throws {
        let found = try issues("Show", ["mainField1": 123])
        #expect(
            found == [
                SDLValidationIssue(kind: .wrongType, path: "$.mainField1", expected: "String of 0...500 characters", got: "Integer 123")
            ])
        #expect(found.first?.message == "$.mainField1: expected String of 0...500 characters, got Integer 123")
        #expect(try issues("Show", [:]).isEmpty)
        #expect(try issues("Show", ["alignment": true]).map(\.expected) == ["one of enum TextAlignment (String)"])
        #expect(try issues("Show", ["windowID": 1.5]).map(\.got) == ["Float 1.5"])
        #expect(try issues("Show", ["mainField1": nil]).map(\.got) == ["null"])
        #expect(
            try issues("Show", "text") == [
                SDLValidationIssue(kind: .wrongType, path: "$", expected: "object", got: "String \"text\" (4 characters)")
            ])
    }

    @Test("Missing mandatory and unknown parameters")
    func missingAndUnknown() throws {
        var params = Self.goodRegistration.objectValue!
        params["appName"] = nil
        params["bogus"] = 1
        let found = try issues("RegisterAppInterface", .object(params))
        #expect(
            found == [
                SDLValidationIssue(kind: .missingMandatory, path: "$.appName", expected: "String of at most 100 characters", got: "absent"),
                SDLValidationIssue(kind: .unknownParameter, path: "$.bogus", expected: "no such parameter", got: "Integer 1"),
            ])
        #expect(try issues("Show", ["odd key": true]).map(\.path) == ["$[\"odd key\"]"])
    }

    @Test("A misspelt parameter gets a \"did you mean\"; a bad enum value lists the allowed ones (and the closest)")
    func suggestions() throws {
        #expect(
            try issues("Show", ["mainFeild1": "x"]).map(\.message) == [
                "$.mainFeild1: expected no such parameter (did you mean mainField1?), got String \"x\" (1 characters)"
            ])
        #expect(try issues("Show", ["zzz": 1]).map(\.expected) == ["no such parameter"])
        let alignment = try issues("Show", ["alignment": "centred"]).map(\.expected)
        #expect(alignment == ["one of enum TextAlignment (did you mean CENTERED?): LEFT_ALIGNED, RIGHT_ALIGNED, CENTERED"])
        // Language's 39 elements are all listed (an enum over 40 lists 40 and how many more).
        let language = try #require(
            try issues("RegisterAppInterface", ["languageDesired": "en_us"]).first { $0.path == "$.languageDesired" })
        #expect(language.expected.hasPrefix("one of enum Language (did you mean EN-US?): EN-US, ES-MX, "), "\(language.expected)")
        #expect(language.expected.hasSuffix(", HI-IN"), "\(language.expected)")
        #expect(SDLSpelling.suggestion(for: "show", among: ["Show", "Slider"]) == "Show")
        #expect(SDLSpelling.suggestion(for: "Allert", among: ["Alert", "AlertManeuver"]) == "Alert")
        #expect(SDLSpelling.suggestion(for: "Speak", among: ["Show", "Alert"]) == nil)
    }

    @Test("Nested struct and array element paths")
    func nestedPaths() throws {
        let found = try issues(
            "Show",
            [
                "softButtons": [
                    ["type": "TEXT", "softButtonID": 1],
                    ["type": "TEXT", "softButtonID": 2],
                    ["type": "TEXT", "softButtonID": 3, "text": 7, "image": ["value": "icon.png", "imageType": "ANIMATED"]],
                ]
            ])
        #expect(
            found == [
                SDLValidationIssue(
                    kind: .wrongType, path: "$.softButtons[2].text", expected: "String of 0...500 characters", got: "Integer 7"),
                SDLValidationIssue(
                    kind: .notAnEnumElement, path: "$.softButtons[2].image.imageType", expected: "one of enum ImageType: STATIC, DYNAMIC",
                    got: "String \"ANIMATED\" (8 characters)"),
            ])
        #expect(
            try issues("Show", ["softButtons": [["softButtonID": 1]]]) == [
                SDLValidationIssue(
                    kind: .missingMandatory, path: "$.softButtons[0].type", expected: "one of enum SoftButtonType (String)", got: "absent")
            ])
        #expect(
            try issues("Show", ["graphic": "icon.png"]) == [
                SDLValidationIssue(
                    kind: .wrongType, path: "$.graphic", expected: "struct Image (object)", got: "String \"icon.png\" (8 characters)")
            ])
    }

    @Test("Array vs scalar and array sizes")
    func arrays() throws {
        var params = Self.goodRegistration.objectValue!
        params["vrSynonyms"] = "Gateway"
        #expect(
            try issues("RegisterAppInterface", .object(params)) == [
                SDLValidationIssue(
                    kind: .wrongType, path: "$.vrSynonyms", expected: "array of String", got: "String \"Gateway\" (7 characters)")
            ])
        params["vrSynonyms"] = []
        #expect(
            try issues("RegisterAppInterface", .object(params)) == [
                SDLValidationIssue(kind: .arrayTooShort, path: "$.vrSynonyms", expected: "at least 1 elements", got: "array of 0 elements")
            ])
        params["vrSynonyms"] = .array(Array(repeating: "a", count: 101))
        #expect(try issues("RegisterAppInterface", .object(params)).map(\.kind) == [.arrayTooLong])
        params["vrSynonyms"] = ["ok", ["nested"]]
        #expect(
            try issues("RegisterAppInterface", .object(params)) == [
                SDLValidationIssue(kind: .wrongType, path: "$.vrSynonyms[1]", expected: "String", got: "array of 1 elements")
            ])
        #expect(try issues("Show", ["mainField1": ["a"]]).map(\.kind) == [.wrongType])
    }

    @Test("Numeric ranges, Integer vs Float, string lengths in Unicode scalars")
    func ranges() throws {
        var params = Self.goodRegistration.objectValue!
        params["syncMsgVersion"] = ["majorVersion": 11, "minorVersion": -1, "patchVersion": 2.5]
        #expect(
            try issues("RegisterAppInterface", .object(params)) == [
                SDLValidationIssue(
                    kind: .valueTooLarge, path: "$.syncMsgVersion.majorVersion", expected: "Integer in 1...10", got: "Integer 11"),
                SDLValidationIssue(
                    kind: .valueTooSmall, path: "$.syncMsgVersion.minorVersion", expected: "Integer in 0...1000", got: "Integer -1"),
                SDLValidationIssue(
                    kind: .wrongType, path: "$.syncMsgVersion.patchVersion", expected: "Integer in 0...1000", got: "Float 2.5"),
            ])
        params = Self.goodRegistration.objectValue!
        params["appName"] = .string(String(repeating: "é", count: 100))  // 100 scalars, 200 bytes: fine
        params["vrSynonyms"] = [.string(String(repeating: "🚗", count: 41))]
        #expect(try issues("RegisterAppInterface", .object(params)).map(\.path) == ["$.vrSynonyms[0]"])
        #expect(try issues("RegisterAppInterface", .object(params)).first?.kind == .stringTooLong)
        let small = SDLCatalog(
            version: "test",
            functions: [
                SDLFunction(
                    name: "F", functionID: 1, messageType: .request,
                    parameters: [
                        SDLParameter(name: "code", type: .string, minLength: 4, maxLength: 7),
                        SDLParameter(name: "ratio", type: .float, minValue: 0.5, isMandatory: false),
                    ])
            ], enums: [:], structs: [:])
        #expect(
            try small.validate(["code": "abc", "ratio": 0.25], function: "F") == [
                SDLValidationIssue(
                    kind: .stringTooShort, path: "$.code", expected: "String of 4...7 characters", got: "String \"abc\" (3 characters)"),
                SDLValidationIssue(kind: .valueTooSmall, path: "$.ratio", expected: "Float >= 0.5", got: "Float 0.25"),
            ])
        #expect(try small.validate(["code": "abcd", "ratio": 1], function: "F").isEmpty)
        #expect(try small.template(function: "F") == ["code": "code"])
    }

    @Test("A response's resultCode is limited to its listed Result elements")
    func enumSubset() throws {
        let response = try #require(catalog.function(named: "RegisterAppInterface", messageType: .response))
        let allowed = try #require(response.parameter(named: "resultCode")?.allowedElements)
        #expect(allowed.first == "SUCCESS" && allowed.contains("WRONG_LANGUAGE") && !allowed.contains("IN_USE"))
        #expect(try issues("RegisterAppInterface", ["success": true, "resultCode": "WRONG_LANGUAGE"], .response).isEmpty)
        let found = try issues("RegisterAppInterface", ["success": false, "resultCode": "IN_USE"], .response)
        #expect(found.map(\.kind) == [.notAnEnumElement])
        #expect(found.first?.path == "$.resultCode")
        #expect(found.first?.expected == "one of " + allowed.joined(separator: ", "))
    }

    @Test("Nesting bound")
    func nesting() throws {
        let found = try catalog.validate(
            ["softButtons": [["type": "IMAGE", "softButtonID": 1, "image": ["value": "x"]]]], function: "Show", maximumDepth: 1)
        #expect(
            found == [
                SDLValidationIssue(
                    kind: .nestingTooDeep, path: "$.softButtons[0].image", expected: "at most 1 nested structs", got: "deeper nesting")
            ])
    }

    @Test("Unknown function")
    func unknownFunction() throws {
        #expect(throws: SDLSpecError.self) { try catalog.validate([:], function: "NoSuchRPC") }
        do {
            _ = try catalog.validate([:], function: "GenericResponse", messageType: .request)
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .unknownFunction)
        }
    }
}
