import HTTPAPISupport
import Hummingbird
import HeadUnitSimulator

extension SimulatorControlRoutes {
    /// The app a path or body names in `unit`: by its SDL appID (case-insensitive, as the head
    /// unit keeps it) or, under `serve --simulate`, by the gateway's app id; its SDL appID and the
    /// gateway's apps behind it (whose declared ids the path may use). A name that is the SDL
    /// appID of one app and the gateway's id of another is ambiguous (400), an unknown one 404;
    /// both problems list what is accepted. Called inside `simulator.perform`, so the answer
    /// holds for what it does.
    func resolveApp(_ named: String, in unit: HeadUnit) throws -> (appID: String, gatewayApps: [String]) {
        let direct = unit.app(withID: named)?.appID
        let viaGateway = names.sdlAppID(named).flatMap { unit.app(withID: $0)?.appID }
        switch (direct, viaGateway) {
        case (let direct?, let viaGateway?) where direct != viaGateway:
            throw HTTPProblem(
                status: .badRequest, code: "ambiguous-name", title: "The name is ambiguous",
                detail:
                    "\(named) is the SDL appID of one app and the gateway's app id of the app with SDL appID \(viaGateway): name it by its SDL appID"
            )
        case (let direct?, _):
            return (direct, names.gatewayApps(named: named, sdlAppID: direct))
        case (nil, let viaGateway?):
            return (viaGateway, [named])
        case (nil, nil):
            let registered = unit.appList.map(\.appID)
            throw HTTPProblem(
                status: .notFound, code: "app-not-found", title: "No such app",
                detail: "no app is named \(named): apps are named by their SDL appID"
                    + (registered.isEmpty ? " (none is registered)" : " (\(registered.joined(separator: ", ")))")
                    + " or, under serve, by the gateway's app id"
            )
        }
    }
}
