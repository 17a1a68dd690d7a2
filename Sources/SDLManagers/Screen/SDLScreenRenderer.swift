import SDLProtocol

/// Turns a declared screen (and media text) into the Show parameters the head unit should end up
/// with: the complete target ``SDLScreenState``, with the warnings found on the way. Pure: the
/// soft button ids come from the table passed in.
public enum SDLScreenRenderer {
    public struct Output: Sendable, Hashable {
        public var state: SDLScreenState
        public var warnings: [SDLPlanWarning]
    }

    public static func render(
        _ screen: SDLScreen,
        media: SDLMedia?,
        profile: SDLDisplayProfile,
        softButtonIDs: inout SDLSoftButtonIDTable
    ) throws(SDLManagerError) -> Output {
        try screen.validate(for: profile)
        var fields: [String: SDLJSON] = [:]
        var warnings: [SDLPlanWarning] = []

        // Text: the screen's lines, else the media text with its metadata tags.
        let mediaLines = screen.textFields.isEmpty ? (media?.textLines ?? []) : []
        let texts = screen.textFields.isEmpty ? mediaLines.map(\.text) : screen.textFields
        let sourcePath: (Int) -> String = {
            screen.textFields.isEmpty ? "$.media.\(["track", "artist", "album"][mediaSourceIndex($0, media)])" : "$.textFields[\($0)]"
        }
        if profile.mainFieldLines == 0 && texts.contains(where: { !$0.isEmpty }) {
            warnings.append(
                SDLPlanWarning(kind: .fieldNotOnDisplay, path: sourcePath(0), field: "mainField1", message: "the display has no main field")
            )
        }
        var tags: [String: SDLJSON] = [:]
        for line in SDLTextFitter.fit(texts, lines: profile.mainFieldLines) {
            fields[line.field] = .string(line.text)
            if let first = line.sources.first {
                warnings += widthWarnings(line.text, field: line.field, path: sourcePath(first), profile: profile)
            }
            if !mediaLines.isEmpty && !line.sources.isEmpty {
                tags[line.field] = .array(line.sources.map { .string(mediaLines[$0].tag) })
            }
        }
        if !tags.isEmpty { fields["metadataTags"] = .object(tags) }

        for (name, value, path) in [("templateTitle", screen.title, "$.title"), ("mediaTrack", screen.mediaTrack, "$.mediaTrack")] {
            guard let value, !value.isEmpty else { continue }
            fields[name] = .string(value)
            if !profile.hasField(name) {
                warnings.append(SDLPlanWarning(kind: .fieldNotOnDisplay, path: path, field: name, message: "the display has no \(name)"))
            }
            warnings += widthWarnings(value, field: name, path: path, profile: profile)
        }
        if let alignment = screen.alignment { fields["alignment"] = .string(alignment) }
        if let graphic = nonEmpty(screen.primaryGraphic) ?? nonEmpty(media?.artwork) {
            fields["graphic"] = SDLImageName.image(graphic)
        }
        if let graphic = nonEmpty(screen.secondaryGraphic) { fields["secondaryGraphic"] = SDLImageName.image(graphic) }

        var references: [Int: SDLSoftButtonReference] = [:]
        var buttons: [SDLJSON] = []
        for button in screen.softButtons {
            let id = try softButtonIDs.id(for: button.id)
            guard let state = button.currentState else { continue }
            buttons.append(softButton(id: id, state: state, includeImage: true))
            references[id] = SDLSoftButtonReference(id: button.id, state: state.name)
        }
        if !buttons.isEmpty { fields["softButtons"] = .array(buttons) }

        return Output(state: SDLScreenState(fields: fields, template: screen.template, softButtons: references), warnings: warnings)
    }

    /// A `SoftButton` struct: TEXT, IMAGE or BOTH by what the state has (and `includeImage`).
    public static func softButton(id: Int, state: SDLSoftButton.State, includeImage: Bool) -> SDLJSON {
        let text = nonEmpty(state.text)
        let image = includeImage ? nonEmpty(state.image) : nil
        var members: [String: SDLJSON] = ["softButtonID": .int(Int64(id)), "systemAction": "DEFAULT_ACTION", "isHighlighted": false]
        switch (text, image) {
        case (let text?, let image?):
            members["type"] = "BOTH"
            members["text"] = .string(text)
            members["image"] = SDLImageName.image(image)
        case (nil, let image?):
            members["type"] = "IMAGE"
            members["image"] = SDLImageName.image(image)
        case (let text, nil):
            members["type"] = "TEXT"
            members["text"] = .string(text ?? "")
        }
        return .object(members)
    }

    private static func widthWarnings(_ text: String, field: String, path: String, profile: SDLDisplayProfile) -> [SDLPlanWarning] {
        guard let width = profile.fieldWidths[field], text.count > width else { return [] }
        return [
            SDLPlanWarning(
                kind: .textTooLong, path: path, field: field,
                message: "\(text.count) characters in \(field), which shows \(width); sent whole, the head unit may cut it"
            )
        ]
    }

    /// The index among track, artist, album of the `index`-th non-empty media line.
    private static func mediaSourceIndex(_ index: Int, _ media: SDLMedia?) -> Int {
        let present = [media?.track, media?.artist, media?.album].enumerated().filter { !($0.element ?? "").isEmpty }.map(\.offset)
        return index < present.count ? present[index] : 0
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }
}
