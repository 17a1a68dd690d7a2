import Foundation
import Hummingbird

extension Parameters {
    /// The path parameter `name`, percent-decoded once: the router matches raw path segments, so
    /// `files/my%20icon.png` names the file `my icon.png` (and `a%2Fb.png` the name `a/b.png`,
    /// which the route then judges). A malformed escape is a 400 `invalid-path`. A segment without
    /// `%` is returned as it is: Foundation's decoding was 2% of a REST request's CPU time in a
    /// profile (BENCHMARKS.md, issue "Performance").
    public func decoded(_ name: String) throws -> String {
        let raw = try require(name)
        guard raw.utf8.contains(UInt8(ascii: "%")) else { return raw }
        guard let decoded = raw.removingPercentEncoding else {
            throw HTTPProblem(
                status: .badRequest, code: "invalid-path", title: "The path is not valid",
                detail: "the path parameter \(name) (\(raw)) is not valid percent-encoding"
            )
        }
        return decoded
    }
}
