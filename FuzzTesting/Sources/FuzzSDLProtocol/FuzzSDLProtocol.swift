import NIOCore
import SDLProtocol

/// The fuzz test: every decoder of SDLProtocol must turn any bytes into values or errors,
/// never a crash, a hang or unbounded memory; and what decodes must re-encode to the same value.
func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = ByteBuffer(bytes: UnsafeBufferPointer(start: start, count: count))
    fuzzFrameStream(bytes)
    fuzzBSON(bytes)
    fuzzRPC(bytes)
    return 0
}

/// The frame decoder, reassembly, control frames and RPC payloads, as a connection sees them.
func fuzzFrameStream(_ input: ByteBuffer) {
    var stream = input
    var decoder = SDLFrameDecoder(maximumPayloadSize: 4096)
    var assembler = SDLMessageAssembler(
        configuration: .init(maximumMessageSize: 1 << 16, maximumConcurrentMessages: 4, maximumBufferedBytes: 1 << 16)
    )
    let now = NIODeadline.uptimeNanoseconds(0)
    while true {
        let frame: SDLFrame
        do {
            guard let next = try decoder.decode(buffer: &stream) else { return }
            frame = next
        } catch {
            return
        }
        var reencoded = ByteBuffer()
        reencoded.writeSDLFrame(frame)
        var again = SDLFrameDecoder(maximumPayloadSize: 4096)
        precondition((try? again.decode(buffer: &reencoded)) == frame, "frame does not round-trip")
        if frame.header.frameType == .control {
            fuzzControlFrame(frame)
            continue
        }
        if let message = try? assembler.process(frame, now: now) {
            var payload = message.payload
            if message.version == 1 {
                _ = try? payload.readSDLRPCMessageV1()
            } else {
                checkRPCRoundTrip(&payload)
            }
        }
    }
}

func fuzzBSON(_ input: ByteBuffer) {
    var buffer = input
    guard let document = try? buffer.readBSONDocument() else { return }
    // Byte-exact, so that a NaN (never equal to itself) still has to round-trip.
    let original = input.getSlice(at: input.readerIndex, length: buffer.readerIndex - input.readerIndex)
    var encoded = ByteBuffer()
    encoded.writeBSONDocument(document)
    precondition(encoded == original, "BSON does not round-trip")
}

func fuzzRPC(_ input: ByteBuffer) {
    var buffer = input
    checkRPCRoundTrip(&buffer)
    var v1 = input
    if let message = try? v1.readSDLRPCMessageV1() {
        var encoded = ByteBuffer()
        encoded.writeSDLRPCMessageV1(message)
        precondition((try? encoded.readSDLRPCMessageV1()) == message, "v1 RPC does not round-trip")
    }
}

func checkRPCRoundTrip(_ buffer: inout ByteBuffer) {
    guard let message = try? buffer.readSDLRPCMessage() else { return }
    var encoded = ByteBuffer()
    encoded.writeSDLRPCMessage(message)
    precondition((try? encoded.readSDLRPCMessage()) == message, "RPC does not round-trip")
}

func fuzzControlFrame(_ frame: SDLFrame) {
    guard let message = try? SDLControlMessage(frame: frame) else { return }
    let header = frame.header
    let encoded = message.makeFrame(version: header.version, serviceType: header.serviceType, sessionID: header.sessionID, messageID: header.messageID)
    precondition((try? SDLControlMessage(frame: encoded)) == message, "control frame does not round-trip")
}
