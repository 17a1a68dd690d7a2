import Gateway
import HTTPTypes
import Logging
import SDLClient
import SDLProtocol
import Testing

@Suite("Errors: result codes and client errors to HTTP statuses")
struct GatewayErrorTests {
    @Test(
        "A failed head-unit answer maps its result code as docs/architecture.md says",
        arguments: [
            ("DISALLOWED", 403), ("USER_DISALLOWED", 403), ("INVALID_DATA", 422), ("INVALID_ID", 422), ("REJECTED", 409), ("IN_USE", 409),
            ("UNSUPPORTED_REQUEST", 501), ("TOO_MANY_PENDING_REQUESTS", 429), ("TIMED_OUT", 504), ("GENERIC_ERROR", 502),
            ("FILE_NOT_FOUND", 404), ("OUT_OF_MEMORY", 507), ("something new", 502),
        ])
    func resultCodes(resultCode: String, status: Int) {
        #expect(GatewayError.status(ofResultCode: resultCode).code == status)
        let error = GatewayError.headUnit("Show", response: ["success": false, "resultCode": .string(resultCode)])
        #expect(error.status.code == status)
        #expect(error.problem["resultCode"] == .string(resultCode))
        #expect(error.problem["sdlResponse"]?["success"] == false)
        #expect(error.problem["type"] == "urn:sdl-gateway:problem:head-unit-error")
    }

    @Test(
        "Client errors become stable problem codes and statuses",
        arguments: [
            (SDLClientError.Code.notConnected, "not-connected", 503), (.timedOut, "timed-out", 504), (.rateLimited, "rate-limited", 429),
            (.notPermitted, "not-permitted", 403), (.invalidParameters, "invalid-parameters", 422),
            (.unknownFunction, "unknown-function", 404),
            (.linkLost, "link-lost", 503), (.registrationFailed, "registration-failed", 502), (.duplicateApp, "app-exists", 409),
        ])
    func clientErrors(code: SDLClientError.Code, problem: String, status: Int) {
        let error = GatewayError(SDLClientError(code, "detail"))
        #expect(error.code.rawValue == problem)
        #expect(error.status.code == status)
        #expect(error.problem["status"] == .int(Int64(status)))
    }
}
