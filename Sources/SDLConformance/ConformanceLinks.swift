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
}

/// Runs the links of a conformance run in one structured place: ``serve()`` is a child task of
/// the runner; ``open(_:session:timeout:)`` hands it a new connection and waits for the
/// registration.
final class ConformanceLinks: Sendable {
    private struct Job: Sendable {
        let connection: SDLConnection
        let inbox: ConformanceInbox
        let outcome: AsyncStream<Result<SDLJSON, ConformanceFailure>>.Continuation
        let cut: AsyncStream<Void>
        let cutSource: AsyncStream<Void>.Continuation
        let endedSource: AsyncStream<Void>.Continuation
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
    /// `timeout`.
    func open(
        _ app: SDLAppConfiguration, session: SDLSessionStateMachine.Configuration = .default, timeout: Duration
    ) async throws -> ConformanceLink {
        var configuration = SDLConnection.Configuration(address: address, app: app, session: session)
        // The head unit is checked, not the client: requests go as written, even where the
        // client's permission table would refuse them.
        configuration.checksPermissions = false
        let connection = SDLConnection(configuration: configuration, logger: logger)
        let (outcomes, outcome) = AsyncStream<Result<SDLJSON, ConformanceFailure>>.makeStream()
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
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    try await job.connection.run { job.outcome.yield(.success($0.parameters)) }
                    job.outcome.yield(.failure(ConformanceFailure(.link, "the head unit ended the session before registering")))
                } catch {
                    job.outcome.yield(.failure(ConformanceFailure(.link, "\(error)")))
                }
                job.outcome.finish()
                job.cutSource.finish()
            }
            group.addTask {
                for await event in job.connection.events {
                    if case .app(.rpc(let entry)) = event, entry.direction == .received, entry.rpcType == .notification {
                        job.inbox.record(entry.function, entry.parameters)
                    }
                }
            }
            for await _ in job.cut {
                group.cancelAll()
                break
            }
        }
        job.endedSource.finish()
    }
}
