import HTTPTypes

/// The WebSocket subprotocol of the gateway's pages (`sdl-gateway.v1`), which a browser offers
/// beside `bearer.<token>` to carry its token (README "Tokens and browsers"). Every WebSocket of
/// the gateway and of the control APIs selects it when offered: a browser fails a connection whose
/// offered subprotocols were all ignored. The `bearer.` one is never selected, so never echoed.
public enum WebSocketSubprotocol {
    public static let name = "sdl-gateway.v1"

    /// The 101's extra headers for a request that offered `offered` (its `Sec-WebSocket-Protocol` values).
    public static func upgradeHeaders(offered: [String]) -> HTTPFields {
        let protocols = offered.flatMap { $0.split(separator: ",") }.map { String($0.filter { !$0.isWhitespace }) }
        return protocols.contains(name) ? [.secWebSocketProtocol: name] : [:]
    }
}
