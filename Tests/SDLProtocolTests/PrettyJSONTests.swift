import NIOCore
import SDLProtocol
import Testing

@Suite("Pretty-printed JSON, as SDL Core sends it")
struct PrettyJSONTests {
    @Test("Objects and non-empty arrays on their own lines, tabs, \"key\" : value, keys sorted; empty ones and scalars inline")
    func golden() {
        let value: SDLJSON = ["success": true, "resultCode": "SUCCESS", "list": [1, "a"], "empty": [], "none": [:], "nested": ["x": 1.5]]
        let text = String(decoding: value.prettySerializedBytes(), as: UTF8.self)
        #expect(
            text
                == "{\n\t\"empty\" : [],\n\t\"list\" : [\n\t\t1,\n\t\t\"a\"\n\t],\n\t\"nested\" : {\n\t\t\"x\" : 1.5\n\t},\n\t\"none\" : {},\n\t\"resultCode\" : \"SUCCESS\",\n\t\"success\" : true\n}\n"
        )
    }

    @Test("Parsing the pretty text gives back the same value")
    func roundTrip() throws {
        let value: SDLJSON = ["a": [["b": [1, 2, ["c": "d\n\"e\""]]]], "f": nil, "g": -3]
        #expect(try SDLJSON.parse(value.prettySerializedBytes()) == value)
    }

    @Test("An RPC written with prettyJSON reads back the same; the JSON size field counts the pretty bytes")
    func rpc() throws {
        let message = SDLRPCMessage(
            rpcType: .response, functionID: 1, correlationID: 7, parameters: ["success": true, "resultCode": "SUCCESS"])
        var buffer = ByteBuffer()
        buffer.writeSDLRPCMessage(message, prettyJSON: true)
        #expect(buffer.getInteger(at: 8, as: UInt32.self) == UInt32(message.parameters.prettySerializedBytes().count))
        #expect(try buffer.readSDLRPCMessage() == message)
    }
}
