import HTTPAPISupport
import Hummingbird
import SDLClient
import SDLManagers
import SDLProtocol
import Synchronization

/// `GET`/`PUT /v1/apps/{id}/menu` and `GET`/`PUT /v1/apps/{id}/voice-commands`: the app's menu
/// tree and top-level voice commands, declared. The gateway diffs against what the head unit
/// accepted and sends only the DeleteCommand/DeleteSubMenu/AddCommand/AddSubMenu needed, keeping
/// unchanged cells (``SDLMenuManager``; cmdID and menuID are its own and never reused). A
/// selection arrives as a `menuSelection {id, path, trigger}` event by the user's ids.
struct MenuRoutes: Sendable {
    let apps: GatewayApps
    let limits: GatewayLimits

    static let menuMembers: Set<String> = ["menu", "layout"]
    static let cellMembers: Set<String> = ["id", "title", "icon", "voiceCommands", "children"]
    static let voiceCommandMembers: Set<String> = ["id", "voiceCommands"]

    func add(to router: some RouterMethods<GatewayRequestContext>) {
        router.get("v1/apps/:id/menu") { _, context -> Response in
            let managers = try apps.managers(try context.parameters.decoded("id"))
            let declared = managers.state.withLock { $0.declaredMenu }
            return HTTPBody.response(declared.map(ManagerDeclaration.json) ?? ["menu": []])
        }
        router.put("v1/apps/:id/menu") { request, context -> Response in
            let id = try context.parameters.decoded("id")
            let menu = try Self.menu(from: try await HTTPBody.json(request, limit: limits.bodySize, optional: false))
            return HTTPBody.response(
                try await update(id) { manager, profile throws(SDLManagerError) in
                    let update = try manager.plan(menu, profile: profile, maximumDepth: Self.maximumDepth(profile))
                    return (update, { $0.declaredMenu = menu }, ManagerDeclaration.json(menu))
                })
        }
        router.get("v1/apps/:id/voice-commands") { _, context -> Response in
            let managers = try apps.managers(try context.parameters.decoded("id"))
            let declared = managers.state.withLock { $0.declaredVoiceCommands } ?? []
            return HTTPBody.response(["voiceCommands": ManagerDeclaration.json(declared)])
        }
        router.put("v1/apps/:id/voice-commands") { request, context -> Response in
            let id = try context.parameters.decoded("id")
            let commands = try Self.voiceCommands(from: try await HTTPBody.json(request, limit: limits.bodySize, optional: false))
            return HTTPBody.response(
                try await update(id) { manager, _ throws(SDLManagerError) in
                    let update = try manager.plan(voiceCommands: commands)
                    return (update, { $0.declaredVoiceCommands = commands }, ["voiceCommands": ManagerDeclaration.json(commands)])
                })
        }
    }

    /// Menu levels the head unit allows: submenus in submenus need AddSubMenu `parentID` (RPC
    /// spec 7.0); MOBILE_API.xml states no depth, so three levels there, two before.
    static func maximumDepth(_ profile: SDLDisplayProfile) -> Int { profile.rpcSpecMajorVersion >= 7 ? 3 : 2 }

    /// Plans with the app's menu manager, sends the plan, and records it once every request
    /// succeeded: the resource with the RPCs sent. The menu and the voice commands run one at a
    /// time, as they share one id counter.
    func update(
        _ id: String,
        _ plan:
            @Sendable (inout SDLMenuManager, SDLDisplayProfile) throws(SDLManagerError) -> (
                SDLMenuManager.Update, @Sendable (inout AppManagers.State) -> Void, SDLJSON
            )
    ) async throws(GatewayError) -> SDLJSON {
        let managers = try apps.managers(id)
        return try await managers.updates.run("menu") { () async throws(GatewayError) -> SDLJSON in
            let runner = ManagerPlanRunner(apps: apps)
            let profile = try runner.profile(app: id)
            var manager = managers.state.withLock { $0.menu }
            let (update, record, resource): (SDLMenuManager.Update, @Sendable (inout AppManagers.State) -> Void, SDLJSON)
            do throws(SDLManagerError) {
                (update, record, resource) = try plan(&manager, profile)
            } catch {
                throw GatewayError(error)
            }
            let icons = update.plan.files.map { (file: $0, field: "an icon") }
            let uploads = try await runner.knownFiles(app: id, needing: icons).sent
            var completed = 0
            let sent: [SDLJSON]
            do throws(GatewayError) {
                sent = try await uploads + runner.run(update.plan, app: id, completed: &completed)
            } catch {
                // What the head unit carried out stays accepted, so the next update neither
                // deletes twice nor adds a title twice.
                manager.accept(update, completed: completed)
                managers.state.withLock { $0.menu = manager }
                throw error
            }
            manager.accept(update)
            managers.state.withLock { state in
                state.menu = manager
                record(&state)
            }
            var members = resource.objectValue ?? [:]
            members["sent"] = .array(sent)
            return .object(members)
        }
    }

    /// The declared menu in `json`: `{"menu": [cells], "layout"}`, each cell `{id, title, icon,
    /// voiceCommands, children}`.
    static func menu(from json: SDLJSON) throws(GatewayError) -> SDLMenu {
        guard let members = json.objectValue else { throw GatewayError(.invalidBody, "the menu must be a JSON object {\"menu\": [...]}") }
        var issues = ManagerDeclaration.unknown(members, allowed: menuMembers, at: "$")
        func cells(_ list: SDLJSON?, at path: String) {
            for (index, cell) in (list?.arrayValue ?? []).enumerated() {
                guard let cellMembers = cell.objectValue else { continue }
                issues += ManagerDeclaration.unknown(cellMembers, allowed: Self.cellMembers, at: "\(path)[\(index)]")
                cells(cellMembers["children"], at: "\(path)[\(index)].children")
            }
        }
        cells(members["menu"], at: "$.menu")
        return try ManagerDeclaration.decode(SDLMenu.self, from: json, unknownMembers: issues)
    }

    /// The declared voice commands in `json`: `[{"id", "voiceCommands": [...]}]`.
    static func voiceCommands(from json: SDLJSON) throws(GatewayError) -> [SDLVoiceCommand] {
        guard let list = json.arrayValue else {
            throw GatewayError(.invalidBody, "the voice commands are a JSON array of {\"id\", \"voiceCommands\"}")
        }
        var issues: [String] = []
        for (index, command) in list.enumerated() {
            issues += ManagerDeclaration.unknown(command.objectValue ?? [:], allowed: voiceCommandMembers, at: "$[\(index)]")
        }
        return try ManagerDeclaration.decode([SDLVoiceCommand].self, from: json, unknownMembers: issues)
    }
}
