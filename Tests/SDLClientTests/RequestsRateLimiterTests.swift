import NIOCore
import SDLClient
import SDLProtocol
import Testing

@Suite("Requests: client-side rate limiter")
struct RequestsRateLimiterTests {
    let start = NIODeadline.uptimeNanoseconds(1_000_000_000)

    /// Acquires `count` slots at `now`, each 1 ms apart; returns how many succeeded.
    func acquire(_ limiter: inout SDLRequestRateLimiter, _ count: Int, hmiLevel: String, from now: NIODeadline) -> Int {
        var granted = 0
        for index in 0..<count {
            do {
                try limiter.acquire(hmiLevel: hmiLevel, now: now + .milliseconds(Int64(index)))
                granted += 1
            } catch {
                break
            }
        }
        return granted
    }

    @Test("With Core's exact limits, the 100th request in NONE within 10 s passes and the 101st is refused")
    func noneExact() throws {
        var limiter = SDLRequestRateLimiter(configuration: .sdlCore)
        let granted = acquire(&limiter, 100, hmiLevel: "NONE", from: start)
        #expect(granted == 100)
        do {
            try limiter.acquire(hmiLevel: "NONE", now: start + .milliseconds(500))
            Issue.record("the 101st request in NONE must be refused")
        } catch {
            #expect(error.code == .rateLimited)
            // The first request was at `start`; its slot frees at start + 10 s, 9500 ms later.
            #expect(error.detail.contains("9500 ms"))
        }
        let wait = limiter.retryAfter(hmiLevel: "NONE", now: start + .milliseconds(500))
        #expect(wait == .milliseconds(9_500))
    }

    @Test("The default keeps a 10 % margin: 90 in NONE, 900 overall per 10 s")
    func defaultMargin() {
        var none = SDLRequestRateLimiter()
        let grantedNone = acquire(&none, 200, hmiLevel: "NONE", from: start)
        #expect(grantedNone == 90)
        var full = SDLRequestRateLimiter()
        let grantedFull = acquire(&full, 2_000, hmiLevel: "FULL", from: start)
        #expect(grantedFull == 900)
    }

    @Test("The window slides: a slot frees when the oldest request is 10 s old")
    func slides() throws {
        var limiter = SDLRequestRateLimiter(configuration: .sdlCore)
        let granted = acquire(&limiter, 100, hmiLevel: "NONE", from: start)
        #expect(granted == 100)
        let almost = limiter.retryAfter(hmiLevel: "NONE", now: start + .milliseconds(9_999))
        #expect(almost == .milliseconds(1))
        #expect(limiter.retryAfter(hmiLevel: "NONE", now: start + .seconds(10)) == nil)
        try limiter.acquire(hmiLevel: "NONE", now: start + .seconds(10))
        // Only one slot freed (the second request was 1 ms later).
        let blocked = limiter.retryAfter(hmiLevel: "NONE", now: start + .seconds(10))
        #expect(blocked == .milliseconds(1))
    }

    @Test("Leaving NONE lifts the NONE limit; the overall limit still applies")
    func leavingNone() throws {
        var limiter = SDLRequestRateLimiter(configuration: .sdlCore)
        let granted = acquire(&limiter, 100, hmiLevel: "NONE", from: start)
        #expect(granted == 100)
        #expect(limiter.retryAfter(hmiLevel: "NONE", now: start + .seconds(1)) != nil)
        #expect(limiter.retryAfter(hmiLevel: "FULL", now: start + .seconds(1)) == nil)
        let more = acquire(&limiter, 1_000, hmiLevel: "FULL", from: start + .seconds(1))
        #expect(more == 900)  // 100 from NONE count towards the 1000 overall
        do {
            try limiter.acquire(hmiLevel: "BACKGROUND", now: start + .seconds(2))
            Issue.record("the overall limit must refuse")
        } catch {
            #expect(error.code == .rateLimited)
            #expect(error.detail.contains("1000 requests per 10000 ms"))
        }
    }

    @Test("Requests made outside NONE do not count against NONE after going back to NONE")
    func backToNone() throws {
        var limiter = SDLRequestRateLimiter(configuration: .sdlCore)
        let full = acquire(&limiter, 500, hmiLevel: "FULL", from: start)
        #expect(full == 500)
        let none = acquire(&limiter, 200, hmiLevel: "NONE", from: start + .seconds(1))
        #expect(none == 100)
    }

    @Test("A refused request is not counted, and reset forgets everything")
    func refusedNotCounted() throws {
        var limiter = SDLRequestRateLimiter(
            configuration: .init(
                hmiLevelNone: .init(maximumRequests: 2, window: .seconds(1)),
                anyLevel: .init(maximumRequests: 3, window: .seconds(1))
            )
        )
        let granted = acquire(&limiter, 10, hmiLevel: "NONE", from: start)
        #expect(granted == 2)
        // The refused attempts did not extend the window: at start + 1 s one slot is free again.
        try limiter.acquire(hmiLevel: "NONE", now: start + .seconds(1))
        limiter.reset()
        let afterReset = acquire(&limiter, 10, hmiLevel: "NONE", from: start + .seconds(1))
        #expect(afterReset == 2)
    }

    @Test("A limit of 0 turns it off")
    func off() {
        var limiter = SDLRequestRateLimiter(
            configuration: .init(
                hmiLevelNone: .init(maximumRequests: 0, window: .seconds(10)),
                anyLevel: .init(maximumRequests: 0, window: .seconds(10))
            )
        )
        let granted = acquire(&limiter, 5_000, hmiLevel: "NONE", from: start)
        #expect(granted == 5_000)
    }

    @Test("A request that never went out is given back, in NONE to both windows")
    func release() throws {
        var limiter = SDLRequestRateLimiter(
            configuration: .init(
                hmiLevelNone: .init(maximumRequests: 1, window: .seconds(10)),
                anyLevel: .init(maximumRequests: 2, window: .seconds(10))
            )
        )
        try limiter.acquire(hmiLevel: "NONE", now: start)
        #expect(limiter.retryAfter(hmiLevel: "NONE", now: start) != nil)
        limiter.release(hmiLevel: "NONE", acquiredAt: start)
        #expect(limiter.counted == 0)
        try limiter.acquire(hmiLevel: "NONE", now: start + .milliseconds(1))
        try limiter.acquire(hmiLevel: "FULL", now: start + .milliseconds(2))
        #expect(limiter.retryAfter(hmiLevel: "FULL", now: start + .milliseconds(3)) != nil)
        limiter.release(hmiLevel: "FULL", acquiredAt: start + .milliseconds(2))
        #expect(limiter.retryAfter(hmiLevel: "FULL", now: start + .milliseconds(3)) == nil)
        #expect(limiter.retryAfter(hmiLevel: "NONE", now: start + .milliseconds(3)) != nil)
    }
}
