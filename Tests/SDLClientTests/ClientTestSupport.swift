import SDLClient

/// A harness's registration never came: its body (and every assertion in it) did not run.
struct NotRegistered: Error, CustomStringConvertible {
    /// How the connection ended instead.
    var ended: (any Error)?
    var description: String { "the app never registered; the connection ended with \(ended.map { "\($0)" } ?? "no error")" }
}

/// An event stream ended before the event a test waited for.
struct EventsEnded: Error {}
