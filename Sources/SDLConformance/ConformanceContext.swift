import NIOCore
import SDLClient
import SDLProtocol
import SDLSpec
import Synchronization

/// What a case works with: the app under test (one SDL session, opened on first use and kept
/// from case to case, as sdl_atf's Smoke scripts keep theirs), the driver's side when there is
/// one, and checks that turn what the head unit did into ``ConformanceFailure``s.
///
/// Every response and notification a case reads is checked against MOBILE_API.xml
/// (``SDLCatalog/validate(_:function:messageType:maximumDepth:)``): a mandatory parameter absent,
/// a wrong type, an enum value or range broken fails the case, unless it lies inside a parameter
/// the spec marks deprecated (``ConformanceDeprecation``): that is a warning of the case.
/// Parameters the spec does not define are let through: head units add their own.
public final class ConformanceContext: Sendable {
    /// The app under test: a media app, so that SetMediaClockTimer applies.
    public let app: SDLAppConfiguration
    public let driver: (any ConformanceDriver)?
    /// Multiplies every wait: a slow head unit or a loaded machine takes a larger one.
    public let timeoutScale: Double
    let links: ConformanceLinks
    let catalog: SDLCatalog

    private struct State: Sendable {
        var main: ConformanceLink?
        var roundTrips: [ConformanceRoundTrip] = []
        var warnings: [String] = []
        /// Without a driver, the head unit did not activate the app once: the next cases that
        /// need FULL are skipped at once rather than each waiting again.
        var notActivated = false
    }

    private let state = Mutex(State())

    init(app: SDLAppConfiguration, driver: (any ConformanceDriver)?, timeoutScale: Double, links: ConformanceLinks, catalog: SDLCatalog) {
        self.app = app
        self.driver = driver
        self.timeoutScale = timeoutScale
        self.links = links
        self.catalog = catalog
    }

    /// `duration` × ``timeoutScale``.
    public func scaled(_ duration: Duration) -> Duration {
        duration * timeoutScale
    }

    /// The app's registered link, registering it first when there is none (or it ended).
    public func link() async throws -> ConformanceLink {
        let main = state.withLock { $0.main }
        if let main, main.connection.tracker.isRegistered { return main }
        // A link that ended under the case (lost, or unregistered by the head unit) ended
        // without UnregisterAppInterface: registering again may race the head unit's clean-up.
        return try await register(app, afterCut: main != nil)
    }

    /// Registers `configuration` as the app under test on a new link (the old one, if any, is
    /// left as it is: cut or closed by the caller), and makes it the case's link, even when its
    /// response then breaks the spec: the app is registered, and the next case goes on with it.
    ///
    /// `afterCut`: the app's previous link was dropped without UnregisterAppInterface, and the
    /// head unit may not have noticed yet (SDL Core handles a closed connection asynchronously):
    /// APPLICATION_REGISTERED_ALREADY is then tried again for a while (10 s, scaled).
    @discardableResult
    public func register(_ configuration: SDLAppConfiguration, afterCut: Bool = false) async throws -> ConformanceLink {
        let started = ContinuousClock.now
        let link = try await links.open(
            configuration, timeout: scaled(.seconds(20)), retryingWhileRegistered: afterCut ? scaled(.seconds(10)) : .zero)
        state.withLock {
            $0.main = link
            $0.roundTrips.append(ConformanceRoundTrip(function: "RegisterAppInterface", duration: ContinuousClock.now - started))
        }
        try check(link.registration, of: "RegisterAppInterface", messageType: .response)
        return link
    }

    /// Opens another link (another app, other session settings) that is not the case's link;
    /// its owner closes it.
    public func openExtraLink(
        _ configuration: SDLAppConfiguration, session: SDLSessionStateMachine.Configuration
    ) async throws -> ConformanceLink {
        try await links.open(configuration, session: session, timeout: scaled(.seconds(20)))
    }

    /// Ends the app's link, if there is one, cleanly: UnregisterAppInterface answered, then
    /// EndService and the close (``ConformanceLink/end(timeout:)``), so that the head unit has
    /// let the app go before it registers again. Fails when UnregisterAppInterface is not
    /// answered SUCCESS (the link is closed all the same).
    public func closeLink() async throws {
        let main = state.withLock { state in
            defer { state.main = nil }
            return state.main
        }
        try await main?.end(timeout: scaled(.seconds(5)))
    }

    /// Forgets the link after a case ended it.
    public func forgetLink() {
        state.withLock { $0.main = nil }
    }

    /// Takes the warnings recorded since the last call.
    func takeWarnings() -> [String] {
        state.withLock { state in
            defer { state.warnings = [] }
            return state.warnings
        }
    }

    /// Records a warning of the running case: a deviation it reports without failing.
    public func warn(_ warning: String) {
        state.withLock { $0.warnings.append(warning) }
    }

