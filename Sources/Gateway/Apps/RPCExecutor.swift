import Metrics
import NIOCore
import SDLClient
import SDLProtocol
import SDLSpec

/// Sends one request RPC on an app's session for the HTTP API, the batch route and WebSocket
/// clients alike: the function must be a request of the spec, its parameters an object checked
/// against the spec (every issue reported, unless `options.validate` is false), and a head unit answer
/// with `success: false` becomes a ``GatewayError`` carrying it (docs/architecture.md, "HTTP status
/// of an RPC"). Records the RPC latency histogram by function and result code.
struct RPCExecutor: Sendable {
    struct Outcome: Sendable {
        var response: SDLJSON
        var correlationID: UInt32
        /// From sending the request to its response.
        var headUnitTime: Duration
    }

    /// The longest `timeout` a caller may ask for: 10 minutes.
    static let maximumTimeout: Int64 = 600_000

    let apps: GatewayApps

    func send(
        app id: String, function: String, parameters: SDLJSON, options: SDLRequestOptions = .default
    ) async throws(GatewayError) -> Outcome {
        let session = try apps.session(id)
        let catalog = apps.options.catalog
        guard let spec = catalog.function(named: function, messageType: .request) else {
            let requests = catalog.functions.filter { $0.messageType == .request }.map(\.name)
            throw GatewayError(
                .unknownFunction,
                "\(function) is not a request of the RPC spec \(catalog.version)" + SDLSpelling.didYouMean(function, among: requests))
        }
        guard parameters.objectValue != nil else {
            throw GatewayError(.invalidBody, "the parameters of \(function) must be a JSON object")
        }
        if options.validate ?? true {
            let issues = catalog.validate(parameters, against: spec)
            if let first = issues.first {
                throw GatewayError(.invalidParameters, "\(function) \(first.message)", issues: issues.map(\.message))
            }
        }
        if let timeout = options.timeout, !(TimeAmount.milliseconds(1)...TimeAmount.milliseconds(Self.maximumTimeout)).contains(timeout) {
            throw GatewayError(.invalidQuery, "timeout must be 1...\(Self.maximumTimeout) ms")
        }
        let started = ContinuousClock.now
        let message: SDLRPCMessage
        do {
            var options = options
            options.validate = false  // checked above, with every issue reported
            message = try await session.request(function, parameters, options: options)
        } catch let error as SDLClientError {
            Self.record(function, result: error.code.rawValue, since: started)
            throw GatewayError(error)
        } catch {
            throw GatewayError.from(error)
        }
        let response = message.parameters
        Self.record(function, result: Self.resultLabel(response["resultCode"]?.stringValue, catalog: catalog), since: started)
        guard response["success"]?.boolValue == true else {
            throw GatewayError.headUnit(function, response: response)
        }
        return Outcome(response: response, correlationID: message.correlationID, headUnitTime: ContinuousClock.now - started)
    }

    /// The `result` label of a head unit's answer: its `resultCode` when the spec's Result enum
    /// has it, else `OTHER`. The head unit chooses the string, and every label value is a time
    /// series of its own: one it makes up must not grow `/metrics` without bound.
    static func resultLabel(_ resultCode: String?, catalog: SDLCatalog) -> String {
        guard let resultCode else { return "GENERIC_ERROR" }
        return catalog.enums["Result"]?.elements.contains { $0.name == resultCode } == true ? resultCode : "OTHER"
    }

    private static func record(_ function: String, result: String, since started: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - started
        Metrics.Timer(label: "sdl_gateway_rpc_duration_seconds", dimensions: [("function", function), ("result", result)])
            .recordNanoseconds(elapsed.nanoseconds)
    }
}

extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    var milliseconds: Double { Double(nanoseconds) / 1_000_000 }
}
