import Gateway
import HeadUnitSimulator
import HeadlessHMI
import SimulatorControl

extension SimulatorControlRoutes {
    /// The simulator's control API as the gateway mounts it with `serve --simulate`: at
    /// `/v1/simulator`, behind the gateway's auth and limits; paths take the gateway's names too
    /// (``GatewayNames``).
    static func gatewayRouteGroup(_ simulator: SimulatedHeadUnit) -> GatewayRouteGroup {
        GatewayRouteGroup(
            path: "v1/simulator", operations: operations,
            addRoutes: { group, apps in SimulatorControlRoutes(simulator: simulator, names: GatewayNames(apps)).add(to: group) },
            addWebSocketRoutes: { group, apps in
                SimulatorControlRoutes(simulator: simulator, names: GatewayNames(apps)).addWebSocketRoutes(to: group)
            }
        )
    }
}

extension HMIControlRoutes {
    /// The headless HMI's control API as the gateway mounts it with `serve --hmi`: at `/v1/hmi`,
    /// behind the gateway's auth and limits; paths take the gateway's names too (``GatewayNames``);
    /// the stream WebSocket on the gateway's WebSocket router, with the event streams' auth.
    static func gatewayRouteGroup(_ connection: HMIConnection) -> GatewayRouteGroup {
        GatewayRouteGroup(
            path: "v1/hmi", operations: operations,
            addRoutes: { group, apps in HMIControlRoutes(connection: connection, names: GatewayNames(apps)).add(to: group) },
            addWebSocketRoutes: { group, apps in HMIControlRoutes(connection: connection, names: GatewayNames(apps)).addWebSocket(to: group)
            }
        )
    }
}

extension GatewayNames {
    /// The names of the gateway's `apps`: their ids, and the ids they declared to the managers.
    init(_ apps: GatewayApps) {
        self.init(
            sdlAppID: { apps.sdlAppID(ofApp: $0) },
            apps: { apps.apps(withSDLAppID: $0) },
            declaredIDs: { apps.declaredIDs(ofApp: $0) }
        )
    }
}
