extension SDLAlert {
    /// Refuses what the head unit would refuse, naming the path: nothing to show or say
    /// (Core's AlertRequest::Validate), more lines or buttons than the RPC takes, a button
    /// without an id or without a text and an image, an id used twice, an unknown `action`, a
    /// duration outside ``durationRange``, a SubtleAlert on a head unit older than RPC spec 7 or
    /// with what only Alert has (`playTone`, `progressIndicator`).
    public func validate(rpcSpecMajorVersion: Int) throws(SDLManagerError) {
        if text.allSatisfy(\.isEmpty) && (speak ?? "").isEmpty && softButtons.isEmpty && (icon ?? "").isEmpty {
            throw SDLManagerError(.missingValue, path: "$", "an alert needs a text, something to speak, a soft button or an icon")
        }
        if text.count > maximumLines {
            throw SDLManagerError(.tooMany, path: "$.text", "\(text.count) lines, at most \(maximumLines) in \(functionName)")
        }
        if softButtons.count > maximumButtons {
            throw SDLManagerError(
                .tooMany, path: "$.softButtons", "\(softButtons.count) soft buttons, at most \(maximumButtons) in \(functionName)")
        }
        if let duration, !Self.durationRange.contains(duration) {
            throw SDLManagerError(.unsupportedValue, path: "$.duration", "\(duration) s is outside \(Self.durationRange) s")
        }
        if isSubtle {
            if rpcSpecMajorVersion < 7 {
                throw SDLManagerError(
                    .unsupportedValue, path: "$.subtle", "SubtleAlert needs RPC spec 7.0; the head unit speaks \(rpcSpecMajorVersion).x")
            }
            if playTone != nil { throw SDLManagerError(.unsupportedValue, path: "$.playTone", "a SubtleAlert plays no tone") }
            if progressIndicator != nil {
                throw SDLManagerError(.unsupportedValue, path: "$.progressIndicator", "a SubtleAlert has no progress indicator")
            }
        }
        var ids = Set<String>()
        for (index, button) in softButtons.enumerated() {
            let path = "$.softButtons[\(index)]"
            if button.id.isEmpty { throw SDLManagerError(.missingValue, path: "\(path).id", "a soft button needs an id") }
            if !ids.insert(button.id).inserted { throw SDLManagerError(.duplicateID, path: "\(path).id", "id \(button.id) is used twice") }
            if (button.text ?? "").isEmpty && (button.image ?? "").isEmpty {
                throw SDLManagerError(.missingValue, path: path, "a soft button needs a text or an image")
            }
            if let action = button.action, !Self.actions.contains(action) {
                throw SDLManagerError(
                    .unsupportedValue, path: "\(path).action",
                    "\(action) is not a SystemAction (\(Self.actions.sorted().joined(separator: ", ")))")
            }
        }
    }
}
