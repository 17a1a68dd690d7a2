import ArgumentParser
import Foundation
import Gateway

/// `sdl-gateway`: the command line. Each subcommand is a thin shell over a library.
@main
struct SDLGatewayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sdl-gateway",
        abstract: "Drive a SmartDeviceLink head unit from HTTP, WebSocket and scripts.",
        version: GatewayVersion.current,
        subcommands: [
            ServeCommand.self, SimulateCommand.self, HMICommand.self, InspectCommand.self, HealthCommand.self, CallCommand.self,
            EventsCommand.self, AppsCommand.self, CheckCommand.self,
        ]
    )

    /// ArgumentParser's own `main`, with one addition: a first argument that is no command and no
    /// option is refused with the nearest command's name (`sevre` → serve), where ArgumentParser
    /// would only say that the argument was unexpected.
    static func main() async {
        do {
            if let refusal = unknownCommand(in: Array(CommandLine.arguments.dropFirst())) { throw refusal }
            var command = try parseAsRoot()
            do {
                if var command = command as? any AsyncParsableCommand {
                    try await command.run()
                } else {
                    try command.run()
                }
            } catch let error as ValidationError {
                refuse(error, of: type(of: command))
            }
        } catch {
            exit(withError: error)
        }
    }

    /// A setting refused once the command runs (from the environment or a file as well as the
    /// command line): said as ArgumentParser says a refused option, with the usage of the command
    /// that refused it (ArgumentParser's `exit(withError:)` would print the root command's).
    static func refuse(_ error: ValidationError, of command: any ParsableCommand.Type) -> Never {
        let name = command.configuration.commandName.map { " \($0)" } ?? ""
        let text = "Error: \(error.message)\nUsage: \(usageString(for: command))\n  See 'sdl-gateway\(name) --help' for more information.\n"
        FileHandle.standardError.write(Data(text.utf8))
        Foundation.exit(ExitCode.validationFailure.rawValue)
    }

    /// The refusal of `arguments` whose first is neither an option nor a command, if it is so.
    static func unknownCommand(in arguments: [String]) -> ValidationError? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        let names = configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
        guard !names.contains(first) else { return nil }
        let suggestion = SettingsValue.suggestion(for: first, among: names)
        return ValidationError(
            "'\(first)' is not a command of sdl-gateway\(suggestion); the commands are \(names.dropLast().joined(separator: ", ")).")
    }
}
