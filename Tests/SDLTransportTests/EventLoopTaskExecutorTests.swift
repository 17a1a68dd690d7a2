import NIOCore
import NIOPosix
import SDLTransport
import Testing

/// ``EventLoopTaskExecutor``: a task that prefers it runs on its loop, its child tasks too, and
/// comes back to the loop after a wait that another loop ends.
@Suite("Event loop task executor", .timeLimit(.minutes(1)))
struct EventLoopTaskExecutorTests {
    @Test("a preferring task runs on the loop, before and after another loop resumes it")
    func runsOnTheLoop() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let (home, other) = (group.next(), group.next())
        #expect(home !== other)
        let seen = await withTaskExecutorPreference(EventLoopTaskExecutor(home)) {
            let before = home.inEventLoop
            let _: Void = await withCheckedContinuation { continuation in
                other.execute { continuation.resume() }
            }
            let afterContinuation = home.inEventLoop
            let fromFuture = (try? await other.submit { 1 }.get()) == 1 && home.inEventLoop
            let child = await withTaskGroup(of: Bool.self) { children in
                children.addTask { home.inEventLoop }
                return await children.next() ?? false
            }
            return [before, afterContinuation, fromFuture, child]
        }
        #expect(seen == [true, true, true, true])
        #expect(!home.inEventLoop)
        try await group.shutdownGracefully()
    }
}
