import HTTPAPISupport
import Hummingbird

/// A JSON control API (the simulator's, the headless HMI's): its operations as `openapi.yaml`
/// would write them, and its routes, which it can add to any router or group.
public protocol ControlRoutes: Sendable {
    static var operations: [APIOperation] { get }
    func add<Context: RequestContext>(to router: some RouterMethods<Context>)
}

extension ControlRoutes {
    /// The standalone control API: the routes at `/`, with every refusal (an unknown path too)
    /// a problem+json answer. It has no tokens, so pages of other origins are refused and, unless
    /// it listens beyond loopback (`--insecure`), any Host but a loopback name
    /// (``BrowserOriginRule``). Every GET route answers HEAD too, as GET without the body.
    public func makeRouter(loopbackHostsOnly: Bool = true) -> Router<BasicRequestContext> {
        let router = Router(options: .autoGenerateHeadEndpoints)
        router.add(middleware: ProblemMiddleware(operations: Self.operations.map { $0.mounted(at: "/") }))
        router.add(middleware: BrowserOriginMiddleware(rule: BrowserOriginRule(loopbackHostsOnly: loopbackHostsOnly)))
        add(to: router)
        return router
    }
}
