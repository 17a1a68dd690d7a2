import Metrics
import SDLClient

/// The gateway's metrics of its apps (`GET /metrics`, README "Deployment"): events published,
/// delivered, dropped and lost, and sessions by connection state.
enum GatewayMetrics {
    /// One event of `type` published on the hub: to how many clients it went, how many dropped
    /// it (their queue was full), and `lost` events the session dropped before it (``SDLAppSession/Event/lost(count:)``).
    static func published(type: String, delivered: Int, dropped: Int, lost: Int) {
        Counter(label: "sdl_gateway_events_published_total", dimensions: [("type", type)]).increment()
        if delivered > 0 { Counter(label: "sdl_gateway_events_delivered_total").increment(by: delivered) }
        if dropped > 0 { Counter(label: "sdl_gateway_events_dropped_total").increment(by: dropped) }
        if lost > 0 { Counter(label: "sdl_gateway_events_lost_total").increment(by: lost) }
    }

    /// The sessions by connection state (every state, zero when none is in it).
    static func sessions(_ states: [SDLAppSession.ConnectionState]) {
        var counts: [SDLAppSession.ConnectionState: Int] = [.connecting: 0, .registered: 0, .reconnecting: 0, .closed: 0]
        for state in states { counts[state, default: 0] += 1 }
        for (connectionState, count) in counts {
            Gauge(label: "sdl_gateway_sessions", dimensions: [("state", connectionState.rawValue)]).record(count)
        }
    }
}
