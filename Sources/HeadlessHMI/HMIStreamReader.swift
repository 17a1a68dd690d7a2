import NIOCore
import SDLTime
import SDLTransport

/// Reads one stream from SDL Core's socket consumer (`VideoStreamConsumer = socket`,
/// `VideoStreamingPort`; `AudioStreamConsumer`, `AudioStreamingPort`) into a ``HMIStreamRelay``.
///
/// What Core serves there (media_manager socket_streamer_adapter.cc, streamer_adapter.cc,
/// video/socket_video_streamer_adapter.cc; docs/protocol.md §n): when the app's first data arrives
/// Core binds `ServerAddress:port`, listens and accepts one client; it never reads from it; before
/// the first bytes it writes an HTTP response head (`HTTP/1.1 200 OK`, `Content-Type: video/mp4`,
/// audio too, ending in an empty line), then the payload of every data frame as it came, with no
/// framing; when the data stops for `VideoDataStoppedTimeout` (or the service ends) it closes the
/// client and the listener, and listens again when data comes back. Frames that arrive before a
/// client connects wait in Core's queue, so a client that connects late loses nothing.
///
/// The reader connects, retrying while Core's listener is not up yet, skips the response head and
/// relays the rest. It sends nothing: Core would not read it, and unread bytes make Core's close a
/// reset, which can cut off the last bytes of the stream.
public struct HMIStreamReader: Sendable {
    public let source: HMIStreamSource
    public let relay: HMIStreamRelay
    /// How often, and how far apart, a refused connection is tried again (Core's streamer thread
    /// binds its listener just after it sends `OnVideoDataStreaming`).
    public var attempts = 50
    public var retryInterval: Duration = .milliseconds(100)
    /// The longest response head skipped; a longer one is taken for stream bytes.
    static let maximumHeadSize = 8192

    public init(source: HMIStreamSource, relay: HMIStreamRelay) {
        self.source = source
        self.relay = relay
    }

    /// Connects and relays until Core closes the stream (or resets it) or `opened`'s channel is
    /// closed; throws when no connection could be made.
    public func run(clock: any SDLClock, opened: @Sendable (any Channel) -> Void) async throws {
        let channel = try await connect(clock: clock)
        opened(channel.channel)
        try await channel.executeThenClose { inbound, _ in
            var head = HeadSkipper()
            do {
                for try await bytes in inbound {
                    guard let body = head.body(after: bytes) else { continue }
                    relay.publish(appID: source.appID, kind: source.kind, body)
                }
            } catch {
                // A reset ends the stream as a close does: what came before it was relayed.
            }
        }
    }

    private func connect(clock: any SDLClock) async throws -> NIOAsyncChannel<ByteBuffer, ByteBuffer> {
        var attempt = 1
        while true {
            do {
                return try await SDLTransportClient.connect(
                    to: .tcp(host: source.host, port: source.port), configuration: .init(connectTimeout: .seconds(2)))
            } catch {
                guard attempt < attempts, !Task.isCancelled else { throw error }
                attempt += 1
                try await clock.sleep(for: TimeAmount(retryInterval))
            }
        }
    }

    /// Takes the HTTP response head off the start of the stream.
    struct HeadSkipper {
        private var pending = ByteBuffer()
        private var done = false

        /// The stream bytes in `bytes`: nil while the head is not complete.
        mutating func body(after bytes: ByteBuffer) -> ByteBuffer? {
            if done { return bytes }
            var bytes = bytes
            pending.writeBuffer(&bytes)
            let view = pending.readableBytesView
            let prefix = Array("HTTP/".utf8)
            // Not an HTTP head (another consumer, or a Core that sends none): all of it is stream.
            if !view.starts(with: prefix.prefix(min(prefix.count, view.count))) {
                done = true
                return pending
            }
            if let end = view.firstRange(of: Array("\r\n\r\n".utf8)) {
                done = true
                pending.moveReaderIndex(forwardBy: end.upperBound - view.startIndex)
                return pending.readableBytes > 0 ? pending : nil
            }
            if view.count > HMIStreamReader.maximumHeadSize {
                done = true
                return pending
            }
            return nil
        }
    }
}
