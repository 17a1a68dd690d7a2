import NIOCore
import SDLClient
import SDLProtocol
import Synchronization
import TestSupport

/// A TCP proxy in front of the simulated head unit that plays the video and audio services
/// itself, as Core 8.2 answers them on the wire (docs/protocol.md §o): StartService gets the
/// configured answer (an ACK echoing the video parameters with an `mtu`, a NAK, or nothing),
/// EndService gets EndServiceACK, and every data frame's header and payload are kept, in wire
/// order. Everything else goes to the simulator and back unchanged. It can stop reading the app
/// (a slow head-unit link) and send the app frames of its own (EndService from the head unit).
final class StreamingHeadUnit: Sendable {
    enum StartAnswer: Sendable {
        case ack(mtu: Int64)
        case nak(reason: String, rejectedParams: [String])
        case none
    }

    private struct State {
        var answer: StartAnswer
        var payloads: [SDLStreamingService: ByteBuffer] = [:]
        var dataHeaders: [SDLStreamingService: [SDLFrameHeader]] = [:]
        var controls: [SDLStreamingService: [SDLControlMessage]] = [:]
        var client: (any Channel)?
        var watchers: [(condition: @Sendable (State) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []
        var nextMessageID: UInt32 = 1000
    }

    private let state: Mutex<State>
    private let reading = ReadPause()

    init(answer: StartAnswer = .ack(mtu: 1000)) {
        state = Mutex(State(answer: answer))
    }

    /// The payload bytes of the data frames received on `service`, in order.
    func payload(_ service: SDLStreamingService) -> ByteBuffer { state.withLock { $0.payloads[service] ?? ByteBuffer() } }
    /// The headers of the data frames received on `service`, in order.
    func dataHeaders(_ service: SDLStreamingService) -> [SDLFrameHeader] { state.withLock { $0.dataHeaders[service] ?? [] } }
    /// The control messages received on `service`, in order.
    func controls(_ service: SDLStreamingService) -> [SDLControlMessage] { state.withLock { $0.controls[service] ?? [] } }

    /// Stops reading the app's bytes (they pile up in the kernel, then in the app's channel).
    func pause() { reading.pause() }

    /// Reads the app's bytes again.
    func resume() { reading.resume() }

    /// Returns once `count` payload bytes arrived on `service`.
    func waitForPayload(_ service: SDLStreamingService, count: Int) async {
        await waitUntil { ($0.payloads[service]?.readableBytes ?? 0) >= count }
    }

    /// Returns once `count` control messages arrived on `service`.
    func waitForControls(_ service: SDLStreamingService, count: Int) async {
        await waitUntil { ($0.controls[service]?.count ?? 0) >= count }
    }

    private func waitUntil(_ condition: @escaping @Sendable (State) -> Bool) async {
        await withCheckedContinuation { continuation in
            state.withLock { state in
                if condition(state) { continuation.resume() } else { state.watchers.append((condition, continuation)) }
            }
        }
    }

    /// Sends the app a control message on `service` (session 1, v5), as Core does.
    func send(_ message: SDLControlMessage, on service: SDLStreamingService) {
        state.withLock { state in
            let frame = message.makeFrame(version: 5, serviceType: service.serviceType, sessionID: 1, messageID: state.nextMessageID)
            state.nextMessageID += 1
            write(frame, to: state.client)
        }
    }

    /// Closes the app's connection (the link is lost), and stops pausing so the proxy's reader ends.
    func dropClient() {
        state.withLock { $0.client?.close(promise: nil) }
        resume()
    }

    /// Listens on 127.0.0.1 (port 0) until cancelled, forwarding to the simulator on
    /// `upstreamPort` what it does not answer itself (a ``WireTap`` with hooks); `onListening` gets the port.
    func run(upstreamPort: Int, onListening: @Sendable (Int) -> Void) async throws {
        let hooks = WireTap.Hooks(
            connected: { channel in self.state.withLock { $0.client = channel } },
            beforeRead: { await self.reading.waitWhilePaused() },
            intercept: { frame in
                guard let service = SDLStreamingService(serviceType: frame.header.serviceType) else { return false }
                self.handle(frame, on: service)
                return true
            }
        )
        try await WireTap(hooks: hooks).run(upstreamPort: upstreamPort, onListening: onListening)
    }

    private func handle(_ frame: SDLFrame, on service: SDLStreamingService) {
        let header = frame.header
        state.withLock { state in
            defer {
                let snapshot = state
                state.watchers.removeAll { watcher in
                    guard watcher.condition(snapshot) else { return false }
                    watcher.continuation.resume()
                    return true
                }
            }
            guard header.frameType == .control else {
                state.dataHeaders[service, default: []].append(header)
                state.payloads[service, default: ByteBuffer()].writeImmutableBuffer(frame.payload)
                return
            }
            guard let message = try? SDLControlMessage(frame: frame) else { return }
            state.controls[service, default: []].append(message)
            let reply: SDLControlMessage?
            switch (message, state.answer) {
            case (.startService(let asked), .ack(let mtu)):
                reply = .startServiceACK(
                    .init(
                        mtu: mtu, height: asked.height, width: asked.width, videoProtocol: asked.videoProtocol, videoCodec: asked.videoCodec
                    ))
            case (.startService, .nak(let reason, let rejected)):
                reply = .startServiceNAK(.init(rejectedParams: rejected, reason: reason))
            case (.startService, .none):
                reply = nil
            case (.endService, _):
                reply = .endServiceACK
            default:
                reply = nil
            }
            guard let reply else { return }
            let answer = reply.makeFrame(
                version: header.version, serviceType: header.serviceType, sessionID: header.sessionID, messageID: state.nextMessageID)
            state.nextMessageID += 1
            write(answer, to: state.client)
        }
    }

    private func write(_ frame: SDLFrame, to channel: (any Channel)?) {
        var bytes = ByteBuffer()
        bytes.writeSDLFrame(frame)
        channel?.writeAndFlush(bytes, promise: nil)
    }
}
