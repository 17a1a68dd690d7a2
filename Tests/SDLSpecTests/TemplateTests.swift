import SDLProtocol
import SDLSpec
import Testing

@Suite("Fill-in templates")
struct TemplateTests {
    static let requests = SDLCatalog.builtIn.functions.filter { $0.messageType == .request }.map(\.name)

    @Test("Every request's template (mandatory only, and with all params) validates", arguments: requests)
    func requestTemplateValidates(name: String) throws {
        let catalog = SDLCatalog.builtIn
        let function = try catalog.requireFunction(named: name, messageType: .request)
        let minimal = catalog.template(for: function)
        #expect(catalog.validate(minimal, against: function) == [], "\(minimal.serialized())")
        let mandatory = Set(function.parameters.filter(\.isMandatory).map(\.name))
        #expect(Set(minimal.objectValue?.keys ?? [:].keys) == mandatory)
        let full = catalog.template(for: function, includeOptional: true)
        #expect(catalog.validate(full, against: function) == [], "\(full.serialized())")
        #expect(full.objectValue?.count == function.parameters.count)
    }

    @Test("Every response and notification template validates too")
    func otherTemplatesValidate() {
        let catalog = SDLCatalog.builtIn
        for function in catalog.functions where function.messageType != .request {
            #expect(catalog.validate(catalog.template(for: function), against: function) == [], "\(function.name)")
        }
    }

    @Test("RegisterAppInterface placeholders follow the constraints")
    func registerAppInterface() throws {
        let template = try SDLCatalog.builtIn.template(function: "RegisterAppInterface")
        #expect(
            template == [
                "syncMsgVersion": ["majorVersion": 1, "minorVersion": 0],
                "appName": "appName", "isMediaApplication": false,
                "languageDesired": "EN-US", "hmiDisplayLanguageDesired": "EN-US", "appID": "appID",
            ])
        let full = try SDLCatalog.builtIn.template(function: "RegisterAppInterface", includeOptional: true)
        #expect(full["vrSynonyms"] == ["vrSynonyms"])
        #expect(full["syncMsgVersion"]?["patchVersion"] == 0)
        let status = try SDLCatalog.builtIn.template(function: "OnHMIStatus", messageType: .notification, includeOptional: true)
        #expect(status["videoStreamingState"] == "STREAMABLE")
        #expect(throws: SDLSpecError.self) { try SDLCatalog.builtIn.template(function: "Nope") }
    }
}
