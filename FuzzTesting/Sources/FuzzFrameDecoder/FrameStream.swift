import FuzzSupport
import NIOCore
import SDLProtocol

/// One pass of a connection's inbound side over a byte stream: frame decoder, control frames,
/// message assembler. What it saw is compared between two ways of delivering the same bytes.
struct FrameStream: Equatable, CustomStringConvertible {
    /// Frames decoded, in order.
    var frames: [SDLFrame] = []
    /// Messages the assembler completed, in order.
    var messages: [SDLMessage] = []
    /// Error codes of the assembler, in order.
    var assemblyErrors: [SDLProtocolError.Code] = []
    /// The decoder's error that ended the stream, if any.
    var decodeError: SDLProtocolError?
    /// Bytes not decoded: after an error, everything from the bad frame on; otherwise the
    /// beginning of a frame that never completed.
    var leftover = 0

    var description: String {
        "\(frames.count) frames, \(messages.count) messages, assembly errors \(assemblyErrors), "
            + "decode error \(decodeError.map(String.init(describing:)) ?? "none"), \(leftover) bytes left"
    }

    static let assemblyLimits = SDLMessageAssembler.Configuration(
        maximumMessageSize: 1 << 16, maximumConcurrentMessages: 4, maximumBufferedBytes: 1 << 15, timeout: .seconds(10)
    )

    /// Payload limits from 8 (the least that carries a First Frame) to SDL Core's 131072.
    static func initialPayloadLimit(selector: UInt8) -> Int {
        let limits = [8, 9, 16, 64, 100, 1000, 1488, 4096, 131_072]
        return limits[Int(selector) % limits.count]
    }

    /// Decodes `stream`, handing the decoder all of it at once (`readSize` nil) or `readSize`
    /// bytes more per read, as a socket would.
    static func run(_ stream: ByteBuffer, payloadLimit: Int, readSize: Int?) -> FrameStream {
        var result = FrameStream()
        var decoder = SDLFrameDecoder(maximumPayloadSize: payloadLimit)
        var assembler = SDLMessageAssembler(configuration: assemblyLimits)
        var now = NIODeadline.uptimeNanoseconds(0)
        var remaining = stream
        var received = ByteBuffer()
        while true {
            if let readSize {
                guard var piece = remaining.readSlice(length: min(readSize, remaining.readableBytes)) else { break }
                received.writeBuffer(&piece)
            } else {
                received.writeBuffer(&remaining)
            }
            while true {
                let before = received
                let frame: SDLFrame?
                do {
                    frame = try decoder.decode(buffer: &received)
                } catch {
                    check(received == before, "the decoder consumed bytes before throwing \(error)")
                    result.decodeError = error
                    result.leftover = received.readableBytes + remaining.readableBytes
                    return result
                }
                guard let frame else {
                    check(received == before, "the decoder consumed bytes without returning a frame")
                    break
                }
                let consumed = before.getSlice(at: before.readerIndex, length: before.readableBytes - received.readableBytes)!
                checkFrame(frame, bytes: consumed, limit: decoder.maximumPayloadSize)
                result.frames.append(frame)
                now = now + .milliseconds(100)
                assembler.expire(now: now)
                if frame.header.frameType == .control {
                    if let mtu = checkControlFrame(frame) { decoder.maximumPayloadSize = mtu }
                    continue
                }
                do {
                    if let message = try assembler.process(frame, now: now) {
                        checkMessage(message, mtu: decoder.maximumPayloadSize)
                        result.messages.append(message)
                    }
                } catch {
                    result.assemblyErrors.append(error.code)
                }
                check(
                    assembler.bufferedBytes >= 0 && assembler.bufferedBytes <= assemblyLimits.maximumBufferedBytes,
                    "the assembler buffers \(assembler.bufferedBytes) bytes")
                check(
                    assembler.activeCount <= assemblyLimits.maximumConcurrentMessages,
                    "the assembler holds \(assembler.activeCount) messages")
            }
            if readSize == nil || remaining.readableBytes == 0 { break }
        }
        result.leftover = received.readableBytes
        assembler.expire(now: now + .hours(1))
        check(
            assembler.activeCount == 0 && assembler.bufferedBytes == 0,
            "after expiry the assembler still holds \(assembler.activeCount) messages, \(assembler.bufferedBytes) bytes")
        return result
    }

    /// A frame re-encodes to the bytes it came from and respects the payload limit.
    static func checkFrame(_ frame: SDLFrame, bytes: ByteBuffer, limit: Int) {
        if frame.header.frameType == .first {
            check(frame.payload.readableBytes == 8, "a First Frame with \(frame.payload.readableBytes) payload bytes")
        } else {
            check(frame.payload.readableBytes <= limit, "a \(frame.payload.readableBytes)-byte payload passed the limit \(limit)")
        }
        check(Int(frame.header.dataSize) == frame.payload.readableBytes, "dataSize disagrees with the payload")
        var encoded = ByteBuffer()
        encoded.writeSDLFrame(frame)
        check(
            encoded == bytes,
            "frame does not re-encode to its bytes: \(bytes.readableBytesView.map { $0 }) -> \(encoded.readableBytesView.map { $0 })")
    }

    /// A control frame that decodes re-encodes to an equal message; returns the new payload
    /// limit when it is a StartServiceACK with a usable mtu, as a client takes it.
    static func checkControlFrame(_ frame: SDLFrame) -> Int? {
        guard let message = try? SDLControlMessage(frame: frame) else { return nil }
        let header = frame.header
        let encoded = message.makeFrame(
            version: header.version, serviceType: header.serviceType, sessionID: header.sessionID, messageID: header.messageID)
        check((try? SDLControlMessage(frame: encoded)) == message, "control frame \(message) does not round-trip")
        if case .startServiceACK(let ack) = message, let mtu = ack.mtu, (8...131_072).contains(mtu) {
            return Int(mtu)
        }
        return nil
    }

    /// A complete message, cut into frames at `mtu` and reassembled by a fresh assembler, is itself.
    static func checkMessage(_ message: SDLMessage, mtu: Int) {
        var assembler = SDLMessageAssembler()
        var rebuilt: SDLMessage?
        let now = NIODeadline.uptimeNanoseconds(0)
        for frame in SDLMessageFragmenter(message: message, maximumPayloadSize: mtu) {
            check(rebuilt == nil, "frames after the message was complete")
            do {
                rebuilt = try assembler.process(frame, now: now)
            } catch {
                fatalError("a fragmented message does not reassemble: \(error)")
            }
        }
        check(rebuilt == message, "a message does not survive fragmenting at \(mtu) and reassembly")
        check(assembler.bufferedBytes == 0 && assembler.activeCount == 0, "reassembly left bytes buffered")
    }
}
