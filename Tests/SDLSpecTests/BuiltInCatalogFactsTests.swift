import SDLProtocol
import SDLSpec
import Testing

/// Facts from docs/protocol.md §f–§h, checked against the built-in catalog without the XML.
@Suite("Built-in catalog facts (docs/protocol.md §f–§h)")
struct BuiltInCatalogFactsTests {
    let catalog = SDLCatalog.builtIn

    @Test("Version and FunctionID numbers (§g)")
    func functionIDs() throws {
        #expect(catalog.version == "8.0.0")
        let table = catalog.functionIDTable
        #expect(table.count == 92)
        #expect(Set(table.values).count == 92)
        let expected: [String: UInt32] = [
            "RESERVED": 0, "RegisterAppInterface": 1, "GenericResponse": 31, "SubtleAlert": 64,
            "OnHMIStatus": 32768, "OnAppCapabilityUpdated": 32791, "EncodedSyncPData": 65536,
            "SyncPData": 65537, "OnEncodedSyncPData": 98304, "OnSyncPData": 98305,
        ]
        for (name, id) in expected {
            #expect(catalog.functionID(named: name) == id, "\(name)")
        }
        #expect(catalog.functionID(named: "Unused42") == nil)
        #expect(!table.values.contains(42))
        #expect(catalog.functionName(forID: 0x8000) == "OnHMIStatus")
        // Every live function uses an id of the table, and shares it between request and response.
        #expect(catalog.functionIDs.isSubset(of: Set(table.values)))
        for function in catalog.functions {
            #expect(table[function.name] == function.functionID, "\(function.name)")
        }
    }

    @Test("FunctionID both ways for every element; a changed FunctionID enum changes the table")
    func functionIDBothWays() throws {
        var catalog = catalog
        for (name, id) in catalog.functionIDTable {
            #expect(catalog.functionName(forID: id) == name, "\(id)")
        }
        #expect(catalog.functionName(forID: 42) == nil)
        var functionID = try #require(catalog.enums["FunctionID"])
        functionID.elements.append(SDLEnum.Element(name: "Unused42ID", value: 42))
        catalog.enums["FunctionID"] = functionID
        #expect(catalog.functionName(forID: 42) == "Unused42")
        #expect(catalog.functionID(named: "Unused42") == 42)
        #expect(catalog.functionIDTable.count == 93)
    }

    @Test("Lookups by name and by id; GenericResponse has only a response")
    func lookups() throws {
        let register = try #require(catalog.function(named: "RegisterAppInterface", messageType: .request))
        #expect(register.functionID == 1)
        #expect(catalog.function(id: 1, messageType: .response)?.name == "RegisterAppInterface")
        #expect(catalog.function(id: 32768, messageType: .notification)?.name == "OnHMIStatus")
        #expect(catalog.function(id: 32791, messageType: .notification)?.name == "OnAppCapabilityUpdated")
        #expect(catalog.function(id: 64, messageType: .request)?.name == "SubtleAlert")
        #expect(catalog.function(id: 65536, messageType: .request)?.name == "EncodedSyncPData")
        #expect(catalog.function(named: "GenericResponse", messageType: .response)?.functionID == 31)
        #expect(catalog.function(named: "GenericResponse", messageType: .request) == nil)
        #expect(catalog.functions.filter { $0.name == "GenericResponse" }.count == 1)
        #expect(catalog.function(id: 32768, messageType: .request) == nil)
        #expect(SDLMessageType(.notification) == .notification && SDLMessageType.response.rpcType == .response)
    }

    @Test("Enums: Result 37, ButtonName 51, Language 39 with wire names (§h)")
    func enums() throws {
        let result = try #require(catalog.enums["Result"])
        #expect(result.elements.count == 37)
        #expect(result.elementNames.first == "SUCCESS" && result.elementNames.last == "ENCRYPTION_NEEDED")
        #expect(catalog.enums["ButtonName"]?.elements.count == 51)
        let language = try #require(catalog.enums["Language"])
        #expect(language.elements.count == 39)
        #expect(language.contains("EN-US") && language.contains("HI-IN"))
        #expect(!language.contains("EN_US"))
        #expect(catalog.enums["HMILevel"]?.elementNames == ["FULL", "LIMITED", "BACKGROUND", "NONE"])
        #expect(catalog.enums["FunctionID"]?.element(named: "OnHMIStatusID")?.value == 0x8000)
    }

    @Test("Vehicle data: GetVehicleData has 36 Boolean flags, SubscribeVehicleData 35 without vin (§h)")
    func vehicleData() throws {
        let get = try #require(catalog.function(named: "GetVehicleData", messageType: .request))
        let getFlags = get.parameters.filter { $0.type == .boolean }
        #expect(getFlags.count == 36)
        for name in ["vin", "gps", "speed", "rpm", "fuelRange", "handsOffSteering", "seatOccupancy", "climateData"] {
            let parameter = try #require(get.parameter(named: name), "\(name)")
            #expect(parameter.type == .boolean && !parameter.isMandatory && !parameter.isArray)
        }
        let subscribe = try #require(catalog.function(named: "SubscribeVehicleData", messageType: .request))
        let subscribeFlags = subscribe.parameters.filter { $0.type == .boolean }
        #expect(subscribeFlags.count == 35)
        #expect(subscribe.parameter(named: "vin") == nil)
        #expect(Set(subscribeFlags.map(\.name)) == Set(getFlags.map(\.name)).subtracting(["vin"]))
        #expect(get.parameter(named: "fuelLevel")?.isDeprecated == true)
    }

    @Test("RegisterAppInterface request params (§f)")
    func registerAppInterface() throws {
        let register = try #require(catalog.function(named: "RegisterAppInterface", messageType: .request))
        let appName = try #require(register.parameter(named: "appName"))
        #expect(appName.type == .string && appName.maxLength == 100 && appName.isMandatory && !appName.isArray)
        let version = try #require(register.parameter(named: "syncMsgVersion"))
        #expect(version.type == .structure("SyncMsgVersion") && version.isMandatory)
        #expect(register.parameter(named: "sdlMsgVersion") == nil)
        let synonyms = try #require(register.parameter(named: "vrSynonyms"))
        #expect(synonyms.type == .string && synonyms.isArray && !synonyms.isMandatory)
        #expect(synonyms.minSize == 1 && synonyms.maxSize == 100 && synonyms.maxLength == 40)
        #expect(register.parameter(named: "languageDesired")?.type == .enumeration("Language"))
        let mandatory = Set(register.parameters.filter(\.isMandatory).map(\.name))
        #expect(mandatory == ["syncMsgVersion", "appName", "isMediaApplication", "languageDesired", "hmiDisplayLanguageDesired", "appID"])
        let syncMsgVersion = try #require(catalog.structs["SyncMsgVersion"])
        let major = try #require(syncMsgVersion.parameter(named: "majorVersion"))
        #expect(major.type == .integer && major.minValue == 1 && major.maxValue == 10 && major.isMandatory)
        #expect(syncMsgVersion.parameter(named: "patchVersion")?.isMandatory == false)
        let onHMIStatus = try #require(catalog.function(named: "OnHMIStatus", messageType: .notification))
        #expect(onHMIStatus.parameter(named: "videoStreamingState")?.defaultValue == "STREAMABLE")
    }
}
