import FuzzSupport
import NIOCore
import SDLProtocol

let rpcCodes: Set<SDLProtocolError.Code> = [.rpcHeaderTruncated, .unknownRPCType, .rpcJSONSizeMismatch, .invalidRPCMessage]

/// A v2+ RPC payload: decode; re-encode compact and pretty; both decode to an equal message.
func fuzzRPC(_ input: ByteBuffer) {
    var buffer = input
    let message: SDLRPCMessage
    do {
        message = try buffer.readSDLRPCMessage()
    } catch {
        check(buffer == input, "a failed RPC read consumed bytes")
        check(rpcCodes.contains(error.code) || jsonCodes.contains(error.code), "RPC read failed with \(error)")
        check(error.offset.map { $0 >= 0 && $0 <= input.readableBytes } ?? false, "error offset outside the input: \(error)")
        return
    }
    check(buffer.readableBytes == 0, "an RPC read left \(buffer.readableBytes) bytes")
    check(message.functionID <= SDLRPCMessage.maximumFunctionID, "function id above 28 bits")
    check(message.bulkData.map { $0.readableBytes > 0 } ?? true, "empty bulk data is not nil")
    for pretty in [false, true] {
        var encoded = ByteBuffer()
        let written = encoded.writeSDLRPCMessage(message, prettyJSON: pretty)
        check(written == encoded.readableBytes, "writeSDLRPCMessage returned \(written) for \(encoded.readableBytes) bytes")
        check((try? encoded.readSDLRPCMessage()) == message, "RPC does not round-trip (pretty: \(pretty))")
    }
}

/// A v1 RPC (JSON wrapper): decode; re-encode; decode to an equal message.
func fuzzRPCv1(_ input: ByteBuffer) {
    var buffer = input
    let message: SDLRPCMessageV1
    do {
        message = try buffer.readSDLRPCMessageV1()
    } catch {
        check(buffer == input, "a failed v1 RPC read consumed bytes")
        check(rpcCodes.contains(error.code) || jsonCodes.contains(error.code), "v1 RPC read failed with \(error)")
        return
    }
    check(buffer.readableBytes == 0, "a v1 RPC read left \(buffer.readableBytes) bytes")
    var encoded = ByteBuffer()
    encoded.writeSDLRPCMessageV1(message)
    check((try? encoded.readSDLRPCMessageV1()) == message, "v1 RPC does not round-trip")
}
