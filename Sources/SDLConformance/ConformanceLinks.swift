import NIOCore
import Logging
import SDLClient
import SDLProtocol
import SDLTransport

/// One SDL connection of the app under test: registered over the project's own client
/// (``SDLConnection``, docs/protocol.md §a–§f), with the notifications it received.
public struct ConformanceLink: Sendable {
    public let connection: SDLConnection
    /// The RegisterAppInterface response's parameters.
    public let registration: SDLJSON
    let inbox: ConformanceInbox
    let cutSource: AsyncStream<Void>.Continuation
    let ended: AsyncStream<Void>

    /// Drops the transport without UnregisterAppInterface or EndService, as a lost Bluetooth or
    /// USB link does (docs/protocol.md §k "Resumption"); returns once the connection is down.
    public func cut() async {
        cutSource.yield(())
        for await _ in ended {}
    }

    /// Unregisters and ends the session (UnregisterAppInterface, EndService).
    public func close() async {
        await connection.close()
        for await _ in ended {}
    }

    /// Ends the app cleanly: UnregisterAppInterface, waited for up to `timeout`, then the close
    /// (EndService). Throws when UnregisterAppInterface is not answered SUCCESS; the link is
    /// closed all the same. A link no longer registered is only closed.
    public func end(timeout: Duration) async throws {
        var failure: ConformanceFailure?
        if connection.tracker.isRegistered {
            let options = SDLRequestOptions(timeout: TimeAmount(timeout), checkPermissions: false)
            do {
                let response = try await connection.request("UnregisterAppInterface", options: options)
                let code = response.parameters["resultCode"]?.stringValue ?? "no resultCode"
                if code != "SUCCESS" {
                    failure = ConformanceFailure(
                        .unexpected, "UnregisterAppInterface answered \(code)", expected: "resultCode SUCCESS",
                        got: ConformanceContext.outcome(of: response.parameters))
                }
            } catch {
                failure = ConformanceFailure(.link, "UnregisterAppInterface: \(error)")
            }
        }
        await close()
        if let failure { throw failure }
    }
}

/// Runs the links of a conformance run in one structured place: ``serve()`` is a child task of
/// the runner; ``open(_:session:timeout:)`` hands it a new connection and waits for the
/// registration.
final class ConformanceLinks: Sendable {
    private struct Job: Sendable {
        let connection: SDLConnection
        let inbox: ConformanceInbox
        let outcome: AsyncStream<Result<SDLJSON, Refusal>>.Continuation
        let cut: AsyncStream<Void>
        let cutSource: AsyncStream<Void>.Continuation
        let endedSource: AsyncStream<Void>.Continuation
    }

    /// Why a link did not register, with the RegisterAppInterface result code when the head unit
    /// answered one.
    struct Refusal: Error {
        var failure: ConformanceFailure
        var resultCode: String?
    }

    let address: SDLTransportAddress
    private let logger: Logger
    private let jobs: AsyncStream<Job>
    private let jobSource: AsyncStream<Job>.Continuation

    init(address: SDLTransportAddress, logger: Logger) {
        self.address = address
        self.logger = logger
        (jobs, jobSource) = AsyncStream.makeStream()
    }

    /// Runs every link opened until ``finish()``, each until it ends.
    func serve() async {
        await withDiscardingTaskGroup { group in
            for await job in jobs {
                group.addTask { await Self.run(job) }
            }
        }
    }

    /// No more links; ``serve()`` returns when the open ones have ended.
    func finish() {
        jobSource.finish()
    }

