import NIOCore
import SDLClient
import SDLManagers
import SDLProtocol

/// Carries out a manager's plan on an app's session (the thin driver of the pure managers):
/// each request in order through ``RPCExecutor`` (validated against the spec like any RPC), and
/// reports what it sent. Files are settled before the plan is made (``knownFiles(app:needing:)``),
/// so an `ensureFile` step only confirms what is known; an image the head unit does not have is
/// refused before anything is sent.
struct ManagerPlanRunner: Sendable {
    let apps: GatewayApps

    /// The owner of the subscriptions the managers make (the media buttons).
    static let owner = "managers"

    /// The files the app's head unit holds, asking it (ListFiles) once when `names` includes one
    /// the gateway has not seen, and uploading (PutFile) each missing one the image store has; a
    /// name missing from both is a 422 naming the field that uses it, before anything is sent.
    func knownFiles(app id: String, needing names: [(file: String, field: String)]) async throws(GatewayError) -> FileCheck {
        var known = apps.knownFiles(id)
        guard names.contains(where: { !known.contains($0.file) }) else { return FileCheck(known: known) }
        let session = try apps.session(id)
        do {
            let listed = try await session.listFiles()
            apps.noteFiles(id, all: listed, spaceAvailable: nil)
            known = Set(listed)
        } catch let error as SDLClientError {
            throw GatewayError(error)
        } catch {
            throw GatewayError.from(error)
        }
        let missing = names.filter { !known.contains($0.file) }
        let unavailable = missing.filter { apps.images.image($0.file) == nil }
        if let first = unavailable.first {
            throw GatewayError(
                .invalidParameters,
                "\(first.field): the head unit has no file \(first.file) and the image store has none; upload it first (PUT /v1/images/\(first.file) or PUT /v1/apps/\(id)/files/\(first.file))",
                issues: unavailable.map { "\($0.field): no file \($0.file) on the head unit or in the image store" }
            )
        }
        var sent: [SDLJSON] = []
        for name in missing.map(\.file) where !known.contains(name) {
            guard let image = apps.images.image(name) else { continue }
            sent.append(try await upload(image, named: name, app: id, session: session))
            known.insert(name)
        }
        return FileCheck(known: known, sent: sent)
    }

    /// The files a head unit holds once the needed ones were checked, and the PutFiles sent.
    struct FileCheck: Sendable {
        var known: Set<String>
        /// ``sentEntry(_:response:)``s of the uploads from the image store.
        var sent: [SDLJSON] = []
    }

    /// PutFile of an image of the store (not persistent: the store puts it back when needed).
    private func upload(
        _ image: ImageStore.Image, named name: String, app id: String, session: SDLAppSession
    ) async throws(GatewayError) -> SDLJSON {
        do {
            let bytes = image.bytes
            let response = try await session.upload(
                name: name, fileType: image.fileType, persistent: false, system: false, size: bytes.readableBytes,
                chunks: AsyncStream {
                    $0.yield(bytes); $0.finish()
                }, chunkSize: SDLFileUploadPlan.defaultChunkSize
            ) { _ in }
            apps.noteFiles(id, added: name, spaceAvailable: response.parameters["spaceAvailable"]?.intValue)
            let request = SDLPlannedRequest(
                "PutFile", ["syncFileName": .string(name), "fileType": .string(image.fileType), "length": .int(Int64(bytes.readableBytes))])
            return Self.sentEntry(request, response: response.parameters)
        } catch let error as SDLClientError {
            throw GatewayError(error)
        } catch {
            throw GatewayError.from(error)
        }
    }

    /// What the managers need of the app's head unit: its main window's text fields, templates
    /// from the registration's `displayCapabilities`, and the RPC spec version both sides speak.
    func profile(app id: String) throws(GatewayError) -> SDLDisplayProfile {
        let session = try apps.session(id)
        guard let registration = session.connection?.tracker.registration, session.connectionState == .registered else {
            throw GatewayError(.notConnected, "app \(id) is not registered with its head unit")
        }
        let headUnitMajor = registration["syncMsgVersion"]?["majorVersion"]?.intValue.map(Int.init) ?? 8
        let major = min(headUnitMajor, session.configuration.app.syncMsgVersion.major)
        return SDLDisplayProfile(windowCapability: registration["displayCapabilities"], rpcSpecMajorVersion: major)
    }

