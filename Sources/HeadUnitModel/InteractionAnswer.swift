/// How the control API (`POST /apps/{appID}/interaction`) answers an app's open interaction, as
/// the user would: pick a choice, move the slider, dismiss, or end it with a result code. The
/// simulator and the headless HMI take the same answer.
public struct InteractionAnswer: Sendable {
    /// PerformInteraction: the choice picked (must be in one of the shown choice sets).
    public var choiceID: Int64?
    /// Slider: the position picked (1…numTicks).
    public var sliderPosition: Int64?
    /// A `Result` to answer with; SUCCESS when nil.
    public var resultCode: String?
    /// PerformInteraction: MENU, VR or KEYBOARD; MENU (VR for VR_ONLY, KEYBOARD for typed text)
    /// when nil.
    public var triggerSource: String?
    /// A PerformInteraction with the KEYBOARD layout: what the user typed (`manualTextEntry`).
    public var manualTextEntry: String?

    public init(
        choiceID: Int64? = nil, sliderPosition: Int64? = nil, resultCode: String? = nil, triggerSource: String? = nil,
        manualTextEntry: String? = nil
    ) {
        self.choiceID = choiceID
        self.sliderPosition = sliderPosition
        self.resultCode = resultCode
        self.triggerSource = triggerSource
        self.manualTextEntry = manualTextEntry
    }
}
