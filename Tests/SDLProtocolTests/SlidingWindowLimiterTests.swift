import NIOCore
import SDLProtocol
import Testing

@Suite("Sliding-window request limiter")
struct SlidingWindowLimiterTests {
    let start = NIODeadline.uptimeNanoseconds(1_000_000_000)

    func at(_ milliseconds: Int64) -> NIODeadline { start + .milliseconds(milliseconds) }

    @Test("Core's 100 per 10 s: the 101st within the window waits for the first to leave it")
    func fullWindow() {
        var limiter = SDLSlidingWindowLimiter(.init(maximumRequests: 100, window: .seconds(10)))
        for index in 0..<100 { #expect(limiter.acquire(at: at(Int64(index))) == nil) }
        #expect(limiter.acquire(at: at(500)) == .milliseconds(9_500))
        #expect(limiter.isFull(at: at(9_999)))
        #expect(limiter.wait(at: at(10_000)) == nil)
        #expect(limiter.acquire(at: at(10_000)) == nil)
        // Only the first left: the second (at 1 ms) leaves 1 ms later.
        #expect(limiter.wait(at: at(10_000)) == .milliseconds(1))
    }

    @Test("A refused request is not counted; a released one gives its place back")
    func refusedAndReleased() {
        var limiter = SDLSlidingWindowLimiter(.init(maximumRequests: 2, window: .seconds(1)))
        #expect(limiter.acquire(at: at(0)) == nil)
        #expect(limiter.acquire(at: at(1)) == nil)
        #expect(limiter.acquire(at: at(2)) != nil)
        #expect(limiter.count == 2)
        limiter.release(recordedAt: at(1))
        #expect(limiter.count == 1)
        #expect(limiter.acquire(at: at(3)) == nil)
        // Releasing a time never counted changes nothing.
        limiter.release(recordedAt: at(999))
        #expect(limiter.count == 2)
    }

    @Test("Memory stays bounded under a flood of unconditional records, and 0 turns the limit off")
    func bounded() {
        var limiter = SDLSlidingWindowLimiter(.init(maximumRequests: 10, window: .seconds(10)))
        for index in 0..<10_000 { limiter.record(at(Int64(index))) }
        #expect(limiter.count == 10)
        var off = SDLSlidingWindowLimiter(.init(maximumRequests: 0, window: .seconds(1)))
        for index in 0..<1_000 { #expect(off.acquire(at: at(Int64(index))) == nil) }
        #expect(off.count == 0)
        limiter.reset()
        #expect(limiter.count == 0)
    }

    @Test("Times that left the window are dropped as new ones are counted")
    func prunes() {
        var limiter = SDLSlidingWindowLimiter(.init(maximumRequests: 100, window: .seconds(1)))
        for index in 0..<50 { limiter.record(at(Int64(index))) }
        limiter.record(at(5_000))
        #expect(limiter.count == 1)
        #expect(limiter.limit.description == "100 requests per 1000 ms")
    }
}
