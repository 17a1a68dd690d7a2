import NIOCore

extension SDLTransportClient {
    /// Whether a head unit at `address` takes an app connection (docs/protocol.md §e "Ports and
    /// transports"): connects as ``connect(to:configuration:)`` does — for ws and wss the TLS
    /// handshake and the WebSocket upgrade too, not only the TCP port — then closes without
    /// sending an SDL frame. Throws what ``connect(to:configuration:)`` throws; each step keeps
    /// to ``Configuration/connectTimeout``.
    public static func probe(_ address: SDLTransportAddress, configuration: Configuration = Configuration()) async throws {
        let channel = try await connect(to: address, configuration: configuration)
        try? await channel.channel.close()
    }
}
