import SDLClient
import SDLProtocol
import SDLSpec
import SDLTransport
import Synchronization

/// The app resource (docs/architecture.md, `GET /v1/apps/{id}`): the app's summary (its session,
/// HMI status, subscriptions, files) and `links` to what else it has. What the head unit told it
/// at length (``capabilities(of:)``) is its own resource, or inside with `expandCapabilities`
/// (`?expand=capabilities`): it made the answer of `POST /v1/apps` ~24 KB.
enum AppResource {
    /// The members of ``capabilities(of:)``, left out of the app's summary.
    static let capabilityMembers = ["registration", "systemCapabilities", "permissions"]

    /// App `id`'s resource: `session` and `tracker` are its session and what it tracks of the
    /// head unit's state, `core` its head unit, `files` what is known of its files.
    static func json(
        id: String, session: SDLAppSession, tracker: SDLAppStateTracker, core: SDLTransportAddress, files: AppFiles?, lastEventSeq: UInt64,
        expandCapabilities: Bool
    ) -> SDLJSON {
        let app = session.configuration.app
        var members = tracker.snapshot.objectValue ?? [:]
        for name in capabilityMembers { members[name] = nil }
        let subscriptions = session.subscriptions
        members["id"] = .string(id)
        members["appName"] = .string(app.appName)
        members["appID"] = .string(app.appID)
        members["fullAppID"] = app.fullAppID.map(SDLJSON.string) ?? .null
        members["core"] = .string(core.description)
        members["connection"] = .string(session.connectionState.rawValue)
        members["connectionDetail"] = session.connectionDetail.map(SDLJSON.string) ?? .null
        members["attempts"] = .int(Int64(session.attempts))
        members["subscriptions"] = [
            "buttons": .array(subscriptions.buttons.map(SDLJSON.string)),
            "vehicleData": .array(subscriptions.vehicleData.map(SDLJSON.string)),
        ]
        members["icon"] = subscriptions.icon.map(SDLJSON.string) ?? .null
        members["files"] = .array((files?.names ?? []).sorted().map(SDLJSON.string))
        members["spaceAvailable"] = files?.spaceAvailable.map(SDLJSON.int) ?? .null
        members["lastEventSeq"] = .int(Int64(clamping: lastEventSeq))
        let path = "/v1/apps/\(id)"
        members["links"] = ["self": .string(path), "capabilities": .string("\(path)/capabilities"), "events": .string("\(path)/events")]
        if expandCapabilities { members["capabilities"] = capabilities(of: tracker) }
        return .object(members)
    }

    /// What the head unit told the app (`GET /v1/apps/{id}/capabilities`): the RegisterAppInterface
    /// response (`registration`: display, buttons, vehicle type …), the system capabilities
    /// (GetSystemCapability, OnSystemCapabilityUpdated) and the permissions (OnPermissionsChange).
    static func capabilities(of tracker: SDLAppStateTracker) -> SDLJSON {
        let snapshot = tracker.snapshot
        return [
            "registration": tracker.registration ?? .null,
            "systemCapabilities": snapshot["systemCapabilities"] ?? [:],
            "permissions": snapshot["permissions"] ?? .null,
        ]
    }
}

extension GatewayApps {
    /// App `id`'s resource (``AppResource``), or ``GatewayError/Code/appNotFound``.
    public func resource(_ id: String, expandCapabilities: Bool = false) throws(GatewayError) -> SDLJSON {
        let session = try session(id)
        let app = state.withLock { $0.apps[id] }
        return AppResource.json(
            id: id, session: session, tracker: session.connection?.tracker ?? SDLAppStateTracker(catalog: options.catalog),
            core: app?.core ?? options.defaultCore, files: app?.files, lastEventSeq: hub.lastSeq(app: id),
            expandCapabilities: expandCapabilities
        )
    }

    /// What the head unit told app `id` (``AppResource/capabilities(of:)``), or ``GatewayError/Code/appNotFound``.
    public func capabilities(_ id: String) throws(GatewayError) -> SDLJSON {
        let session = try session(id)
        return AppResource.capabilities(of: session.connection?.tracker ?? SDLAppStateTracker(catalog: options.catalog))
    }
}