    /// Takes the round trips recorded since the last call.
    func takeRoundTrips() -> [ConformanceRoundTrip] {
        state.withLock { state in
            defer { state.roundTrips = [] }
            return state.roundTrips
        }
    }

    // MARK: Requests

    /// The codes whose `success` must be false (Result enum: INVALID_DATA, INVALID_ID, REJECTED,
    /// DISALLOWED, GENERIC_ERROR and APPLICATION_NOT_REGISTERED are failures; SUCCESS is success).
    static let failureCodes: Set<String> = [
        "INVALID_DATA", "INVALID_ID", "REJECTED", "DISALLOWED", "GENERIC_ERROR", "APPLICATION_NOT_REGISTERED",
    ]

    /// Sends `function` on the app's link and checks its response: valid against the spec and
    /// with a `resultCode` among `expect`. Returns the response's parameters.
    @discardableResult
    public func request(
        _ function: String, _ parameters: SDLJSON = [:], expect: Set<String> = ["SUCCESS"], validate: Bool = true,
        bulkData: [UInt8]? = nil, timeout: Duration = .seconds(12)
    ) async throws -> SDLJSON {
        try await request(
            on: try await link(), function, parameters, expect: expect, validate: validate, bulkData: bulkData, timeout: timeout)
    }

    /// ``request(_:_:expect:validate:bulkData:timeout:)`` on another link.
    @discardableResult
    public func request(
        on link: ConformanceLink, _ function: String, _ parameters: SDLJSON = [:], expect: Set<String> = ["SUCCESS"],
        validate: Bool = true, bulkData: [UInt8]? = nil, timeout: Duration = .seconds(12)
    ) async throws -> SDLJSON {
        let scaledTimeout = scaled(timeout)
        let options = SDLRequestOptions(
            timeout: TimeAmount(scaledTimeout), validate: validate, checkPermissions: false,
            bulkData: bulkData.map { ByteBuffer(bytes: $0) })
        let started = ContinuousClock.now
        let response: SDLRPCMessage
        do {
            response = try await link.connection.request(function, parameters, options: options)
        } catch let error as SDLClientError where error.code == .timedOut {
            throw ConformanceFailure(.timedOut, "no \(function) response within \(ConformanceTextReport.seconds(scaledTimeout)) s")
        } catch {
            throw ConformanceFailure(.link, "\(function): \(error)")
        }
        state.withLock { $0.roundTrips.append(ConformanceRoundTrip(function: function, duration: ContinuousClock.now - started)) }
        let answered = catalog.functionName(forID: response.functionID) ?? "function \(response.functionID)"
        guard answered == function else {
            throw ConformanceFailure(
                .unexpected, "\(function) was answered by another function", expected: "a \(function) response",
                got: "\(answered) \(Self.outcome(of: response.parameters))")
        }
        try check(response.parameters, of: function, messageType: .response)
        let code = response.parameters["resultCode"]?.stringValue ?? "no resultCode"
        guard expect.contains(code) else {
            throw ConformanceFailure(
                .unexpected, "\(function) answered \(code)", expected: "resultCode \(expect.sorted().joined(separator: " or "))",
                got: Self.outcome(of: response.parameters))
        }
        // `success` agrees with the code where the spec leaves no doubt.
        if let success = response.parameters["success"]?.boolValue,
            code == "SUCCESS" ? !success : (Self.failureCodes.contains(code) && success)
        {
            throw ConformanceFailure(
                .unexpected, "\(function) answered success \(success) with \(code)", expected: "success \(!success) with \(code)",
                got: "success \(success)")
        }
        return response.parameters
    }

    /// `REJECTED ("info")`: a response's outcome in a few words.
    static func outcome(of parameters: SDLJSON) -> String {
        let code = parameters["resultCode"]?.stringValue ?? "no resultCode"
        guard let info = parameters["info"]?.stringValue, !info.isEmpty else { return code }
        return "\(code) (\"\(info)\")"
    }

    /// Fails with ``ConformanceFailure/Code/invalidMessage`` when `parameters` break the spec of
    /// `function`'s `messageType` in a current parameter; what breaks it inside a deprecated
    /// parameter is recorded as a warning (``ConformanceDeprecation``).
    public func check(_ parameters: SDLJSON, of function: String, messageType: SDLMessageType) throws {
        let specification: SDLFunction
        do {
            specification = try catalog.requireFunction(named: function, messageType: messageType)
        } catch {
            throw ConformanceFailure(.invalidMessage, "\(function) is no \(messageType) of MOBILE_API.xml")
        }
        var failure: ConformanceFailure?
        for issue in catalog.validate(parameters, against: specification) where issue.kind != .unknownParameter {
            if let deprecated = ConformanceDeprecation.deprecatedParameter(on: issue.path, of: specification, in: catalog) {
                warn(
                    "the \(function) \(messageType) breaks MOBILE_API.xml at \(issue.path) (inside \(deprecated), deprecated): "
                        + "expected \(issue.expected), got \(issue.got)")
            } else if failure == nil {
                failure = ConformanceFailure(
                    .invalidMessage, "the \(function) \(messageType) breaks MOBILE_API.xml at \(issue.path)", expected: issue.expected,
                    got: issue.got)
            }
        }
        if let failure { throw failure }
    }

