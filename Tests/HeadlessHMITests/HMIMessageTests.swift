import HeadlessHMI
import SDLProtocol
import Testing

@Suite("HMI JSON-RPC messages (Core's HMI WebSocket)")
struct HMIMessageTests {
    static func parse(_ text: String) throws(HMIError) -> HMIMessage {
        try HMIMessage(parsing: Array(text.utf8))
    }

    @Test("The four shapes parse: request, notification, response (object or the broker's bare result), error with data.method")
    func shapes() throws {
        #expect(
            try Self.parse(#"{"jsonrpc":"2.0","id":7,"method":"UI.Show","params":{"appID":65537,"showStrings":[]}}"#)
                == .request(id: 7, method: "UI.Show", params: ["appID": 65537, "showStrings": []]))
        #expect(
            try Self.parse(#"{"jsonrpc":"2.0","method":"BasicCommunication.OnAppRegistered","params":{"application":{"appID":1}}}"#)
                == .notification(method: "BasicCommunication.OnAppRegistered", params: ["application": ["appID": 1]]))
        #expect(try Self.parse(#"{"jsonrpc":"2.0","id":3,"method":"UI.IsReady"}"#) == .request(id: 3, method: "UI.IsReady", params: [:]))
        let response = try Self.parse(#"{"jsonrpc":"2.0","id":1001,"result":{"code":0,"method":"SDL.ActivateApp","isSDLAllowed":true}}"#)
        #expect(response == .response(id: 1001, result: ["code": 0, "method": "SDL.ActivateApp", "isSDLAllowed": true]))
        #expect(response.method == "SDL.ActivateApp")
        #expect(try Self.parse(#"{"jsonrpc":"2.0","id":1,"result":1000}"#) == .response(id: 1, result: 1000))
        #expect(
            try Self.parse(#"{"jsonrpc":"2.0","id":2,"error":{"code":4,"message":"Rejected","data":{"method":"UI.Alert"}}}"#)
                == .error(id: 2, code: 4, message: "Rejected", method: "UI.Alert"))
    }

    @Test("Not JSON, not an object, params not an object, none of the shapes, too large: malformedMessage or messageTooLarge")
    func refused() {
        for text in [
            "{", "[1]", #"{"id":1,"method":"UI.Show","params":[1]}"#, #"{"jsonrpc":"2.0","id":1}"#, #"{"result":1}"#,
            #"{"id":1,"error":{"message":"x"}}"#,
        ] {
            #expect(throws: HMIError.self, "\(text)") { try Self.parse(text) }
        }
        let big = "{\"x\":\"" + String(repeating: "a", count: HMIMessage.maximumSize) + "\"}"
        #expect { try Self.parse(big) } throws: { ($0 as? HMIError)?.code == .messageTooLarge }
    }

    @Test("Answers: SUCCESS carries code 0 and the method beside the parameters; a failure is a JSON-RPC error with data.method")
    func answers() {
        #expect(
            HMIMessage.answer(id: 9, method: "UI.IsReady", params: ["available": true]).json.serialized()
                == #"{"id":9,"jsonrpc":"2.0","result":{"available":true,"code":0,"method":"UI.IsReady"}}"#)
        #expect(
            HMIMessage.answer(id: 10, method: "UI.Alert", code: .rejected).json.serialized()
                == #"{"error":{"code":4,"data":{"method":"UI.Alert"},"message":"REJECTED"},"id":10,"jsonrpc":"2.0"}"#)
        #expect(
            HMIMessage.notification(method: "BasicCommunication.OnReady", params: [:]).json.serialized()
                == #"{"jsonrpc":"2.0","method":"BasicCommunication.OnReady","params":{}}"#)
    }
}
