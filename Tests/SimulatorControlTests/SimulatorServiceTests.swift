@testable import HeadUnitSimulator
import Logging
import NIOCore
import SimulatorControl
import TestSupport
import Testing

/// ``SimulatorService`` serving listeners the caller bound first.
@Suite("Simulator service", .timeLimit(.minutes(1)))
struct SimulatorServiceTests {
    @Test("A service over bound listeners reports them, serves them until cancelled, then frees the port")
    func boundListeners() async throws {
        let simulator = SimulatedHeadUnit(logger: Logger.test("test"))
        let bound = try await simulator.bind([.tcp()])
        let port = bound.ports[0]
        #expect(port > 0)
        let service = SimulatorService(simulator: simulator, bound: bound)
        #expect(service.listeners == [.tcp()])

        // Cancellation is how the service stops outside a service group: it returns without error.
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await service.run() }
            group.cancelAll()
            try await group.waitForAll()
        }
        // The service closed the socket it served. Binding the port again would prove it too, but
        // tests run in parallel and another one's port 0 may be given this freed port first.
        for closed in bound.closeFutures { try await closed.get() }
    }
}
