import FuzzSupport
import NIOCore
import SDLProtocol

let bsonCodes: Set<SDLProtocolError.Code> = [
    .bsonTruncated, .bsonInvalidLength, .bsonUnsupportedType, .bsonInvalidString, .bsonInvalidValue, .bsonNestingTooDeep,
]

func fuzzBSON(_ input: ByteBuffer) {
    var buffer = input
    let document: BSONDocument
    do {
        document = try buffer.readBSONDocument()
    } catch {
        check(buffer == input, "a failed BSON read consumed bytes")
        check(bsonCodes.contains(error.code), "a BSON read failed with \(error)")
        check(error.offset.map { $0 >= 0 && $0 <= input.readableBytes } ?? false, "error offset outside the input: \(error)")
        return
    }
    let consumed = input.readableBytes - buffer.readableBytes
    check(
        consumed >= 5 && Int(input.getInteger(at: input.readerIndex, endianness: .little, as: Int32.self)!) == consumed,
        "the read consumed \(consumed) bytes, not the document's length")
    let original = input.getSlice(at: input.readerIndex, length: consumed)!
    var encoded = ByteBuffer()
    let written = encoded.writeBSONDocument(document)
    check(written == encoded.readableBytes, "writeBSONDocument returned \(written) for \(encoded.readableBytes) bytes")
    check(encoded == original, "BSON does not re-encode byte for byte")
    var again = encoded
    check((try? again.readBSONDocument()) != nil && again.readableBytes == 0, "the re-encoded document does not decode")
    let json = document.json
    check((try? SDLJSON.parse(json.serializedBytes())) != nil, "the JSON form of a BSON document does not parse")
}
