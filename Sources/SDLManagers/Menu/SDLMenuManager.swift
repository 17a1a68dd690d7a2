import SDLProtocol

/// Plans the AddCommand, AddSubMenu, DeleteCommand and DeleteSubMenu requests that take the
/// head unit's menu from what it last accepted to a declared ``SDLMenu``, keeping unchanged cells
/// (what the app libraries call dynamic menu updates, docs/protocol.md §m; see ``SDLMenuDiff`` for the rule), and
/// likewise the top-level voice commands.
///
/// `cmdID`s and `menuID`s come from one counter that starts at 1 and never hands a number out
/// twice in the manager's life (as sdl_javascript_suite's menu manager counts up; docs/protocol.md §m), so a late
/// OnCommand for a deleted command can never be reported as another. The plan's order: the
/// deletes, then a SetGlobalProperties for a new main menu layout, then the adds in tree order
/// with the ensure-file step of each icon before its first use.
public struct SDLMenuManager: Sendable {
    /// What a plan changes once carried out: the menu or the voice commands.
    public enum Part: Sendable, Hashable {
        case menu(entries: [SDLMenuEntry], layout: String?)
        case voiceCommands([SDLVoiceCommandEntry])
    }

    public struct Update: Sendable, Hashable {
        public var plan: SDLManagerPlan
        public var part: Part
    }

    /// The most cmdIDs (MOBILE_API.xml `AddCommand.cmdID` maxvalue).
    public static let maximumID = 2_000_000_000
    /// The most top-level voice commands one declaration may hold.
    public static let maximumVoiceCommands = 100

    public internal(set) var accepted = SDLMenuState.empty
    public private(set) var ids = SDLIDCounter(range: 1...SDLMenuManager.maximumID)

    public init() {}

    /// The plan for `menu`. `maximumDepth` is the number of menu levels the head unit allows
    /// (see ``SDLMenu/validate(for:maximumDepth:)``).
    public mutating func plan(_ menu: SDLMenu, profile: SDLDisplayProfile, maximumDepth: Int) throws(SDLManagerError) -> Update {
        try menu.validate(for: profile, maximumDepth: maximumDepth)
        let layout = profile.rpcSpecMajorVersion >= 6 ? menu.layout : nil
        var diff = SDLMenuDiff(ids: ids, layout: layout)
        let entries = try diff.level(accepted.entries, menu.cells, parentID: nil, path: "$.menu")
        ids = diff.ids
        var plan = SDLManagerPlan()
        diff.deletes.forEach { plan.append($0) }
        if let layout, layout != accepted.layout {
            plan.append(SDLPlannedRequest("SetGlobalProperties", ["menuLayout": .string(layout)]))
        }
        plan.append(contentsOf: diff.adds)
        return Update(plan: plan, part: .menu(entries: entries, layout: layout ?? accepted.layout))
    }

    /// The plan for the top-level voice commands: an unchanged phrase list keeps its command
    /// (the user id may change), every other old one is deleted, every new one added.
    public mutating func plan(voiceCommands: [SDLVoiceCommand]) throws(SDLManagerError) -> Update {
        try Self.validate(voiceCommands)
        var remaining = accepted.voiceCommands
        var kept: [SDLVoiceCommandEntry] = []
        var added: [(Int, SDLVoiceCommand)] = []
        for (index, command) in voiceCommands.enumerated() {
            if let match = remaining.firstIndex(where: { $0.command.voiceCommands == command.voiceCommands }) {
                kept.append(SDLVoiceCommandEntry(command: command, cmdID: remaining.remove(at: match).cmdID))
            } else {
                added.append((index, command))
            }
        }
        var plan = SDLManagerPlan()
        for entry in remaining { plan.append(SDLPlannedRequest("DeleteCommand", ["cmdID": .int(Int64(entry.cmdID))])) }
        var entries = kept
        for (index, command) in added {
            let cmdID = try ids.allocate(path: "$[\(index)]")
            plan.append(
                SDLPlannedRequest(
                    "AddCommand", ["cmdID": .int(Int64(cmdID)), "vrCommands": .array(command.voiceCommands.map { .string($0) })])
            )
            entries.append(SDLVoiceCommandEntry(command: command, cmdID: cmdID))
        }
        let order = Dictionary(uniqueKeysWithValues: voiceCommands.enumerated().map { ($0.element.id, $0.offset) })
        entries.sort { order[$0.command.id, default: 0] < order[$1.command.id, default: 0] }
        return Update(plan: plan, part: .voiceCommands(entries))
    }

    /// Records that the head unit carried out `update`'s plan.
    public mutating func accept(_ update: Update) {
        switch update.part {
        case .menu(let entries, let layout):
            accepted.entries = entries
            accepted.layout = layout
        case .voiceCommands(let entries):
            accepted.voiceCommands = entries
        }
    }

    /// The head unit has no menu and no voice commands of the app any more. Ids keep counting.
    public mutating func headUnitReset() { accepted = .empty }

    /// An OnCommand (`cmdID`, `triggerSource`) by the user's ids; `nil` for an unknown cmdID.
    public func selection(onCommand parameters: SDLJSON) -> SDLMenuSelection? {
        guard let cmdID = parameters["cmdID"]?.intValue, let target = accepted.target(ofCommand: Int(cmdID)) else { return nil }
        return SDLMenuSelection(id: target.id, path: target.path, trigger: parameters["triggerSource"]?.stringValue ?? "MENU")
    }

    /// Refuses empty or repeated ids, commands without phrases and phrases used twice, naming
    /// the path (`$[1].voiceCommands[0]`).
    static func validate(_ commands: [SDLVoiceCommand]) throws(SDLManagerError) {
        if commands.count > maximumVoiceCommands {
            throw SDLManagerError(.tooMany, path: "$", "\(commands.count) voice commands, at most \(maximumVoiceCommands)")
        }
        var ids = Set<String>()
        var phrases = Set<String>()
        for (index, command) in commands.enumerated() {
            if command.id.isEmpty { throw SDLManagerError(.missingValue, path: "$[\(index)].id", "a voice command needs an id") }
            if !ids.insert(command.id).inserted {
                throw SDLManagerError(.duplicateID, path: "$[\(index)].id", "id \(command.id) is used twice")
            }
            if command.voiceCommands.isEmpty {
                throw SDLManagerError(.missingValue, path: "$[\(index)].voiceCommands", "a voice command needs at least one phrase")
            }
            for (phraseIndex, phrase) in command.voiceCommands.enumerated() {
                let path = "$[\(index)].voiceCommands[\(phraseIndex)]"
                if phrase.isEmpty { throw SDLManagerError(.missingValue, path: path, "a voice command phrase is empty") }
                if !phrases.insert(phrase).inserted {
                    throw SDLManagerError(.duplicateName, path: path, "voice command \(phrase) is used twice")
                }
            }
        }
    }
}
