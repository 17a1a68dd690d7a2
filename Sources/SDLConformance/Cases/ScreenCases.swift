import SDLClient
import SDLProtocol

/// What the app shows and says: Show, a template change, the media clock, Speak and an Alert
/// with soft buttons (MOBILE_API.xml 8.0.0).
enum ScreenCases {
    static let all = [show, template, mediaClock, speak, alert]

    /// Show with two lines of text: SUCCESS.
    static let show = ConformanceCase("show.text", "Show: text fields") { context in
        try await context.activate()
        try await context.request("Show", ["mainField1": "SDL Check", "mainField2": "Show", "mediaTrack": "Track 1"])
    }

    /// Show with `templateConfiguration` (the 6.0 way of SetDisplayLayout) to GRAPHIC_WITH_TEXT,
    /// then back to the media template: SUCCESS both times.
    static let template = ConformanceCase("show.template", "Show: a template change and back") { context in
        try await context.activate()
        try await context.request("Show", ["mainField1": "Template", "templateConfiguration": ["template": "GRAPHIC_WITH_TEXT"]])
        try await context.request("Show", ["mainField1": "SDL Check", "templateConfiguration": ["template": "MEDIA"]])
    }

    /// SetMediaClockTimer counting up from 0:01:30, then paused: SUCCESS both times.
    static let mediaClock = ConformanceCase("media.clock", "SetMediaClockTimer: count up, pause") { context in
        try await context.activate()
        try await context.request(
            "SetMediaClockTimer",
            ["startTime": ["hours": 0, "minutes": 1, "seconds": 30], "updateMode": "COUNTUP", "audioStreamingIndicator": "PAUSE"])
        try await context.request("SetMediaClockTimer", ["updateMode": "PAUSE"])
    }

    /// Speak of one TEXT chunk: SUCCESS once spoken.
    static let speak = ConformanceCase("speak", "Speak: one text chunk") { context in
        try await context.activate()
        try await context.request("Speak", ["ttsChunks": [["text": "Check", "type": "TEXT"]]], timeout: .seconds(20))
    }

    /// An Alert with two soft buttons; once OnHMIStatus says it is shown (systemContext ALERT),
    /// the driver presses the second: the Alert answers SUCCESS and the app gets OnButtonPress
    /// CUSTOM_BUTTON with that `customButtonID`.
    static let alert = ConformanceCase("alert.softbutton", "Alert with soft buttons, answered by the driver", needsDriver: true) {
        context in
        let driver = try context.requireDriver()
        try await context.activate()
        let mark = try await context.mark()
        let buttons: SDLJSON = [
            ["type": "TEXT", "text": "Yes", "softButtonID": 7001, "systemAction": "DEFAULT_ACTION"],
            ["type": "TEXT", "text": "No", "softButtonID": 7002, "systemAction": "DEFAULT_ACTION"],
        ]
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await context.request(
                    "Alert", ["alertText1": "SDL Check", "alertText2": "Press No", "duration": 10000, "softButtons": buttons],
                    timeout: .seconds(20))
            }
            group.addTask {
                // The button is there to press once the alert is shown, which the app learns from
                // OnHMIStatus systemContext ALERT (MOBILE_API.xml SystemContext ALERT: "broadcast
                // only to whichever app has an alert currently being displayed"). A press before
                // that reaches no alert: an HMI takes it and the alert runs its time.
                try await context.notification("OnHMIStatus", after: mark, describing: "OnHMIStatus systemContext ALERT") {
                    $0["systemContext"]?.stringValue == "ALERT"
                }
                try await context.actWhenReady { try await driver.pressSoftButton(7002, appID: context.app.appID) }
            }
            try await group.waitForAll()
        }
        try await context.notification("OnButtonPress", after: mark, describing: "OnButtonPress CUSTOM_BUTTON 7002") {
            $0["buttonName"]?.stringValue == "CUSTOM_BUTTON" && $0["customButtonID"]?.intValue == 7002
        }
    }
}
