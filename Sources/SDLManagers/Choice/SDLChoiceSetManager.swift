import SDLProtocol

/// Plans interactions the way sdl_javascript_suite's choice set manager does (docs/protocol.md §m): every choice is a
/// choice set of its own (CreateInteractionChoiceSet with one `Choice`, `choiceID` =
/// `interactionChoiceSetID`), created once and reused by content (text, secondary and tertiary
/// text, image, voice commands: the user id may differ), then one PerformInteraction listing the
/// sets, with a `cancelID`.
///
/// The cache is bounded (``capacity`` sets): when a new interaction would exceed it, the least
/// recently used sets it does not present are deleted first (DeleteInteractionChoiceSet).
/// `choiceID`s count up from 1 to 65535 and `cancelID`s from 1, never reused.
public struct SDLChoiceSetManager: Sendable {
    /// The choice sets the head unit has: content → choiceID, and when each was last used.
    public struct Cache: Sendable, Hashable {
        public var sets: [SDLChoice.Content: Int] = [:]
        public var lastUse: [Int: Int] = [:]
        /// The `keyboardProperties` last set (SetGlobalProperties), `nil` before any.
        public var keyboardProperties: SDLJSON?

        public static let empty = Cache()
    }

    public struct Update: Sendable, Hashable {
        public var plan: SDLManagerPlan
        public var cache: Cache
        public var pending: SDLPendingInteraction
    }

    public let capacity: Int
    public private(set) var cache = Cache.empty
    public private(set) var choiceIDs = SDLIDCounter(range: 1...65535)
    public private(set) var cancelIDs = SDLIDCounter(range: 1...Int(Int32.max))
    private var clock = 0

    public init(capacity: Int = 500) {
        self.capacity = max(capacity, SDLInteraction.maximumChoices)
    }

    public mutating func plan(_ interaction: SDLInteraction) throws(SDLManagerError) -> Update {
        try interaction.validate()
        if let keyboard = interaction.keyboard { return try plan(keyboard: keyboard, interaction) }
        clock += 1
        var next = cache
        var plan = SDLManagerPlan()
        let needed = Set(interaction.choices.map(\.content))
        let missing = needed.subtracting(next.sets.keys).count
        let overflow = next.sets.count + missing - capacity
        if overflow > 0 {
            let evictable = next.sets.filter { !needed.contains($0.key) }
                .sorted { (next.lastUse[$0.value] ?? 0, $0.value) < (next.lastUse[$1.value] ?? 0, $1.value) }
            for (content, choiceID) in evictable.prefix(overflow) {
                plan.append(SDLPlannedRequest("DeleteInteractionChoiceSet", ["interactionChoiceSetID": .int(Int64(choiceID))]))
                next.sets[content] = nil
                next.lastUse[choiceID] = nil
            }
        }
        var ids: [Int] = []
        var choices: [Int: String] = [:]
        for (index, choice) in interaction.choices.enumerated() {
            let content = choice.content
            let choiceID: Int
            if let cached = next.sets[content] {
                choiceID = cached
            } else {
                choiceID = try choiceIDs.allocate(path: "$.choices[\(index)]")
                if let file = SDLImageName.dynamicFile(choice.image) { plan.ensureFile(file) }
                plan.append(
                    SDLPlannedRequest(
                        "CreateInteractionChoiceSet",
                        ["interactionChoiceSetID": .int(Int64(choiceID)), "choiceSet": [Self.choice(content, id: choiceID)]]
                    )
                )
                next.sets[content] = choiceID
            }
            next.lastUse[choiceID] = clock
            ids.append(choiceID)
            choices[choiceID] = choice.id
        }
        let cancelID = try cancelIDs.allocate(path: "$")
        var parameters: [String: SDLJSON] = [
            "initialText": .string(interaction.title),
            "interactionMode": .string(interaction.mode.interactionMode),
            "interactionChoiceSetIDList": .array(ids.map { .int(Int64($0)) }),
            "cancelID": .int(Int64(cancelID)),
        ]
        if let layout = interaction.layout { parameters["interactionLayout"] = .string(layout) }
        if let timeout = interaction.timeout { parameters["timeout"] = .int(Int64(timeout * 1000)) }
        if let prompt = interaction.initialPrompt, !prompt.isEmpty {
            parameters["initialPrompt"] = [["text": .string(prompt), "type": "TEXT"]]
        }
        plan.append(SDLPlannedRequest("PerformInteraction", .object(parameters)))
        return Update(plan: plan, cache: next, pending: SDLPendingInteraction(cancelID: cancelID, choices: choices))
    }

    /// A keyboard: SetGlobalProperties when its `keyboardProperties` differ from those last set,
    /// then PerformInteraction MANUAL_ONLY with the KEYBOARD layout and no choice sets (what
    /// sdl_javascript_suite's keyboard operation sends; docs/protocol.md §m).
    private mutating func plan(keyboard: SDLKeyboard, _ interaction: SDLInteraction) throws(SDLManagerError) -> Update {
        var next = cache
        var plan = SDLManagerPlan()
        let properties = keyboard.properties
        if properties != next.keyboardProperties && !(next.keyboardProperties == nil && properties == .emptyObject) {
            plan.append(SDLPlannedRequest("SetGlobalProperties", ["keyboardProperties": properties]))
            next.keyboardProperties = properties
        }
        let cancelID = try cancelIDs.allocate(path: "$")
        var parameters: [String: SDLJSON] = [
            "initialText": .string(interaction.title),
            "interactionMode": "MANUAL_ONLY",
            "interactionLayout": "KEYBOARD",
            "interactionChoiceSetIDList": [],
            "cancelID": .int(Int64(cancelID)),
        ]
        if let timeout = interaction.timeout { parameters["timeout"] = .int(Int64(timeout * 1000)) }
        if let prompt = interaction.initialPrompt, !prompt.isEmpty {
            parameters["initialPrompt"] = [["text": .string(prompt), "type": "TEXT"]]
        }
        plan.append(SDLPlannedRequest("PerformInteraction", .object(parameters)))
        return Update(plan: plan, cache: next, pending: SDLPendingInteraction(cancelID: cancelID, choices: [:], isKeyboard: true))
    }

    /// Records that the head unit created (and deleted) the sets of `update`'s plan (and took its
    /// keyboard properties). Call it once the steps before PerformInteraction succeeded, whatever
    /// the interaction's answer.
    public mutating func accept(_ update: Update) { cache = update.cache }

    /// The head unit has no choice set of the app any more; they are created again when needed.
    public mutating func headUnitReset() { cache = .empty }

    /// The `Choice` struct of one cached set.
    static func choice(_ content: SDLChoice.Content, id: Int) -> SDLJSON {
        var members: [String: SDLJSON] = ["choiceID": .int(Int64(id)), "menuName": .string(content.text)]
        if let text = content.secondaryText, !text.isEmpty { members["secondaryText"] = .string(text) }
        if let text = content.tertiaryText, !text.isEmpty { members["tertiaryText"] = .string(text) }
        if let image = content.image, !image.isEmpty { members["image"] = SDLImageName.image(image) }
        if !content.voiceCommands.isEmpty { members["vrCommands"] = .array(content.voiceCommands.map { .string($0) }) }
        return .object(members)
    }
}
