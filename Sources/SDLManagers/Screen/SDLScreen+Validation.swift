extension SDLScreen {
    /// Refuses a screen the display cannot show, naming the field: more than four text fields,
    /// more soft buttons than the window's `softButtonCapabilities`, a soft button id used twice,
    /// a button without states or with a state without text and image, state names used twice,
    /// a current state that names no state, a template outside `templatesAvailable`, an
    /// alignment outside `TextAlignment`.
    public func validate(for profile: SDLDisplayProfile) throws(SDLManagerError) {
        if textFields.count > Self.maximumTextFields {
            throw SDLManagerError(.tooMany, path: "$.textFields", "\(textFields.count) text fields, at most \(Self.maximumTextFields)")
        }
        if let template, let available = profile.templatesAvailable, !available.contains(template) {
            throw SDLManagerError(
                .unsupportedValue, path: "$.template",
                "the display offers no template \(template) (templatesAvailable: \(available.sorted().joined(separator: ", ")))"
            )
        }
        if let alignment, !Self.alignments.contains(alignment) {
            throw SDLManagerError(.unsupportedValue, path: "$.alignment", "\(alignment) is not a TextAlignment")
        }
        if softButtons.count > profile.maximumSoftButtons {
            throw SDLManagerError(
                .tooMany, path: "$.softButtons",
                "\(softButtons.count) soft buttons, the display shows at most \(profile.maximumSoftButtons)"
            )
        }
        var ids = Set<String>()
        for (index, button) in softButtons.enumerated() {
            let path = "$.softButtons[\(index)]"
            if button.id.isEmpty { throw SDLManagerError(.missingValue, path: "\(path).id", "a soft button needs an id") }
            if !ids.insert(button.id).inserted {
                throw SDLManagerError(.duplicateID, path: "\(path).id", "soft button id \(button.id) is used twice")
            }
            if button.states.isEmpty {
                throw SDLManagerError(.missingValue, path: "\(path).states", "a soft button needs at least one state")
            }
            var names = Set<String>()
            for (stateIndex, state) in button.states.enumerated() {
                let statePath = "\(path).states[\(stateIndex)]"
                if !names.insert(state.name).inserted {
                    throw SDLManagerError(.duplicateName, path: "\(statePath).name", "state name \(state.name) is used twice")
                }
                if (state.text ?? "").isEmpty && (state.image ?? "").isEmpty {
                    throw SDLManagerError(.missingValue, path: statePath, "a state needs a text or an image")
                }
            }
            if let current = button.state, !names.contains(current) {
                throw SDLManagerError(.unknownState, path: "\(path).state", "\(button.id) has no state named \(current)")
            }
        }
    }
}
