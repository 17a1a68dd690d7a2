import SDLProtocol

/// The level-by-level comparison behind ``SDLMenuManager``: which entries the head unit keeps,
/// which it deletes, and what it adds where.
///
/// On each level, a declared cell keeps the first unused entry with the same content
/// (``SDLMenuEntry/hasSameContent(as:layout:)``). The kept entries whose order is unchanged are
/// the longest increasing run of their new positions; the others moved, and since SDL cannot
/// move a cell they are deleted and added again. Kept submenus are compared the same way one
/// level down. Deleting a submenu deletes its children on the head unit, so they get no
/// requests of their own. Adds go in the new order with `position` = the index on the level:
/// after the deletes, every cell before that index is already there.
struct SDLMenuDiff {
    var ids: SDLIDCounter
    let layout: String?
    var deletes: [SDLPlannedRequest] = []
    var adds = SDLManagerPlan()

    init(ids: SDLIDCounter, layout: String?) {
        self.ids = ids
        self.layout = layout
    }

    /// Compares one level; returns the level as the head unit has it afterwards.
    mutating func level(_ old: [SDLMenuEntry], _ new: [SDLMenuCell], parentID: Int?, path: String) throws(SDLManagerError) -> [SDLMenuEntry]
    {
        var matchOf = [Int?](repeating: nil, count: new.count)
        var used = Set<Int>()
        for (newIndex, cell) in new.enumerated() {
            if let oldIndex = old.indices.first(where: { !used.contains($0) && old[$0].hasSameContent(as: cell, layout: submenuLayout) }) {
                matchOf[newIndex] = oldIndex
                used.insert(oldIndex)
            }
        }
        let pairs = matchOf.enumerated().compactMap { newIndex, oldIndex in oldIndex.map { (old: $0, new: newIndex) } }
            .sorted { $0.old < $1.old }
        let stay = Set(Self.longestIncreasingRun(pairs.map(\.new)).map { pairs[$0].new })

        let keptOld = Set(pairs.filter { stay.contains($0.new) }.map(\.old))
        for (index, entry) in old.enumerated() where !keptOld.contains(index) {
            deletes.append(Self.delete(entry))
        }

        var result: [SDLMenuEntry] = []
        for (index, cell) in new.enumerated() {
            let cellPath = "\(path)[\(index)]"
            if stay.contains(index), let oldIndex = matchOf[index] {
                var entry = old[oldIndex]
                entry.id = cell.id
                if cell.isSubmenu {
                    entry.children = try level(entry.children, cell.children, parentID: entry.sdlID, path: "\(cellPath).children")
                }
                result.append(entry)
            } else {
                result.append(try add(cell, position: index, parentID: parentID, path: cellPath))
            }
        }
        return result
    }

    /// Adds `cell` and, for a submenu, all its children.
    mutating func add(_ cell: SDLMenuCell, position: Int, parentID: Int?, path: String) throws(SDLManagerError) -> SDLMenuEntry {
        let sdlID = try ids.allocate(path: path)
        if let file = SDLImageName.dynamicFile(cell.icon) { adds.ensureFile(file) }
        var entry = SDLMenuEntry(
            id: cell.id, title: cell.title, icon: cell.icon, voiceCommands: cell.voiceCommands, isSubmenu: cell.isSubmenu,
            layout: cell.isSubmenu ? submenuLayout : nil, sdlID: sdlID, children: []
        )
        var parameters: [String: SDLJSON] = [:]
        if cell.isSubmenu {
            parameters = ["menuID": .int(Int64(sdlID)), "menuName": .string(cell.title), "position": .int(Int64(position))]
            if let parentID { parameters["parentID"] = .int(Int64(parentID)) }
            if let icon = cell.icon, !icon.isEmpty { parameters["menuIcon"] = SDLImageName.image(icon) }
            if let submenuLayout { parameters["menuLayout"] = .string(submenuLayout) }
            adds.append(SDLPlannedRequest("AddSubMenu", .object(parameters)))
            for (index, child) in cell.children.enumerated() {
                entry.children.append(try add(child, position: index, parentID: sdlID, path: "\(path).children[\(index)]"))
            }
        } else {
            var menuParams: [String: SDLJSON] = ["menuName": .string(cell.title), "position": .int(Int64(position))]
            if let parentID { menuParams["parentID"] = .int(Int64(parentID)) }
            parameters = ["cmdID": .int(Int64(sdlID)), "menuParams": .object(menuParams)]
            if !cell.voiceCommands.isEmpty { parameters["vrCommands"] = .array(cell.voiceCommands.map { .string($0) }) }
            if let icon = cell.icon, !icon.isEmpty { parameters["cmdIcon"] = SDLImageName.image(icon) }
            adds.append(SDLPlannedRequest("AddCommand", .object(parameters)))
        }
        return entry
    }

    /// The layout submenus are added with.
    var submenuLayout: String? { layout }

    static func delete(_ entry: SDLMenuEntry) -> SDLPlannedRequest {
        entry.isSubmenu
            ? SDLPlannedRequest("DeleteSubMenu", ["menuID": .int(Int64(entry.sdlID))])
            : SDLPlannedRequest("DeleteCommand", ["cmdID": .int(Int64(entry.sdlID))])
    }

    /// The indexes into `values` of one longest strictly increasing subsequence (patience sorting).
    static func longestIncreasingRun(_ values: [Int]) -> [Int] {
        var tails: [Int] = []  // index into values of the smallest tail of each length
        var previous = [Int?](repeating: nil, count: values.count)
        for (index, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            previous[index] = low > 0 ? tails[low - 1] : nil
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var run: [Int] = []
        var cursor = tails.last
        while let index = cursor {
            run.append(index)
            cursor = previous[index]
        }
        return run.reversed()
    }
}
