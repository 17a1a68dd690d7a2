import SDLProtocol

/// Plans the fewest RPCs that take the main window from what the head unit last accepted to a
/// declared ``SDLScreen`` (and the text and artwork of ``SDLMedia``).
///
/// - One Show with only the parameters whose value differs from the accepted state; a field
///   declared empty that the head unit shows is cleared (`""`, an empty image, `[]`).
/// - A template change goes into `Show.templateConfiguration` when the negotiated RPC spec is 6.0
///   or later, else into a SetDisplayLayout before the Show
///   (``SDLDisplayProfile/usesTemplateConfiguration``). A new template re-renders the window,
///   so every declared field is sent again with it.
/// - Images: a field whose dynamic image the head unit is not known to have (`knownFiles`, the
///   driver's ListFiles) waits: text first (a Show without those images; soft buttons without
///   their pending images when each keeps a text), then the ensure-file steps, then a Show with
///   the images. `mediaTrack` stays in the first Show (sdl_javascript_suite drops it there).
///   When every image is known there is one Show, after ensure-file steps the driver resolves
///   without uploading.
///
/// The manager allocates soft button ids (``SDLSoftButtonIDTable``); ``accept(_:)`` records a
/// plan the head unit carried out, ``headUnitReset()`` forgets everything the head unit had.
public struct SDLScreenManager: Sendable {
    /// A plan and the state the head unit has once every step succeeded.
    public struct Update: Sendable, Hashable {
        public var plan: SDLManagerPlan
        public var state: SDLScreenState
    }

    public private(set) var accepted: SDLScreenState = .empty
    public private(set) var softButtonIDs = SDLSoftButtonIDTable()

    /// The Show parameters that carry images, in the order their files are ensured.
    static let imageFields = ["graphic", "secondaryGraphic", "softButtons"]

    public init() {}

    public mutating func plan(
        _ screen: SDLScreen,
        media: SDLMedia? = nil,
        profile: SDLDisplayProfile,
        knownFiles: Set<String> = []
    ) throws(SDLManagerError) -> Update {
        let output = try SDLScreenRenderer.render(screen, media: media, profile: profile, softButtonIDs: &softButtonIDs)
        let target = output.state
        var plan = SDLManagerPlan(warnings: output.warnings)
        let newTemplate = target.template.flatMap { $0 == accepted.template ? nil : $0 }

        var changed: [String: SDLJSON] = [:]
        for name in Set(target.fields.keys).union(accepted.fields.keys) {
            guard let wanted = target.fields[name] ?? SDLScreenState.clearedValue(of: name) else { continue }
            if newTemplate != nil || accepted.shown(name) != wanted { changed[name] = wanted }
        }

        if let newTemplate, !profile.usesTemplateConfiguration {
            plan.append(SDLPlannedRequest("SetDisplayLayout", ["displayLayout": .string(newTemplate)]))
        }
        let files = Self.imageFields.flatMap { changed[$0].map(SDLImageName.dynamicFiles) ?? [] }
        let pending = Set(files).subtracting(knownFiles)

        var first = changed
        var later: [String: SDLJSON] = [:]
        if !pending.isEmpty {
            for name in Self.imageFields {
                guard let value = changed[name], !Set(SDLImageName.dynamicFiles(in: value)).isDisjoint(with: pending) else { continue }
                later[name] = value
                first[name] = name == "softButtons" ? Self.withoutImages(value, pending) : nil
            }
        }
        if let newTemplate, profile.usesTemplateConfiguration {
            first["templateConfiguration"] = ["template": .string(newTemplate)]
        }
        if !pending.isEmpty, !first.isEmpty { plan.append(SDLPlannedRequest("Show", .object(first))) }
        files.forEach { plan.ensureFile($0) }
        if pending.isEmpty {
            if !first.isEmpty { plan.append(SDLPlannedRequest("Show", .object(first))) }
        } else {
            plan.append(SDLPlannedRequest("Show", .object(later)))
        }

        let state = SDLScreenState(
            fields: target.fields,
            template: target.template ?? accepted.template,
            softButtons: target.softButtons
        )
        return Update(plan: plan, state: state)
    }

    /// Records that the head unit carried out `update`'s plan.
    public mutating func accept(_ update: Update) { accepted = update.state }

    /// The head unit shows nothing of the app any more (restart, failed resumption).
    public mutating func headUnitReset() { accepted = .empty }

    /// The user's soft button (and the state shown) behind a `softButtonID`.
    public func softButton(forID softButtonID: Int) -> SDLSoftButtonReference? {
        accepted.softButtons[softButtonID]
    }

    /// Soft buttons with the pending images taken out, or `nil` when a button would be left with
    /// neither text nor image (then the buttons wait for their images).
    static func withoutImages(_ buttons: SDLJSON, _ pending: Set<String>) -> SDLJSON? {
        guard let list = buttons.arrayValue else { return nil }
        var stripped: [SDLJSON] = []
        for button in list {
            guard var members = button.objectValue else { return nil }
            if let image = members["image"]?["value"]?.stringValue, pending.contains(image) {
                guard let text = members["text"]?.stringValue, !text.isEmpty else { return nil }
                members["image"] = nil
                members["type"] = "TEXT"
            }
            stripped.append(.object(members))
        }
        return .array(stripped)
    }
}
