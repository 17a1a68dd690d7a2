import ArgumentParser
import NIOHTTP1
import SDLProtocol

/// `sdl-gateway call APP FUNCTION [key=value …]`: one request RPC of MOBILE_API.xml through a
/// running gateway's `POST /v1/apps/{id}/rpc/{Function}` (README "Command-line client"), its
/// parameters written as HTTPie writes a body (``RPCArguments``). The response is printed as JSON;
/// a refusal (the gateway's problem, RFC 9457) goes to standard error with exit status 1.
struct CallCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "call",
        abstract: "Send one RPC through a running sdl-gateway serve and print the head unit's response.",
        discussion: """
            Parameters: key=value (numbers and true/false become JSON numbers and booleans, anything \
            else a string), a.b=value (nested objects), key:=JSON (a raw JSON value, e.g. \
            choiceIDs:='[1,2]' or name:='"42"'). --json gives a whole object; key=value arguments go on top. \
            The response is pretty-printed on a terminal and one line of JSON otherwise. Exit status 0 \
            when the head unit answered success, 1 with the problem on standard error otherwise.
            """
    )

    @OptionGroup var connection: GatewayOptions

    @Argument(help: "The app's id (as it was created: POST /v1/apps, sdl-gateway apps create).")
    var app: String

    @Argument(help: "The request's function name as MOBILE_API.xml spells it (Show, Alert, GetVehicleData, …).")
    var function: String

    @Argument(help: "The parameters: key=value, a.b=value, key:=JSON.")
    var parameters: [String] = []

    @Option(help: "The parameters as a JSON object.")
    var json: String?

    @Option(help: "Milliseconds the gateway waits for the head unit's response (the route's ?timeout=).")
    var rpcTimeout: Int?

    func run() async throws {
        let client = try connection.client()
        let body: SDLJSON
        do throws(RPCArgumentError) {
            body = try RPCArguments.body(parameters, base: json)
        } catch {
            throw ValidationError(error.message)
        }
        let path = "/v1/apps/\(GatewayClient.segment(app))/rpc/\(GatewayClient.segment(function))"
        let answer = try await client.succeed(.POST, path, query: rpcTimeout.map { [("timeout", "\($0)")] } ?? [], json: body)
        if let response = answer.json { JSONOutput.write(response) }
    }
}
