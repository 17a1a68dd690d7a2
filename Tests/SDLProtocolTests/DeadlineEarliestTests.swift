import NIOCore
import SDLProtocol
import Testing

@Suite("Combining optional deadlines")
struct DeadlineEarliestTests {
    @Test("The earlier of two, either one alone, nil only when both are")
    func earliest() {
        let early = NIODeadline.uptimeNanoseconds(1_000)
        let late = NIODeadline.uptimeNanoseconds(2_000)
        #expect(Optional(early).earliest(late) == early)
        #expect(Optional(late).earliest(early) == early)
        #expect(Optional(late).earliest(nil) == late)
        #expect(NIODeadline?.none.earliest(early) == early)
        #expect(NIODeadline?.none.earliest(nil) == nil)
    }
}
