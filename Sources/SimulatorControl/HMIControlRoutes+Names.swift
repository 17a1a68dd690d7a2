import HTTPAPISupport
import HeadlessHMI
import Hummingbird

extension HMIControlRoutes {
    /// The app the path's `{appID}` names.
    func app(_ context: some RequestContext) throws -> (appID: Int64, gatewayApps: [String]) {
        try app(named: try context.parameters.decoded("appID"))
    }

    /// The app Core registered that `named` names, as the simulator's control API names apps: by
    /// its SDL appID (Core's `policyAppID`, case-insensitive), by Core's HMI app id, or under
    /// `serve --hmi` by the gateway's app id; its HMI app id and the gateway's apps behind it
    /// (whose declared ids the path may use). A name of two apps is ambiguous (400), an unknown
    /// one 404; both problems list what is accepted.
    func app(named: String) throws -> (appID: Int64, gatewayApps: [String]) {
        let apps = connection.snapshot.apps.values.sorted { $0.appID < $1.appID }
        let key = named.lowercased()
        let gatewaySDLAppID = names.sdlAppID(named)?.lowercased()
        let matching = apps.filter { app in
            let policy = app.policyAppID?.lowercased()
            return String(app.appID) == named || (policy != nil && (policy == key || policy == gatewaySDLAppID))
        }
        guard let app = matching.first else {
            let registered = apps.map { app in app.policyAppID.map { "\($0) (\(app.appID))" } ?? String(app.appID) }
            throw HTTPProblem(
                status: .notFound, code: "app-not-found", title: "No such app",
                detail: "no app is named \(named): apps are named by their SDL appID (policyAppID), Core's HMI app id"
                    + " or, under serve, the gateway's app id"
                    + (registered.isEmpty ? "; Core has registered none" : "; Core has registered \(registered.joined(separator: ", "))")
            )
        }
        guard matching.count == 1 else {
            throw HTTPProblem(
                status: .badRequest, code: "ambiguous-name", title: "The name is ambiguous",
                detail:
                    "\(named) names the apps with HMI app ids \(matching.map { String($0.appID) }.joined(separator: " and ")): name one by its HMI app id"
            )
        }
        guard let policy = app.policyAppID else { return (app.appID, []) }
        return (app.appID, names.gatewayApps(named: named, sdlAppID: policy))
    }
}
