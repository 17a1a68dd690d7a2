import SDLManagers
import SDLProtocol
import Testing

/// A menu plan the head unit carried out only in part: what it did stays accepted, so the next
/// plan neither deletes a command twice (INVALID_ID) nor adds a title twice (DUPLICATE_NAME).
@Suite("Menu plans that fail part-way")
struct PartialPlanTests {
    typealias M = MenuManagerTests

    @Test("A, B(B1, B2), C → A, D, E failing at E: D is accepted, B is gone, C stays; the next plan deletes C and adds E only")
    func failsAtTheLastAdd() throws {
        var manager = try M.loaded()
        let target = [M.cell("a", "A"), M.cell("d", "D"), M.cell("e", "E")]
        let update = try manager.plan(SDLMenu(cells: target), profile: M.profile, maximumDepth: 3)
        #expect(
            update.plan.requests.map(\.description) == [
                #"DeleteSubMenu {"menuID":2}"#,
                #"DeleteCommand {"cmdID":5}"#,
                #"AddCommand {"cmdID":6,"menuParams":{"menuName":"D","position":1}}"#,
                #"AddCommand {"cmdID":7,"menuParams":{"menuName":"E","position":2}}"#,
            ])
        // The head unit carried out the DeleteSubMenu and refused the DeleteCommand of C.
        manager.accept(update, completed: 1)
        #expect(manager.accepted.entries.map(\.title) == ["A", "C"])
        let retry = try manager.plan(SDLMenu(cells: target), profile: M.profile, maximumDepth: 3)
        #expect(retry.plan.requests.map(\.functionName) == ["DeleteCommand", "AddCommand", "AddCommand"])
        #expect(retry.plan.requests.first?.parameters["cmdID"] == 5)

        // Three of four done: only E is missing; the next plan adds E alone.
        var other = try M.loaded()
        let second = try other.plan(SDLMenu(cells: target), profile: M.profile, maximumDepth: 3)
        other.accept(second, completed: 3)
        #expect(other.accepted.entries.map(\.title) == ["A", "D"])
        let last = try other.plan(SDLMenu(cells: target), profile: M.profile, maximumDepth: 3)
        #expect(last.plan.requests.map(\.functionName) == ["AddCommand"])
        #expect(last.plan.requests.first?.parameters["menuParams"]?["menuName"] == "E")
    }

    @Test("A new submenu added without its second child keeps the first child; all requests done is a full accept")
    func submenuHalfFilled() throws {
        var manager = SDLMenuManager()
        let tree = [M.cell("s", "S", children: [M.cell("s1", "S1"), M.cell("s2", "S2")])]
        let update = try manager.plan(SDLMenu(cells: tree), profile: M.profile, maximumDepth: 3)
        manager.accept(update, completed: 2)
        #expect(manager.accepted.entries.first?.children.map(\.title) == ["S1"])
        let retry = try manager.plan(SDLMenu(cells: tree), profile: M.profile, maximumDepth: 3)
        #expect(
            retry.plan.requests.map(\.description) == [#"AddCommand {"cmdID":4,"menuParams":{"menuName":"S2","parentID":1,"position":1}}"#])
        manager.accept(retry, completed: 1)
        #expect(try manager.plan(SDLMenu(cells: tree), profile: M.profile, maximumDepth: 3).plan.isEmpty)
    }
}
