extension SDLInteraction {
    /// Refuses what the head unit would refuse, naming the path: an empty title; choices and a
    /// keyboard together, or a keyboard with a VR mode or a layout; no choices or
    /// more than ``maximumChoices``, an empty or repeated id, a repeated text (Core answers
    /// DUPLICATE_NAME), a voice command used twice, a VR or BOTH interaction with a choice
    /// without voice commands, a layout outside ``layouts``, a timeout outside ``timeoutRange``.
    public func validate() throws(SDLManagerError) {
        if title.isEmpty { throw SDLManagerError(.missingValue, path: "$.title", "an interaction needs a title") }
        if let timeout, !Self.timeoutRange.contains(timeout) {
            throw SDLManagerError(.unsupportedValue, path: "$.timeout", "\(timeout) s is outside \(Self.timeoutRange) s")
        }
        if let keyboard {
            if !choices.isEmpty {
                throw SDLManagerError(.unsupportedValue, path: "$.keyboard", "an interaction has choices or a keyboard, not both")
            }
            if mode != .manual { throw SDLManagerError(.unsupportedValue, path: "$.mode", "a keyboard interaction is MANUAL") }
            if layout != nil {
                throw SDLManagerError(.unsupportedValue, path: "$.layout", "a keyboard interaction has the KEYBOARD layout")
            }
            try keyboard.validate(path: "$.keyboard")
            return
        }
        if choices.isEmpty { throw SDLManagerError(.missingValue, path: "$.choices", "an interaction needs at least one choice") }
        if choices.count > Self.maximumChoices {
            throw SDLManagerError(.tooMany, path: "$.choices", "\(choices.count) choices, at most \(Self.maximumChoices)")
        }
        if let layout, !Self.layouts.contains(layout) {
            throw SDLManagerError(.unsupportedValue, path: "$.layout", "\(layout) is not a LayoutMode for choices")
        }
        var ids = Set<String>()
        var texts = Set<String>()
        var phrases = Set<String>()
        for (index, choice) in choices.enumerated() {
            let path = "$.choices[\(index)]"
            if choice.id.isEmpty { throw SDLManagerError(.missingValue, path: "\(path).id", "a choice needs an id") }
            if choice.text.isEmpty { throw SDLManagerError(.missingValue, path: "\(path).text", "a choice needs a text") }
            if !ids.insert(choice.id).inserted { throw SDLManagerError(.duplicateID, path: "\(path).id", "id \(choice.id) is used twice") }
            if !texts.insert(choice.text).inserted {
                throw SDLManagerError(.duplicateName, path: "\(path).text", "text \(choice.text) is used twice")
            }
            if mode != .manual && choice.voiceCommands.isEmpty {
                throw SDLManagerError(
                    .missingValue, path: "\(path).voiceCommands", "a \(mode.rawValue) interaction needs voice commands on every choice")
            }
            for (phraseIndex, phrase) in choice.voiceCommands.enumerated() where !phrases.insert(phrase).inserted {
                throw SDLManagerError(
                    .duplicateName, path: "\(path).voiceCommands[\(phraseIndex)]", "voice command \(phrase) is used twice")
            }
        }
    }
}
