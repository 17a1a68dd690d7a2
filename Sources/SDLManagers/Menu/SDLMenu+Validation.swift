extension SDLMenu {
    /// Refuses a menu the head unit would refuse or could not show, naming the path: an empty id
    /// or title, ids or titles used twice among siblings, a voice command used twice anywhere in
    /// the menu (Core answers DUPLICATE_NAME), voice commands on a submenu, more than ``maximumCells`` cells, a level deeper
    /// than `maximumDepth` (1 = no submenus; 2 = submenus on the top level only, the heads before
    /// RPC spec 7.0 that have no AddSubMenu `parentID`), a layout outside `MenuLayout` or the
    /// display's `menuLayoutsAvailable`.
    public func validate(for profile: SDLDisplayProfile, maximumDepth: Int) throws(SDLManagerError) {
        if let layout {
            if !Self.layouts.contains(layout) {
                throw SDLManagerError(.unsupportedValue, path: "$.layout", "\(layout) is not a MenuLayout")
            }
            if let available = profile.menuLayoutsAvailable, !available.contains(layout) {
                throw SDLManagerError(.unsupportedValue, path: "$.layout", "the display offers no menu layout \(layout)")
            }
        }
        var count = 0
        var phrases = Set<String>()
        try Self.validate(cells, path: "$.menu", depth: 1, maximumDepth: maximumDepth, count: &count, phrases: &phrases)
    }

    private static func validate(
        _ cells: [SDLMenuCell], path: String, depth: Int, maximumDepth: Int, count: inout Int, phrases: inout Set<String>
    ) throws(SDLManagerError) {
        if depth > maximumDepth {
            throw SDLManagerError(.tooDeep, path: path, "menu level \(depth), the head unit allows \(maximumDepth)")
        }
        var ids = Set<String>()
        var titles = Set<String>()
        for (index, cell) in cells.enumerated() {
            let cellPath = "\(path)[\(index)]"
            count += 1
            if count > maximumCells {
                throw SDLManagerError(.tooMany, path: cellPath, "more than \(maximumCells) menu cells")
            }
            if cell.id.isEmpty { throw SDLManagerError(.missingValue, path: "\(cellPath).id", "a menu cell needs an id") }
            if cell.title.isEmpty { throw SDLManagerError(.missingValue, path: "\(cellPath).title", "a menu cell needs a title") }
            if !ids.insert(cell.id).inserted {
                throw SDLManagerError(.duplicateID, path: "\(cellPath).id", "id \(cell.id) is used twice on this level")
            }
            if !titles.insert(cell.title).inserted {
                throw SDLManagerError(.duplicateName, path: "\(cellPath).title", "title \(cell.title) is used twice on this level")
            }
            if cell.isSubmenu && !cell.voiceCommands.isEmpty {
                throw SDLManagerError(
                    .unsupportedValue, path: "\(cellPath).voiceCommands", "a submenu has no voice commands (AddSubMenu has no vrCommands)")
            }
            for (phraseIndex, phrase) in cell.voiceCommands.enumerated() where !phrases.insert(phrase).inserted {
                throw SDLManagerError(
                    .duplicateName, path: "\(cellPath).voiceCommands[\(phraseIndex)]", "voice command \(phrase) is used twice")
            }
            if cell.isSubmenu {
                try validate(
                    cell.children, path: "\(cellPath).children", depth: depth + 1, maximumDepth: maximumDepth, count: &count,
                    phrases: &phrases)
            }
        }
    }
}
