import ArgumentParser
import NIOHTTP1
import SDLProtocol

/// `sdl-gateway apps`: the gateway's app sessions from a shell: list them (`GET /v1/apps`),
/// create one (`POST /v1/apps`: RegisterAppInterface, MOBILE_API.xml, with the spec's defaults
/// filled in), delete one (`DELETE /v1/apps/{id}`: UnregisterAppInterface).
struct AppsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apps",
        abstract: "List, create and delete the app sessions of a running sdl-gateway serve.",
        subcommands: [List.self, Create.self, Delete.self],
        defaultSubcommand: List.self
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the gateway's apps (GET /v1/apps).")

        @OptionGroup var connection: GatewayOptions

        func run() async throws {
            let answer = try await connection.client().succeed(.GET, "/v1/apps")
            if let apps = answer.json { JSONOutput.write(apps) }
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register an app with the head unit (POST /v1/apps) and print it.",
            discussion: """
                Further RegisterAppInterface parameters as in sdl-gateway call: key=value, a.b=value, \
                key:=JSON or --json. NAME and APPID are always strings.
                """
        )

        @OptionGroup var connection: GatewayOptions

        @Argument(help: "The app's name (appName).")
        var name: String

        @Argument(help: "The app's policy id (appID).")
        var appID: String

        @Argument(help: "More registration parameters: key=value, a.b=value, key:=JSON.")
        var parameters: [String] = []

        @Option(help: "The id the gateway's routes know the app by (default: the gateway picks one).")
        var id: String?

        @Option(help: "More registration parameters as a JSON object.")
        var json: String?

        func run() async throws {
            let client = try connection.client()
            var members: [String: SDLJSON]
            do throws(RPCArgumentError) {
                members = try RPCArguments.body(parameters, base: json).objectValue ?? [:]
            } catch {
                throw ValidationError(error.message)
            }
            members["appName"] = .string(name)
            members["appID"] = .string(appID)
            if let id { members["id"] = .string(id) }
            let answer = try await client.succeed(.POST, "/v1/apps", json: .object(members))
            if let app = answer.json { JSONOutput.write(app) }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Unregister an app and forget it (DELETE /v1/apps/{id}).")

        @OptionGroup var connection: GatewayOptions

        @Argument(help: "The app's id.")
        var id: String

        func run() async throws {
            let answer = try await connection.client().succeed(.DELETE, "/v1/apps/\(GatewayClient.segment(id))")
            if let body = answer.json { JSONOutput.write(body) }
        }
    }
}
