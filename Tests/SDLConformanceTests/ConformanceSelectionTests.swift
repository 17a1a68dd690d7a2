import SDLConformance
import Testing

@Suite("Conformance cases and --only")
struct ConformanceSelectionTests {
    @Test("At least 20 cases with unique ids; registration first and UnregisterAppInterface last")
    func cases() {
        let ids = ConformanceCases.all.map(\.id)
        #expect(ids.count >= 20)
        #expect(Set(ids).count == ids.count)
        #expect(ids.first == "register.app")
        #expect(ids.last == "unregister")
    }

    @Test("--only takes ids and areas, keeps the run order, and names what matches nothing")
    func select() throws {
        #expect(try ConformanceCases.select([]).count == ConformanceCases.all.count)
        #expect(try ConformanceCases.select(["show.template", "register.app"]).map(\.id) == ["register.app", "show.template"])
        let menu = try ConformanceCases.select(["menu"]).map(\.id)
        #expect(menu == ConformanceCases.all.map(\.id).filter { $0.hasPrefix("menu.") })
        #expect(!menu.isEmpty)
        #expect(menu.allSatisfy { $0.hasPrefix("menu.") })
        #expect(try ConformanceCases.select(["show"]).map(\.id) == ["show.text", "show.template"])
        #expect(throws: ConformanceSelectionError.self) { try ConformanceCases.select(["sho"]) }
        let error = #expect(throws: ConformanceSelectionError.self) { try ConformanceCases.select(["nothing", "show.text"]) }
        #expect(error?.unknown == ["nothing"])
        #expect(error?.description.hasPrefix("no case nothing; the cases are register.app, ") == true)
    }
}
