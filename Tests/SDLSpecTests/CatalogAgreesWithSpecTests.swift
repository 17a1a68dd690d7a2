import Foundation
import SDLProtocol
import SDLSpec
import Testing

@Suite("Built-in catalog agrees with MOBILE_API.xml", .enabled(if: SpecFixture.isAvailable, "../shared/sdl-spec/MOBILE_API.xml is absent"))
struct CatalogAgreesWithSpecTests {
    @Test("Parsing the XML gives exactly the built-in catalog")
    func parsedEqualsBuiltIn() throws {
        let parsed = try SDLCatalog(contentsOf: SpecFixture.mobileAPI)
        #expect(parsed.version == "8.0.0")
        #expect(parsed.functions.count == SDLCatalog.builtIn.functions.count)
        #expect(parsed.enums == SDLCatalog.builtIn.enums)
        #expect(parsed.structs == SDLCatalog.builtIn.structs)
        #expect(parsed.functions == SDLCatalog.builtIn.functions)
        #expect(parsed == SDLCatalog.builtIn)
    }

    @Test("The committed generated file is what sdl-spec-gen writes today")
    func generatedFileIsFresh() throws {
        let parsed = try SDLCatalog(contentsOf: SpecFixture.mobileAPI)
        let committed = try String(contentsOf: SpecFixture.generatedSource, encoding: .utf8)
        #expect(committed == parsed.generatedSwiftSource(specFileName: "MOBILE_API.xml"))
        #expect(committed.hasPrefix("// GENERATED FILE - DO NOT EDIT."))
    }

    @Test("Only top-level definitions count: <history> and comments are ignored")
    func historyIgnored() throws {
        let parsed = try SDLCatalog(contentsOf: SpecFixture.mobileAPI)
        // SetDisplayLayout and EncodedSyncPData repeat inside <history>; the current ones are deprecated.
        #expect(parsed.functions.filter { $0.name == "SetDisplayLayout" }.count == 2)
        #expect(parsed.function(named: "SetDisplayLayout", messageType: .request)?.isDeprecated == true)
        #expect(parsed.functions.filter { $0.name == "EncodedSyncPData" }.count == 2)
        // SyncPData and OnSyncPData are commented out in 8.0.0; their ids remain in FunctionID.
        #expect(parsed.function(named: "SyncPData", messageType: .request) == nil)
        #expect(parsed.functionID(named: "SyncPData") == 65537)
    }
}
