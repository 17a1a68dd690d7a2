import FuzzSupport
import NIOCore
import SDLProtocol

// Input: the payload of an RPC message, read three ways: as a v2+ payload (binary header, JSON,
// bulk data), as a v1 JSON wrapper, and as plain JSON.
//
// Checked: what decodes re-encodes (compact and pretty, as SDL Core writes it) to something that
// decodes to an equal value, and serializing is stable; what does not decode is an error with a
// code of its layer and an offset inside the input, and consumes nothing.
runLibFuzzer { data, count in
    let input = UnsafeBufferPointer(start: data, count: count)
    fuzzJSON(input)
    let buffer = ByteBuffer(bytes: input)
    fuzzRPC(buffer)
    fuzzRPCv1(buffer)
    return 0
}