    /// Sends the plan's requests in order; the RPCs sent with their result codes. A refusal stops
    /// the plan there and is thrown (the state it would have reached is not accepted).
    func run(_ plan: SDLManagerPlan, app id: String) async throws(GatewayError) -> [SDLJSON] {
        var completed = 0
        return try await run(plan, app: id, completed: &completed)
    }

    /// ``run(_:app:)`` counting in `completed` the requests the head unit carried out, also when
    /// a later one fails (for ``SDLMenuManager/accept(_:completed:)``).
    func run(_ plan: SDLManagerPlan, app id: String, completed: inout Int) async throws(GatewayError) -> [SDLJSON] {
        let executor = RPCExecutor(apps: apps)
        var sent: [SDLJSON] = []
        for request in plan.requests {
            if request.functionName == "SubscribeButton", let button = request.parameters["buttonName"]?.stringValue {
                // Through the session's reference-counted subscriptions (owner `managers`), so a
                // client's own subscription of the button and the managers' do not collide.
                let outcome: SDLAppSession.SubscriptionOutcome
                do {
                    outcome = try await apps.session(id).subscribe(button: button, owner: Self.owner)
                } catch let error as SDLClientError {
                    throw GatewayError(error)
                } catch {
                    throw GatewayError.from(error)
                }
                guard let response = outcome.response?.parameters else {  // already subscribed by another owner
                    completed += 1
                    continue
                }
                guard response["success"]?.boolValue == true else { throw GatewayError.headUnit("SubscribeButton", response: response) }
                sent.append([
                    "function": "SubscribeButton", "resultCode": response["resultCode"] ?? .null, "parameters": request.parameters,
                ])
                completed += 1
                continue
            }
            let outcome = try await executor.send(app: id, function: request.functionName, parameters: request.parameters)
            sent.append(Self.sentEntry(request, response: outcome.response))
            completed += 1
        }
        return sent
    }

    /// Sends `request` and returns the head unit's response parameters when it succeeded or its
    /// result code is one of `answered` (TIMED_OUT, ABORTED: how an interaction may end); any other
    /// refusal is thrown.
    func answer(_ request: SDLPlannedRequest, app id: String, answered: Set<String>) async throws(GatewayError) -> SDLJSON {
        do {
            return try await RPCExecutor(apps: apps).send(app: id, function: request.functionName, parameters: request.parameters).response
        } catch {
            guard let response = error.sdlResponse, let result = response["resultCode"]?.stringValue, answered.contains(result) else {
                throw error
            }
            return response
        }
    }

    /// The sequence of the last entry in the app's traffic log (0 when empty): what
    /// ``notifications(app:after:until:)`` reads after.
    func trafficMark(app id: String) throws(GatewayError) -> UInt64 {
        try apps.session(id).connection?.tracker.trafficLog.lastSequence ?? 0
    }

    /// The notifications the app received after `mark` and before the first response to
    /// `function` (the head unit sends a soft button's OnButtonPress before the Alert response
    /// it ends), in order.
    func notifications(
        app id: String, after mark: UInt64, until function: String
    ) throws(GatewayError) -> [(name: String, parameters: SDLJSON)] {
        let entries = try apps.session(id).connection?.tracker.trafficLog.entries(after: mark) ?? []
        var notifications: [(name: String, parameters: SDLJSON)] = []
        for entry in entries where entry.direction == .received {
            if entry.rpcType == .response && entry.function == function { break }
            if entry.rpcType == .notification { notifications.append((entry.function, entry.parameters)) }
        }
        return notifications
    }

    /// One entry of a resource's `sent` list.
    static func sentEntry(_ request: SDLPlannedRequest, response: SDLJSON) -> SDLJSON {
        ["function": .string(request.functionName), "resultCode": response["resultCode"] ?? .null, "parameters": request.parameters]
    }
}

extension GatewayError {
    /// A declaration the managers refuse, as a 422 naming the field by its JSON path.
    init(_ error: SDLManagerError) {
        self.init(.invalidParameters, "\(error.path): \(error.detail)", issues: ["\(error.path): \(error.detail)"])
    }
}
