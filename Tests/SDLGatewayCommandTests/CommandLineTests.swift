import ArgumentParser
import Foundation
import Gateway
import Testing

@testable import SDLGatewayCommand

/// The command line as a new user meets it: `--version`, a misspelt command, an address given
/// without its host.
@Suite("sdl-gateway's command line")
struct CommandLineTests {
    @Test("--version prints the version, which is openapi.yaml's info.version")
    func version() async throws {
        let (status, _, output) = try await ServeEndToEndTests.runToExit(["--version"])
        #expect(status == 0)
        #expect(output == GatewayVersion.current + "\n")
        let contract = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("openapi.yaml")
        let text = try String(contentsOf: contract, encoding: .utf8)
        #expect(text.contains("\ninfo:\n  title: sdl-gateway\n  version: \(GatewayVersion.current)\n"))
    }

    @Test("A misspelt command is refused with the nearest one; a word far from every command lists them")
    func misspeltCommand() async throws {
        let (status, errors, _) = try await ServeEndToEndTests.runToExit(["sevre", "--simulate"])
        #expect(status == 64)
        #expect(errors.contains("'sevre' is not a command of sdl-gateway (did you mean serve?)"), "\(errors)")
        #expect(
            SDLGatewayCommand.unknownCommand(in: ["zzzzzz"])?.message.contains("the commands are serve, simulate, hmi, inspect, health")
                == true)
        #expect(SDLGatewayCommand.unknownCommand(in: ["serve", "--simulate"]) == nil)
        #expect(SDLGatewayCommand.unknownCommand(in: ["--help"]) == nil)
        #expect(SDLGatewayCommand.unknownCommand(in: ["help", "serve"]) == nil)
    }

    @Test("An address without host:port shows an example of that option's own address")
    func addressExample() async throws {
        let (status, errors, _) = try await ServeEndToEndTests.runToExit(["serve", "--listen", "8080"])
        #expect(status == 64)
        #expect(errors.contains("--listen must be host:port, e.g. 127.0.0.1:8080 (got 8080)"), "\(errors)")
        #expect(errors.contains("Usage: sdl-gateway serve"), "\(errors)")
    }
}
