import NIOCore
import NIOPosix
import ProcessHarness

/// One `fanout` client, as cheap as a WebSocket client can be: a channel handler on the harness's
/// event loop that upgrades (RFC 6455 §4.1), reads the server's unmasked frames (§5.2), answers
/// pings with masked pongs, and notes each `odometer` value with the time it arrived. No task,
/// actor or string per message: the harness reads 50,000 messages a second on the two cores it
/// shares with the gateway, and every microsecond it spends there is one the gateway lacks.
final class FanOutReceiver: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let host: String
    private let path: String
    private let firstValue: Int
    private let stopValue: Int
    /// The upgrade was answered with 101.
    let upgraded: EventLoopPromise<Void>
    /// A value from before `firstValue` arrived: the subscription is live.
    let primed: EventLoopPromise<Void>
    /// `stopValue` arrived: everything before it did.
    let finished: EventLoopPromise<Void>
    /// Each measured value and when it arrived.
    private(set) var receipts: [(Int, ContinuousClock.Instant)] = []

    private var input = ByteBuffer()
    private var isUpgraded = false
    private var isPrimed = false
    private var isFinished = false

    init(host: String, path: String, firstValue: Int, stopValue: Int, eventLoop: any EventLoop) {
        self.host = host
        self.path = path
        self.firstValue = firstValue
        self.stopValue = stopValue
        self.upgraded = eventLoop.makePromise()
        self.primed = eventLoop.makePromise()
        self.finished = eventLoop.makePromise()
        receipts.reserveCapacity(max(0, stopValue - firstValue) + 8)
    }

    /// A connected client: its channel, its handler, and the handler's three milestones.
    struct Connection: Sendable {
        let channel: any Channel
        let receiver: NIOLoopBound<FanOutReceiver>
        let upgraded: EventLoopFuture<Void>
        let primed: EventLoopFuture<Void>
        let finished: EventLoopFuture<Void>
    }

    /// Connects to `host:port` and upgrades `path`; the handler is the channel's only one.
    static func connect(
        host: String, port: Int, path: String, firstValue: Int, stopValue: Int, group: any EventLoopGroup
    ) async throws -> Connection {
        let channel = try await ClientBootstrap(group: group)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let receiver = FanOutReceiver(
                        host: host, path: path, firstValue: firstValue, stopValue: stopValue, eventLoop: channel.eventLoop)
                    try channel.pipeline.syncOperations.addHandler(receiver)
                }
            }
            .connect(host: host, port: port).get()
        return try await channel.eventLoop.submit {
            let receiver = try channel.pipeline.syncOperations.handler(type: FanOutReceiver.self)
            return Connection(
                channel: channel, receiver: NIOLoopBound(receiver, eventLoop: channel.eventLoop), upgraded: receiver.upgraded.futureResult,
                primed: receiver.primed.futureResult, finished: receiver.finished.futureResult
            )
        }.get()
    }

    func channelActive(context: ChannelHandlerContext) {
        var request = ByteBuffer()
        request.writeString(
            "GET \(path) HTTP/1.1\r\nHost: \(host)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: c2RsLWdhdGV3YXktYmVuY2g=\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        context.writeAndFlush(wrapOutboundOut(request), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        input.writeBuffer(&bytes)
        if !isUpgraded {
            guard let end = input.readableBytesView.firstRange(of: Array("\r\n\r\n".utf8)) else { return }
            let head = input.readString(length: end.upperBound - input.readerIndex) ?? ""
            guard head.hasPrefix("HTTP/1.1 101") else {
                fail(context, BenchFailure(description: "the upgrade was answered \(head.prefix(while: { $0 != "\r" }))"))
                return
            }
            isUpgraded = true
            upgraded.succeed()
        }
        while let (opcode, payload) = nextFrame() {
            switch opcode {
            case 0x1: received(payload)
            case 0x9: pong(context, payload)
            case 0x8: context.close(promise: nil)
            default: break
            }
        }
        input.discardReadBytes()
    }

    /// The next whole frame in `input`: its opcode and payload (a server's frames are unmasked).
    private func nextFrame() -> (UInt8, ByteBuffer)? {
        let start = input.readerIndex
        guard let first = input.getInteger(at: start, as: UInt8.self), let second = input.getInteger(at: start + 1, as: UInt8.self) else {
            return nil
        }
        var headerLength = 2
        var length = Int(second & 0x7F)
        if length == 126 {
            guard let extended = input.getInteger(at: start + 2, as: UInt16.self) else { return nil }
            length = Int(extended)
            headerLength = 4
        } else if length == 127 {
            guard let extended = input.getInteger(at: start + 2, as: UInt64.self) else { return nil }
            length = Int(extended)
            headerLength = 10
        }
        guard input.readableBytes >= headerLength + length else { return nil }
        input.moveReaderIndex(forwardBy: headerLength)
        guard let payload = input.readSlice(length: length) else { return nil }
        return (first & 0x0F, payload)
    }

    private static let key = Array("\"odometer\":".utf8)

    private func received(_ payload: ByteBuffer) {
        let now = ContinuousClock.now
        guard let value = Self.odometer(payload) else { return }
        if value < firstValue {
            if !isPrimed {
                isPrimed = true
                primed.succeed()
            }
        } else if value >= stopValue {
            if !isFinished {
                isFinished = true
                finished.succeed()
            }
        } else if !isFinished {
            receipts.append((value, now))
        }
    }

    /// The `odometer` of a `vehicleData` event (`…"odometer":123…`), without parsing the envelope.
    static func odometer(_ payload: ByteBuffer) -> Int? {
        payload.withUnsafeReadableBytes { bytes -> Int? in
            let key = Self.key
            var start = 0
            while start + key.count <= bytes.count {
                if bytes[start] == key[0], (1..<key.count).allSatisfy({ bytes[start + $0] == key[$0] }) {
                    var value = 0
                    var index = start + key.count
                    while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                        value = value * 10 + Int(bytes[index] - 0x30)
                        index += 1
                    }
                    return index > start + key.count ? value : nil
                }
                start += 1
            }
            return nil
        }
    }

    /// A pong for a ping, masked as a client's frames are (§5.3); the mask may be fixed here.
    private func pong(_ context: ChannelHandlerContext, _ payload: ByteBuffer) {
        let mask: [UInt8] = [0x5A, 0x3C, 0x96, 0x0F]
        var frame = ByteBuffer()
        frame.writeInteger(UInt8(0x8A))
        frame.writeInteger(UInt8(0x80 | payload.readableBytes))  // control frames carry at most 125 bytes
        frame.writeBytes(mask)
        for (index, byte) in payload.readableBytesView.enumerated() { frame.writeInteger(byte ^ mask[index % 4]) }
        context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
    }

    private func fail(_ context: ChannelHandlerContext, _ error: any Error) {
        upgraded.fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        let closed = BenchFailure(description: "the gateway closed the connection")
        upgraded.fail(closed)
        primed.fail(closed)
        finished.fail(closed)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
