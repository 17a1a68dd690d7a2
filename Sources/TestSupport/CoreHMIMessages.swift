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

    /// The UI.Show of an app's `Show {mainField1, mainField2, graphic, templateConfiguration}`, as
    /// Core 8.2 builds it (show_request.cc `ShowRequest::Run`, docs/protocol.md §l): the text only
    /// as `showStrings` of `{fieldName, fieldText}`, the graphic's `value` rewritten to the full
    /// path of the file in the app's storage folder (`MessageHelper::VerifyImage`), the
    /// `templateConfiguration` as the app sent it.
    public static func show(
        id: Int64, appID: Int64, mainField1: String, mainField2: String, graphicPath: String, template: String
    ) throws(HMIError) -> HMIMessage {
        let text = """
            {"id":\(id),"jsonrpc":"2.0","method":"UI.Show","params":{"appID":\(appID),\
            "graphic":{"imageType":"DYNAMIC","isTemplate":false,"value":"\(graphicPath)"},\
            "showStrings":[{"fieldName":"mainField1","fieldText":"\(mainField1)"},{"fieldName":"mainField2","fieldText":"\(mainField2)"}],\
            "templateConfiguration":{"template":"\(template)"}}}
            """
        return try HMIMessage(parsing: Array(text.utf8))
    }

    /// The UI.Show Core 8.2 sends for an app's `SetDisplayLayout {displayLayout, dayColorScheme}`
    /// (set_display_layout_request.cc: 8.2's HMI API has no UI.SetDisplayLayout): no text (an
    /// empty `showStrings`), the layout as `templateConfiguration.template`.
    public static func displayLayoutShow(id: Int64, appID: Int64, layout: String) throws(HMIError) -> HMIMessage {
        let text = """
            {"id":\(id),"jsonrpc":"2.0","method":"UI.Show","params":{"appID":\(appID),"showStrings":[],\
            "templateConfiguration":{"dayColorScheme":{"backgroundColor":{"blue":0,"green":0,"red":0}},"template":"\(layout)"}}}
            """
        return try HMIMessage(parsing: Array(text.utf8))
    }
}

/// Core 8.2's `Navigation` messages for a navigation app's video service (docs/protocol.md §n):
/// built by `MessageHelper::SendNaviSetVideoConfig`, `SendNaviStartStream`, `SendNaviStopStream`
/// and `ApplicationManagerImpl::ProcessOnDataStreamingNotification`, keys in jsoncpp's order.
extension CoreHMIMessages {
    /// `Navigation.SetVideoConfig`: the app's StartService BSON (`videoProtocol`, `videoCodec`,
    /// `width`, `height`) as `config` in HMI_API names.
    public static func setVideoConfig(
        id: Int64, appID: Int64, protocol: String, codec: String, width: Int, height: Int
    ) throws(HMIError)
        -> HMIMessage
    {
        let text = """
            {"id":\(id),"jsonrpc":"2.0","method":"Navigation.SetVideoConfig","params":{"appID":\(appID),\
            "config":{"codec":"\(codec)","height":\(height),"protocol":"\(`protocol`)","width":\(width)}}}
            """
        return try HMIMessage(parsing: Array(text.utf8))
    }

    /// `Navigation.StartStream` (`StartAudioStream` with `audio`): the consumer's `url`,
    /// `http://ServerAddress:VideoStreamingPort` for the socket consumer.
    public static func startStream(id: Int64, appID: Int64, url: String, audio: Bool = false) throws(HMIError) -> HMIMessage {
        let method = audio ? "Navigation.StartAudioStream" : "Navigation.StartStream"
        let text = #"{"id":\#(id),"jsonrpc":"2.0","method":"\#(method)","params":{"appID":\#(appID),"url":"\#(url)"}}"#
        return try HMIMessage(parsing: Array(text.utf8))
    }

    /// `Navigation.StopStream` (`StopAudioStream` with `audio`).
    public static func stopStream(id: Int64, appID: Int64, audio: Bool = false) throws(HMIError) -> HMIMessage {
        let method = audio ? "Navigation.StopAudioStream" : "Navigation.StopStream"
        let text = #"{"id":\#(id),"jsonrpc":"2.0","method":"\#(method)","params":{"appID":\#(appID)}}"#
        return try HMIMessage(parsing: Array(text.utf8))
    }

    /// `Navigation.OnVideoDataStreaming` (`OnAudioDataStreaming` with `audio`): no app id.
    public static func dataStreaming(_ available: Bool, audio: Bool = false) throws(HMIError) -> HMIMessage {
        let method = audio ? "Navigation.OnAudioDataStreaming" : "Navigation.OnVideoDataStreaming"
        let text = #"{"jsonrpc":"2.0","method":"\#(method)","params":{"available":\#(available)}}"#
        return try HMIMessage(parsing: Array(text.utf8))
    }
}
