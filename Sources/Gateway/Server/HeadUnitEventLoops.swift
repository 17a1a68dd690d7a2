import NIOCore
import NIOPosix

/// The event loops the gateway's head-unit links run on (``GatewayApps/Options/eventLoopGroup``),
/// apart from the loops of the HTTP and WebSocket clients. NIO runs a loop's queued work until
/// none is left before it reads its sockets again; during a burst the clients' writers keep
/// queueing work on their loops, and a head-unit link sharing one was not read for seconds,
/// until its heartbeat declared the head unit lost (issue "Reliability", the notification burst).
///
/// Who creates a group shuts it down (SwiftNIO's rule): ``with(_:)`` creates one, runs the
/// application in it and shuts it down when the application ended, as `sdl-gateway serve` does.
public enum HeadUnitEventLoops {
    /// One thread carries the SDL traffic of every session with room to spare: it is small
    /// beside the clients' traffic. Each link's reader runs on it too (SDLConnection reads on its
    /// link's loop), so parsing what the head units send happens here, under each session's lock.
    public static let threads = 1

    /// Runs `body` with a new group of ``threads`` threads, then shuts the group down, whether
    /// `body` returned or threw (its error is rethrown).
    public static func with<Result>(
        isolation: isolated (any Actor)? = #isolation, _ body: (MultiThreadedEventLoopGroup) async throws -> Result
    ) async throws -> Result {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        let result: Result
        do {
            result = try await body(group)
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
        try await group.shutdownGracefully()
        return result
    }
}
