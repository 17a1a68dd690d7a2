import SDLClient
import Testing

/// ``SDLAppRegistryIndex``: the uniqueness Core needs on one device (docs/protocol.md §e
/// "Registration and limits").
@Suite("Registry index")
struct RegistryIndexTests {
    static let headUnit = SDLAppRegistryIndex.headUnit(host: "127.0.0.1", port: 12345)
    static let other = SDLAppRegistryIndex.headUnit(host: "10.0.0.2", port: 12345)

    static func refusal(
        _ index: SDLAppRegistryIndex, id: String, headUnit: String = headUnit, _ app: SDLAppConfiguration
    ) -> SDLClientError? {
        var index = index
        do throws(SDLClientError) {
            try index.claim(id: id, headUnit: headUnit, app: app)
            return nil
        } catch {
            return error
        }
    }

    static func index() throws -> SDLAppRegistryIndex {
        var index = SDLAppRegistryIndex()
        try index.claim(id: "a", headUnit: headUnit, app: SDLAppConfiguration(appName: "Radio", appID: "radio-1", vrSynonyms: ["Tuner"]))
        return index
    }

    @Test("The same app id is refused on the same head unit, whatever its case")
    func sameAppID() throws {
        let error = Self.refusal(try Self.index(), id: "b", SDLAppConfiguration(appName: "Other", appID: "RADIO-1"))
        #expect(error?.code == .duplicateApp)
    }

    @Test("fullAppID is the id when set: a different fullAppID with the same appID is allowed, the same fullAppID is not")
    func fullAppID() throws {
        var index = SDLAppRegistryIndex()
        try index.claim(id: "a", headUnit: Self.headUnit, app: SDLAppConfiguration(appName: "One", appID: "shared", fullAppID: "full-one"))
        #expect(Self.refusal(index, id: "b", SDLAppConfiguration(appName: "Two", appID: "shared", fullAppID: "full-two")) == nil)
        let error = Self.refusal(index, id: "b", SDLAppConfiguration(appName: "Two", appID: "else", fullAppID: "FULL-ONE"))
        #expect(error?.code == .duplicateApp)
    }

    @Test("An app name or VR synonym clashing with another app's name or synonym is refused, whatever its case")
    func names() throws {
        let index = try Self.index()
        #expect(Self.refusal(index, id: "b", SDLAppConfiguration(appName: "radio", appID: "b"))?.code == .duplicateApp)
        #expect(Self.refusal(index, id: "b", SDLAppConfiguration(appName: "TUNER", appID: "b"))?.code == .duplicateApp)
        #expect(
            Self.refusal(index, id: "b", SDLAppConfiguration(appName: "Music", appID: "b", vrSynonyms: ["Radio"]))?.code == .duplicateApp)
        #expect(
            Self.refusal(index, id: "b", SDLAppConfiguration(appName: "Music", appID: "b", vrSynonyms: ["tuner"]))?.code == .duplicateApp)
        #expect(Self.refusal(index, id: "b", SDLAppConfiguration(appName: "Music", appID: "b", vrSynonyms: ["Songs"])) == nil)
    }

    @Test("The same app on another head unit is allowed; the same registry id is refused anywhere")
    func otherHeadUnit() throws {
        let index = try Self.index()
        let radio = SDLAppConfiguration(appName: "Radio", appID: "radio-1")
        #expect(Self.refusal(index, id: "b", headUnit: Self.other, radio) == nil)
        #expect(Self.refusal(index, id: "a", headUnit: Self.other, radio)?.code == .duplicateApp)
    }

    @Test("A refused claim records nothing; a released one frees its id and names")
    func release() throws {
        var index = try Self.index()
        #expect(Self.refusal(index, id: "b", SDLAppConfiguration(appName: "Radio", appID: "b")) != nil)
        #expect(index.claims.map(\.id) == ["a"])
        let released = index.release(id: "a")
        #expect(released)
        #expect(index.claims.isEmpty)
        #expect(Self.refusal(index, id: "a", SDLAppConfiguration(appName: "Radio", appID: "radio-1")) == nil)
        let again = index.release(id: "a")
        #expect(!again)
    }

    @Test("Generated ids skip ids callers chose")
    func generatedIDs() throws {
        var index = SDLAppRegistryIndex()
        try index.claim(id: "app-1", headUnit: Self.headUnit, app: SDLAppConfiguration(appName: "One", appID: "one"))
        let first = index.makeID()
        let second = index.makeID()
        #expect(first == "app-2")
        #expect(second == "app-3")
    }

    @Test("Head units are told apart by host (any case) and port")
    func headUnits() {
        #expect(SDLAppRegistryIndex.headUnit(host: "Core.Local", port: 12345) == "core.local:12345")
        #expect(
            SDLAppRegistryIndex.headUnit(host: "core.local", port: 12345) != SDLAppRegistryIndex.headUnit(host: "core.local", port: 12346))
    }
}
