import SDLManagers
import SDLProtocol
import Testing

@Suite("Resumption: everything back, images first")
struct ResumptionTests {
    static let declared = SDLDeclaredState(
        screen: SDLScreen(
            title: "Radio", textFields: ["Hello"], primaryGraphic: "art.png",
            softButtons: [SDLSoftButton(id: "play", states: [.init(name: "play", text: "Play", image: "play.png")])]
        ),
        media: SDLMedia(clock: SDLMediaClock(position: 10, state: .paused)),
        menu: SDLMenu(cells: [SDLMenuCell(id: "s", title: "Settings", icon: "gear.png", children: [SDLMenuCell(id: "w", title: "Wi-Fi")])]),
        voiceCommands: [SDLVoiceCommand(id: "home", voiceCommands: ["home"])]
    )

    @Test("From nothing: the files, then Show, media, menu, voice commands; accepted, nothing is left to send")
    func order() throws {
        var managers = SDLManagers()
        let resumption = try managers.resumptionPlan(Self.declared, profile: SDLDisplayProfile(), maximumMenuDepth: 2)
        #expect(
            resumption.plan.steps.map(\.description) == [
                "ensureFile art.png",
                "ensureFile play.png",
                "ensureFile gear.png",
                #"Show {"graphic":{"imageType":"DYNAMIC","value":"art.png"},"mainField1":"Hello","softButtons":[{"image":{"imageType":"DYNAMIC","value":"play.png"},"isHighlighted":false,"softButtonID":1,"systemAction":"DEFAULT_ACTION","text":"Play","type":"BOTH"}],"templateTitle":"Radio"}"#,
                #"SubscribeButton {"buttonName":"PLAY_PAUSE"}"#,
                #"SubscribeButton {"buttonName":"SEEKLEFT"}"#,
                #"SubscribeButton {"buttonName":"SEEKRIGHT"}"#,
                #"SetMediaClockTimer {"audioStreamingIndicator":"PLAY","startTime":{"hours":0,"minutes":0,"seconds":10},"updateMode":"PAUSE"}"#,
                #"AddSubMenu {"menuID":1,"menuIcon":{"imageType":"DYNAMIC","value":"gear.png"},"menuName":"Settings","position":0}"#,
                #"AddCommand {"cmdID":2,"menuParams":{"menuName":"Wi-Fi","parentID":1,"position":0}}"#,
                #"AddCommand {"cmdID":3,"vrCommands":["home"]}"#,
            ])
        managers.accept(resumption)
        #expect(try managers.screen.plan(Self.declared.screen!, media: Self.declared.media, profile: SDLDisplayProfile()).plan.isEmpty)
        #expect(try managers.menu.plan(Self.declared.menu!, profile: SDLDisplayProfile(), maximumDepth: 2).plan.isEmpty)
        #expect(managers.media.plan(Self.declared.media!).plan.isEmpty)
    }

    @Test("After a restart the same declaration is sent whole again, with new menu ids and the same soft button ids")
    func afterRestart() throws {
        var managers = SDLManagers()
        managers.accept(try managers.resumptionPlan(Self.declared, profile: SDLDisplayProfile(), maximumMenuDepth: 2))
        let again = try managers.resumptionPlan(Self.declared, profile: SDLDisplayProfile(), maximumMenuDepth: 2)
        #expect(again.plan.steps.count == 11)
        #expect(again.plan.requests.filter { $0.functionName == "AddSubMenu" }.map { $0.parameters["menuID"] } == [4])
        #expect(again.plan.requests.first { $0.functionName == "Show" }?.parameters["softButtons"]?.arrayValue?.first?["softButtonID"] == 1)
    }

    @Test("When the head unit resumed the app's data, only what SDL does not resume is sent: the images, the Show, the media clock")
    func afterSuccessfulResumption() throws {
        var managers = SDLManagers()
        managers.accept(try managers.resumptionPlan(Self.declared, profile: SDLDisplayProfile(), maximumMenuDepth: 2))
        let again = try managers.resumptionPlan(Self.declared, profile: SDLDisplayProfile(), maximumMenuDepth: 2, headUnitResumed: true)
        #expect(
            again.plan.steps.map(\.description).map { String($0.prefix(while: { $0 != " " })) } == [
                "ensureFile", "ensureFile", "Show", "SubscribeButton", "SubscribeButton", "SubscribeButton", "SetMediaClockTimer",
            ])
        managers.accept(again)
        // The menu the head unit resumed is still the accepted one: nothing to send for it.
        #expect(try managers.menu.plan(Self.declared.menu!, profile: SDLDisplayProfile(), maximumDepth: 2).plan.isEmpty)
    }
}
