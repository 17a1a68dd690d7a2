import ArgumentParser

/// `sdl-gateway`: the command line. Each subcommand is a thin shell over a library.
@main
struct SDLGatewayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sdl-gateway",
        abstract: "Drive a SmartDeviceLink head unit from HTTP, WebSocket and scripts.",
        subcommands: [ServeCommand.self, SimulateCommand.self, HMICommand.self, InspectCommand.self, HealthCommand.self]
    )
}
