import NIOCore
import SDLClient
import SDLProtocol
import Testing

@Suite("Requests: the pending request table")
struct RequestsPendingTests {
    let start = NIODeadline.uptimeNanoseconds(1_000_000_000)

    func response(_ functionID: UInt32, _ correlationID: UInt32, resultCode: String = "SUCCESS") -> SDLRPCMessage {
        SDLRPCMessage(
            rpcType: .response,
            functionID: functionID,
            correlationID: correlationID,
            parameters: ["success": .bool(resultCode == "SUCCESS"), "resultCode": .string(resultCode)]
        )
    }

    @Test("Correlation ids count up from 1 and are unique among pending requests")
    func countsUp() throws {
        var pending = SDLPendingRequests<Void>()
        let first = try pending.add(function: "Show", functionID: 13, deadline: start + .seconds(12))
        let second = try pending.add(function: "Show", functionID: 13, deadline: start + .seconds(12))
        let third = try pending.add(function: "Speak", functionID: 14, deadline: start + .seconds(12))
        #expect([first, second, third] == [1, 2, 3])
        #expect(pending.count == 3)
        #expect(pending.correlationIDs == [1, 2, 3])
        #expect(pending[2]?.function == "Show")
    }

    @Test("Allocation wraps past 0xFFFFFFFE to 1, never using 0 or the notifications' 0xFFFFFFFF")
    func wrapsAround() throws {
        var pending = SDLPendingRequests<Void>(firstCorrelationID: 1)
        let one = try pending.add(function: "Show", functionID: 13, deadline: start)
        #expect(one == 1)

        var nearEnd = SDLPendingRequests<Void>(firstCorrelationID: 0xFFFF_FFFD)
        let a = try nearEnd.add(function: "Show", functionID: 13, deadline: start)
        let b = try nearEnd.add(function: "Show", functionID: 13, deadline: start)
        let c = try nearEnd.add(function: "Show", functionID: 13, deadline: start)
        let d = try nearEnd.add(function: "Show", functionID: 13, deadline: start)
        #expect([a, b, c, d] == [0xFFFF_FFFD, 0xFFFF_FFFE, 1, 2])

        var zero = SDLPendingRequests<Void>(firstCorrelationID: 0)
        let z = try zero.add(function: "Show", functionID: 13, deadline: start)
        var fromNotification = SDLPendingRequests<Void>(firstCorrelationID: 0xFFFF_FFFF)
        let n = try fromNotification.add(function: "Show", functionID: 13, deadline: start)
        #expect(z == 1)
        #expect(n == 1)
    }

    @Test("After a wrap, ids still pending are skipped")
    func wrapSkipsPending() throws {
        var pending = SDLPendingRequests<Void>(maximumPending: 5, maximumCorrelationID: 6)
        var ids: [UInt32] = []
        for _ in 0..<5 { ids.append(try pending.add(function: "Show", functionID: 13, deadline: start)) }
        #expect(ids == [1, 2, 3, 4, 5])
        ids.removeAll()
        // 2 and 4 stay pending (e.g. a long Alert) while the counter comes round again.
        for id: UInt32 in [1, 3, 5] { _ = pending.remove(correlationID: id) }
        for _ in 0..<3 { ids.append(try pending.add(function: "Show", functionID: 13, deadline: start)) }
        #expect(ids == [6, 1, 3])
        #expect(pending.correlationIDs == [1, 2, 3, 4, 6])
    }

    @Test("More than maximumPending requests throws tooManyPendingRequests and adds nothing")
    func bounded() throws {
        var pending = SDLPendingRequests<Void>(maximumPending: 2)
        _ = try pending.add(function: "Show", functionID: 13, deadline: start)
        _ = try pending.add(function: "Show", functionID: 13, deadline: start)
        do {
            _ = try pending.add(function: "Speak", functionID: 14, deadline: start)
            Issue.record("expected tooManyPendingRequests")
        } catch {
            #expect(error.code == .tooManyPendingRequests)
        }
        #expect(pending.count == 2)
        let done = pending.complete(with: response(13, 1))
        #expect(done != nil)
        let third = try pending.add(function: "Speak", functionID: 14, deadline: start)
        #expect(third == 3)
    }

