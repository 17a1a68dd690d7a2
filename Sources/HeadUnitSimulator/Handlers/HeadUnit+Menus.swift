import NIOCore
import SDLProtocol
import SDLSpec

/// AddCommand, DeleteCommand, AddSubMenu, DeleteSubMenu, Create/DeleteInteractionChoiceSet,
/// ShowAppMenu — with SDL Core's checks (add_command_request.cc, add_sub_menu_request.cc,
/// create_interaction_choice_set_request.cc …).
extension HeadUnit {
    static let menuHandlers: [String: RequestHandler] = [
        "AddCommand": { $0.addCommand($1) },
        "DeleteCommand": { $0.deleteCommand($1) },
        "AddSubMenu": { $0.addSubMenu($1) },
        "DeleteSubMenu": { $0.deleteSubMenu($1) },
        "CreateInteractionChoiceSet": { $0.createInteractionChoiceSet($1) },
        "DeleteInteractionChoiceSet": { $0.deleteInteractionChoiceSet($1) },
        "ShowAppMenu": { $0.showAppMenu($1) },
    ]

    /// A command's parent submenu: `menuParams.parentID`, 0 (the top level) when absent.
    static func parentID(ofCommand command: SDLJSON) -> Int64 {
        command["menuParams"]?["parentID"]?.intValue ?? 0
    }

    mutating func addCommand(_ request: Request) -> Reply {
        changeApp(request, resumable: true) { unit, app in
            let params = request.parameters
            let cmdID = params["cmdID"]?.intValue ?? 0
            guard app.commands[cmdID] == nil else {
                return .refused(.result("INVALID_ID", info: "A command with cmdID \(cmdID) already exists"))
            }
            guard params["menuParams"] != nil || params["vrCommands"] != nil else {
                return .refused(.result("INVALID_DATA", info: "Neither menuParams nor vrCommands is given"))
            }
            let parentID = Self.parentID(ofCommand: .object(params))
            if parentID != 0 && app.subMenus[parentID] == nil {
                return .refused(.result("INVALID_ID", info: "No submenu has menuID \(parentID)"))
            }
            if let name = params["menuParams"]?["menuName"]?.stringValue {
                if Self.isBadText(name) { return .refused(.result("INVALID_DATA", info: "menuName is empty or has a tab or newline")) }
                let clash = app.commands.values.contains {
                    Self.parentID(ofCommand: $0) == parentID && $0["menuParams"]?["menuName"]?.stringValue == name
                }
                if clash { return .refused(.result("DUPLICATE_NAME", info: "A command in this menu is already called \(name)")) }
            }
            let vrCommands = params["vrCommands"]?.arrayValue?.compactMap(\.stringValue) ?? []
            if vrCommands.contains(where: Self.isBadText) {
                return .refused(.result("INVALID_DATA", info: "A vrCommand is empty or has a tab or newline"))
            }
            let lowered = Set(vrCommands.map { $0.lowercased() })
            if lowered.count != vrCommands.count {
                return .refused(.result("DUPLICATE_NAME", info: "vrCommands repeats a name"))
            }
            let existingVR = Set(
                app.commands.values.flatMap { $0["vrCommands"]?.arrayValue?.compactMap { $0.stringValue?.lowercased() } ?? [] })
            if let clash = lowered.first(where: existingVR.contains) {
                return .refused(.result("DUPLICATE_NAME", info: "Another command already has the VR command \(clash)"))
            }
            app.commands[cmdID] = .object(params)
            return .done { $0.successOrImageWarning(params, session: request.sessionID) }
        }
    }

    mutating func deleteCommand(_ request: Request) -> Reply {
        changeApp(request, resumable: true) { _, app in
            let cmdID = request.parameters["cmdID"]?.intValue ?? 0
            guard app.commands.removeValue(forKey: cmdID) != nil else {
                return .refused(.result("INVALID_ID", info: "No command has cmdID \(cmdID)"))
            }
            return .done(.success())
        }
    }

    mutating func addSubMenu(_ request: Request) -> Reply {
        changeApp(request, resumable: true) { _, app in
            let params = request.parameters
            let menuID = params["menuID"]?.intValue ?? 0
            guard app.subMenus[menuID] == nil else {
                return .refused(.result("INVALID_ID", info: "A submenu with menuID \(menuID) already exists"))
            }
            let parentID = params["parentID"]?.intValue ?? 0
            if parentID != 0 && app.subMenus[parentID] == nil {
                return .refused(.result("INVALID_ID", info: "No submenu has menuID \(parentID)"))
            }
            let name = params["menuName"]?.stringValue ?? ""
            if Self.isBadText(name) { return .refused(.result("INVALID_DATA", info: "menuName is empty or has a tab or newline")) }
            let clash = app.subMenus.values.contains { ($0["parentID"]?.intValue ?? 0) == parentID && $0["menuName"]?.stringValue == name }
            if clash { return .refused(.result("DUPLICATE_NAME", info: "A submenu in this menu is already called \(name)")) }
            app.subMenus[menuID] = .object(params)
            return .done(.success())  // AddSubMenu's response may not carry WARNINGS (MOBILE_API.xml)
        }
    }

