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
            return HTTPBody.response(try await update(id) { screen, media in (declaration, media) })
        }
        router.patch("v1/apps/:id/screen") { request, context -> Response in
            let id = try context.parameters.decoded("id")
            let patch = try await HTTPBody.json(request, limit: limits.bodySize, optional: false)
            guard patch.objectValue != nil else { throw GatewayError(.invalidBody, "a merge patch of the screen is a JSON object") }
            return HTTPBody.response(
                try await update(id) { declared, media throws(GatewayError) in
                    (
                        try ScreenDeclaration.screen(
                            from: ScreenDeclaration.mergePatch(declared.map(ScreenDeclaration.json) ?? [:], patch)), media
                    )
                })
        }
        router.get("v1/apps/:id/media") { _, context -> Response in
            let managers = try apps.managers(try context.parameters.decoded("id"))
            let declared = managers.state.withLock { $0.declaredMedia }
            return HTTPBody.response(["media": declared.map(ManagerDeclaration.json) ?? .null])
        }
        router.put("v1/apps/:id/media") { request, context -> Response in
            let id = try context.parameters.decoded("id")
            let media = try ScreenDeclaration.media(from: try await HTTPBody.json(request, limit: limits.bodySize, optional: false))
            // Core refuses the media buttons and clock of other apps: said before anything is sent.
            guard try apps.session(id).configuration.app.isMediaApplication else {
                throw GatewayError(
                    .notMediaApp, "app \(id) is not a media app: create it with \"isMediaApplication\": true to declare what it plays")
            }
            return HTTPBody.response(try await update(id) { screen, _ in (screen ?? SDLScreen(), media) })
        }
    }

    /// Makes the head unit show what `declare` makes of the declared screen and media state, one
    /// update of the app's screen at a time (media text and artwork are Show fields, so the media
    /// route runs here too); the resource with the RPCs sent and the warnings.
    func update(
        _ id: String, _ declare: @Sendable (SDLScreen?, SDLMedia?) throws(GatewayError) -> (SDLScreen, SDLMedia?)
    ) async throws(GatewayError) -> SDLJSON {
        let managers = try apps.managers(id)
        return try await managers.updates.run("screen") { () async throws(GatewayError) -> SDLJSON in
            let current = managers.state.withLock { (screen: $0.declaredScreen, media: $0.declaredMedia) }
            let (declared, media) = try declare(current.screen, current.media)
            let runner = ManagerPlanRunner(apps: apps)
            let profile = try runner.profile(app: id)
            do throws(SDLManagerError) {
                try declared.validate(for: profile)
            } catch {
                throw GatewayError(error)
            }
            var images = Self.imageFields(declared)
            if let artwork = media?.artwork.flatMap(SDLImageName.dynamicFile) { images.append((artwork, "$.artwork")) }
            let files = try await runner.knownFiles(app: id, needing: images)
            var (screenManager, mediaManager) = managers.state.withLock { ($0.screen, $0.media) }
            let update: SDLScreenManager.Update
            do throws(SDLManagerError) {
                update = try screenManager.plan(declared, media: media, profile: profile, knownFiles: files.known)
            } catch {
                throw GatewayError(error)
            }
            var plan = update.plan
            let mediaUpdate = media.map { mediaManager.plan($0) }
            if let mediaUpdate { plan.append(contentsOf: mediaUpdate.plan) }
            let sent = try await files.sent + runner.run(plan, app: id)
            screenManager.accept(update)
            if let mediaUpdate { mediaManager.accept(mediaUpdate) }
            let accepted = screenManager.accepted
            managers.state.withLock { state in
                state.screen = screenManager
                state.media = mediaManager
                state.declaredScreen = declared
                state.declaredMedia = media
            }
            var resource = Self.resource(declared, accepted: accepted).objectValue ?? [:]
            resource["media"] = media.map(ManagerDeclaration.json) ?? .null
            resource["sent"] = .array(sent)
            resource["warnings"] = .array(
                plan.warnings.map {
                    [
                        "kind": .string($0.kind.rawValue), "path": .string($0.path), "field": .string($0.field),
                        "message": .string($0.message),
                    ]
                })
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
                if let file = state.image.flatMap(SDLImageName.dynamicFile) {
                    names.append((file, "$.softButtons[\(index)].states[\(stateIndex)].image"))
                }
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
