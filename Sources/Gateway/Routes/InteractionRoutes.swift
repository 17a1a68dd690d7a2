import HTTPAPISupport
import Hummingbird
import SDLClient
import SDLManagers
import SDLProtocol
import Synchronization

/// `POST /v1/apps/{id}/interactions` and `POST /v1/apps/{id}/alerts`: present a choice set or a
/// keyboard, show an alert, and answer how the driver ended it, by the user's ids (SDL-0156's
/// choice set manager and alert manager).
///
/// - An interaction becomes one CreateInteractionChoiceSet per choice not yet on the head unit
///   (cached by content, ``SDLChoiceSetManager``) and one PerformInteraction with a `cancelID`;
///   a keyboard, SetGlobalProperties (only when its properties changed) and PerformInteraction
///   with the KEYBOARD layout. The answer is `{"choice", "trigger", "result"}` (a keyboard:
///   `{"text", "trigger", "result"}`); a timeout or a cancel is an answer, not an error. The
///   answer is also published as a `choice` event.
/// - An alert becomes one Alert (or SubtleAlert) with soft button ids of its own; the answer
///   says which button closed it (`{"button", "result"}`), read from the OnButtonPress the head
///   unit sends before the response.
///
/// Interactions of one app run one at a time, as the app libraries queue them (the head unit
/// shows one anyway); so do alerts. Images must be on the head unit or in the gateway's image
/// store, like the screen's.
struct InteractionRoutes: Sendable {
    let apps: GatewayApps
    let limits: GatewayLimits

    static let interactionMembers: Set<String> = ["title", "choices", "keyboard", "mode", "layout", "timeout", "initialPrompt"]
    static let choiceMembers: Set<String> = ["id", "text", "secondaryText", "tertiaryText", "image", "voiceCommands"]
    static let keyboardMembers: Set<String> = ["layout", "keypressMode", "limitedCharacters", "autoComplete", "mask", "language"]
    static let alertMembers: Set<String> = ["text", "speak", "softButtons", "icon", "duration", "playTone", "progressIndicator", "subtle"]
    static let alertButtonMembers: Set<String> = ["id", "text", "image", "action"]

    func add(to router: some RouterMethods<GatewayRequestContext>) {
        router.post("v1/apps/:id/interactions") { request, context -> Response in
            let id = try context.parameters.decoded("id")
            let interaction = try Self.interaction(from: try await HTTPBody.json(request, limit: limits.bodySize, optional: false))
            return HTTPBody.response(try await present(interaction, app: id))
        }
        router.post("v1/apps/:id/alerts") { request, context -> Response in
            let id = try context.parameters.decoded("id")
            let alert = try Self.alert(from: try await HTTPBody.json(request, limit: limits.bodySize, optional: false))
            return HTTPBody.response(try await show(alert, app: id))
        }
    }

    /// Creates the choice sets the interaction needs, presents it, and answers how it ended.
    func present(_ interaction: SDLInteraction, app id: String) async throws(GatewayError) -> SDLJSON {
        let managers = try apps.managers(id)
        return try await managers.updates.run("interaction") { () async throws(GatewayError) -> SDLJSON in
            let runner = ManagerPlanRunner(apps: apps)
            _ = try runner.profile(app: id)
            var manager = managers.state.withLock { $0.choiceSets }
            let update: SDLChoiceSetManager.Update
            do throws(SDLManagerError) {
                update = try manager.plan(interaction)
            } catch {
                throw GatewayError(error)
            }
            let images = interaction.choices.enumerated().compactMap { index, choice in
                SDLImageName.dynamicFile(choice.image).map { (file: $0, field: "$.choices[\(index)].image") }
            }
            let uploads = try await runner.knownFiles(app: id, needing: images).sent
            var plan = update.plan
            guard let perform = plan.steps.popLast(), case .request(let performRequest) = perform else {
                throw GatewayError(.internalError, "an interaction plan ends with its PerformInteraction")
            }
            var sent = try await uploads + runner.run(plan, app: id)
            // The sets exist now, whatever the driver answers.
            manager.accept(update)
            managers.state.withLock { state in
                state.choiceSets = manager
                state.openInteraction = update.pending
            }
            defer { managers.state.withLock { $0.openInteraction = nil } }
            let response = try await runner.answer(performRequest, app: id, answered: SDLPendingInteraction.answeredResults)
            sent.append(ManagerPlanRunner.sentEntry(performRequest, response: response))
            let answer: SDLInteractionAnswer
            do throws(SDLManagerError) {
                answer = try update.pending.answer(response)
            } catch {
                throw GatewayError(.headUnitError, "\(error.path): \(error.detail)", sdlResponse: response)
            }
            apps.publish(derived: ("choice", answer.json), app: id)
            var body = answer.json.objectValue ?? [:]
            body["sent"] = .array(sent)
            return .object(body)
        }
    }

