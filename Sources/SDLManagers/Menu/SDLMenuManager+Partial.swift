import SDLProtocol

extension SDLMenuManager {
    /// Records that the head unit carried out only the first `completed` requests of `update`'s
    /// plan (a later one failed), so that the next plan starts from what the head unit really
    /// has: no DeleteCommand for a command already deleted (INVALID_ID), no second AddCommand of
    /// a title already added (DUPLICATE_NAME).
    ///
    /// The accepted menu becomes the plan's target without the cells whose add did not happen,
    /// plus the old cells whose delete did not happen (after their siblings, where they were),
    /// minus the children of a submenu that was deleted. The layout counts only if its
    /// SetGlobalProperties was carried out.
    public mutating func accept(_ update: Update, completed: Int) {
        let done = update.plan.requests.prefix(completed)
        guard done.count < update.plan.requests.count else { return accept(update) }
        func ids(_ function: String, _ key: String) -> Set<Int> {
            Set(done.filter { $0.functionName == function }.compactMap { $0.parameters[key]?.intValue.map(Int.init) })
        }
        let deleted = ids("DeleteCommand", "cmdID").union(ids("DeleteSubMenu", "menuID"))
        let added = ids("AddCommand", "cmdID").union(ids("AddSubMenu", "menuID"))
        switch update.part {
        case .menu(let target, let layout):
            let layoutSet = done.contains { $0.functionName == "SetGlobalProperties" }
            accepted.entries = Self.merge(old: accepted.entries, target: target, deleted: deleted, added: added)
            if layoutSet { accepted.layout = layout }
        case .voiceCommands(let target):
            let kept = target.filter { entry in
                added.contains(entry.cmdID) || accepted.voiceCommands.contains { $0.cmdID == entry.cmdID }
            }
            let undeleted = accepted.voiceCommands.filter { old in !deleted.contains(old.cmdID) && !kept.contains { $0.cmdID == old.cmdID }
            }
            accepted.voiceCommands = kept + undeleted
        }
    }

    /// One level: the target's entries the head unit has (kept from before or added), then the
    /// old entries still there that the target dropped.
    static func merge(old: [SDLMenuEntry], target: [SDLMenuEntry], deleted: Set<Int>, added: Set<Int>) -> [SDLMenuEntry] {
        let oldByID = Dictionary(old.map { ($0.sdlID, $0) }, uniquingKeysWith: { first, _ in first })
        var level: [SDLMenuEntry] = []
        for entry in target {
            let before = oldByID[entry.sdlID]
            guard added.contains(entry.sdlID) || (before != nil && !deleted.contains(entry.sdlID)) else { continue }
            var kept = entry
            kept.children =
                entry.isSubmenu ? merge(old: before?.children ?? [], target: entry.children, deleted: deleted, added: added) : []
            level.append(kept)
        }
        let targetIDs = Set(target.map(\.sdlID))
        for entry in old where !targetIDs.contains(entry.sdlID) && !deleted.contains(entry.sdlID) {
            var kept = entry
            kept.children = merge(old: entry.children, target: [], deleted: deleted, added: added)
            level.append(kept)
        }
        return level
    }
}
