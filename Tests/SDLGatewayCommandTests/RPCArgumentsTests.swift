import SDLProtocol
import Testing

@testable import SDLGatewayCommand

/// `key=value` arguments of `sdl-gateway call` and `apps create` into an RPC's JSON body.
@Suite("RPC parameters from key=value arguments")
struct RPCArgumentsTests {
    static func body(_ arguments: [String], base: String? = nil) throws -> SDLJSON {
        try RPCArguments.body(arguments, base: base)
    }

    static func refusal(_ arguments: [String], base: String? = nil) -> RPCArgumentError? {
        do throws(RPCArgumentError) {
            _ = try RPCArguments.body(arguments, base: base)
            return nil
        } catch {
            return error
        }
    }

    @Test("Golden: numbers and true/false as JSON, everything else a string")
    func scalars() throws {
        let body = try Self.body([
            "mainField1=Hello world", "cmdID=1000", "ratio=0.5", "exp=-1.5e3", "isMediaApplication=true", "off=false",
            "zip=0123", "empty=", "word=null", "sign=+1", "dot=1.", "text=a=b", "TRUE=TRUE",
        ])
        #expect(
            body == [
                "mainField1": "Hello world", "cmdID": 1000, "ratio": 0.5, "exp": -1500.0, "isMediaApplication": true, "off": false,
                "zip": "0123", "empty": "", "word": "null", "sign": "+1", "dot": "1.", "text": "a=b", "TRUE": "TRUE",
            ])
        #expect(body.serialized().contains(#""cmdID":1000,"#))
    }

    @Test("Golden: a.b=value builds nested objects; key:=JSON is the raw value")
    func nestedAndRaw() throws {
        let body = try Self.body([
            "cmdID=1", "menuParams.menuName=Play", "menuParams.position=0", "menuParams.deep.er=x",
            "choiceIDs:=[1, 2]", "name:=\"42\"", "image:={\"value\":\"icon.png\",\"imageType\":\"DYNAMIC\"}", "nothing:=null",
        ])
        #expect(
            body == [
                "cmdID": 1, "menuParams": ["menuName": "Play", "position": 0, "deep": ["er": "x"]],
                "choiceIDs": [1, 2], "name": "42", "image": ["value": "icon.png", "imageType": "DYNAMIC"], "nothing": nil,
            ])
    }

    @Test("Golden: --json first, arguments on top of it (a member replaced, nested members kept)")
    func base() throws {
        let body = try Self.body(["a.b=5", "e=1", "d:=[true]"], base: #"{"a":{"b":1,"c":2},"d":"x"}"#)
        #expect(body == ["a": ["b": 5, "c": 2], "d": [true], "e": 1])
        #expect(try Self.body([]) == .emptyObject)
        #expect(try Self.body([], base: #"{"mainField1":"x"}"#) == ["mainField1": "x"])
    }

    @Test(
        "Refused with a stable code and what is wrong",
        arguments: [
            (["a:=[1,"], nil, RPCArgumentError.Code.invalidJSON, "'a:=' is not valid JSON at line 1"),
            (["a:="], nil, .invalidJSON, "'a:=' is not valid JSON"),
            (["a=1", "a.b=2"], nil, .conflict, "'a' and 'a.b' conflict"),
            (["a.b=2", "a=1"], nil, .conflict, "'a.b' and 'a' conflict"),
            (["a:={}", "a.b=2"], nil, .conflict, "conflict"),
            (["a=1", "a=2"], nil, .duplicate, "'a' is given twice"),
            (["mainField1"], nil, .missingSeparator, "'mainField1' is not key=value or key:=JSON"),
            (["=x"], nil, .emptyKey, "has no key before '='"),
            ([":=1"], nil, .emptyKey, "has no key before ':='"),
            (["a..b=1"], nil, .emptyPathSegment, "'a..b' has an empty name between dots"),
            (["a.=1"], nil, .emptyPathSegment, "empty name"),
            ([], "[1]", .notAnObject, "--json is a JSON array, not an object"),
            ([], "{", .invalidJSON, "--json is not valid JSON at line 1"),
            (["a.b=2"], #"{"a":1}"#, .conflict, "'a' is a JSON integer in --json, so it has no member 'b'"),
        ] as [([String], String?, RPCArgumentError.Code, String)]
    )
    func refused(arguments: [String], base: String?, code: RPCArgumentError.Code, message: String) throws {
        let error = try #require(Self.refusal(arguments, base: base))
        #expect(error.code == code)
        #expect(error.message.contains(message), "\(error.message)")
    }

    @Test("JSON's number grammar decides what is a number")
    func numberGrammar() {
        for number in ["0", "-0", "7", "-12", "3.25", "1e9", "1E-2", "2.5e+3"] { #expect(RPCArguments.isJSONNumber(number), "\(number)") }
        for text in ["", "-", "01", "1.", ".5", "1e", "+1", "0x10", "1_000", " 1", "NaN", "Infinity", "١"] {
            #expect(!RPCArguments.isJSONNumber(text), "\(text)")
        }
    }
}