    /// Shows the alert and answers which of its buttons closed it.
    func show(_ alert: SDLAlert, app id: String) async throws(GatewayError) -> SDLJSON {
        let managers = try apps.managers(id)
        return try await managers.updates.run("alert") { () async throws(GatewayError) -> SDLJSON in
            let runner = ManagerPlanRunner(apps: apps)
            let profile = try runner.profile(app: id)
            let update = try managers.state.withLock { state throws(GatewayError) in
                do throws(SDLManagerError) {
                    return try state.alerts.plan(alert, rpcSpecMajorVersion: profile.rpcSpecMajorVersion)
                } catch {
                    throw GatewayError(error)
                }
            }
            let uploads = try await runner.knownFiles(app: id, needing: alert.dynamicFiles.map { (file: $0.file, field: $0.path) }).sent
            guard let request = update.plan.requests.last else { throw GatewayError(.internalError, "an alert plan ends with its alert") }
            let mark = try runner.trafficMark(app: id)
            managers.state.withLock { $0.openAlert = update.pending }
            defer { managers.state.withLock { $0.openAlert = nil } }
            let response = try await runner.answer(request, app: id, answered: SDLPendingAlert.answeredResults)
            let notifications = try runner.notifications(app: id, after: mark, until: request.functionName)
            guard let answer = update.pending.answer(response: response, notifications: notifications) else {
                throw GatewayError.headUnit(request.functionName, response: response)
            }
            var body = answer.json.objectValue ?? [:]
            body["sent"] = .array(uploads + [ManagerPlanRunner.sentEntry(request, response: response)])
            return .object(body)
        }
    }

    /// The interaction in `json`, checked strictly (unknown members, wrong types, nulls).
    static func interaction(from json: SDLJSON) throws(GatewayError) -> SDLInteraction {
        guard let members = json.objectValue else {
            throw GatewayError(.invalidBody, "an interaction is a JSON object {\"title\", \"choices\": [...]}")
        }
        var issues = ManagerDeclaration.unknown(members, allowed: interactionMembers, at: "$")
        for (index, choice) in (members["choices"]?.arrayValue ?? []).enumerated() {
            issues += ManagerDeclaration.unknown(choice.objectValue ?? [:], allowed: choiceMembers, at: "$.choices[\(index)]")
        }
        issues += ManagerDeclaration.unknown(members["keyboard"]?.objectValue ?? [:], allowed: keyboardMembers, at: "$.keyboard")
        return try ManagerDeclaration.decode(SDLInteraction.self, from: json, unknownMembers: issues)
    }

    /// The alert in `json`, checked strictly.
    static func alert(from json: SDLJSON) throws(GatewayError) -> SDLAlert {
        guard let members = json.objectValue else {
            throw GatewayError(.invalidBody, "an alert is a JSON object {\"text\": [...], \"softButtons\": [...]}")
        }
        var issues = ManagerDeclaration.unknown(members, allowed: alertMembers, at: "$")
        for (index, button) in (members["softButtons"]?.arrayValue ?? []).enumerated() {
            issues += ManagerDeclaration.unknown(button.objectValue ?? [:], allowed: alertButtonMembers, at: "$.softButtons[\(index)]")
        }
        return try ManagerDeclaration.decode(SDLAlert.self, from: json, unknownMembers: issues)
    }
}