    mutating func deleteSubMenu(_ request: Request) -> Reply {
        changeApp(request, resumable: true) { _, app in
            let menuID = request.parameters["menuID"]?.intValue ?? 0
            guard app.subMenus[menuID] != nil else {
                return .refused(.result("INVALID_ID", info: "No submenu has menuID \(menuID)"))
            }
            // The submenu, the submenus nested in it, and every command in them.
            var removed: Set<Int64> = [menuID]
            var frontier = [menuID]
            while let parent = frontier.popLast() {
                for (id, subMenu) in app.subMenus where (subMenu["parentID"]?.intValue ?? 0) == parent && !removed.contains(id) {
                    removed.insert(id)
                    frontier.append(id)
                }
            }
            for id in removed { app.subMenus[id] = nil }
            app.commands = app.commands.filter { !removed.contains(Self.parentID(ofCommand: $0.value)) }
            return .done(.success())
        }
    }

    mutating func createInteractionChoiceSet(_ request: Request) -> Reply {
        changeApp(request, resumable: true) { _, app in
            let params = request.parameters
            let setID = params["interactionChoiceSetID"]?.intValue ?? 0
            guard app.choiceSets[setID] == nil else {
                return .refused(.result("INVALID_ID", info: "A choice set with interactionChoiceSetID \(setID) already exists"))
            }
            let choices = params["choiceSet"]?.arrayValue ?? []
            let ids = choices.compactMap { $0["choiceID"]?.intValue }
            guard Set(ids).count == ids.count else {
                return .refused(.result("INVALID_ID", info: "choiceSet repeats a choiceID"))
            }
            let taken = Set(app.choiceSets.values.flatMap { $0["choiceSet"]?.arrayValue?.compactMap { $0["choiceID"]?.intValue } ?? [] })
            if let clash = ids.first(where: taken.contains) {
                return .refused(.result("INVALID_ID", info: "choiceID \(clash) is already used by another choice set"))
            }
            let names = choices.compactMap { $0["menuName"]?.stringValue }
            if names.contains(where: Self.isBadText) {
                return .refused(.result("INVALID_DATA", info: "A menuName is empty or has a tab or newline"))
            }
            if Set(names).count != names.count {
                return .refused(.result("DUPLICATE_NAME", info: "choiceSet repeats a menuName"))
            }
            let vr = choices.flatMap { $0["vrCommands"]?.arrayValue?.compactMap { $0.stringValue?.lowercased() } ?? [] }
            if Set(vr).count != vr.count {
                return .refused(.result("DUPLICATE_NAME", info: "choiceSet repeats a VR command"))
            }
            app.choiceSets[setID] = .object(params)
            return .done(.success())  // CreateInteractionChoiceSet's response may not carry WARNINGS (MOBILE_API.xml)
        }
    }

    mutating func deleteInteractionChoiceSet(_ request: Request) -> Reply {
        changeApp(request, resumable: true) { _, app in
            let setID = request.parameters["interactionChoiceSetID"]?.intValue ?? 0
            guard app.choiceSets[setID] != nil else {
                return .refused(.result("INVALID_ID", info: "No choice set has interactionChoiceSetID \(setID)"))
            }
            if let open = app.openInteraction, open.function == "PerformInteraction",
                open.parameters["interactionChoiceSetIDList"]?.arrayValue?.contains(where: { $0.intValue == setID }) == true
            {
                return .refused(.result("IN_USE", info: "The choice set is shown by a PerformInteraction"))
            }
            app.choiceSets[setID] = nil
            return .done(.success())
        }
    }

    mutating func showAppMenu(_ request: Request) -> Reply {
        guard let app = apps[request.sessionID] else { return .result("APPLICATION_NOT_REGISTERED") }
        // Core: only an app in FULL whose screen is not covered may open its menu.
        guard app.hmiLevel == "FULL", app.systemContext == "MAIN" || app.systemContext == "MENU" else {
            return .result("REJECTED", info: "The app is not in FULL or its screen is covered")
        }
        if let menuID = request.parameters["menuID"]?.intValue, app.subMenus[menuID] == nil {
            return .result("INVALID_ID", info: "No submenu has menuID \(menuID)")
        }
        return .success()
    }
}