    // MARK: Notifications

    /// The position in the link's notifications now: take it before acting, then wait with
    /// ``notification(_:after:timeout:where:)``.
    public func mark() async throws -> Int {
        try await link().inbox.mark()
    }

    /// The first notification `name` after `mark` that `matches`, checked against the spec;
    /// fails with ``ConformanceFailure/Code/timedOut`` when none comes within `timeout` (scaled).
    @discardableResult
    public func notification(
        _ name: String, after mark: Int, timeout: Duration = .seconds(10), describing expected: String? = nil,
        where matches: @escaping @Sendable (SDLJSON) -> Bool = { _ in true }
    ) async throws -> SDLJSON {
        let inbox = try await link().inbox
        let parameters = try await withDeadline(scaled(timeout), expected ?? name) {
            try await inbox.first(name, after: mark, where: matches)
        }
        try check(parameters, of: name, messageType: .notification)
        return parameters
    }

    // MARK: The driver

    /// The driver, or a skip saying the case needs one.
    public func requireDriver() throws -> any ConformanceDriver {
        guard let driver else { throw ConformanceSkip.noDriver }
        return driver
    }

    /// Brings the app to FULL: through the driver, or, without one, by waiting for the head
    /// unit to activate it itself (`simulate --auto-activate`); else the case is skipped.
    public func activate() async throws {
        let link = try await link()
        // The mark first: an OnHMIStatus FULL after it is seen by the wait if not by the level.
        let mark = link.inbox.mark()
        if link.connection.tracker.hmiLevel == .full { return }
        guard let driver else {
            let skip = ConformanceSkip("needs the app in FULL, and the head unit did not activate it: give --control or --hmi")
            if state.withLock({ $0.notActivated }) { throw skip }
            do {
                try await notification("OnHMIStatus", after: mark, timeout: .seconds(3), describing: "OnHMIStatus FULL") {
                    $0["hmiLevel"]?.stringValue == "FULL"
                }
                return
            } catch let failure as ConformanceFailure where failure.code == .timedOut {
                state.withLock { $0.notActivated = true }
                throw skip
            }
        }
        // The HMI learns of the app from the head unit on its own schedule (Core's
        // BasicCommunication.OnAppRegistered): until then the driver's side does not know it.
        try await actWhenReady { try await driver.setHMILevel("FULL", appID: self.app.appID) }
        try await notification("OnHMIStatus", after: mark, describing: "OnHMIStatus FULL") {
            $0["hmiLevel"]?.stringValue == "FULL"
        }
    }

    /// Runs a driver action, turning its errors into ``ConformanceFailure/Code/driver``.
    public func act(_ action: () async throws -> Void) async throws {
        do {
            try await action()
        } catch let failure as ConformanceFailure {
            throw failure
        } catch {
            throw ConformanceFailure(.driver, "the driver's side refused: \(error)")
        }
    }

    /// Repeats a driver action the driver's side refuses until it accepts it or `timeout`
    /// (scaled) passes: for what answers an overlay the head unit opens on its own schedule (an
    /// alert, an interaction) and that cannot be answered before it is shown.
    public func actWhenReady(timeout: Duration = .seconds(5), _ action: @escaping @Sendable () async throws -> Void) async throws {
        let limit = ContinuousClock.now + scaled(timeout)
        var lastError: (any Error)?
        while ContinuousClock.now < limit {
            do {
                try await action()
                return
            } catch {
                lastError = error
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        throw ConformanceFailure(.driver, "the driver's side refused: \(lastError.map { "\($0)" } ?? "no attempt")")
    }

    // MARK: Expectations

    /// Fails with ``ConformanceFailure/Code/unexpected`` unless `got` equals `expected`.
    public func expect<Value: Equatable & Sendable>(_ what: String, _ got: Value?, equals expected: Value) throws {
        guard got != expected else { return }
        throw ConformanceFailure(.unexpected, what, expected: "\(expected)", got: got.map { "\($0)" } ?? "nothing")
    }

    /// Fails unless `condition` holds.
    public func expect(_ condition: Bool, _ what: String, expected: String, got: @autoclosure () -> String) throws {
        guard !condition else { return }
        throw ConformanceFailure(.unexpected, what, expected: expected, got: got())
    }
}
