import Testing

@testable import Gateway

/// ``ManagerRestorer/Requests``: the first registration starts a restore, those during it are
/// taken in one more pass (whole when one of them did not resume), and none starts after the app ended.
@Suite("Manager restore requests")
struct ManagerRestorerRequestsTests {
    @Test("One restore at a time; registrations meanwhile are one more pass; a pass is whole when any did not resume")
    func coalesces() {
        let requests = ManagerRestorer.Requests()
        #expect(requests.registered(resumed: true), "none runs: the caller starts one")
        #expect(requests.next() == true)
        #expect(!requests.registered(resumed: true), "one runs: it takes this one")
        #expect(!requests.registered(resumed: false))
        #expect(requests.next() == false, "one of the two did not resume: the pass is whole")
        #expect(requests.next() == nil, "nothing left: the restore ends")
        #expect(requests.registered(resumed: true), "none runs any more: the caller starts one again")
        #expect(requests.next() == true)
        #expect(requests.next() == nil)
    }

    @Test("After the app ended no restore starts, and one under way takes nothing more")
    func finish() {
        let requests = ManagerRestorer.Requests()
        #expect(requests.registered(resumed: true))
        #expect(!requests.registered(resumed: true))
        requests.finish()
        #expect(requests.next() == nil)
        #expect(!requests.registered(resumed: true))
        #expect(requests.next() == nil)
    }
}
