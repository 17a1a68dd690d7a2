import SDLManagers
import SDLProtocol
import Testing

@Suite("Media clock and button events")
struct MediaAndButtonTests {
    @Test("Media: buttons subscribed once, the clock only when it changed, cleared when removed")
    func clock() {
        var manager = SDLMediaManager()
        let playing = SDLMedia(track: "Song", clock: SDLMediaClock(position: 75, duration: 3725, state: .playing))
        let first = manager.plan(playing)
        manager.accept(first)
        #expect(
            first.plan.steps.map(\.description) == [
                #"SubscribeButton {"buttonName":"PLAY_PAUSE"}"#,
                #"SubscribeButton {"buttonName":"SEEKLEFT"}"#,
                #"SubscribeButton {"buttonName":"SEEKRIGHT"}"#,
                #"SetMediaClockTimer {"audioStreamingIndicator":"PAUSE","endTime":{"hours":1,"minutes":2,"seconds":5},"startTime":{"hours":0,"minutes":1,"seconds":15},"updateMode":"COUNTUP"}"#,
            ])
        #expect(manager.plan(SDLMedia(track: "Other", clock: playing.clock)).plan.isEmpty)
        let paused = manager.plan(SDLMedia(clock: SDLMediaClock(position: 80, duration: 3725, state: .paused)))
        manager.accept(paused)
        #expect(
            paused.plan.steps.map(\.description) == [
                #"SetMediaClockTimer {"audioStreamingIndicator":"PLAY","endTime":{"hours":1,"minutes":2,"seconds":5},"startTime":{"hours":0,"minutes":1,"seconds":20},"updateMode":"PAUSE"}"#
            ])
        #expect(
            manager.plan(SDLMedia(clock: SDLMediaClock(position: 0, state: .stopped))).plan.steps.map(\.description) == [
                #"SetMediaClockTimer {"audioStreamingIndicator":"PLAY","updateMode":"CLEAR"}"#
            ])
        #expect(manager.plan(SDLMedia()).plan.steps.map(\.description) == [#"SetMediaClockTimer {"updateMode":"CLEAR"}"#])
    }

    @Test("A soft button press maps to the user's id and the state shown; media buttons by name")
    func buttons() throws {
        var screen = SDLScreenManager()
        let button = SDLSoftButton(
            id: "play", states: [.init(name: "playing", text: "Pause"), .init(name: "paused", text: "Play")], state: "paused")
        screen.accept(
            try screen.plan(
                SDLScreen(softButtons: [SDLSoftButton(id: "like", states: [.init(name: "off", text: "Like")]), button]),
                profile: SDLDisplayProfile()))
        let press = SDLButtonEvent.map(
            notification: "OnButtonPress", parameters: ["buttonName": "CUSTOM_BUTTON", "buttonPressMode": "SHORT", "customButtonID": 2],
            screen: screen.accepted
        )
        #expect(press == .softButton(id: "play", state: "paused", mode: "SHORT"))
        #expect(press?.json.type == "softButton")
        #expect(press?.json.data == ["id": "play", "state": "paused", "mode": "SHORT"])
        let event = SDLButtonEvent.map(
            notification: "OnButtonEvent",
            parameters: ["buttonName": "CUSTOM_BUTTON", "buttonEventMode": "BUTTONDOWN", "customButtonID": 1],
            screen: screen.accepted
        )
        #expect(event == .softButton(id: "like", state: "off", mode: "BUTTONDOWN"))
        #expect(
            SDLButtonEvent.map(
                notification: "OnButtonPress",
                parameters: ["buttonName": "CUSTOM_BUTTON", "buttonPressMode": "SHORT", "customButtonID": 9], screen: screen.accepted)
                == nil)
        #expect(
            SDLButtonEvent.map(
                notification: "OnButtonPress", parameters: ["buttonName": "SEEKLEFT", "buttonPressMode": "LONG"], screen: screen.accepted)
                == .mediaButton(name: "SEEKLEFT", mode: "LONG"))
        #expect(
            SDLButtonEvent.map(
                notification: "OnButtonPress", parameters: ["buttonName": "PRESET_1", "buttonPressMode": "SHORT"], screen: screen.accepted)
                == nil)
    }
}