    @Test("A response completes the request with its correlation id and hands back the waiter")
    func completesExact() throws {
        var pending = SDLPendingRequests<String>()
        let id = try pending.add(function: "Show", functionID: 13, deadline: start, waiter: "caller A")
        let done = pending.complete(with: response(13, id))
        #expect(done?.match == .exact)
        #expect(done?.waiter == "caller A")
        #expect(done?.request.function == "Show")
        #expect(done?.response.parameters["resultCode"] == "SUCCESS")
        #expect(pending.isEmpty)
        let again = pending.complete(with: response(13, id))
        #expect(again == nil)
    }

    @Test("A GenericResponse with the correlation id completes the request")
    func genericResponse() throws {
        var pending = SDLPendingRequests<Void>()
        let id = try pending.add(function: "GetWayPoints", functionID: 45, deadline: start)
        let done = pending.complete(with: response(31, id, resultCode: "INVALID_DATA"))
        #expect(done?.match == .genericResponse)
        #expect(done?.request.functionID == 45)
        #expect(pending.isEmpty)
    }

    @Test("A response with another function id is still delivered, flagged as a mismatch")
    func functionMismatch() throws {
        var pending = SDLPendingRequests<Void>()
        let id = try pending.add(function: "Show", functionID: 13, deadline: start)
        let done = pending.complete(with: response(14, id))
        #expect(done?.match == .functionMismatch(received: 14))
        #expect(pending.isEmpty)
    }

    @Test("Unknown correlation ids, notifications and requests complete nothing")
    func unmatched() throws {
        var pending = SDLPendingRequests<Void>()
        let id = try pending.add(function: "Show", functionID: 13, deadline: start)
        let unknown = pending.complete(with: response(13, id + 1))
        let notification = pending.complete(
            with: SDLRPCMessage(rpcType: .notification, functionID: 32768, correlationID: SDLRPCMessage.notificationCorrelationID)
        )
        let request = pending.complete(with: SDLRPCMessage(rpcType: .request, functionID: 13, correlationID: id))
        #expect(unknown == nil)
        #expect(notification == nil)
        #expect(request == nil)
        #expect(pending.count == 1)
    }

    @Test("expire(now:) removes the requests whose deadline passed, earliest first, with timedOut")
    func expires() throws {
        var pending = SDLPendingRequests<Int>()
        let late = try pending.add(function: "Alert", functionID: 12, deadline: start + .seconds(17), waiter: 1)
        let early = try pending.add(function: "Show", functionID: 13, deadline: start + .seconds(12), waiter: 2)
        let middle = try pending.add(function: "Speak", functionID: 14, deadline: start + .seconds(14), waiter: 3)
        #expect(pending.nextDeadline == start + .seconds(12))

        let none = pending.expire(now: start + .seconds(11))
        #expect(none.isEmpty)

        let due = pending.expire(now: start + .seconds(14))
        #expect(due.map(\.correlationID) == [early, middle])
        #expect(due.map(\.waiter) == [2, 3])
        #expect(due.allSatisfy { $0.error.code == .timedOut })
        #expect(due.first?.error.detail.contains("Show") == true)
        #expect(pending.correlationIDs == [late])
        #expect(pending.nextDeadline == start + .seconds(17))

        // A response after the timeout matches nothing.
        let lateResponse = pending.complete(with: response(13, early))
        #expect(lateResponse == nil)

        let rest = pending.expire(now: start + .seconds(17))
        #expect(rest.map(\.correlationID) == [late])
        #expect(pending.nextDeadline == nil)
    }

    @Test("failAll fails every pending request with the error and empties the table")
    func failsAll() throws {
        var pending = SDLPendingRequests<String>()
        _ = try pending.add(function: "Show", functionID: 13, deadline: start, waiter: "a")
        _ = try pending.add(function: "Speak", functionID: 14, deadline: start, waiter: "b")
        let lost = SDLClientError(.linkLost, "connection closed")
        let failed = pending.failAll(lost)
        #expect(failed.map(\.correlationID) == [1, 2])
        #expect(failed.map(\.waiter) == ["a", "b"])
        #expect(failed.allSatisfy { $0.error == lost })
        #expect(pending.isEmpty)
        #expect(pending.nextDeadline == nil)
        // Allocation continues after the failed ids.
        let next = try pending.add(function: "Show", functionID: 13, deadline: start, waiter: "c")
        #expect(next == 3)
    }
}
