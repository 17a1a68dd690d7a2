import HeadlessHMI

/// Messages exactly as SDL Core 8.2 sends them to its HMI, for tests of the headless HMI.
public enum CoreHMIMessages {
    /// The UI.Alert of `POST /v1/apps/{id}/alerts` with two lines, speech, `"duration": 8` and two
    /// soft buttons (ids 32768 and 32769, "Yes" and "No"), field by field as Core 8.2 builds it
    /// (alert_request.cc `SendAlertRequest`): the lines as `alertStrings`, `cancelID`, the soft
    /// buttons with the defaults Core's schema fills in (`isHighlighted` false, `systemAction`),
    /// `alertType` BOTH because the alert speaks, and `duration` 0, not the app's 8000: Core drops
    /// the duration of an alert with soft buttons and leaves the HMI to wait for the driver.
    public static func alert(id: Int64, appID: Int64, systemAction: String = "DEFAULT_ACTION") throws(HMIError) -> HMIMessage {
        let text = """
            {"id":\(id),"jsonrpc":"2.0","method":"UI.Alert","params":{"alertStrings":[\
            {"fieldName":"alertText1","fieldText":"Low fuel"},{"fieldName":"alertText2","fieldText":"Find a station?"}],\
            "alertType":"BOTH","appID":\(appID),"cancelID":1,"duration":0,"softButtons":[\
            {"isHighlighted":false,"softButtonID":32768,"systemAction":"\(systemAction)","text":"Yes","type":"TEXT"},\
            {"isHighlighted":false,"softButtonID":32769,"systemAction":"\(systemAction)","text":"No","type":"TEXT"}]}}
            """
        return try HMIMessage(parsing: Array(text.utf8))
    }

    /// The TTS.Speak Core sends with that alert (alert_request.cc `SendSpeakRequest`): its
    /// `ttsChunks`, `speakType` ALERT.
    public static func alertSpeech(id: Int64, appID: Int64) throws(HMIError) -> HMIMessage {
        let text = """
            {"id":\(id),"jsonrpc":"2.0","method":"TTS.Speak","params":{"appID":\(appID),"speakType":"ALERT",\
            "ttsChunks":[{"text":"Low fuel","type":"TEXT"}]}}
            """
        return try HMIMessage(parsing: Array(text.utf8))
    }
}
