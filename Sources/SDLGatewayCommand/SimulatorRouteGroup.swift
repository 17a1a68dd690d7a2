import Gateway
import HeadUnitSimulator
import SimulatorControl

extension SimulatorControlRoutes {
    /// The simulator's control API as the gateway mounts it with `serve --simulate`: at
    /// `/v1/simulator`, behind the gateway's auth and limits.
    static func gatewayRouteGroup(_ simulator: SimulatedHeadUnit) -> GatewayRouteGroup {
        GatewayRouteGroup(path: "v1/simulator", operations: operations) { group, apps in
            SimulatorControlRoutes(simulator: simulator, gatewayApp: { apps.sdlAppID(ofApp: $0) }).add(to: group)
        }
    }
}
