import HTTPAPISupport
import Hummingbird
import SDLClient
import SDLManagers
import SDLProtocol
import Synchronization

/// `GET`/`PUT`/`PATCH /v1/apps/{id}/screen`: the app's main window, declared (issue "declarative
/// managers"; SDL-0156's screen manager). A PUT says what the screen should be and the gateway
/// sends the fewest RPCs that make it so (``SDLScreenManager``): one Show with the changed
/// fields, the template through `Show.templateConfiguration` (RPC spec 6+) or SetDisplayLayout,
/// soft button ids of its own, text fitted to the display's main fields. The answer lists the
/// RPCs sent and warnings (text wider than its field is reported, never cut silently). A PATCH
/// is an RFC 7396 merge patch (`application/merge-patch+json`) of the declared screen. Presses of
/// its soft buttons arrive as `softButton {id, state, mode}` events.
struct ScreenRoutes: Sendable {
    let apps: GatewayApps
    let limits: GatewayLimits

    func add(to router: some RouterMethods<GatewayRequestContext>) {
        router.get("v1/apps/:id/screen") { _, context -> Response in
            let id = try context.parameters.decoded("id")
            let managers = try apps.managers(id)
            let (declared, accepted) = managers.state.withLock { ($0.declaredScreen, $0.screen.accepted) }
            return HTTPBody.response(Self.resource(declared, accepted: accepted))
        }
        router.put("v1/apps/:id/screen") { request, context -> Response in
            let id = try context.parameters.decoded("id")
            let declaration = try ScreenDeclaration.screen(from: try await HTTPBody.json(request, limit: limits.bodySize, optional: false))
            return HTTPBody.response(try await update(id) { _ in declaration })
        }
        router.patch("v1/apps/:id/screen") { request, context -> Response in
            let id = try context.parameters.decoded("id")
            let patch = try await HTTPBody.json(request, limit: limits.bodySize, optional: false)
            guard patch.objectValue != nil else { throw GatewayError(.invalidBody, "a merge patch of the screen is a JSON object") }
            return HTTPBody.response(try await update(id) { declared throws(GatewayError) in
                try ScreenDeclaration.screen(from: ScreenDeclaration.mergePatch(declared.map(ScreenDeclaration.json) ?? [:], patch))
            })
        }
    }

    /// Makes the head unit show what `declare` makes of the declared screen, one update of the
    /// app's screen at a time; the resource with the RPCs sent and the warnings.
    func update(_ id: String, _ declare: @Sendable (SDLScreen?) throws(GatewayError) -> SDLScreen) async throws(GatewayError) -> SDLJSON {
        let managers = try apps.managers(id)
        return try await managers.updates.run("screen") { () async throws(GatewayError) -> SDLJSON in
            let declared = try declare(managers.state.withLock { $0.declaredScreen })
            let profile = try ManagerPlanRunner(apps: apps).profile(app: id)
            do throws(SDLManagerError) {
                try declared.validate(for: profile)
            } catch {
                throw GatewayError(error)
            }
            let runner = ManagerPlanRunner(apps: apps)
            let fields = Self.imageFields(declared)
            let known = try await runner.knownFiles(app: id, needing: fields)
            var manager = managers.state.withLock { $0.screen }
            let update: SDLScreenManager.Update
            do throws(SDLManagerError) {
                update = try manager.plan(declared, profile: profile, knownFiles: known)
            } catch {
                throw GatewayError(error)
            }
            let sent = try await runner.run(update.plan, app: id)
            manager.accept(update)
            let accepted = manager.accepted
            managers.state.withLock { state in
                state.screen = manager
                state.declaredScreen = declared
            }
            var resource = Self.resource(declared, accepted: accepted).objectValue ?? [:]
            resource["sent"] = .array(sent)
            resource["warnings"] = .array(update.plan.warnings.map { ["kind": .string($0.kind.rawValue), "path": .string($0.path), "field": .string($0.field), "message": .string($0.message)] })
            return .object(resource)
        }
    }

    /// The dynamic images a screen names, with the field that names each.
    static func imageFields(_ screen: SDLScreen) -> [(file: String, field: String)] {
        var names: [(file: String, field: String)] = []
        if let file = screen.primaryGraphic.flatMap(SDLImageName.dynamicFile) { names.append((file, "$.primaryGraphic")) }
        if let file = screen.secondaryGraphic.flatMap(SDLImageName.dynamicFile) { names.append((file, "$.secondaryGraphic")) }
        for (index, button) in screen.softButtons.enumerated() {
            for (stateIndex, state) in button.states.enumerated() {
                if let file = state.image.flatMap(SDLImageName.dynamicFile) { names.append((file, "$.softButtons[\(index)].states[\(stateIndex)].image")) }
            }
        }
        return names
    }

    /// The screen resource: the declared screen and the soft button ids the head unit knows.
    static func resource(_ declared: SDLScreen?, accepted: SDLScreenState) -> SDLJSON {
        var buttons: [String: SDLJSON] = [:]
        for (softButtonID, reference) in accepted.softButtons {
            buttons[reference.id] = ["softButtonID": .int(Int64(softButtonID)), "state": .string(reference.state)]
        }
        return ["screen": declared.map(ScreenDeclaration.json) ?? .null, "softButtons": .object(buttons)]
    }
}
