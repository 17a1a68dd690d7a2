import NIOCore
import SDLClient
import SDLProtocol
import Testing

@Suite("Session supervisor: reconnection decisions")
struct SessionSupervisorTests {
    let app = SDLAppConfiguration(appName: "Supervised", appID: "supervised")

    func response(_ code: String, iconResumed: Bool? = nil) -> SDLRPCMessage {
        var parameters: [String: SDLJSON] = ["success": true, "resultCode": .string(code)]
        if let iconResumed { parameters["iconResumed"] = .bool(iconResumed) }
        return SDLRPCMessage(rpcType: .response, functionID: 1, correlationID: 1, parameters: .object(parameters))
    }

    @Test("Each attempt asks to resume the latest hashID any connection saw; close stops the attempts")
    func attempts() {
        var supervisor = SDLSessionSupervisor(backoff: SDLBackoff(jitter: 0))
        let first = supervisor.nextAttempt(for: app)
        #expect(first?.hashID == nil)
        _ = supervisor.connectionEnded(SDLClientError(.linkLost, "gone"), latestHashID: "h1")
        let second = supervisor.nextAttempt(for: app)
        #expect(second?.hashID == "h1")
        _ = supervisor.connectionEnded(SDLClientError(.linkLost, "gone"), latestHashID: nil)
        let third = supervisor.nextAttempt(for: app)
        #expect(third?.hashID == "h1")
        #expect(supervisor.attempts == 3)
        supervisor.close()
        let none = supervisor.nextAttempt(for: app)
        #expect(none == nil)
        let ended = supervisor.connectionEnded(nil, latestHashID: nil)
        #expect(ended == .close(detail: nil))
    }

    @Test("Backoff grows per failure and starts again after a registration; a refused registration closes")
    func decisions() {
        var supervisor = SDLSessionSupervisor(backoff: SDLBackoff(jitter: 0))
        guard case .retry(let first, let detail) = supervisor.connectionEnded(SDLClientError(.connectFailed, "refused"), latestHashID: nil)
        else {
            Issue.record("a failed connect is retried")
            return
        }
        #expect(first == .milliseconds(100))
        #expect(detail.contains("connectFailed") && detail.contains("retrying in 100 ms"))
        let second = supervisor.connectionEnded(nil, latestHashID: nil)
        #expect(second == .retry(after: .milliseconds(125), detail: "the link closed; retrying in 125 ms"))
        _ = supervisor.registered(response: response("SUCCESS"), requestedHashID: nil)
        let afterRegistration = supervisor.connectionEnded(nil, latestHashID: nil)
        #expect(afterRegistration == .retry(after: .milliseconds(100), detail: "the link closed; retrying in 100 ms"))
        let refused = SDLClientError(.registrationFailed, "RegisterAppInterface answered DISALLOWED")
        let closed = supervisor.connectionEnded(refused, latestHashID: nil)
        #expect(closed == .close(detail: refused.detail))
        #expect(supervisor.isClosing)
    }

    @Test("SUCCESS to a registration with a hashID is a resumption; RESUME_FAILED or nothing to resume re-subscribes")
    func registrations() {
        var supervisor = SDLSessionSupervisor()
        let resumed = supervisor.registered(response: response("SUCCESS", iconResumed: true), requestedHashID: "h")
        #expect(resumed.resumed && !resumed.resubscribes && !resumed.restoresIcon)
        #expect(resumed.detail == "resumed (SUCCESS)")
        let failed = supervisor.registered(response: response("RESUME_FAILED"), requestedHashID: "h")
        #expect(!failed.resumed && failed.resubscribes && failed.restoresIcon)
        #expect(failed.detail == "RESUME_FAILED")
        let fresh = supervisor.registered(response: response("SUCCESS"), requestedHashID: nil)
        #expect(!fresh.resumed && fresh.resubscribes)
        #expect(fresh.detail == "SUCCESS")
    }
}
