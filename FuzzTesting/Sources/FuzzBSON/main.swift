import FuzzSupport
import NIOCore
import SDLProtocol

// Input: bytes that may start with a BSON document (as the payload of a v5 control frame).
//
// Checked: a document that decodes re-encodes to exactly the bytes it was read from (byte for
// byte, so a NaN must survive too), the re-encoding decodes again, and its JSON display form
// serializes to JSON that parses; an input that does not decode is a BSON error with an offset
// inside the input, and nothing is consumed.
runLibFuzzer { data, count in
    fuzzBSON(ByteBuffer(bytes: UnsafeBufferPointer(start: data, count: count)))
    return 0
}
