import ArgumentParser
import Foundation
import HeadUnitModel
import HeadUnitSimulator
import NIOCore
import SDLProtocol
import SDLSpec

/// The head unit's options that `simulate` and `serve --simulate` share: its policy, the vehicle
/// trace and its speed, the capability profile, the time scale and the file storage. Each comes from the command
/// line, else its `SDL_SIMULATOR_*` variable, else (for `serve`) the config file's `"simulator"`
/// object, else its default.
struct SimulatorOptions: ParsableArguments {
    @Option(help: "open (the default): every RPC allowed; default: SDL Core's default policy for unknown apps (Base-4).")
    var policy: Policy?

    @Option(help: "An OpenXC trace (newline-delimited JSON) to replay as the vehicle, instead of a generated drive.")
    var trace: String?

    @Option(help: "Replay speed of --trace (2 = twice as fast), above 0 and at most 1000. Default 1.")
    var traceSpeed: Double?

    @Option(
        help:
            "The capabilities: core-8.2 (the default: SDL Core 8.2's stock hmi_capabilities.json), full (a richer head unit), or a file: a JSON profile or SDL Core's own hmi_capabilities.json."
    )
    var profile: String?

    @Flag(help: "Send the JSON of every RPC pretty-printed with newlines and tabs, as SDL Core does (compact by default).")
    var prettyJSON = false

    @Option(
        help:
            "Multiplies how long alerts, speech, sliders and interactions take (0.1 = ten times faster), above 0 and at most 1000. Default 1."
    )
    var timeScale: Double?

    @Option(
        help:
            "Milliseconds after a resumed registration before the app is back in FULL (SDL Core's ApplicationResumingTimeout), 0…60000. Default 3000."
    )
    var resumingTimeout: Int?

    @Option(
        help:
            "Requests an app may make per 10 s before it is unregistered with TOO_MANY_REQUESTS (SDL Core's AppTimeScaleMaxRequests); 0 turns the limit off. Default 1000."
    )
    var requestLimit: Int?

    @Option(
        help:
            "MiB of the files apps upload that the head unit keeps, for all apps together (each app also has its profile's appDirectoryQuota); a PutFile past it is OUT_OF_MEMORY. 1…1048576. Default 256."
    )
    var fileStorageLimit: Int?

    @Option(
        help:
            "MiB of the last bytes of each app's video and of its audio stream the head unit keeps for the control API (video.h264, audio.pcm, the live feeds). 0…4096. Default 8."
    )
    var streamKeep: Int?

    enum Policy: String, CaseIterable, ExpressibleByArgument {
        case open
        case `default`
    }

    /// The variables of these options.
    static let variables = [
        "SDL_SIMULATOR_POLICY", "SDL_SIMULATOR_TRACE", "SDL_SIMULATOR_TRACE_SPEED", "SDL_SIMULATOR_PROFILE", "SDL_SIMULATOR_TIME_SCALE",
        "SDL_SIMULATOR_PRETTY_JSON", "SDL_SIMULATOR_RESUMING_TIMEOUT", "SDL_SIMULATOR_REQUEST_LIMIT", "SDL_SIMULATOR_FILE_STORAGE_LIMIT",
        "SDL_SIMULATOR_STREAM_KEEP",
    ]
    /// The keys of the config file's `"simulator"` object.
    static let fileKeys = [
        "policy", "trace", "traceSpeed", "profile", "timeScale", "prettyJSON", "resumingTimeout", "requestLimit", "fileStorageLimit",
        "streamKeep",
    ]

    /// The options given on the command line, by their flag (for "needs --simulate").
    var given: [String] {
        [
            ("--policy", policy != nil), ("--trace", trace != nil), ("--trace-speed", traceSpeed != nil), ("--profile", profile != nil),
            ("--time-scale", timeScale != nil), ("--pretty-json", prettyJSON), ("--resuming-timeout", resumingTimeout != nil),
            ("--request-limit", requestLimit != nil), ("--file-storage-limit", fileStorageLimit != nil),
            ("--stream-keep", streamKeep != nil),
        ]
        .filter(\.1).map(\.0)
    }

