import SDLClient
import SDLTransport

extension GatewayApps {
    /// What ``put(id:core:app:wait:)`` did.
    public enum PutOutcome: Sendable, Hashable {
        /// No app had the id: it was created (``create(id:core:app:wait:)``).
        case created
        /// An app with the id and equal registration parameters was there already.
        case existing
    }

    /// `PUT /v1/apps/{id}`: creates app `id` as ``create(id:core:app:wait:)`` does, or finds the
    /// app already there when its head unit and registration parameters equal the request's
    /// (``AppRegistrationComparison``); with `wait` it then waits, like a create, until that app
    /// registered or closed (at most the registration wait). Parameters that differ are
    /// ``GatewayError/Code/appExists`` naming them (in the detail, and one issue each).
    ///
    /// Requests for one id run one at a time (``KeyedSerializer``): of concurrent PUTs of an id,
    /// one creates the app and the others, after it finished, find it.
    public func put(
        id: String, core: SDLTransportAddress?, app: SDLAppConfiguration, wait: Bool = true
    ) async throws(GatewayError) -> PutOutcome {
        let core = core ?? options.defaultCore
        guard options.allows(core) else {
            throw GatewayError(.coreNotAllowed, "core \(core) is not one of the head units this gateway may use (--core, --allow-core)")
        }
        return try await putSerializer.run(id) { () async throws(GatewayError) -> PutOutcome in
            if let existing = registration(of: id) {
                let differing = AppRegistrationComparison.differences(
                    existing: existing.app, existingCore: existing.core, requested: app, requestedCore: core
                )
                guard differing.isEmpty else {
                    throw GatewayError(
                        .appExists, "app \(id) exists with other registration parameters: \(differing.joined(separator: ", "))",
                        issues: differing.map { "\($0) differs from the existing app's" }
                    )
                }
                if wait { await waitUntilSettled(id, limit: options.registrationWait) }
                // Deleted meanwhile (its registration failed, or a DELETE): create it anew.
                if registration(of: id) != nil { return .existing }
            }
            _ = try await create(id: id, core: core, app: app, wait: wait)
            return .created
        }
    }
}