    /// Connects, negotiates and registers `app`; fails with ``ConformanceFailure/Code/link``
    /// when the head unit refuses or the link fails, ``ConformanceFailure/Code/timedOut`` after
    /// `timeout`. A refusal with APPLICATION_REGISTERED_ALREADY is tried again on a new
    /// connection, every 250 ms, for `retryingWhileRegistered` (none by default).
    func open(
        _ app: SDLAppConfiguration, session: SDLSessionStateMachine.Configuration = .default, timeout: Duration,
        retryingWhileRegistered: Duration = .zero
    ) async throws -> ConformanceLink {
        let giveUp = ContinuousClock.now + retryingWhileRegistered
        while true {
            do {
                return try await openOnce(app, session: session, timeout: timeout)
            } catch let refusal as Refusal {
                guard refusal.resultCode == "APPLICATION_REGISTERED_ALREADY", ContinuousClock.now < giveUp else {
                    throw refusal.failure
                }
                try await Task.sleep(for: .milliseconds(250))
            }
        }
    }

    private func openOnce(
        _ app: SDLAppConfiguration, session: SDLSessionStateMachine.Configuration, timeout: Duration
    ) async throws -> ConformanceLink {
        var configuration = SDLConnection.Configuration(address: address, app: app, session: session)
        // The head unit is checked, not the client: requests go as written, even where the
        // client's permission table would refuse them.
        configuration.checksPermissions = false
        let connection = SDLConnection(configuration: configuration, logger: logger)
        let (outcomes, outcome) = AsyncStream<Result<SDLJSON, Refusal>>.makeStream()
        let (cut, cutSource) = AsyncStream<Void>.makeStream()
        let (ended, endedSource) = AsyncStream<Void>.makeStream()
        let inbox = ConformanceInbox()
        jobSource.yield(
            Job(connection: connection, inbox: inbox, outcome: outcome, cut: cut, cutSource: cutSource, endedSource: endedSource))
        let registration: SDLJSON
        do {
            registration = try await withDeadline(timeout, "RegisterAppInterface of \(app.appID) at \(address)") {
                var iterator = outcomes.makeAsyncIterator()
                guard let first = await iterator.next() else {
                    throw ConformanceFailure(.link, "the run ended before \(app.appID) registered")
                }
                return try first.get()
            }
        } catch {
            cutSource.yield(())
            throw error
        }
        return ConformanceLink(connection: connection, registration: registration, inbox: inbox, cutSource: cutSource, ended: ended)
    }

    private static func run(_ job: Job) async {
        // A refused registration is told once the link is down and its events are read: the
        // RegisterAppInterface response (and its result code) comes among them.
        enum Ending: Sendable {
            case linkDown(ConformanceFailure)
            case answered(resultCode: String?)
        }
        let refusal = await withTaskGroup(of: Ending.self, returning: Refusal?.self) { group in
            group.addTask {
                defer { job.cutSource.finish() }
                do {
                    try await job.connection.run()
                    return .linkDown(ConformanceFailure(.link, "the head unit ended the session before registering"))
                } catch {
                    return .linkDown(ConformanceFailure(.link, "\(error)"))
                }
            }
            group.addTask {
                var resultCode: String?
                for await event in job.connection.events {
                    if case .registered(let response) = event { job.outcome.yield(.success(response.parameters)) }
                    guard case .app(.rpc(let entry)) = event, entry.direction == .received else { continue }
                    if entry.rpcType == .notification {
                        job.inbox.record(entry.function, entry.parameters)
                    } else if entry.rpcType == .response, entry.function == "RegisterAppInterface" {
                        resultCode = entry.parameters["resultCode"]?.stringValue
                    }
                }
                return .answered(resultCode: resultCode)
            }
            for await _ in job.cut {
                group.cancelAll()
                break
            }
            var failure: ConformanceFailure?
            var resultCode: String?
            for await ending in group {
                switch ending {
                case .linkDown(let why): failure = why
                case .answered(let code): resultCode = code
                }
            }
            return failure.map { Refusal(failure: $0, resultCode: resultCode) }
        }
        // After a registration this goes nowhere: only the first outcome is read.
        if let refusal { job.outcome.yield(.failure(refusal)) }
        job.outcome.finish()
        job.endedSource.finish()
    }
}