    /// The settings after the environment and the file's `"simulator"` object filled in what the
    /// command line did not give; a value out of range or of the wrong type is refused naming it.
    func resolved(environment: [String: String], file: [String: SDLJSON]? = nil) throws -> Resolved {
        func fileString(_ key: String) throws -> String? {
            guard let value = file?[key] else { return nil }
            guard let text = value.stringValue else { throw ServeConfigFile.wrongType("simulator.\(key)", "a string", value) }
            return text
        }
        func number(_ option: Double?, _ flag: String, _ variable: String, _ key: String) throws -> Double {
            let fromEnvironment = try environment[variable].map { text in
                guard let number = Double(text) else { throw ValidationError("\(variable)=\(text) is not a number.") }
                return number
            }
            let fromFile = try file?[key].map { value in
                guard let number = value.doubleValue else { throw ServeConfigFile.wrongType("simulator.\(key)", "a number", value) }
                return number
            }
            let number = option ?? fromEnvironment ?? fromFile ?? 1
            guard number > 0, number <= 1000 else {
                throw ValidationError("\(flag) (\(variable), \"simulator.\(key)\") must be above 0 and at most 1000 (got \(number)).")
            }
            return number
        }
        let policyFromEnvironment = try SettingsValue.choice(environment, "SDL_SIMULATOR_POLICY", of: Policy.self)
        let policyFromFile = try fileString("policy").map { text in
            guard let policy = Policy(rawValue: text) else {
                let accepted = Policy.allCases.map(\.rawValue)
                throw ValidationError(
                    "config file: \"simulator.policy\" is \(text), not one of \(accepted.joined(separator: ", "))\(SettingsValue.suggestion(for: text, among: accepted))."
                )
            }
            return policy
        }
        let prettyFromFile = try file?["prettyJSON"].map { value in
            guard let flag = value.boolValue else {
                throw ServeConfigFile.wrongType("simulator.prettyJSON", "a boolean (true or false)", value)
            }
            return flag
        }
        let prettyFromEnvironment = try SettingsValue.bool(environment, "SDL_SIMULATOR_PRETTY_JSON")
        func whole(
            _ option: Int?, _ flag: String, _ variable: String, _ key: String, unit: String, short: String, default value: Int,
            in range: ClosedRange<Int>
        ) throws -> Int {
            try SettingsValue.wholeNumber(
                option, flag: flag, variable: variable, environment: environment, key: key, keyPath: "simulator.\(key)", file: file,
                unit: unit, short: short, default: value, in: range
            )
        }
        let resuming = try whole(
            resumingTimeout, "--resuming-timeout", "SDL_SIMULATOR_RESUMING_TIMEOUT", "resumingTimeout", unit: "milliseconds", short: "ms",
            default: 3000, in: 0...60_000)
        let requests = try whole(
            requestLimit, "--request-limit", "SDL_SIMULATOR_REQUEST_LIMIT", "requestLimit", unit: "requests", short: "requests per 10 s",
            default: 1000, in: 0...1_000_000)
        let fileStorage = try whole(
            fileStorageLimit, "--file-storage-limit", "SDL_SIMULATOR_FILE_STORAGE_LIMIT", "fileStorageLimit", unit: "MiB", short: "MiB",
            default: 256, in: 1...1_048_576)
        let keep = try whole(
            streamKeep, "--stream-keep", "SDL_SIMULATOR_STREAM_KEEP", "streamKeep", unit: "MiB", short: "MiB", default: 8, in: 0...4096)
        let traceFromFile = try fileString("trace")
        let profileFromFile = try fileString("profile")
        return Resolved(
            policy: policy ?? policyFromEnvironment ?? policyFromFile ?? .open,
            trace: trace ?? environment["SDL_SIMULATOR_TRACE"] ?? traceFromFile,
            traceSpeed: try number(traceSpeed, "--trace-speed", "SDL_SIMULATOR_TRACE_SPEED", "traceSpeed"),
            profile: profile ?? environment["SDL_SIMULATOR_PROFILE"] ?? profileFromFile,
            timeScale: try number(timeScale, "--time-scale", "SDL_SIMULATOR_TIME_SCALE", "timeScale"),
            prettyJSON: prettyJSON || (prettyFromEnvironment ?? prettyFromFile ?? false),
            resumingTimeout: resuming,
            requestLimit: requests,
            fileStorageLimit: fileStorage,
            streamKeep: keep
        )
    }

    /// The options decided.
    struct Resolved: Equatable {
        var policy: Policy
        var trace: String?
        var traceSpeed: Double
        var profile: String?
        var timeScale: Double
        var prettyJSON = false
        /// Milliseconds: ``HeadUnitConfiguration/resumingTimeout``.
        var resumingTimeout = 3000
        /// Requests per 10 s per app (`AppTimeScaleMaxRequests`), 0 for none.
        var requestLimit = 1000
        /// MiB: ``HeadUnitConfiguration/fileStorageLimit``.
        var fileStorageLimit = 256
        /// MiB: ``HeadUnitConfiguration/streamKeptBytes``.
        var streamKeep = 8

        /// Sets them on `configuration`, reading the trace and the profile (checked against the
        /// configuration's catalog).
        func apply(to configuration: inout HeadUnitConfiguration) throws {
            configuration.policy = policy == .default ? .sdlDefault : .open
            configuration.timeScale = timeScale
            configuration.prettyJSON = prettyJSON
            configuration.resumingTimeout = .milliseconds(Int64(resumingTimeout))
            configuration.requestLimits.anyLevel = RequestRateLimiter.Limit(maximumRequests: requestLimit, window: .seconds(10))
            configuration.fileStorageLimit = fileStorageLimit * 1024 * 1024
            configuration.streamKeptBytes = streamKeep * 1024 * 1024
            if let profile {
                configuration.profile = try SimulatorProfile(nameOrPath: profile, catalog: configuration.catalog)
            }
            if let trace {
                configuration.vehicle = .trace(try OpenXCTrace(contentsOfFile: trace), speed: traceSpeed, loop: true)
            }
        }
    }
}
