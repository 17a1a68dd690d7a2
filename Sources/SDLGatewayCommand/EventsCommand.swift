import ArgumentParser

/// `sdl-gateway events APP`: an app's events (README "Events": `{"seq", "time", "app", "type",
/// "data"}`) as JSON lines, read from the gateway's Server-Sent Events stream
/// `GET /v1/apps/{id}/events`, until Ctrl-C or `--count` events.
struct EventsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Print an app's events from a running sdl-gateway serve as JSON lines.",
        discussion: """
            One line per event, as the gateway's event stream carries it: {"seq", "time", "app", "type", \
            "data"}. Runs until Ctrl-C, or until --count events were printed (exit 0). A refused stream \
            (401 without a valid token, 403, 404 for an unknown app) or a stream the gateway ends \
            exits 1, the reason on standard error. An event longer than 4 MiB is refused, not buffered.
            """
    )

    @OptionGroup var connection: GatewayOptions

    @Argument(help: "The app's id.")
    var app: String

    @Option(help: "Only these event types, comma-separated (hmiStatus,vehicleData,…).")
    var types: String?

    @Option(help: "Only these vehicle data names in vehicleData events, comma-separated (speed,rpm,…).")
    var names: String?

    @Option(help: "First replay what the app's event buffer still holds after this seq.")
    var since: Int64?

    @Option(help: "Stop after this many events.")
    var count: Int?

    func run() async throws {
        let client = try connection.client()
        if let count, count < 1 { throw ValidationError("--count takes 1 or more") }
        if let since, since < 0 { throw ValidationError("--since takes 0 or more") }
        var query: [(String, String)] = []
        if let types { query.append(("types", types)) }
        if let names { query.append(("names", names)) }
        if let since { query.append(("since", "\(since)")) }
        var printed = 0
        let refusal: GatewayAnswer?
        do {
            refusal = try await client.events("/v1/apps/\(GatewayClient.segment(app))/events", query: query) { event in
                JSONOutput.writeLine(Array(event.data.utf8) + [0x0A])
                printed += 1
                return count.map { printed < $0 } ?? true
            }
        } catch let error as GatewayClientError {
            JSONOutput.refuse(error.message)
            throw ExitCode(1)
        }
        if let refusal {
            JSONOutput.refuse(refusal.problemDescription)
            throw ExitCode(1)
        }
        if let count, printed >= count { return }
        JSONOutput.refuse("the gateway ended the event stream after \(printed) events")
        throw ExitCode(1)
    }
}
